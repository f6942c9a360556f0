-- Parameters of each type, which --set may override.
local cb = require "cryptobench"

local rounds  = cb.param("rounds", 10)
local label   = cb.param("label", "sim-p")
local stream  = cb.param("stream", false)
local largest = cb.param("largest", "64KiB")

cb.scenario {
  name       = "params",
  engines    = { { "sim", label = label, mode = stream and "stream" or "message" } },
  algorithms = { "sha256" },
  sizes      = cb.geometric(16, largest, 4),
  rounds     = rounds,
  trial_time = "1ms",
}
