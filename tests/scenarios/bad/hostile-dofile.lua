-- expect: attempt to call a nil value (global 'dofile')
-- line: 4
local cb = require "cryptobench"
dofile("/etc/passwd")
