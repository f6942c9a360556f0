-- context-reuse: what does re-creating a context for every message cost?
-- The same engine with one context reused (init/update/final per message)
-- and with a context created, keyed and freed per message. Small payloads
-- show the difference; large ones hide it.
local cb = require "cryptobench"

local engines = {}
for _, name in ipairs { "openssl", "gcrypt", "nettle", "mbedtls", "wolfssl", "gnutls" } do
  engines[#engines + 1] = name
  engines[#engines + 1] = { name, reuse = false }
end

cb.scenario {
  name        = "context-reuse",
  description = "Context reused vs re-created per message: SHA-256 and AES-128-GCM",
  engines     = cb.available(engines),
  algorithms  = { "sha256", "aes-128-gcm" },
  ops         = { "hash", "encrypt" },
  sizes       = { "16B", "256B", "4KiB", "64KiB" },
  rounds      = cb.param("rounds", 15),
  warmup      = 1,
  trial_time  = "10ms",
}
