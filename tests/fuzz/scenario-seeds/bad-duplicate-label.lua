-- expect: duplicate label 'sim-a'
-- line: 8
local cb = require "cryptobench"
cb.scenario {
  name       = "duplicate label",
  engines    = {
    { "sim", overhead_ns = 100, label = "sim-a" },
    { "sim", overhead_ns = 200, label = "sim-a" },
  },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
