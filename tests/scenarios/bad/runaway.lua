-- expect: script stopped: ran longer than 5 s (runaway loop?)
-- line: 6
local cb = require "cryptobench"
local n = 0
while true do
  n = n + 1
end
