-- expect: its numerator selects algorithm 'sha512', which is not in the scenario (one of: sha256, md5)
-- line: 12
local cb = require "cryptobench"
cb.scenario {
  name       = "an algorithm the scenario does not run",
  engines    = { "sim" },
  algorithms = { "sha256", "md5" },
  sizes      = { 64 },
}
cb.derive {
  name  = "r",
  ratio = { { algorithm = "sha512" }, { algorithm = "md5" } },
}
