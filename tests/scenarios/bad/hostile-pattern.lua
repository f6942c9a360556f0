-- expect: script stopped: still running after 3 s of CPU time inside a library call
-- line: 7
-- cli-only: a library call no budget can stop: the command's watchdog ends it
local cb = require "cryptobench"
-- a pattern match neither runs Lua nor allocates: only the watchdog ends it
local s = string.rep("a", 100000)
local x = s:find(".-.-.-.-.-.-.-.-b")
