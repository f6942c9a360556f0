-- The cell `openssl speed -evp ALGORITHM -bytes SIZE` measures, in cryptobench's
-- stream mode (one context, updates only: what openssl speed's loop does)
-- and, unless message = 0, in message mode (IV reset per message).
local cb = require "cryptobench"

local engines = { { "openssl", mode = "stream" } }
if cb.param("message", 1) ~= 0 then
  engines[2] = "openssl"
end

cb.scenario {
  name       = "openssl-speed-comparison",
  engines    = engines,
  algorithms = { cb.param("algorithm", "aes-128-cbc") },
  ops        = { cb.param("op", "encrypt") },
  sizes      = { cb.param("size", "16KiB") },
  rounds     = cb.param("rounds", 20),
  warmup     = 1,
  trial_time = "50ms",
}
