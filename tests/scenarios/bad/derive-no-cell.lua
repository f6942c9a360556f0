-- expect: derived metric 'r': its numerator { algorithm = "sha256", op = "encrypt" } matches no cell of the scenario
-- line: 12
local cb = require "cryptobench"
cb.scenario {
  name       = "each value exists, their combination does not",
  engines    = { "sim" },
  algorithms = { "sha256", "aes-128-ctr" },
  sizes      = { 64 },
}
cb.derive {
  name  = "r",
  ratio = { { algorithm = "sha256", op = "encrypt" },
            { algorithm = "aes-128-ctr", op = "encrypt" } },
}
