-- A sim engine with a declared cost and no noise: every median must equal it.
local cb = require "cryptobench"

cb.scenario {
  name       = "sim-cost",
  engines    = {
    { "sim", overhead_ns = 200, ns_per_byte = 0.5, label = "sim-a" },
    { "sim", overhead_ns = 50, ns_per_byte = 2.0, label = "sim-b" },
  },
  algorithms = { "sha256", "aes-128-gcm" },
  ops        = { "hash", "encrypt", "decrypt-forged" },
  sizes      = { "64B", "4KiB", "1MiB" },
  rounds     = 7,
  warmup     = 1,
  trial_time = "2ms",
}
