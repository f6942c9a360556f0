-- expect: duration '10' has no unit (write it like "20ms"; units: ns, us, ms, s)
-- line: 9
local cb = require "cryptobench"
cb.scenario {
  name       = "duration without a unit",
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { 64 },
  trial_time = "10",
}
