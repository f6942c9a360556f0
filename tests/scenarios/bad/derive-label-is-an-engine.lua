-- expect: derived metric 'r': its denominator selects label 'sim', which is not in the scenario: 'sim' is an engine: write engine = 'sim'
-- line: 15
local cb = require "cryptobench"
cb.scenario {
  name       = "label = an engine",
  engines    = {
    { "sim", label = "fast", overhead_ns = 10 },
    { "sim", label = "slow", overhead_ns = 500 },
  },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
cb.derive {
  name  = "r",
  ratio = { { label = "fast" }, { label = "sim" } },
}
