-- Two sim engines on the virtual clock, eight cells, for the hard-kill and
-- disk-full tests (tests/cli_kill_resume.sh, tests/cli_disk_full.sh): fast,
-- and every trial line is the same whenever it is measured. `b_per_byte`
-- is a --set number recorded in the file, which --resume gives back.
local cb = require "cryptobench"

cb.scenario {
  name       = "kill",
  engines    = {
    { "sim", label = "sim-a", overhead_ns = 200, ns_per_byte = 1, jitter = 0.02 },
    { "sim", label = "sim-b", overhead_ns = 100, ns_per_byte = cb.param("b_per_byte", 2),
      jitter = 0.02, seed = 2 },
  },
  algorithms = { "sha256", "sha512" },
  ops        = { "hash" },
  sizes      = { "64B", "1KiB" },
  rounds     = cb.param("rounds", 4),
  warmup     = 1,
  trial_time = "1ms",
}
