-- expect: derived metric 'r': its numerator selects engine 'nope', which is not in the scenario (one of: sim, null)
-- line: 12
local cb = require "cryptobench"
cb.scenario {
  name       = "a ratio of an engine not in the scenario",
  engines    = { "sim", "null" },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
cb.derive {
  name  = "r",
  ratio = { { engine = "nope" },
            { engine = "null" } },
}
