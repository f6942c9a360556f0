-- expect: its denominator selects op 'decrypt', which is not in the scenario (did you mean 'encrypt'?)
-- line: 13
local cb = require "cryptobench"
cb.scenario {
  name       = "an op the scenario does not run",
  engines    = { "sim" },
  algorithms = { "aes-128-ctr" },
  ops        = { "encrypt" },
  sizes      = { 4096 },
}
cb.derive { name = "enc/dec",
  ratio = { { op = "encrypt" },
            { op = "decrypt" } },
}
