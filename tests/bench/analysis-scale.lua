-- The files tests/bench/analysis-scale.sh reads: 100 cells of two sim engines
-- (a virtual clock, so trials cost no real time), one warm-up round, and as
-- many rounds as `--set rounds=N` asks: 100 x (N + 1) trials.
local cb = require "cryptobench"
local seed = cb.param("seed", 1)
cb.scenario {
  name       = "scale",
  engines    = {
    { "sim", overhead_ns = 100, ns_per_byte = 1.0, jitter = 0.02, seed = seed * 4 + 1, label = "sim-a" },
    { "sim", overhead_ns = 100, ns_per_byte = 0.8, jitter = 0.02, seed = seed * 4 + 2, label = "sim-b" },
  },
  algorithms = { "sha256", "sha512" },
  ops        = { "hash" },
  sizes      = { "16B", "32B", "48B", "64B", "96B", "128B", "192B", "256B", "384B", "512B",
                 "768B", "1KiB", "1536B", "2KiB", "3KiB", "4KiB", "6KiB", "8KiB", "12KiB",
                 "16KiB", "24KiB", "32KiB", "48KiB", "64KiB", "96KiB" },
  rounds     = cb.param("rounds", 100),
  warmup     = 1,
  trial_time = "10us",
}
