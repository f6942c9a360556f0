-- paper/public-key: does the cost of a signature or a key agreement follow
-- the key size the way the arithmetic says it should? Three RSA moduli and
-- three NIST curves, each library signing and verifying with the same fixed
-- keys, one thread (scenarios/public-key.lua adds two threads and a stop rule).
-- The expectations are those of scenarios/public-key.lua, explained in
-- doc/method.md; 3072 over 2048 bits follows the same powers: (2/3)^3 = 0.30
-- for the private operation (Karatsuba lifts it to about 0.33), (2/3)^2 = 0.44
-- for the public one.
local cb = require "cryptobench"

cb.scenario {
  name        = "paper-public-key",
  description = "RSA 2048/3072/4096, ECDSA P-256/P-384/P-521, Ed25519, ECDH and X25519 "
                .. "per second, one thread",
  engines     = cb.available { "openssl", "gcrypt", "nettle", "sodium", "mbedtls", "wolfssl",
                               "gnutls" },
  algorithms  = { "rsa-2048-pkcs1", "rsa-3072-pkcs1", "rsa-4096-pkcs1", "ecdsa-p256",
                  "ecdsa-p384", "ecdsa-p521", "ed25519", "ecdh-p256", "ecdh-p384", "x25519" },
  ops         = { "sign", "verify", "derive" },
  sizes       = { "32B" },
  rounds      = cb.param("rounds", 20),
  warmup      = 1,
  order       = "round-robin",
  trial_time  = cb.param("trial_time", "50ms"),
  input       = { seed = 20261202 },
}

cb.derive {
  name   = "rsa4096/rsa2048 sign",
  ratio  = { { algorithm = "rsa-4096-pkcs1", op = "sign" },
             { algorithm = "rsa-2048-pkcs1", op = "sign" } },
  by     = { "label" },
  expect = { value = 1/7, tolerance = 0.15 },
}
cb.derive {
  name   = "rsa4096/rsa2048 verify",
  ratio  = { { algorithm = "rsa-4096-pkcs1", op = "verify" },
             { algorithm = "rsa-2048-pkcs1", op = "verify" } },
  by     = { "label" },
  expect = { value = 1/4, tolerance = 0.15 },
}
cb.derive {
  name   = "rsa3072/rsa2048 sign",
  ratio  = { { algorithm = "rsa-3072-pkcs1", op = "sign" },
             { algorithm = "rsa-2048-pkcs1", op = "sign" } },
  by     = { "label" },
  expect = { value = 0.32, tolerance = 0.15 },
}
cb.derive {
  name   = "rsa3072/rsa2048 verify",
  ratio  = { { algorithm = "rsa-3072-pkcs1", op = "verify" },
             { algorithm = "rsa-2048-pkcs1", op = "verify" } },
  by     = { "label" },
  expect = { value = 4/9, tolerance = 0.15 },
}
cb.derive {
  name   = "p384/p256 ecdsa",
  ratio  = { { algorithm = "ecdsa-p384" }, { algorithm = "ecdsa-p256" } },
  by     = { "label", "op" },
  expect = { value = 0.36, tolerance = 0.2 },
}
cb.derive {
  name   = "p384/p256 ecdh",
  ratio  = { { algorithm = "ecdh-p384" }, { algorithm = "ecdh-p256" } },
  by     = { "label" },
  expect = { value = 0.36, tolerance = 0.2 },
}
-- Who is fastest per operation, against OpenSSL.
cb.derive {
  name  = "vs openssl",
  ratio = { {}, { label = "openssl" } },
  by    = { "label", "algorithm", "op" },
}
