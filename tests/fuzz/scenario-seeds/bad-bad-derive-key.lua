-- expect: unknown field 'bye' in cb.derive{} (did you mean 'by'?)
-- line: 15
local cb = require "cryptobench"
cb.scenario {
  name       = "bad derive",
  engines    = { "sim" },
  algorithms = { "aes-128-ctr", "aes-256-ctr" },
  ops        = { "encrypt" },
  sizes      = { 4096 },
}

cb.derive {
  name  = "aes256/aes128",
  ratio = { { algorithm = "aes-256-ctr" }, { algorithm = "aes-128-ctr" } },
  bye   = { "engine" },
}
