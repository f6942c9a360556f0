-- expect: its denominator selects size 1KiB, which the scenario does not measure (sizes: 64B, 4KiB)
-- line: 12
local cb = require "cryptobench"
cb.scenario {
  name       = "a size the scenario does not measure",
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { 64, "4KiB" },
}
cb.derive { name = "small/large",
  ratio = { { size = "4KiB" },
            { size = "1KiB" } },
}
