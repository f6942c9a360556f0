-- Public-key cells of one engine: every operation of a signature scheme
-- (RSA, ECDSA, Ed25519) and of key agreement (ECDH, X25519), a few short
-- trials each, and a derived ratio between two of them.
local cb = require "cryptobench"

cb.scenario {
  name       = "public-key-cells",
  engines    = { cb.param("engine", "openssl") },
  algorithms = { "rsa-2048-pkcs1", "ecdsa-p256", "ed25519", "ecdh-p256", "x25519" },
  ops        = { "sign", "verify", "verify-forged", "derive", "keygen" },
  sizes      = { "32B" },
  rounds     = 2,
  warmup     = 1,
  trial_time = "2ms",
}

cb.derive {
  name  = "ed25519/ecdsa sign",
  ratio = { { algorithm = "ed25519", op = "sign" }, { algorithm = "ecdsa-p256", op = "sign" } },
  by    = { "label" },
}
