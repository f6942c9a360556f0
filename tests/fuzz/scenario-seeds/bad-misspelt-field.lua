-- expect: unknown field 'threds' (did you mean 'threads'?)
-- line: 9
local cb = require "cryptobench"
cb.scenario {
  name       = "misspelt",
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { 64 },
  threds     = { 1, 2 },
}
