-- expect: size 64.5 is not a whole number of bytes
-- line: 8
local cb = require "cryptobench"
cb.scenario {
  name       = "half a byte",
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { 64.5 },
}
