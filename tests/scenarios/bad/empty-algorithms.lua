-- expect: 'algorithms' must not be empty
-- line: 7
local cb = require "cryptobench"
cb.scenario {
  name       = "no algorithm",
  engines    = { "sim" },
  algorithms = {},
  sizes      = { 64 },
}
