-- The test-only fault switch in a worker process (tests/cli_faults.sh): the
-- openssl engine under an environment runs in a `cryptobench worker openssl`
-- child, which applies hang and crash to the requests of their round; the
-- null engine runs in-process beside it.
local cb = require "cryptobench"

cb.scenario {
  name       = "faults-worker",
  engines    = { "null", { "openssl", env = { CB_TEST_VARIANT = "worker" }, label = "openssl-env" } },
  algorithms = { "sha256" },
  ops        = { "hash" },
  sizes      = { "64B", "1KiB" },
  rounds     = 3,
  warmup     = 1,
  trial_time = "1ms",
}
