-- The public-key cells `openssl speed rsa2048 ecdsap256 ed25519 ecdhx25519`
-- measures, on the openssl engine: one context initialised once, one
-- EVP_PKEY_sign, EVP_PKEY_verify, EVP_DigestSign or EVP_PKEY_derive per call,
-- as its loop does (tests/bench/compare-openssl-speed-pk.sh).
local cb = require "cryptobench"

cb.scenario {
  name       = "openssl-speed-pk-comparison",
  engines    = { "openssl" },
  algorithms = { "rsa-2048-pkcs1", "ecdsa-p256", "ed25519", "x25519" },
  ops        = { "sign", "verify", "derive" },
  sizes      = { "32B" },
  rounds     = cb.param("rounds", 10),
  warmup     = 1,
  trial_time = "200ms",
}
