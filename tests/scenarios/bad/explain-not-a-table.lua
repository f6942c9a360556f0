-- expect: 'explain' must be a table like { samples = 2000 } (got 2000)
-- line: 9
local cb = require "cryptobench"
cb.scenario {
  name       = "explain as a number",
  engines    = { "sim" },
  algorithms = { "sha256" },
  sizes      = { 64 },
  explain    = 2000,
}
