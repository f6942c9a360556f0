-- expect: plugin 'true': /bin/true is not allowed to load (run with --allow-external /bin/true)
-- line: 6
local cb = require "cryptobench"
cb.scenario {
  name       = "a scenario alone never loads a library",
  engines    = { "sim", { "plugin", path = "/bin/true" } },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
