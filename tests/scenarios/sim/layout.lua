-- Two sim engines, one whose work is `factor` times larger when its calls'
-- stack sits at an odd 16-byte step (a placement effect like Mbed TLS
-- AES-GCM's 32-byte stack alignment), the other unaffected: is the first
-- reported layout-sensitive, the second not? (tests/cli_layout.sh)
local cb = require "cryptobench"

cb.scenario {
  name       = "sim-layout",
  engines    = {
    { "sim", label = "sim-placed", jitter = 0.01, stack_factor = cb.param("factor", 1.15), seed = 1 },
    { "sim", label = "sim-steady", jitter = 0.01, seed = 2 },
  },
  algorithms = { "sha256" },
  ops        = { "hash" },
  sizes      = { "16KiB" },
  rounds     = 40,
  warmup     = 1,
  trial_time = "1ms",
}
