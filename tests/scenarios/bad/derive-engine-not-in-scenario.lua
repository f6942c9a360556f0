-- expect: selects engine 'memcpy', which is not in the scenario (one of: sim)
-- line: 14
local cb = require "cryptobench"
-- memcpy is an engine, but not one this scenario runs
cb.scenario {
  name       = "an engine of the registry, not of the scenario",
  engines    = { { "sim", label = "a" }, { "sim", label = "b", overhead_ns = 10 } },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
cb.derive {
  name  = "r",
  ratio = { { label = "a" },
            { engine = "memcpy" } },
}
