-- Question: does the SHA extension (SHA-NI) make SHA-256 and SHA-512 faster
-- here, judged by masking it (OPENSSL_ia32cap) in a process of its own?
-- A mask can be silently ignored, so every mask carries a positive control:
-- AES-128-CBC with AES-NI masked must slow down (~6x here). The
-- derived ratios below (masked over unmasked, paired by round) are the
-- evidence: a mask whose control slows down is honoured; OPENSSL_armcap,
-- which libcrypto never reads on x86-64, must come out at 1 (ignored). Read
-- the SHA ratios only when the AES-NI control shows the mask honoured.
local cb = require "cryptobench"

cb.scenario {
  name        = "capability-mask",
  description = "SHA-256/SHA-512 with and without SHA-NI masked; AES-128-CBC with AES-NI masked as the positive control; OPENSSL_armcap as the ignored control",
  engines     = {
    "openssl",
    { "openssl", env = { OPENSSL_ia32cap = ":~0x20000000" }, label = "openssl-no-shani" },
    { "openssl", env = { OPENSSL_ia32cap = "~0x200000000000000:~0" }, label = "openssl-no-aesni" },
    { "openssl", env = { OPENSSL_armcap = "0" }, label = "openssl-armcap" },
  },
  algorithms  = { "sha256", "sha512", "aes-128-cbc" },
  ops         = { "hash", "encrypt" },
  sizes       = { "1MiB" },
  rounds      = cb.param("rounds", 10),
  order       = "round-robin",
  trial_time  = cb.param("trial_time", "50ms"),
}

-- Positive control: AES-NI masked must slow AES-128-CBC down (honoured).
cb.derive {
  name   = "AES-NI mask, aes-128-cbc (control)",
  ratio  = { { label = "openssl-no-aesni", algorithm = "aes-128-cbc" },
             { label = "openssl", algorithm = "aes-128-cbc" } },
  expect = { value = 0.16, tolerance = 0.6 },
}
-- The variable libcrypto never reads on x86-64: must stay at 1 (ignored).
cb.derive {
  name   = "OPENSSL_armcap, aes-128-cbc (ignored)",
  ratio  = { { label = "openssl-armcap", algorithm = "aes-128-cbc" },
             { label = "openssl", algorithm = "aes-128-cbc" } },
  expect = { value = 1, tolerance = 0.1 },
}
-- The questions: what SHA-NI is worth to each hash.
cb.derive {
  name  = "SHA-NI mask, sha256",
  ratio = { { label = "openssl-no-shani", algorithm = "sha256" },
            { label = "openssl", algorithm = "sha256" } },
}
cb.derive {
  name  = "SHA-NI mask, sha512",
  ratio = { { label = "openssl-no-shani", algorithm = "sha512" },
            { label = "openssl", algorithm = "sha512" } },
}
-- The SHA-NI mask's own control: the SHA-NI variable must not touch AES.
cb.derive {
  name   = "SHA-NI mask, aes-128-cbc (must stay)",
  ratio  = { { label = "openssl-no-shani", algorithm = "aes-128-cbc" },
             { label = "openssl", algorithm = "aes-128-cbc" } },
  expect = { value = 1, tolerance = 0.15 },
}
