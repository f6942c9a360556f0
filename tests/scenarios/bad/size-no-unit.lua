-- expect: size '4096' has no unit (write it like "64B" or "4KiB"
-- line: 8
local cb = require "cryptobench"
cb.scenario {
  name       = "size string without a unit",
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { 64, "4096" },
}
