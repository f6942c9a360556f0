-- expect: its expect.when selects op 'decrypt', which is not in the scenario (did you mean 'encrypt'?)
-- line: 15
local cb = require "cryptobench"
cb.scenario {
  name       = "an expectation for an op not run",
  engines    = { "sim" },
  algorithms = { "aes-128-ctr", "aes-256-ctr" },
  ops        = { "encrypt" },
  sizes      = { 4096 },
}
cb.derive {
  name   = "aes256/aes128",
  ratio  = { { algorithm = "aes-256-ctr" }, { algorithm = "aes-128-ctr" } },
  expect = { value = 0.71, tolerance = 0.05,
             when = { op = "decrypt" } },
}
