-- Question: which code runs when each engine hashes or encrypts 1 MiB, and
-- which instruction-set extensions does it use? SHA-256, SHA-512 and
-- AES-256-GCM across the seven C libraries in this process and the runtimes
-- (Python's hashlib and cryptography, Node.js, .NET, Java's JCA, Go, Rust's
-- ring), each cell timed as usual and then profiled: the program counter is
-- sampled in trials kept apart from the timed ones (doc/explain.md), in this
-- process by a CPU-time timer, in a worker through ptrace. .NET runs twice:
-- into a buffer it reuses, and with a fresh output per call, so the report
-- shows how much of the fresh call's time is the runtime's.
local cb = require "cryptobench"

cb.scenario {
  name        = "which-code",
  description = "SHA-256, SHA-512 and AES-256-GCM at 1 MiB, timed and profiled, libraries and runtimes",
  engines     = cb.available { "openssl", "gcrypt", "nettle", "sodium", "mbedtls", "wolfssl",
                               "gnutls", "python-hashlib", "python-cryptography", "node-crypto",
                               "dotnet", { "dotnet", output = "fresh" }, "java-jca",
                               "go-crypto", "rust-ring" },
  algorithms  = { "sha256", "sha512", "aes-256-gcm" },
  ops         = { "hash", "encrypt" },
  sizes       = { "1MiB" },
  rounds      = cb.param("rounds", 12),
  order       = "round-robin",
  trial_time  = cb.param("trial_time", "50ms"),
  explain     = { samples = cb.param("samples", 2000) },
}

-- Every engine against in-process OpenSSL, paired by round.
cb.derive {
  name  = "vs openssl",
  ratio = { {}, { label = "openssl" } },
  by    = { "label", "algorithm", "size" },
}
