-- Question: how much of in-process OpenSSL's AES-256-GCM at 1 MiB does a
-- runtime's user get, when .NET and Node.js call the same OpenSSL (3.0 here)?
-- .NET with output "reuse" (AesGcm.Encrypt into spans made once) and
-- "fresh" (a new ciphertext and tag array per call), Node.js's
-- createCipheriv/update/final (it only allocates), each over in-process
-- openssl paired by round: round-robin, so a round's load falls on all four.
-- The workers' ratios are of CPU time when every trial has it (they count no
-- cycles; their wall time carries their preemptions).
local cb = require "cryptobench"

cb.scenario {
  name        = "runtime-vs-openssl",
  description = "AES-256-GCM at 1 MiB: .NET (reuse, fresh) and Node.js over in-process OpenSSL",
  engines     = cb.available { "openssl", "dotnet", { "dotnet", output = "fresh" }, "node-crypto" },
  algorithms  = { "aes-256-gcm" },
  ops         = { "encrypt" },
  sizes       = { cb.param("size", "1MiB") },
  rounds      = cb.param("rounds", 30),
  order       = "round-robin",
  trial_time  = cb.param("trial_time", "50ms"),
}

cb.derive {
  name  = "runtime/openssl",
  ratio = { {}, { engine = "openssl" } },
  by    = { "label" },
}
