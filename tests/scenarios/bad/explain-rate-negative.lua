-- expect: 'rate_hz' wants samples per second of CPU time, from 1 to 100000, not -5
-- line: 9
local cb = require "cryptobench"
cb.scenario {
  name       = "a negative sampling rate",
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { 64 },
  explain    = { samples = 100, rate_hz = -5 },
}
