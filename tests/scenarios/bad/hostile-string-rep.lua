-- expect: resulting string too large
-- line: 4
local cb = require "cryptobench"
local s = string.rep("x", 1 << 62)
