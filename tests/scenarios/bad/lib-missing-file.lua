-- expect: /nonexistent/cryptobench/libcrypto.so.3: No such file or directory
-- line: 8
local cb = require "cryptobench"
cb.scenario {
  name       = "another build that is not there",
  engines    = { "openssl",
    { "openssl", label = "gone",
      lib = "/nonexistent/cryptobench/libcrypto.so.3" } },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
