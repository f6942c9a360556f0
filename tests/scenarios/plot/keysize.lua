-- The keysize charts of `cryptobench plot` from one small sim run: three RSA
-- moduli signed and verified (a line per engine against the key size), a
-- scheme of one key size (Ed25519: points, no guides), one and two threads
-- (a chart per thread count) and a byte cell beside them (its throughput
-- charts, with no public-key cell in them). The sim engine's cost does not
-- depend on the key: the lines are flat by construction.
local cb = require "cryptobench"

cb.scenario {
  name       = "plot-keysize",
  engines    = {
    { "sim", overhead_ns = 30000, ns_per_byte = 0, jitter = 0.02, seed = 3, label = "sim-a" },
    { "sim", overhead_ns = 60000, ns_per_byte = 0, jitter = 0.02, seed = 4, label = "sim-b" },
  },
  -- Not in key order: the chart sorts them.
  algorithms = { "rsa-4096-pkcs1", "rsa-2048-pkcs1", "rsa-3072-pkcs1", "ed25519", "sha256" },
  ops        = { "sign", "verify", "hash" },
  sizes      = { "32B" },
  threads    = { 1, 2 },
  rounds     = 6,
  warmup     = 1,
  trial_time = "1ms",
}
