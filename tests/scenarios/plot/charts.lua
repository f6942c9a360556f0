-- Every chart kind of `cryptobench plot` from one small sim run: three sizes
-- (throughput against size), two algorithms with encrypt and decrypt (per
-- engine, encrypt against decrypt), one and two threads (thread scaling), a
-- derived ratio with an expectation (ratio chart), and a drifting engine (a
-- flagged timeline). The sim engine's cost does not depend on the algorithm,
-- so AES-256 over AES-128 is 1 here by construction, and that is the
-- expectation declared. Two runs of it (--runs 2) give the forest plots.
local cb = require "cryptobench"
local seed = cb.param("seed", 5)

cb.scenario {
  name       = "plot-charts",
  engines    = {
    { "sim", overhead_ns = 300, ns_per_byte = 0.5, jitter = 0.02, seed = seed,
      label = "sim-fast" },
    { "sim", overhead_ns = 100, ns_per_byte = 1.5, jitter = 0.02, drift_per_round = 0.02,
      seed = seed + 1, label = "sim-drift" },
  },
  algorithms = { "aes-128-cbc", "aes-256-cbc" },
  ops        = { "encrypt", "decrypt" },
  sizes      = { "64B", "4KiB", "256KiB" },
  threads    = { 1, 2 },
  rounds     = 8,
  warmup     = 1,
  trial_time = "1ms",
}

cb.derive {
  name   = "aes256/aes128",
  ratio  = { { algorithm = "aes-256-cbc" }, { algorithm = "aes-128-cbc" } },
  by     = { "label", "op", "size", "threads" },
  expect = { value = 1.0, tolerance = 0.05, when = { op = "encrypt" } },
}
