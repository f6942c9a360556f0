-- One engine, one algorithm, one size: the digests a test compares.
local cb = require "cryptobench"

cb.scenario {
  name       = "digest",
  engines    = { cb.param("engine", "openssl") },
  algorithms = { cb.param("algorithm", "sha256") },
  ops        = { cb.param("op", "hash") },
  sizes      = { cb.param("size", "1MiB") },
  rounds     = 3,
  warmup     = 1,
  trial_time = "2ms",
}
