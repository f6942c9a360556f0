-- expect: not enough memory (a scenario may use 256 MiB)
-- line: 4
local cb = require "cryptobench"
local s = string.rep("abcdefgh", 1 << 27, ",")
