-- Capability-mask verdicts on the sim, whose truth is known
-- (tests/cli_masks.sh). The sim is a built-in and cannot carry `env`, so the
-- test rewrites this run's header: each variant named "masked-*" gets an env
-- and every variant's options (its cost, here) leave the header, as a masked
-- variant of one engine reads; "alone" keeps its options, so it has no
-- variant to be compared with. The trials stay the sim's.
--   masked-4x       4 times the work per byte: honoured (ratio ~0.25)
--   masked-5pct     5% more work per byte, quiet: honoured (beyond delta 2%)
--   masked-1pct     1% more work per byte, quiet: ignored (within delta 2%)
--   masked-noisy    the same cost, 20% jitter: not resolved
--   alone           an env and no reference: not resolved
--   ghost           (added by the test to the header only) an env and no cell:
--                   not resolved
local cb = require "cryptobench"

local function sim(label, ns_per_byte, jitter, seed)
  return { "sim", label = label, overhead_ns = 100, ns_per_byte = ns_per_byte,
           jitter = jitter, seed = seed }
end

cb.scenario {
  name       = "masks-sim",
  engines    = { sim("sim", 1, 0.005, 1), sim("masked-4x", 4, 0.005, 2),
                 sim("masked-5pct", 1.05, 0.005, 3), sim("masked-1pct", 1.01, 0.005, 4),
                 sim("masked-noisy", 1, 0.2, 5), sim("alone", 1, 0.005, 6) },
  algorithms = { "sha256", "aes-128-cbc" },
  ops        = { "hash", "encrypt" },
  sizes      = { "1KiB", "16KiB" },
  rounds     = 30,
  trial_time = "1ms",
}
