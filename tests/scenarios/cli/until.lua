-- Two sim engines on the virtual clock for the runs until resolved
-- (tests/cli_until.sh): at 64B and 1KiB one engine is clearly faster (a
-- winner known at the first look), at 96B they are 1.4% apart (the tie
-- takes more blocks to show), so cells leave the rotation at different looks.
local cb = require "cryptobench"

cb.scenario {
  name       = "until",
  engines    = {
    { "sim", label = "sim-a", overhead_ns = 200, ns_per_byte = 1, jitter = cb.param("jitter", 0.05) },
    { "sim", label = "sim-b", overhead_ns = 100, ns_per_byte = 2, jitter = cb.param("jitter", 0.05), seed = 2 },
  },
  algorithms = { "sha256" },
  ops        = { "hash" },
  sizes      = { "64B", "96B", "1KiB" },
  rounds     = 8,
  warmup     = 1,
  trial_time = "1ms",
  stop       = { max_rounds = 64 },
}
