-- Two sim engines of twelve cells each (SHA-256 and SHA-512 at six sizes),
-- every cell with its own noise (cell_noise): `shift` plants a change in
-- sim-a's work of (1 + shift x run index), too small against one cell's noise
-- to show in that cell, not in the twelve pooled (compare's engine rows;
-- tests/cli_compare_engines.sh).
local cb = require "cryptobench"
local seed = cb.param("seed", 1)
local jitter = cb.param("jitter", 0.06)

local function sim(label, own_seed, shift)
  return { "sim", label = label, overhead_ns = 100, ns_per_byte = 1.0, jitter = jitter,
    cell_noise = 1, run_shift = shift, seed = own_seed }
end

cb.scenario {
  name       = "sim-engines",
  engines    = { sim("sim-a", seed * 4 + 1, cb.param("shift", 0)), sim("sim-b", seed * 4 + 2, 0) },
  algorithms = { "sha256", "sha512" },
  ops        = { "hash" },
  sizes      = { "1KiB", "2KiB", "4KiB", "8KiB", "16KiB", "32KiB" },
  rounds     = 30,
  warmup     = 1,
  trial_time = "1ms",
}
