-- expect: script stopped:
-- line: 8
-- cli-only: runs the whole time budget
local cb = require "cryptobench"
-- C code that runs no Lua: stopped by the CPU budget at an allocation, or by
-- the watchdog between two (string.rep allocates once, then copies)
for i = 1, 1000 do
  local s = string.rep("x", 100 << 20)
end
