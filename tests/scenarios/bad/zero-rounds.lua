-- expect: 'rounds' must be between 1 and 1000000 (got 0)
-- line: 9
local cb = require "cryptobench"
cb.scenario {
  name       = "zero rounds",
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { 64 },
  rounds     = 0,
}
