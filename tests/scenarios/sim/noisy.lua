-- A sim engine with jitter, spikes and a contaminated stretch of rounds.
local cb = require "cryptobench"

cb.scenario {
  name       = "sim-noisy",
  engines    = {
    { "sim", overhead_ns = 100, ns_per_byte = 1.0, jitter = 0.01, spike_rate = 0.05,
      spike_factor = 4, seed = cb.param("seed", 11), label = "sim-noisy" },
  },
  algorithms = { "sha256" },
  ops        = { "hash" },
  sizes      = { "16KiB" },
  rounds     = 40,
  trial_time = "1ms",
  order      = cb.param("order", "round-robin"),
}
