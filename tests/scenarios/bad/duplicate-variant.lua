-- expect: duplicate label 'sim'
-- line: 6
local cb = require "cryptobench"
cb.scenario {
  name       = "one engine listed twice",
  engines    = { "sim", "sim" },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
