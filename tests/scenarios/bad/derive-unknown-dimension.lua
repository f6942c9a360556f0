-- expect: unknown dimension 'engines' (did you mean 'engine'?)
-- line: 12
local cb = require "cryptobench"
cb.scenario {
  name       = "by a dimension that does not exist",
  engines    = { "sim", "null" },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
cb.derive { name = "r",
  ratio = { { algorithm = "sha256" }, { engine = "null" } },
  by    = { "engines" },
}
