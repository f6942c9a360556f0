-- expect: unknown engine 'opensl' (compiled in: 
-- line: 6
local cb = require "cryptobench"
cb.scenario {
  name       = "no such engine here",
  engines    = { "opensl" },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
