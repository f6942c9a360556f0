-- Question: what does hashing a file with a whole command-line tool cost
-- against the same library called in-process, on the same bytes? Each
-- command trial times whole processes (start-up and reading the file
-- included, by design) and checks the digest it prints; the `true` cell is
-- the cost of starting a process and nothing else.
local cb = require "cryptobench"

cb.scenario {
  name        = "file-tools",
  description = "sha256sum, sha512sum, md5sum, b2sum, openssl dgst against in-process engines",
  engines     = cb.available { "sha256sum", "sha512sum", "md5sum", "b2sum", "openssl-dgst", "true",
                               "openssl", "gcrypt" },
  algorithms  = { "md5", "sha256", "sha512", "blake2b-512" },
  ops         = { "hash" },
  sizes       = { "4KiB", "1MiB", cb.param("big", "64MiB") },
  rounds      = cb.param("rounds", 10),
  order       = "round-robin",
  trial_time  = cb.param("trial_time", "100ms"),
}
