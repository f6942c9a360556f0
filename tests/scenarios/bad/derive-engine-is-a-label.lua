-- expect: derived metric 'r': its numerator selects engine 'sim-256', which is not in the scenario: 'sim-256' is a label: write label = 'sim-256'
-- line: 15
local cb = require "cryptobench"
cb.scenario {
  name       = "engine = a label",
  engines    = {
    { "sim", label = "sim-256", overhead_ns = 10 },
    { "null" },
  },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
cb.derive {
  name  = "r",
  ratio = { { engine = "sim-256" }, { engine = "null" } },
}
