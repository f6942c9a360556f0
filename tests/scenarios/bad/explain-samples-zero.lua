-- expect: 'samples' must be between 1 and 1000000 (got 0)
-- line: 9
local cb = require "cryptobench"
cb.scenario {
  name       = "no samples",
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { 64 },
  explain    = { samples = 0 },
}
