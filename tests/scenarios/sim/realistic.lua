-- Pairs of sim engines (numerator/denominator throughput `ratio`) on a
-- machine that behaves like a shared VM: a load shared by each round, a clock
-- that differs between runs and drifts slowly within one, autocorrelated
-- noise and bursts of preemption. All of these move time, not cycles, and all
-- are shared by the engines of a run (shared_seed), as on a real machine.
-- The engines' own noise (jitter, spikes) moves both. `shift` plants a real
-- change: each numerator's work is multiplied by (1 + shift x run index).
-- (tests/test_validation.c; the noise is described in core/engines/sim.c.)
local cb = require "cryptobench"
local ratio = cb.param("ratio", 0.932)
local seed = cb.param("seed", 1)
local metrics = cb.param("metrics", 4)

local function sim(label, ns_per_byte, own_seed, shift)
  return { "sim", label = label, overhead_ns = 0, ns_per_byte = ns_per_byte,
    jitter = cb.param("jitter", 0.01), spike_rate = 0.02, spike_factor = 1.5,
    run_shift = shift, seed = own_seed, shared_seed = seed,
    round_load = cb.param("round_load", 0.03), run_load = cb.param("run_load", 0.03),
    freq_drift = cb.param("freq_drift", 0.03), freq_period = 60,
    ar1 = cb.param("ar1", 0.8), ar1_sigma = cb.param("ar1_sigma", 0.01),
    burst_rate = cb.param("burst_rate", 0.05), burst_factor = 0.5 }
end

local engines = {}
for i = 1, metrics do
  engines[#engines + 1] = sim("num-" .. i, 1 / ratio, seed * 16 + 2 * i, cb.param("shift", 0))
  engines[#engines + 1] = sim("den-" .. i, 1.0, seed * 16 + 2 * i + 1, 0)
end

cb.scenario {
  name       = "sim-realistic",
  engines    = engines,
  algorithms = { "sha256" },
  ops        = { "hash" },
  sizes      = { "16KiB" },
  rounds     = cb.param("rounds", 40),
  warmup     = 1,
  trial_time = "1ms",
}

for i = 1, metrics do
  cb.derive {
    name   = "num/den-" .. i,
    ratio  = { { label = "num-" .. i }, { label = "den-" .. i } },
    by     = { "size" },
  }
end
