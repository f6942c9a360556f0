-- expect: module 'os' is not available in scenarios
-- line: 4
local cb = require "cryptobench"
local os = require "os"
