-- expect: 'threads' must be between 1 and 256 (got 0)
-- line: 9
local cb = require "cryptobench"
cb.scenario {
  name       = "zero threads",
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { 64 },
  threads    = { 1, 0 },
}
