-- Question: does the SHA extension (SHA-NI) make SHA-256 and SHA-512 faster
-- here, judged by masking it (OPENSSL_ia32cap) in a process of its own?
-- A mask can be silently ignored, so every mask carries a positive control:
-- AES-128-CBC with AES-NI masked must slow down (measured here: to 0.25-0.26
-- of the speed, about 4x, not the ~6x a bare OpenSSL test program gave; `openssl speed -evp
-- aes-128-cbc -bytes 1048576` under the same mask gives 0.27).
-- `report` judges each variant with env against "openssl-worker", the same
-- engine in a worker child with the environment unchanged (env = {}), so the
-- variable is the only difference; cell by cell, paired by round, on the CPU
-- time (analysis/README.md, "Capability masks"): honoured when a cell moves
-- beyond delta, ignored when every cell stays within it, else not resolved;
-- what a feature is worth is stated only for an honoured mask.
-- OPENSSL_armcap, which libcrypto never reads on x86-64, must come out
-- ignored. It comes right after its reference so their trials run close in
-- time. Its SHA-512 cell decides how many rounds that takes: SHA-512 (vector
-- code) swings from trial to trial with what the other vCPU runs, 10-15% on
-- CPU time on a busy machine, and within 2% needs about 300 rounds then
-- (analysis/README.md has the figures); so the run goes on in blocks of 8
-- rounds after the first 40 until every mask is judged, within its stop
-- budget, and cells already answered leave the rotation.
-- The derived ratios below name the same comparisons one by one.
local cb = require "cryptobench"

cb.scenario {
  name        = "capability-mask",
  description = "SHA-256/SHA-512 with and without SHA-NI masked; AES-128-CBC with AES-NI masked as the positive control; OPENSSL_armcap as the ignored control; all in worker children",
  engines     = {
    { "openssl", env = {}, label = "openssl-worker" },
    { "openssl", env = { OPENSSL_armcap = "0" }, label = "openssl-armcap" },
    { "openssl", env = { OPENSSL_ia32cap = ":~0x20000000" }, label = "openssl-no-shani" },
    { "openssl", env = { OPENSSL_ia32cap = "~0x200000000000000:~0" }, label = "openssl-no-aesni" },
  },
  algorithms  = { "sha256", "sha512", "aes-128-cbc" },
  ops         = { "hash", "encrypt" },
  sizes       = { "1MiB" },
  rounds      = cb.param("rounds", 40),
  order       = "round-robin",
  trial_time  = cb.param("trial_time", "20ms"),
  stop        = { budget = "15m", max_rounds = 600 },
}

-- Positive control: AES-NI masked must slow AES-128-CBC down (honoured).
cb.derive {
  name   = "AES-NI mask, aes-128-cbc (control)",
  ratio  = { { label = "openssl-no-aesni", algorithm = "aes-128-cbc" },
             { label = "openssl-worker", algorithm = "aes-128-cbc" } },
  expect = { value = 0.26, tolerance = 0.1 },
}
-- The variable libcrypto never reads on x86-64: must stay at 1 (ignored).
cb.derive {
  name   = "OPENSSL_armcap, aes-128-cbc (ignored)",
  ratio  = { { label = "openssl-armcap", algorithm = "aes-128-cbc" },
             { label = "openssl-worker", algorithm = "aes-128-cbc" } },
  expect = { value = 1, tolerance = 0.1 },
}
-- The questions: what SHA-NI is worth to each hash.
cb.derive {
  name  = "SHA-NI mask, sha256",
  ratio = { { label = "openssl-no-shani", algorithm = "sha256" },
            { label = "openssl-worker", algorithm = "sha256" } },
}
cb.derive {
  name  = "SHA-NI mask, sha512",
  ratio = { { label = "openssl-no-shani", algorithm = "sha512" },
            { label = "openssl-worker", algorithm = "sha512" } },
}
-- The SHA-NI mask's own control: the SHA-NI variable must not touch AES.
cb.derive {
  name   = "SHA-NI mask, aes-128-cbc (must stay)",
  ratio  = { { label = "openssl-no-shani", algorithm = "aes-128-cbc" },
             { label = "openssl-worker", algorithm = "aes-128-cbc" } },
  expect = { value = 1, tolerance = 0.15 },
}
