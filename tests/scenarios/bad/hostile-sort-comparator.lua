-- expect: invalid order function for sorting
-- line: 5
local cb = require "cryptobench"
local t = {} for i = 1, 100 do t[i] = i end
table.sort(t, function(a, b) return true end)
