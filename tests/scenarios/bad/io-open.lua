-- expect: attempt to index a nil value (global 'io')
-- line: 4
local cb = require "cryptobench"
local f = io.open("/etc/passwd")
