-- expect: 'sizes' must not be empty
-- line: 8
local cb = require "cryptobench"
cb.scenario {
  name       = "no size",
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = {},
}
