-- payload-sweep: throughput from 16 B to 128 MiB. Small payloads show the
-- per-call cost, large ones the per-byte cost; the memcpy line is the
-- memory-bandwidth ceiling and null the harness's own cost.
local cb = require "cryptobench"

cb.scenario {
  name        = "payload-sweep",
  description = "SHA-256 and AES-128-GCM from 16 B to 128 MiB, against memcpy and null",
  engines     = cb.available { "openssl", "null", "memcpy" },
  algorithms  = { "sha256", "aes-128-gcm" },
  ops         = { "hash", "encrypt" },
  sizes       = cb.geometric(cb.param("from", "16B"), cb.param("to", "128MiB"), 4),
  rounds      = cb.param("rounds", 10),
  warmup      = 1,
  trial_time  = "20ms",
}
