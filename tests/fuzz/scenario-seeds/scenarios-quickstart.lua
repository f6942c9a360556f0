-- quickstart: the default scenario. Every engine usable here, two hashes and
-- two ciphers, three payload sizes, interleaved rounds. About half a minute.
local cb = require "cryptobench"

cb.scenario {
  name        = "quickstart",
  description = "Every usable engine: SHA-256, SHA-512, AES-128-CBC and AES-256-GCM at 64 B, 16 KiB, 1 MiB",
  engines     = cb.available {
    "openssl", "gcrypt", "nettle", "sodium", "mbedtls", "wolfssl", "gnutls", "kcapi",
    "null", "memcpy",
  },
  algorithms  = { "sha256", "sha512", "aes-128-cbc", "aes-256-gcm" },
  ops         = { "hash", "encrypt" },
  sizes       = { "64B", "16KiB", "1MiB" },
  rounds      = 8,
  warmup      = 1,
  order       = "round-robin",
  trial_time  = "10ms",
}
