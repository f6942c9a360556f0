-- expect: size -64 is out of range (1B .. 4GiB)
-- line: 8
local cb = require "cryptobench"
cb.scenario {
  name       = "a negative size",
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { -64 },
}
