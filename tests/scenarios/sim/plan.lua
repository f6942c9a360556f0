-- Two cells of a sim whose runs differ by their own work (run_noise): a
-- between-run spread the rounds do not average away (tests/cli_plan_runs.sh);
-- slow_runs_from and slow_factor make the runs from one on take longer.
local cb = require "cryptobench"
cb.scenario {
  name       = "sim-plan",
  engines    = {
    { "sim", overhead_ns = 100, ns_per_byte = 1.0, jitter = 0.03, run_noise = cb.param("run_noise", 0.002),
      seed = cb.param("seed", 11), label = "sim-plan",
      slow_runs_from = cb.param("slow_runs_from", -1), slow_factor = cb.param("slow_factor", 1) },
  },
  algorithms = { "sha256" },
  ops        = { "hash" },
  sizes      = { "16KiB", "4KiB" },
  rounds     = cb.param("rounds", 10),
  trial_time = "1ms",
}
