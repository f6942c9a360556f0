-- Question: how fast is the same SHA-256 and AES-256-GCM across the runtimes
-- people compare (Python's hashlib, cryptography and pycryptodome, Node.js,
-- .NET, Go, Rust's ring, Java's JCA) against OpenSSL and libsodium
-- in-process, on the same bytes?
-- Each worker regenerates the input and its trials carry the input's SHA-256,
-- which the run checks against the generator's; the report names each
-- runtime's version and the crypto library underneath. Round-robin, so the
-- machine's drift spreads over every engine alike.
-- Sizes apply to every algorithm, and a worker's answer carries its last
-- call's whole output as base64 (PROTOCOL.md): an AES-GCM trial at 128 MiB
-- would push 179 MB of base64 through each worker's pipe per trial. The
-- large size is therefore 16 MiB: both algorithms run far below memory
-- bandwidth here, so a per-call cost of even 10 us is under 0.2% of a 16 MiB
-- call, which is what the large size is for. `--set big=128MiB` asks for
-- 128 MiB all the same (every worker takes it).
local cb = require "cryptobench"

cb.scenario {
  name        = "cross-runtime",
  description = "SHA-256 and AES-256-GCM at 1 MiB and 16 MiB across runtimes and in-process libraries",
  engines     = cb.available { "openssl", "sodium", "python-hashlib", "python-cryptography",
                               "python-pycryptodome", "node-crypto", "dotnet", "go-crypto",
                               "rust-ring", "java-jca" },
  algorithms  = { "sha256", "aes-256-gcm" },
  ops         = { "hash", "encrypt" },
  sizes       = { "1MiB", cb.param("big", "16MiB") },
  rounds      = cb.param("rounds", 10),
  order       = "round-robin",
  trial_time  = cb.param("trial_time", "50ms"),
}

-- Every engine against in-process OpenSSL, paired by round, per algorithm
-- and size (on CPU time where a worker cell meets an in-process one).
cb.derive {
  name  = "vs openssl",
  ratio = { {}, { label = "openssl" } },
  by    = { "label", "algorithm", "size" },
}
