-- expect: its numerator { algorithm = "aes-128-cbc", size = 100 } matches no cell of the scenario
-- line: 12
local cb = require "cryptobench"
cb.scenario {
  name       = "a size CBC cannot take",
  engines    = { "sim" },
  algorithms = { "sha256", "aes-128-cbc" },
  ops        = { "hash", "encrypt" },
  sizes      = { 64, 100 },
}
cb.derive { name = "r",
  ratio = { { algorithm = "aes-128-cbc", size = 100 }, { algorithm = "sha256", size = 100 } },
}
