-- expect: setmetatable: __gc (finalizers) is not allowed in scenarios
-- line: 4
local cb = require "cryptobench"
setmetatable({}, { __gc = function() while true do end end })
