-- expect: 'engines' must be a list like { ... } (got 'sim')
-- line: 6
local cb = require "cryptobench"
cb.scenario {
  name       = "engines as a string",
  engines    = "sim",
  algorithms = { "sha256" },
  sizes      = { 64 },
}
