-- expect: 'ratio' must be { numerator, denominator }
-- line: 11
local cb = require "cryptobench"
cb.scenario {
  name       = "a ratio of one selector",
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
cb.derive { name = "r",
  ratio = { { engine = "sim" } },
}
