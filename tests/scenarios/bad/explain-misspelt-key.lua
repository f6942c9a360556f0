-- expect: unknown field 'sample' in 'explain' (did you mean 'samples'?)
-- line: 9
local cb = require "cryptobench"
cb.scenario {
  name       = "a misspelt explain key",
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { 64 },
  explain    = { sample = 500 },
}
