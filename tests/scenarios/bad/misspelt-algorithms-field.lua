-- expect: unknown field 'algoritms' (did you mean 'algorithms'?)
-- line: 7
local cb = require "cryptobench"
cb.scenario {
  name       = "a field misspelt",
  engines    = { "sim" },
  algoritms  = { "sha256" },
  sizes      = { 64 },
}
