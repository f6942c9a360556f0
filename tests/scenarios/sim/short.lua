-- A sim engine without noise whose work halves in rounds 5 to 9: calibration
-- (in the warm-up round) aimed past the trial time, and those trials fall
-- short of it (tests/cli_short_trials.sh).
local cb = require "cryptobench"

cb.scenario {
  name       = "sim-short",
  engines    = {
    { "sim", overhead_ns = 100, ns_per_byte = 1.0, contaminate_from = 5, contaminate_to = 9,
      contaminate_factor = 0.5, label = "sim-short" },
  },
  algorithms = { "sha256" },
  ops        = { "hash" },
  sizes      = { "1KiB", "16KiB" },
  rounds     = 20,
  warmup     = 1,
  trial_time = "1ms",
}
