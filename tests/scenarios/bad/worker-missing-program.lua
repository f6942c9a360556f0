-- expect: worker 'mylib': ./no-such-worker: No such file or directory
-- line: 6
local cb = require "cryptobench"
cb.scenario {
  name       = "a worker whose program is not there",
  engines    = { { "worker", name = "mylib", command = { "./no-such-worker" } } },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
