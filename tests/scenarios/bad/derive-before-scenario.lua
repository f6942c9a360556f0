-- expect: derived metric 'r': its numerator selects engine 'smi', which is not in the scenario (did you mean 'sim'?)
-- line: 6
local cb = require "cryptobench"
-- declared before cb.scenario{}: checked once the script has declared everything
cb.derive { name = "r",
  ratio = { { engine = "smi" }, { engine = "null" } } }
cb.scenario {
  name       = "derive first",
  engines    = { "sim", "null" },
  algorithms = { "sha256" },
  sizes      = { 64 },
}
