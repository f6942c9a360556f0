-- expect: worker 'mylib': 'command' must be a list of strings
-- line: 6
local cb = require "cryptobench"
cb.scenario {
  name       = "a worker without its command",
  engines    = { { "worker", name = "mylib" } },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
