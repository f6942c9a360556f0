-- expect: 'engines' must not be empty
-- line: 6
local cb = require "cryptobench"
cb.scenario {
  name       = "no engine",
  engines    = {},
  algorithms = { "sha256" },
  sizes      = { 64 },
}
