-- paper/key-scaling: does AES throughput follow the number of rounds (10 for
-- AES-128, 14 for AES-256), and does decryption differ from encryption?
-- CBC encryption is a chain of blocks, so it shows the rounds most plainly;
-- CBC decryption, CTR and GCM can work on several blocks at once.
local cb = require "cryptobench"

cb.scenario {
  name        = "paper-key-scaling",
  description = "AES-128 against AES-256 in CBC, CTR and GCM, encrypt and decrypt, 16 KiB",
  engines     = cb.available { "openssl", "gcrypt", "nettle", "sodium", "mbedtls", "wolfssl",
                               "gnutls", "kcapi" },
  algorithms  = { "aes-128-cbc", "aes-256-cbc", "aes-128-ctr", "aes-256-ctr",
                  "aes-128-gcm", "aes-256-gcm" },
  ops         = { "encrypt", "decrypt" },
  sizes       = { "16KiB" },
  rounds      = cb.param("rounds", 20),
  warmup      = 1,
  order       = "round-robin",
  trial_time  = cb.param("trial_time", "20ms"),
  input       = { seed = 20261130 },
}

cb.derive {
  name   = "aes256/aes128-cbc",
  ratio  = { { algorithm = "aes-256-cbc" }, { algorithm = "aes-128-cbc" } },
  by     = { "label", "op", "size" },
  expect = { value = 10/14, tolerance = 0.05, when = { op = "encrypt" } },
}
cb.derive {
  name  = "aes256/aes128-ctr",
  ratio = { { algorithm = "aes-256-ctr" }, { algorithm = "aes-128-ctr" } },
  by    = { "label", "op", "size" },
}
cb.derive {
  name  = "aes256/aes128-gcm",
  ratio = { { algorithm = "aes-256-gcm" }, { algorithm = "aes-128-gcm" } },
  by    = { "label", "op", "size" },
}
-- Decryption over encryption: CBC decryption has no chain, so it may run
-- several blocks at once.
cb.derive {
  name  = "decrypt/encrypt",
  ratio = { { op = "decrypt" }, { op = "encrypt" } },
  by    = { "label", "algorithm", "size" },
}
