-- explain-overhead.lua: the cells that tests/bench/explain-overhead.sh profiles
-- to measure what sampling costs. SHA-256 and AES-256-GCM at 1 MiB in this
-- process (the CPU-time timer) and in four workers (ptrace): Python, Node.js,
-- and Go, whose runtime preempts its goroutines with signals that the
-- sampler must pass on, and Rust's ring. `rate_hz` is
-- the sampling rate of the profiled trials; the script alternates the
-- default rate with 1 Hz, whose profiled trials are the same trials almost
-- without samples.
local cb = require "cryptobench"

cb.scenario {
  name        = "explain-overhead",
  description = "what sampling costs: profiled trials at a sampling rate",
  engines     = cb.available { "openssl", "gcrypt", "python-hashlib", "node-crypto", "go-crypto",
                               "rust-ring" },
  algorithms  = { "sha256", "aes-256-gcm" },
  ops         = { "hash", "encrypt" },
  sizes       = { "1MiB" },
  rounds      = cb.param("rounds", 5),
  order       = "round-robin",
  trial_time  = "50ms",
  explain     = { samples = cb.param("samples", 2000), rate_hz = cb.param("rate_hz", 1000) },
}
