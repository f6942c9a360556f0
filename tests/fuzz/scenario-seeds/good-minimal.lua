-- Only the required fields: everything else takes its default.
local cb = require "cryptobench"

cb.scenario {
  name       = "minimal",
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
