-- Two sim engines alike, each on its own machine (a shared_seed each): a
-- slow AR(1) term (0.8) that pairing by round does not cancel, and cycles estimated
-- from time, as a VM without performance counters writes them. The per-round
-- log ratios are then dependent (tests/cli_dependence.sh). `own = 0` puts
-- both on one machine again, where pairing cancels it. `ar1`, `ar1_sigma`
-- and `num_ns` (num's time per byte) make the noise slower and larger and
-- the pair far apart: where no rank interval forms, the batches' medians.
local cb = require "cryptobench"
local own = cb.param("own", 1)

local function sim(label, seed, ns)
  return { "sim", label = label, overhead_ns = 0, ns_per_byte = ns, jitter = 0.01,
    seed = seed, shared_seed = own ~= 0 and 100 + seed or 100, cycles_from_time = 1,
    ar1 = cb.param("ar1", 0.8), ar1_sigma = cb.param("ar1_sigma", 0.01) }
end

cb.scenario {
  name       = "sim-own-machine",
  engines    = { sim("num", 1, cb.param("num_ns", 1.0)), sim("den", 2, 1.0) },
  algorithms = { "sha256" },
  ops        = { "hash" },
  sizes      = { "16KiB" },
  rounds     = cb.param("rounds", 120),
  warmup     = 1,
  trial_time = "1ms",
}

cb.derive {
  name  = "num/den",
  ratio = { { label = "num" }, { label = "den" } },
  by    = { "size" },
}
