-- Long enough to interrupt: the null engine in 20 ms trials.
local cb = require "cryptobench"

cb.scenario {
  name       = "slow",
  engines    = { "null", "memcpy" },
  algorithms = { "sha256" },
  ops        = { "hash" },
  sizes      = { "64B", "4KiB" },
  rounds     = 60,
  warmup     = 1,
  trial_time = "20ms",
}
