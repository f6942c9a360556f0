-- expect: its denominator selects engine 'nul', which is not in the scenario (did you mean 'null'?)
-- line: 11
local cb = require "cryptobench"
cb.scenario {
  name       = "a misspelt engine in a ratio",
  engines    = { "sim", "null" },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
cb.derive { name = "sim/null",
  ratio = { { engine = "sim" }, { engine = "nul" } },
}
