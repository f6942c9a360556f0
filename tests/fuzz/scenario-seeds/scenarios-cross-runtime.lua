-- Question: how fast is the same SHA-256 and AES-256-GCM across the runtimes
-- people compare (Python's hashlib, cryptography and pycryptodome, Node.js,
-- .NET) against OpenSSL and libsodium in-process, on the same bytes?
-- Each worker regenerates the input and its trials carry the input's SHA-256,
-- which the run checks against the generator's; the report names each
-- runtime's version and the crypto library underneath. Round-robin, so the
-- machine's drift spreads over every engine alike.
local cb = require "cryptobench"

cb.scenario {
  name        = "cross-runtime",
  description = "SHA-256 (1 MiB, 128 MiB) and AES-256-GCM (1 MiB) across runtimes and in-process libraries",
  engines     = cb.available { "openssl", "sodium", "python-hashlib", "python-cryptography",
                               "python-pycryptodome", "node-crypto", "dotnet" },
  algorithms  = { "sha256", "aes-256-gcm" },
  ops         = { "hash", "encrypt" },
  sizes       = { "1MiB", cb.param("big", "128MiB") },
  rounds      = cb.param("rounds", 10),
  order       = "round-robin",
  trial_time  = cb.param("trial_time", "50ms"),
}
