-- expect: not enough memory (a scenario may use 256 MiB)
-- line: 12
local cb = require "cryptobench"
-- most of the memory in strings (12 x 16 MiB, each one copy), then a table doubling past the rest
local big = string.rep("x", 1 << 24)
local pads = {}
for i = 1, 12 do
  pads[i] = big .. i
end
local t = { 1 }
for i = 1, 40 do
  table.move(t, 1, #t, #t + 1)
end
