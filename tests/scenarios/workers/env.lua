-- An in-process engine under a changed environment runs in a worker child.
local cb = require "cryptobench"
cb.scenario {
  name       = "env",
  engines    = { "openssl", { "openssl", env = { OPENSSL_ia32cap = "~0x200000000000000:~0" },
                              label = "openssl-no-aesni" } },
  algorithms = { "aes-128-cbc" },
  ops        = { "encrypt" },
  sizes      = { "4KiB" },
  rounds     = 2,
  trial_time = "1ms",
}
