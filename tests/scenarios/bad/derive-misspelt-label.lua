-- expect: its numerator selects label 'fsat', which is not in the scenario (did you mean 'fast'?)
-- line: 15
local cb = require "cryptobench"
cb.scenario {
  name       = "a misspelt label",
  engines    = {
    { "sim", label = "fast", overhead_ns = 10 },
    { "sim", label = "slow", overhead_ns = 500 },
  },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
cb.derive {
  name  = "fast/slow",
  ratio = { { label = "fsat" }, { label = "slow" } },
}
