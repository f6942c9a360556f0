-- expect: C stack overflow
-- line: 5
local cb = require "cryptobench"
local e
e = setmetatable({}, { __tostring = function() error(e) end })
error(e)
