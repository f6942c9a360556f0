-- Messages longer than one kernel operation takes (16 pages): the kcapi
-- engine splits them and carries the CBC chain and the CTR counter across
-- (tests/cli_kcapi_qemu.sh runs this on a real kernel). 200000 bytes: three
-- whole operations and a part.
local cb = require "cryptobench"

cb.scenario {
  name       = "kcapi-long",
  engines    = { cb.param("engine", "kcapi") },
  algorithms = { "aes-128-cbc", "aes-128-ctr" },
  ops        = { "encrypt", "decrypt" },
  sizes      = { "200000B" },
  rounds     = 2,
  warmup     = 0,
  trial_time = "1ms",
}
