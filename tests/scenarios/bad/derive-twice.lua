-- expect: a derived metric named 'r' is already declared
-- line: 11
local cb = require "cryptobench"
cb.scenario {
  name       = "one name, two metrics",
  engines    = { "sim", "null" },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
cb.derive { name = "r", ratio = { { engine = "sim" }, { engine = "null" } } }
cb.derive { name = "r", ratio = { { engine = "null" }, { engine = "sim" } } }
