-- expect: its numerator selects threads 4, which the scenario does not measure (threads: 1, 2)
-- line: 12
local cb = require "cryptobench"
cb.scenario {
  name       = "a thread count the scenario does not run",
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { 64 },
  threads    = { 1, 2 },
}
cb.derive { name = "scaling",
  ratio = { { threads = 4 }, { threads = 1 } },
}
