-- expect: not enough memory
-- line: 6
local cb = require "cryptobench"
local s = "x"
while true do
  s = s .. s
end
