-- The Python worker on a small input: the fault tests' scenario.
local cb = require "cryptobench"
cb.scenario {
  name       = "worker-faults",
  engines    = { "python-hashlib" },
  algorithms = { "sha256" },
  sizes      = { "4KiB" },
  rounds     = 4,
  trial_time = "1ms",
}
