-- Eight independent sim engines (each its own noise seed), optionally with a
-- drift across rounds or a contaminated stretch of rounds: are they flagged,
-- and is a clean run left alone? (tests/test_validation.c) `machine = 1` adds
-- what a quiet VM does to time but not to cycles: a slowly drifting clock,
-- autocorrelated noise, a load shared by each round.
local cb = require "cryptobench"
local seed = cb.param("seed", 1)
local machine = cb.param("machine", 0)

local engines = {}
for i = 1, 8 do
  engines[i] = { "sim", overhead_ns = 100, ns_per_byte = 1.0, jitter = 0.02, spike_rate = 0.02,
    spike_factor = 3, drift_per_round = cb.param("drift", 0),
    contaminate_from = cb.param("from", -1), contaminate_to = cb.param("to", -1),
    contaminate_factor = cb.param("factor", 1.5), seed = seed * 8 + i, label = "sim-" .. i,
    shared_seed = seed, freq_drift = 0.03 * machine, freq_period = 60, ar1 = 0.8,
    ar1_sigma = 0.01 * machine, round_load = 0.01 * machine }
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
