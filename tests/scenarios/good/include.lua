-- Shared code comes from lib/ through cb.include.
local cb = require "cryptobench"
local common = cb.include "common"

cb.scenario {
  name       = "include",
  engines    = common.engines,
  algorithms = { "sha256" },
  sizes      = common.sizes(),
}
