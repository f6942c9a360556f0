-- The golden scenario: the results files beside this one were measured with
-- it once (in tests/golden: cryptobench run golden.lua --runs 2 -o runs)
-- and are kept; tests/cli_golden.sh checks that report, compare and plot
-- print exactly what they printed then (tests/golden/expected/). Two sim
-- engines (one drifting across rounds and shifted from run to run, so compare
-- has verdicts of every kind), the null engine for the harness-cost column,
-- two sizes (slopes, crossovers, throughput against size), two thread counts (thread
-- scaling), encrypt and decrypt, and derived ratios with expectations.
local cb = require "cryptobench"

cb.scenario {
  name       = "golden",
  engines    = {
    { "sim", overhead_ns = 300, ns_per_byte = 0.5, jitter = 0.02, spike_rate = 0.05,
      spike_factor = 3, seed = 11, label = "sim-fast" },
    { "sim", overhead_ns = 100, ns_per_byte = 1.5, jitter = 0.02, drift_per_round = 0.02,
      run_shift = 0.2, seed = 12, label = "sim-drift" },
    "null",
  },
  algorithms = { "aes-128-cbc" },
  ops        = { "encrypt", "decrypt" },
  sizes      = { "64B", "16KiB" },
  threads    = { 1, 2 },
  rounds     = 6,
  warmup     = 0,
  trial_time = "1ms",
}

cb.derive {
  name   = "decrypt/encrypt",
  ratio  = { { op = "decrypt" }, { op = "encrypt" } },
  by     = { "label", "size", "threads" },
}

cb.derive {
  name   = "drift/fast",
  ratio  = { { label = "sim-drift" }, { label = "sim-fast" } },
  by     = { "op", "size", "threads" },
  expect = { value = 0.5, tolerance = 0.1, when = { op = "encrypt" } },
}
