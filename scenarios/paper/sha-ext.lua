-- paper/sha-ext: in which engines does SHA-512 beat SHA-256 here, and does
-- that follow from their use of the SHA extensions (SHA-NI speeds up SHA-256
-- only)? OpenSSL with SHA-NI masked is the control.
local cb = require "cryptobench"

cb.scenario {
  name        = "paper-sha-ext",
  description = "SHA-512 over SHA-256 per engine and runtime, with and without SHA-NI",
  engines     = cb.available { "openssl", "gcrypt", "nettle", "sodium", "mbedtls", "wolfssl", "gnutls",
                               { "openssl", env = { OPENSSL_ia32cap = ":~0x20000000" },
                                 label = "openssl-no-shani" },
                               "python-hashlib", "node-crypto", "dotnet" },
  algorithms  = { "sha256", "sha512" },
  ops         = { "hash" },
  sizes       = { "1MiB" },
  rounds      = cb.param("rounds", 10),
  order       = "round-robin",
  trial_time  = cb.param("trial_time", "50ms"),
  input       = { seed = 20261130 },
}

cb.derive {
  name  = "sha512/sha256",
  ratio = { { algorithm = "sha512" }, { algorithm = "sha256" } },
  by    = { "label" },
}
