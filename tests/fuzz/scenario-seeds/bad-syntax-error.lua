-- expect: '}' expected (to close '{' at line 4) near 'algorithms'
-- line: 7
local cb = require "cryptobench"
cb.scenario {
  name       = "syntax",
  engines    = { "sim" }
  algorithms = { "sha256" },
  sizes      = { 64 },
}
