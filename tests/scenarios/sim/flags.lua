-- Eight independent sim engines (each its own noise seed), optionally with a
-- drift across rounds or a contaminated stretch of rounds: are they flagged,
-- and is a clean run left alone? (tests/test_validation.c)
local cb = require "cryptobench"
local seed = cb.param("seed", 1)

local engines = {}
for i = 1, 8 do
  engines[i] = { "sim", overhead_ns = 100, ns_per_byte = 1.0, jitter = 0.02, spike_rate = 0.02,
    spike_factor = 3, drift_per_round = cb.param("drift", 0),
    contaminate_from = cb.param("from", -1), contaminate_to = cb.param("to", -1),
    contaminate_factor = cb.param("factor", 1.5), seed = seed * 8 + i, label = "sim-" .. i }
end

cb.scenario {
  name       = "sim-flags",
  engines    = engines,
  algorithms = { "sha256" },
  ops        = { "hash" },
  sizes      = { "16KiB" },
  rounds     = 40,
  warmup     = 1,
  trial_time = "1ms",
}
