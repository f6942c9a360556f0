-- The cell `openssl speed -evp aes-128-cbc -bytes 16384` measures, in both of
-- cryptobench's modes: stream (one context, updates only: what openssl speed
-- does) and message (IV reset per message).
local cb = require "cryptobench"

cb.scenario {
  name       = "openssl-speed-comparison",
  engines    = { { "openssl", mode = "stream" }, "openssl" },
  algorithms = { cb.param("algorithm", "aes-128-cbc") },
  ops        = { "encrypt" },
  sizes      = { "16KiB" },
  rounds     = cb.param("rounds", 20),
  warmup     = 1,
  trial_time = "50ms",
}
