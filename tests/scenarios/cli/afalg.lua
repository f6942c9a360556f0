-- Python's socket.AF_ALG on a real kernel (tests/cli_kcapi_qemu.sh runs this
-- inside a virtual machine): every kind of operation the python-afalg worker
-- has, at a short and a page-crossing size. Under emulation the timings mean
-- nothing; the outputs are what is checked.
local cb = require "cryptobench"

cb.scenario {
  name       = "afalg",
  engines    = { cb.param("engine", "python-afalg") },
  algorithms = { "sha256", "aes-128-cbc", "aes-128-ctr", "aes-128-gcm" },
  ops        = { "hash", "encrypt", "decrypt", "decrypt-forged" },
  sizes      = { "64B", "16KiB" },
  rounds     = 1,
  warmup     = 0,
  trial_time = "1ms",
}
