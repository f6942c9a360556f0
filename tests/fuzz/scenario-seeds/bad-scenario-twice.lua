-- expect: cb.scenario{} is called twice (first at line 4)
-- line: 10
local cb = require "cryptobench"
cb.scenario {
  name       = "first",
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
cb.scenario {
  name       = "second",
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
