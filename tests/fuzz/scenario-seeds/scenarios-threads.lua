-- threads: does throughput scale with threads? Each thread has its own
-- context and output, shares the read-only input, and starts at a barrier.
local cb = require "cryptobench"

cb.scenario {
  name        = "threads",
  description = "SHA-256 and AES-128-CBC at 1 MiB on 1 and 2 threads",
  engines     = cb.available { "openssl", "memcpy" },
  algorithms  = { "sha256", "aes-128-cbc" },
  ops         = { "hash", "encrypt" },
  sizes       = { "1MiB" },
  threads     = { 1, 2 },
  rounds      = 15,
  warmup      = 1,
  trial_time  = "50ms",
}
