-- expect: unknown algorithm 'sha265' (did you mean 'sha256'?)
-- line: 8
local cb = require "cryptobench"
cb.scenario {
  name       = "unknown algorithm",
  engines    = { "sim" },
  algorithms = {
    "sha1", "sha265",
  },
  sizes      = { 64 },
}
