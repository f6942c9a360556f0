-- expect: unfinished string
-- line: 5
local cb = require "cryptobench"
cb.scenario {
  name       = "syntax,
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
