-- expect: 'name' must be a non-empty string (got 42)
-- line: 5
local cb = require "cryptobench"
cb.scenario {
  name       = 42,
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
