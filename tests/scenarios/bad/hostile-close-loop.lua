-- expect: script stopped: ran 
-- line: 6
-- cli-only: runs the whole time budget
local cb = require "cryptobench"
do
  local x <close> = setmetatable({}, { __close = function() while true do end end })
end
