-- key-scaling: does AES throughput follow the number of rounds?
--
-- AES-128 runs 10 rounds per block and AES-256 runs 14, so where the rounds
-- are the cost, AES-256 moves 10/14 = 71.4% of AES-128's bytes per second.
-- CBC encryption is a chain (each block waits for the previous one), so it
-- shows the round count most plainly; CBC decryption, CTR and GCM can work on
-- several blocks at once, and GCM adds GHASH, which does not depend on the key
-- length: their ratios may sit above 10/14.
--
-- One run measures until every derived ratio has its verdict, within the
-- stop budget (40 rounds first, then blocks of 8); runs until compare
-- resolves the table, each of the rounds the plan for runs gives:
--
--   cryptobench run scenarios/key-scaling.lua --runs auto --budget 30m -o results/key-scaling
--   cryptobench compare results/key-scaling
local cb = require "cryptobench"

cb.scenario {
  name        = "key-scaling",
  description = "AES-128 vs AES-256 in CBC, CTR and GCM: does throughput follow 10/14 rounds?",
  engines     = cb.available { "openssl", "gcrypt", "nettle", "sodium", "mbedtls", "wolfssl",
                               "gnutls", "kcapi" },
  algorithms  = { "aes-128-cbc", "aes-256-cbc", "aes-128-ctr", "aes-256-ctr",
                  "aes-128-gcm", "aes-256-gcm" },
  ops         = { "encrypt", "decrypt" },
  sizes       = { cb.param("size", "16KiB") },
  threads     = { 1 },
  rounds      = 40,
  warmup      = 1,
  order       = "round-robin",
  trial_time  = "20ms",
  input       = { seed = 20260804 },
  stop        = { budget = "10m" },
}

-- Ratios of throughput, paired by round: AES-256 over AES-128, per engine, op
-- and size. The 10/14 expectation is declared where it should hold most
-- plainly: CBC encryption.
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
