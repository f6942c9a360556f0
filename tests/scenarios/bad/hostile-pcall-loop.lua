-- expect: script stopped: ran 
-- line: 6
-- cli-only: runs the whole time budget
local cb = require "cryptobench"
-- the script's own pcall cannot catch the stop and go on
while true do pcall(function() while true do end end) end
