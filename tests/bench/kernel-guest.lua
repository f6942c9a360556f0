-- The kernel's crypto interface beside the runtime's library, inside a KVM
-- guest whose kernel has AF_ALG (tests/bench/kernel-guest.sh runs it there).
-- The seeds' question: is the operating system's own interface faster or
-- slower than the library a runtime calls? In-process: kcapi (libkcapi's
-- AF_ALG calls) against openssl; from Python: python-afalg (socket.AF_ALG,
-- standard library) against python-hashlib (OpenSSL underneath).
--
-- `--set part=aead` runs AES-256-GCM instead, at the sizes one AF_ALG AEAD
-- operation takes whole (a 16 MiB message does not fit its socket buffers).
local cb = require "cryptobench"

local aead = cb.param("part", "main") == "aead"

cb.scenario {
  name        = aead and "kernel-guest-aead" or "kernel-guest",
  description = "the kernel's AF_ALG interface (kcapi, Python socket.AF_ALG) beside OpenSSL and Python hashlib",
  engines     = aead and { "openssl", "kcapi", "python-afalg" }
                     or { "openssl", "kcapi", "python-hashlib", "python-afalg" },
  algorithms  = aead and { "aes-256-gcm" } or { "sha256", "sha512", "aes-128-cbc", "aes-128-ctr" },
  ops         = { "hash", "encrypt" },
  sizes       = aead and { "64B", "16KiB" } or { "64B", "16KiB", "16MiB" },
  rounds      = cb.param("rounds", 15),
  order       = "round-robin",
  trial_time  = cb.param("trial_time", "20ms"),
}

-- In process: the kernel's interface over the library (above 1: the kernel
-- is faster), paired by round.
cb.derive {
  name  = "kcapi/openssl",
  ratio = { { engine = "kcapi" }, { engine = "openssl" } },
  by    = { "algorithm", "op", "size" },
}
-- From Python: socket.AF_ALG over hashlib (hashes) and over OpenSSL itself.
if not aead then
  cb.derive {
    name  = "python-afalg/python-hashlib",
    ratio = { { engine = "python-afalg" }, { engine = "python-hashlib" } },
    by    = { "algorithm", "op", "size" },
  }
end
cb.derive {
  name  = "python-afalg/openssl",
  ratio = { { engine = "python-afalg" }, { engine = "openssl" } },
  by    = { "algorithm", "op", "size" },
}
