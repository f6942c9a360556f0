-- expect: 'sizes' has holes (nil values)
-- line: 8
local cb = require "cryptobench"
cb.scenario {
  name       = "a nil among the sizes",
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { 64, nil, 4096 },
}
