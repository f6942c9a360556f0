-- expect: unknown engine 'smi' (did you mean 'sim'?)
-- line: 7
local cb = require "cryptobench"
cb.scenario {
  name       = "unknown engine",
  algorithms = { "sha256" },
  engines    = { "null", "smi" },
  sizes      = { 64 },
}
