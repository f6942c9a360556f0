-- expect: module 'debug' is not available in scenarios
-- line: 5
local cb = require "cryptobench"
-- debug.sethook would remove the budget's hook
local debug = require "debug"
debug.sethook()
