-- expect: cb.scenario{} is missing the field 'name'
-- line: 6
local cb = require "cryptobench"
-- fields behind an __index that never returns: C reads tables raw, so no
-- metamethod of the script runs and the fields are simply not there
cb.scenario(setmetatable({}, { __index = function(t, k) while true do end end }))
