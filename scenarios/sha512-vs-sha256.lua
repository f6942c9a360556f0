-- Question: in which engines does SHA-512 beat SHA-256 on this CPU, and does
-- that follow from their use of the SHA extensions? SHA-NI accelerates
-- SHA-256 only, so an engine that uses it (OpenSSL, gcrypt, nettle, GnuTLS)
-- should show SHA-256 ahead, one that does not (libsodium, Mbed TLS, wolfSSL,
-- Rust's ring 0.16, and OpenSSL with SHA-NI masked) SHA-512 ahead (64-bit words, fewer rounds
-- per byte). The derived ratio sha512/sha256 per engine answers it.
local cb = require "cryptobench"

cb.scenario {
  name        = "sha512-vs-sha256",
  description = "SHA-512 over SHA-256 per engine, with and without SHA-NI",
  engines     = cb.available { "openssl", "gcrypt", "nettle", "sodium", "mbedtls", "wolfssl", "gnutls",
                               { "openssl", env = { OPENSSL_ia32cap = ":~0x20000000" },
                                 label = "openssl-no-shani" },
                               "python-hashlib", "node-crypto", "rust-ring", "java-jca" },
  algorithms  = { "sha256", "sha512" },
  ops         = { "hash" },
  sizes       = { "1MiB" },
  rounds      = cb.param("rounds", 10),
  order       = "round-robin",
  trial_time  = cb.param("trial_time", "50ms"),
}

cb.derive {
  name  = "sha512/sha256",
  ratio = { { algorithm = "sha512" }, { algorithm = "sha256" } },
  by    = { "label" },
}
