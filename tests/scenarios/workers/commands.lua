-- Command engines and an env variant on a small input: tests/cli_commands.sh.
local cb = require "cryptobench"
cb.scenario {
  name       = "commands",
  engines    = { "sha256sum", "true" },
  algorithms = { "sha256" },
  sizes      = { "4KiB" },
  rounds     = 2,
  trial_time = "1ms",
}
