-- The cell `openssl speed -evp ALGORITHM -bytes SIZE` measures, run the way
-- openssl speed's own loop runs it (parameter loop):
--   stream   one context, one update per buffer: its cipher loop
--            (EVP_EncryptUpdate), cryptobench's stream mode;
--   noreuse  a whole digest per buffer on a new context: its digest loop
--            (EVP_Digest: new, init, update, final, free), cryptobench's
--            message mode without context reuse.
-- Beside it, unless message = 0, cryptobench's default message mode (one
-- context reused; ciphers: IV reset per message).
local cb = require "cryptobench"

local loops = {
  stream  = { "openssl", mode = "stream" },
  noreuse = { "openssl", reuse = false },
}
local loop = cb.param("loop", "stream")
local variant = assert(loops[loop], "loop must be stream or noreuse")
local engines = { variant }
if cb.param("message", 1) ~= 0 then
  engines[2] = "openssl"
end

cb.scenario {
  name       = "openssl-speed-comparison",
  engines    = engines,
  algorithms = { cb.param("algorithm", "aes-128-cbc") },
  ops        = { cb.param("op", "encrypt") },
  sizes      = { cb.param("size", "16KiB") },
  rounds     = cb.param("rounds", 20),
  warmup     = 1,
  trial_time = "50ms",
}
