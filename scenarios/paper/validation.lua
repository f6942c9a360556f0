-- paper/validation: the verdicts measured against known truth. Pairs of sim
-- engines on a virtual clock (no real time is spent) on a machine that
-- behaves like a shared VM: a load shared by each round, a clock that differs
-- between runs and drifts within one, autocorrelated noise and preemption
-- bursts, all on time and none on cycles (core/engines/sim.c). `shift` plants
-- a real change: each numerator's work grows by shift x the run's index.
--
--   cryptobench run scenarios/paper/validation.lua --runs 5 -o aa
--   cryptobench run scenarios/paper/validation.lua --runs 5 --set shift=0.05 -o shifted
local cb = require "cryptobench"
local seed = cb.param("seed", 1)
local metrics = cb.param("metrics", 16)

local function sim(label, ns_per_byte, own_seed, shift)
  return { "sim", label = label, overhead_ns = 0, ns_per_byte = ns_per_byte,
    jitter = 0.01, spike_rate = 0.02, spike_factor = 1.5,
    run_shift = shift, seed = own_seed, shared_seed = seed,
    round_load = 0.03, run_load = 0.03, freq_drift = 0.03, freq_period = 60,
    ar1 = 0.8, ar1_sigma = 0.01, burst_rate = 0.05, burst_factor = 0.5 }
end

local engines = {}
for i = 1, metrics do
  engines[#engines + 1] = sim("num-" .. i, 1 / 0.932, seed * 64 + 2 * i, cb.param("shift", 0))
  engines[#engines + 1] = sim("den-" .. i, 1.0, seed * 64 + 2 * i + 1, 0)
end

cb.scenario {
  name        = "paper-validation",
  description = "Sim engine pairs on a simulated shared VM, with or without a planted shift",
  engines     = engines,
  algorithms  = { "sha256" },
  ops         = { "hash" },
  sizes       = { "16KiB" },
  rounds      = cb.param("rounds", 40),
  warmup      = 1,
  trial_time  = "1ms",
}

for i = 1, metrics do
  cb.derive {
    name  = "num/den-" .. i,
    ratio = { { label = "num-" .. i }, { label = "den-" .. i } },
    by    = { "size" },
  }
end
