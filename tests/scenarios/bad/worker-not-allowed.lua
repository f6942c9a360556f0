-- expect: worker 'shell': /bin/sh is not allowed to start (run with --allow-external /bin/sh)
-- line: 7
local cb = require "cryptobench"
cb.scenario {
  name       = "a scenario alone never starts a program",
  engines    = { { "worker", name = "shell",
                   command = { "/bin/sh", "-c", "touch started" } } },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
