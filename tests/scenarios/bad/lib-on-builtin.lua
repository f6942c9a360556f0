-- expect: 'lib' applies to the library engines built as objects of their own
-- line: 7
local cb = require "cryptobench"
cb.scenario {
  name       = "another build of an engine without a library",
  engines    = { "sim",
    { "memcpy", lib = "/nonexistent/cryptobench/libcrypto.so.3", label = "other" } },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
