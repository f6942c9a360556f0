-- expect: attempt to index a nil value (global 'coroutine')
-- line: 4
local cb = require "cryptobench"
local co = coroutine.wrap(function() while true do end end)
