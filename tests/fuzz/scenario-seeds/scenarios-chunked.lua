-- chunked: a hash fed in chunks of N bytes from one buffer, without copying,
-- against the same hash fed whole. The cost of many small updates.
local cb = require "cryptobench"

local engines = {}
for _, name in ipairs { "openssl", "gcrypt", "nettle", "sodium", "gnutls" } do
  engines[#engines + 1] = name
  engines[#engines + 1] = { name, chunk = "64B" }
  engines[#engines + 1] = { name, chunk = "4KiB" }
end

cb.scenario {
  name        = "chunked",
  description = "SHA-256 of 1 MiB fed whole, in 4 KiB chunks and in 64 B chunks",
  engines     = cb.available(engines),
  algorithms  = { "sha256" },
  ops         = { "hash" },
  sizes       = { "1MiB" },
  rounds      = cb.param("rounds", 15),
  warmup      = 1,
  trial_time  = "20ms",
}
