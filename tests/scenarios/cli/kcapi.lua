-- The kernel's crypto API on a real kernel (tests/cli_kcapi_qemu.sh runs this
-- inside a virtual machine): every kind of operation the kcapi engine has,
-- in message mode, in stream mode and with a new handle per message, up to
-- the longest AEAD message the kernel's buffers take in one operation. Under
-- emulation the timings mean nothing; the outputs are what is checked.
local cb = require "cryptobench"

local engine = cb.param("engine", "kcapi")

cb.scenario {
  name       = "kcapi",
  engines    = { engine, { engine, mode = "stream" }, { engine, reuse = false } },
  algorithms = { "sha256", "aes-128-cbc", "aes-128-gcm" },
  ops        = { "hash", "encrypt", "decrypt", "decrypt-forged" },
  -- 65520 bytes and the tag: the longest AEAD message one kernel operation takes
  sizes      = { "64B", "16KiB", "65520B" },
  rounds     = 2,
  warmup     = 0,
  trial_time = "1ms",
}
