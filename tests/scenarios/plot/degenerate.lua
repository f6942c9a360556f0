-- The data every chart kind must still draw (tests/cli_plot_degenerate.sh):
-- two sim engines, one of them contaminated in its first rounds (its
-- headline switches to the minimum time: mixed statistics), the memcpy and
-- null references, encrypt and decrypt of two ciphers (a derived ratio),
-- two sizes and two thread counts. The test shrinks it with --set rounds=1,
-- sizes=... and --only, and edits its results file for the shapes no run
-- gives (a cell with every trial invalid, a cell without throughput).
local cb = require "cryptobench"

cb.scenario {
  name       = "plot-degenerate",
  engines    = {
    { "sim", overhead_ns = 300, ns_per_byte = 0.5, jitter = 0.02, seed = 11, label = "sim-a" },
    { "sim", overhead_ns = 200, ns_per_byte = 0.6, jitter = 0.02, seed = 12, label = "sim-b",
      contaminate_from = 0, contaminate_to = 4, contaminate_factor = 1.6 },
    "memcpy", "null",
  },
  algorithms = { "aes-128-cbc", "aes-256-cbc" },
  ops        = { "encrypt", "decrypt" },
  sizes      = { "64B", "4KiB" },
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
