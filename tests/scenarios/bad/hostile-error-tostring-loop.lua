-- expect: script stopped: ran 
-- line: 5
-- cli-only: runs the whole time budget
local cb = require "cryptobench"
error(setmetatable({}, { __tostring = function() while true do end end }))
