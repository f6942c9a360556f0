-- expect: unknown algorithm 'sha-256' (did you mean 'sha256'?)
-- line: 11
local cb = require "cryptobench"
cb.scenario {
  name       = "a misspelt algorithm in a selector",
  engines    = { "sim" },
  algorithms = { "sha256", "md5" },
  sizes      = { 64 },
}
cb.derive { name = "r",
  ratio = { { algorithm = "sha-256" }, { algorithm = "md5" } },
}
