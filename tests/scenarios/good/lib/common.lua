-- Helpers shared by the fixtures; cb.include() runs this in the sandbox.
local cb = require "cryptobench"

return {
  engines = { "null", "memcpy" },
  sizes = function() return cb.geometric("1KiB", "1MiB", 32) end,
}
