-- paper/sweep: where does the per-call cost end and the per-byte cost begin?
-- SHA-256 and AES-128-GCM from 16 B to 128 MiB in three libraries, beside
-- memcpy (the memory-bandwidth ceiling) and null (the harness's own cost).
local cb = require "cryptobench"

cb.scenario {
  name        = "paper-sweep",
  description = "SHA-256 and AES-128-GCM from 16 B to 128 MiB: per-call against per-byte cost",
  engines     = cb.available { "openssl", "gcrypt", "nettle", "null", "memcpy" },
  algorithms  = { "sha256", "aes-128-gcm" },
  ops         = { "hash", "encrypt" },
  sizes       = cb.geometric("16B", cb.param("to", "128MiB"), 4),
  rounds      = cb.param("rounds", 10),
  warmup      = 1,
  order       = "round-robin",
  trial_time  = cb.param("trial_time", "10ms"),
  input       = { seed = 20261130 },
}
