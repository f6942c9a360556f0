-- expect: bad size '12XB'
-- line: 8
local cb = require "cryptobench"
cb.scenario {
  name       = "bad size",
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { "16B", "12XB" },
}
