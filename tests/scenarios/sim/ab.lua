-- Two configurations of one scenario, for `compare --baseline`: the sim engine
-- `sim-a` costs `cost` ns per byte (1 by default; `--set cost=0.934579` makes it
-- 1/1.07 of that: 7% faster), `sim-b` never changes. Each run draws its noise
-- from its own `seed`.
local cb = require "cryptobench"
local seed = cb.param("seed", 1)

cb.scenario {
  name       = "sim-ab",
  engines    = {
    { "sim", overhead_ns = 100, ns_per_byte = cb.param("cost", 1.0), jitter = 0.01,
      seed = seed * 16 + 1, label = "sim-a" },
    { "sim", overhead_ns = 100, ns_per_byte = 1.0, jitter = 0.01, seed = seed * 16 + 2,
      label = "sim-b" },
  },
  algorithms = { "sha256" },
  ops        = { "hash" },
  sizes      = { "4KiB", "64KiB" },
  rounds     = 20,
  warmup     = 1,
  trial_time = "1ms",
}
