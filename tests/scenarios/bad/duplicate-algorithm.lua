-- expect: algorithm 'sha256' is listed twice
-- line: 8
local cb = require "cryptobench"
cb.scenario {
  name       = "the same cells twice",
  engines    = { "sim" },
  algorithms = { "sha256", "md5",
                 "sha256" },
  sizes      = { 64 },
}
