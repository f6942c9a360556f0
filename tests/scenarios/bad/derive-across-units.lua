-- expect: derived metric 'ed25519 per sha256': its numerator counts operations (public key) and its denominator bytes: a ratio across units is no number
-- line: 15
local cb = require "cryptobench"
cb.scenario {
  name       = "bad derive",
  engines    = { "sim" },
  algorithms = { "ed25519", "sha256" },
  ops        = { "sign", "hash" },
  sizes      = { 32 },
}

cb.derive {
  name  = "ed25519 per sha256",
  ratio = { { algorithm = "ed25519", op = "sign" },
            { algorithm = "sha256", op = "hash" } },
}
