-- expect: unknown field 'lable' for engine 'sim' (did you mean 'label'?)
-- line: 7
local cb = require "cryptobench"
cb.scenario {
  name       = "a variant's field misspelt",
  engines    = {
    { "sim", lable = "fast" },
  },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
