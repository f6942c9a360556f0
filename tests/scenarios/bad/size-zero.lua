-- expect: size 0 is out of range (1B .. 4GiB)
-- line: 8
local cb = require "cryptobench"
cb.scenario {
  name       = "a size of nothing",
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { 0 },
}
