-- Capability masks joined with profiles, on the sim (tests/explain/masks.sh
-- makes tests/explain/masks.jsonl from this run: it rewrites the header into
-- a masked run's, as tests/cli_masks.sh does, and adds profile lines written
-- by hand). The timings are the sim's, whose truth is known:
--   masked-4x       4 times the work per byte, SHA-NI masked: honoured
--   masked-1pct     1% more work per byte, SHA-NI masked: ignored
--   masked-armcap   4 times the work, a variable no table knows: honoured
--   masked-noisy    the same cost, 20% jitter, SHA-NI masked: not resolved
local cb = require "cryptobench"

local function sim(label, ns_per_byte, jitter, seed)
  return { "sim", label = label, overhead_ns = 100, ns_per_byte = ns_per_byte,
           jitter = jitter, seed = seed }
end

cb.scenario {
  name       = "masks-join",
  engines    = { sim("sim", 1, 0.005, 1), sim("masked-4x", 4, 0.005, 2),
                 sim("masked-1pct", 1.01, 0.005, 4), sim("masked-armcap", 4, 0.005, 3),
                 sim("masked-noisy", 1, 0.2, 5) },
  algorithms = { "sha256", "aes-128-cbc" },
  ops        = { "hash", "encrypt" },
  sizes      = { "16KiB" },
  rounds     = 16,
  trial_time = "1ms",
}
