-- expect: cb.scenario{} is missing the field 'name'
-- line: 4
local cb = require "cryptobench"
cb.scenario {
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
