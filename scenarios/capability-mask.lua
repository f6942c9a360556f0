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
-- On AArch64 (cb.host.arch: the machine that runs this) the masks are
-- OPENSSL_armcap's instead: see below.
local cb = require "cryptobench"

-- AArch64: OpenSSL 3.0 takes OPENSSL_armcap as the whole capability word
-- (crypto/armcap.c: strtoul, no "~"), so a mask is every feature this CPU has
-- but the masked one, and never a bit it lacks, which would have libcrypto run
-- an instruction the CPU does not have. The word's bits (crypto/arm_arch.h):
-- NEON 0x1, AES 0x4, SHA1 0x8, SHA256 0x10, PMULL 0x20, SHA512 0x40; CPUID
-- (0x80, which only picks RSA code) and later releases' bits stay clear in
-- every mask. SHA-2 (SHA256 and SHA512), AES and PMULL are masked;
-- AES-128-GCM's GHASH is what PMULL is for; AES-128-CBC is the positive
-- control; OPENSSL_ia32cap, which libcrypto never reads on AArch64, must come
-- out ignored. No figure is expected of a mask's slow-down here: none was
-- measured on an ARM machine by this project (under emulation timings mean
-- nothing).
local armcap_bits = { asimd = 0x1, aes = 0x4, sha1 = 0x8, sha2 = 0x10, pmull = 0x20,
                      sha512 = 0x40 }

-- The word of this CPU's features less the named ones, as "0x..".
local function armcap_without(...)
  local word = 0
  for feature, bit in pairs(armcap_bits) do
    if cb.host.features[feature] then word = word | bit end
  end
  for _, feature in ipairs { ... } do word = word & ~armcap_bits[feature] end
  return string.format("0x%x", word)
end

local function aarch64()
  cb.scenario {
    name        = "capability-mask",
    description = "SHA-256/SHA-512 with and without SHA-2 masked; AES-128-CBC with AES masked as the positive control; AES-128-GCM with PMULL masked; OPENSSL_ia32cap as the ignored control; all in worker children",
    engines     = {
      { "openssl", env = {}, label = "openssl-worker" },
      { "openssl", env = { OPENSSL_ia32cap = "0" }, label = "openssl-ia32cap" },
      { "openssl", env = { OPENSSL_armcap = armcap_without("sha2", "sha512") },
        label = "openssl-no-sha2" },
      { "openssl", env = { OPENSSL_armcap = armcap_without("aes") }, label = "openssl-no-aes" },
      { "openssl", env = { OPENSSL_armcap = armcap_without("pmull") }, label = "openssl-no-pmull" },
    },
    algorithms  = { "sha256", "sha512", "aes-128-cbc", "aes-128-gcm" },
    ops         = { "hash", "encrypt" },
    sizes       = { "1MiB" },
    rounds      = cb.param("rounds", 40),
    order       = "round-robin",
    trial_time  = cb.param("trial_time", "20ms"),
    stop        = { budget = "15m", max_rounds = 600 },
  }
  cb.derive {
    name  = "AES mask, aes-128-cbc (control)",
    ratio = { { label = "openssl-no-aes", algorithm = "aes-128-cbc" },
              { label = "openssl-worker", algorithm = "aes-128-cbc" } },
  }
  cb.derive {
    name   = "OPENSSL_ia32cap, aes-128-cbc (ignored)",
    ratio  = { { label = "openssl-ia32cap", algorithm = "aes-128-cbc" },
               { label = "openssl-worker", algorithm = "aes-128-cbc" } },
    expect = { value = 1, tolerance = 0.1 },
  }
  cb.derive {
    name  = "SHA-2 mask, sha256",
    ratio = { { label = "openssl-no-sha2", algorithm = "sha256" },
              { label = "openssl-worker", algorithm = "sha256" } },
  }
  cb.derive {
    name  = "SHA-2 mask, sha512",
    ratio = { { label = "openssl-no-sha2", algorithm = "sha512" },
              { label = "openssl-worker", algorithm = "sha512" } },
  }
  cb.derive {
    name  = "PMULL mask, aes-128-gcm",
    ratio = { { label = "openssl-no-pmull", algorithm = "aes-128-gcm" },
              { label = "openssl-worker", algorithm = "aes-128-gcm" } },
  }
  cb.derive {
    name   = "SHA-2 mask, aes-128-cbc (must stay)",
    ratio  = { { label = "openssl-no-sha2", algorithm = "aes-128-cbc" },
               { label = "openssl-worker", algorithm = "aes-128-cbc" } },
    expect = { value = 1, tolerance = 0.15 },
  }
end

if cb.host.arch == "aarch64" then
  aarch64()
  return
end

-- x86-64 (and any other machine: there the masks are ignored, which the
-- report says).
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
