-- Every field of cb.scenario{}, variants of each kind, and a derived metric.
local cb = require "cryptobench"

local rounds = cb.param("rounds", 12)

cb.scenario {
  name        = "full",
  description = "every field, written out",
  engines     = cb.available {
    "sim",
    { "sim", overhead_ns = 150, ns_per_byte = 0.5, jitter = 0.02, seed = 7, label = "sim-a" },
    { "sim", mode = "stream", reuse = false, chunk = "4KiB" },
    { "memcpy", label = "memcpy-b" },
    "no-such-engine-anywhere",
  },
  algorithms  = { "aes-128-ctr", "aes-256-ctr", "sha256" },
  ops         = { "encrypt", "decrypt", "hash" },
  sizes       = { "1MiB", 16, "4KiB", "1KB" },
  threads     = { 2, 1 },
  rounds      = rounds,
  warmup      = 2,
  order       = "randomized",
  seed        = 42,
  trial_time  = "2ms",
  input       = { seed = 7, offset = 3 },
}

cb.derive {
  name   = "aes256/aes128",
  ratio  = { { algorithm = "aes-256-ctr" }, { algorithm = "aes-128-ctr" } },
  by     = { "engine", "op", "size" },
  expect = { value = 10 / 14, tolerance = 0.05, when = { op = "encrypt", size = "16KiB" } },
}

cb.derive {
  name  = "two threads / one",
  ratio = { { threads = 2 }, { threads = 1 } },
}
