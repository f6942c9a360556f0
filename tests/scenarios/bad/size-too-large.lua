-- expect: size '8GiB' is out of range (1B .. 4GiB)
-- line: 8
local cb = require "cryptobench"
cb.scenario {
  name       = "a size past 4 GiB",
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { 64, "8GiB" },
}
