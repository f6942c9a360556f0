-- expect: 'env' cannot be applied to engine 'memcpy' (builtin)
-- line: 7
local cb = require "cryptobench"
cb.scenario {
  name       = "env on an in-process engine",
  engines    = { "sim",
    { "memcpy", env = { OPENSSL_ia32cap = ":~0x20000000" } } },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
