-- expect: 'rounds' must be a whole number (got 'ten')
-- line: 9
local cb = require "cryptobench"
cb.scenario {
  name       = "rounds as a word",
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { 64 },
  rounds     = "ten",
}
