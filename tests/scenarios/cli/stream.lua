-- Stream mode: one context per trial, updates only; every output still checked.
local cb = require "cryptobench"

cb.scenario {
  name       = "stream",
  engines    = { { cb.param("engine", "openssl"), mode = "stream" } },
  algorithms = { "sha256", "aes-128-cbc", "aes-256-ctr" },
  ops        = { "hash", "encrypt", "decrypt" },
  sizes      = { "1008B", "16KiB" },
  rounds     = 3,
  warmup     = 1,
  trial_time = "2ms",
}
