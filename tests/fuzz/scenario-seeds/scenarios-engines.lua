-- engines: every engine usable here, side by side on the same bytes.
-- The common algorithms at a small, a cache-sized and a large payload.
local cb = require "cryptobench"

cb.scenario {
  name        = "engines",
  description = "All usable engines x common hashes and ciphers x 64 B, 16 KiB, 1 MiB",
  engines     = cb.available {
    "openssl", "gcrypt", "nettle", "sodium", "mbedtls", "wolfssl", "gnutls", "kcapi",
    "null", "memcpy",
  },
  algorithms  = {
    "md5", "sha1", "sha256", "sha512", "blake2b-512", "sha3-256",
    "aes-128-cbc", "aes-256-cbc", "aes-128-ctr", "aes-128-gcm", "aes-256-gcm",
    "chacha20-poly1305",
  },
  ops         = { "hash", "encrypt", "decrypt" },
  sizes       = { "64B", "16KiB", "1MiB" },
  rounds      = cb.param("rounds", 10),
  warmup      = 1,
  trial_time  = cb.param("trial_time", "10ms"),
}
