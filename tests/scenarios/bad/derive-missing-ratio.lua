-- expect: cb.derive{} is missing the field 'ratio'
-- line: 10
local cb = require "cryptobench"
cb.scenario {
  name       = "a derive without a ratio",
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
cb.derive { name = "r" }
