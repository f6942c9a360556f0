-- expect: binary chunks are not allowed
-- line: 5
local cb = require "cryptobench"
local bytes = string.char(27) .. "Lua" .. string.char(0x54, 0)
local f = load(bytes)
