-- expect: script stopped: ran 
-- line: 7
-- cli-only: runs the whole time budget
local cb = require "cryptobench"
local n = 0
while true do
  n = n + 1
end
