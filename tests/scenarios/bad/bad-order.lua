-- expect: bad order 'round_robin' (did you mean 'round-robin'?)
-- line: 9
local cb = require "cryptobench"
cb.scenario {
  name       = "bad order",
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { 64 },
  order      = "round_robin",
}
