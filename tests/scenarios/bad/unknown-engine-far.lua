-- expect: unknown engine 'frobnitz' (compiled in: 
-- line: 6
local cb = require "cryptobench"
cb.scenario {
  name       = "no such engine here",
  engines    = { "frobnitz" },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
