-- expect: C stack overflow
-- line: 4
local cb = require "cryptobench"
local t = setmetatable({}, { __index = function(t, k) return t[k .. "x"] end })
local x = t.a
