-- expect: (error object is a table value)
-- line: 4
local cb = require "cryptobench"
error({ code = 1 })
