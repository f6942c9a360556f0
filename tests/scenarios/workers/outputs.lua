-- One worker engine (--set engine=NAME) with output "reuse" (the default)
-- and "fresh", the input 100 bytes past a page boundary: the timing tests'
-- scenario (tests/cli_worker_timing.sh).
local cb = require "cryptobench"
local engine = cb.param("engine", "python-hashlib")
cb.scenario {
  name       = "worker-outputs",
  engines    = { engine, { engine, output = "fresh" } },
  algorithms = { "sha256", "aes-256-gcm" },
  ops        = { "hash", "encrypt", "decrypt" },
  sizes      = { "4KiB" },
  input      = { offset = 100 },
  rounds     = 8,
  trial_time = "1ms",
}
