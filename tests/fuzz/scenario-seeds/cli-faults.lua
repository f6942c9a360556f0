-- Three engines, two cells each, for the test-only fault switch
-- (tests/cli_faults.sh). --set engine=NAME keeps only that engine, so nothing
-- else writes to the output buffer between its trials.
local cb = require "cryptobench"

local all = { "null", { "sim", overhead_ns = 100, ns_per_byte = 1, label = "sim" }, "memcpy" }
local only = cb.param("engine", "all")
local engines = all
if only ~= "all" then
  engines = {}
  for _, e in ipairs(all) do
    if (type(e) == "table" and e[1] or e) == only then engines = { e } end
  end
end

cb.scenario {
  name       = "faults",
  engines    = engines,
  algorithms = { "sha256" },
  ops        = { "hash" },
  sizes      = { "64B", "1KiB" },
  rounds     = 3,
  warmup     = 1,
  trial_time = "1ms",
}
