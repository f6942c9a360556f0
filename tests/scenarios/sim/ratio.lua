-- Pairs of sim engines whose throughput ratio is declared (numerator over
-- denominator): the ground truth for derived metrics and for reproducibility
-- across runs. Every engine draws its noise from its own seed, so the
-- `metrics` ratios of one run are independent of each other. `shift` plants a
-- change between runs: each numerator's time is multiplied by
-- (1 + shift x run index).
local cb = require "cryptobench"
local ratio = cb.param("ratio", 0.932)
local jitter = cb.param("jitter", 0.02)
local spikes = cb.param("spike_rate", 0.02)
local seed = cb.param("seed", 1)
local metrics = cb.param("metrics", 4)

local engines = {}
for i = 1, metrics do
  engines[#engines + 1] = { "sim", overhead_ns = 0, ns_per_byte = 1 / ratio, jitter = jitter,
    spike_rate = spikes, spike_factor = 3, run_shift = cb.param("shift", 0),
    seed = seed * 16 + 2 * i, label = "num-" .. i }
  engines[#engines + 1] = { "sim", overhead_ns = 0, ns_per_byte = 1.0, jitter = jitter,
    spike_rate = spikes, spike_factor = 3, seed = seed * 16 + 2 * i + 1, label = "den-" .. i }
end

cb.scenario {
  name       = "sim-ratio",
  engines    = engines,
  algorithms = { "sha256" },
  ops        = { "hash" },
  sizes      = { "16KiB" },
  rounds     = cb.param("rounds", 30),
  warmup     = 1,
  trial_time = "1ms",
}

for i = 1, metrics do
  cb.derive {
    name   = "num/den-" .. i,
    ratio  = { { label = "num-" .. i }, { label = "den-" .. i } },
    by     = { "size" },
    expect = { value = ratio, tolerance = 0.05 },
  }
end
