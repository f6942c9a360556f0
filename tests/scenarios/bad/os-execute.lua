-- expect: attempt to index a nil value (global 'os')
-- line: 4
local cb = require "cryptobench"
os.execute("touch /tmp/cryptobench-sandbox-escape")
