-- expect: size 4KiB is listed twice
-- line: 8
local cb = require "cryptobench"
cb.scenario {
  name       = "4096 bytes written twice",
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { 4096, "4KiB" },
}
