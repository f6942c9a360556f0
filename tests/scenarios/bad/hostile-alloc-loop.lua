-- expect: script stopped: ran more than 2 s of CPU time
-- line: 7
-- cli-only: runs the whole time budget
local cb = require "cryptobench"
-- C code that runs no Lua but allocates as it goes: stopped at an allocation
for i = 1, 1000 do
  local s = string.rep("x", 100 << 20)
end
