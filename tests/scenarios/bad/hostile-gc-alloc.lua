-- expect: setmetatable: __gc (finalizers) is not allowed in scenarios
-- line: 5
local cb = require "cryptobench"
local mt = { __gc = function() local t = {} while true do t[#t + 1] = {} end end }
local x = setmetatable({}, mt)
