-- The cells tests/bench/peers.sh checks against each ecosystem's own
-- benchmark tool: SHA-256, SHA-512, AES-256-GCM and AES-128-CBC at 64 B,
-- 16 KiB and 1 MiB, in-process OpenSSL, each runtime's worker with output
-- "reuse" and, where the runtime has both, "fresh", and the command engines.
-- OpenSSL runs the loops `openssl speed -evp` runs (its apps/speed.c, 3.0):
-- a cipher without AEAD updates one context (EVP_EncryptUpdate per buffer),
-- cryptobench's stream mode; a digest is EVP_Digest per buffer (a new
-- context, init, update, final, free), message mode with reuse = false; an
-- AEAD re-keys one context per message (the IV length, EVP_CipherInit_ex with
-- key and IV, update, final), whose nearest cryptobench loop is also
-- reuse = false (a new keyed context per message, and the tag fetched: the
-- difference is in peers.sh's table of known differences when it shows).
-- The default message mode (one context, the IV reset per message) is no
-- loop openssl speed runs.
-- Short trials: the script alternates a run of one group (--set group=NAME)
-- with that group's peer, three times, so that each pair is seconds apart.
local cb = require "cryptobench"

local groups = {
  openssl  = { { "openssl", mode = "stream" }, { "openssl", reuse = false } },
  commands = { "sha256sum", "sha512sum" },
  node     = { "node-crypto" },
  python   = { "python-hashlib", "python-cryptography", { "python-cryptography", output = "fresh" } },
  dotnet   = { "dotnet", { "dotnet", output = "fresh" } },
  go       = { "go-crypto", { "go-crypto", output = "fresh" } },
  rust     = { "rust-ring", { "rust-ring", output = "fresh" } },
  java     = { "java-jca", { "java-jca", output = "fresh" } },
}
local group = cb.param("group", "all")
-- peers.sh runs Go's cells one a time (--only), each in its own worker, as
-- each testing.B benchmark runs in its own process. A run of the whole go
-- group runs its cells one after another (order "blocked"), each on the
-- heap it makes: in round-robin a cell's trials page-fault into the memory
-- the runtime gave back after the group's fresh 1 MiB cells, and follow
-- their faults (analysis/README.md). Node.js's cells run blocked too (with
-- the warm-up below, 10 and 11 of its 12 cells within 5% of tinybench,
-- against 7 in round-robin). Every other group runs in cryptobench's
-- default round-robin.
local order = (group == "go" or group == "node") and "blocked" or "round-robin"
-- Node.js's cells get tinybench's warm-up: 100 calls, a 50 ms calibration,
-- 100 ms of warm-up and 2 warm-up batches before its samples, some 0.2 s a
-- cell; 8 rounds of 20 ms here. After one round a fresh worker's AES-256-GCM
-- 16 KiB trials read up to 56 us a call for some 120 ms of calls, then 7-8,
-- as tinybench's 7.5-8.4 (analysis/README.md). Every other group keeps one
-- warm-up round, with which its agreement was measured.
local warmup = group == "node" and 8 or 1
-- The commands run one cell a time against hyperfine (peers.sh), each side
-- about a second: 40 rounds of a trial's ~22 ms of processes. The others
-- keep 7 rounds.
local rounds = group == "commands" and 40 or 7
local engines = groups[group]
if group == "all" then
  engines = {}
  for _, name in ipairs { "openssl", "commands", "node", "python", "dotnet", "go", "rust", "java" } do
    for _, e in ipairs(groups[name]) do engines[#engines + 1] = e end
  end
end

cb.scenario {
  name        = "peers",
  description = "cells cross-checked by tests/bench/peers.sh against BenchmarkDotNet, tinybench, timeit, testing.B, hyperfine, openssl speed, a plain Rust loop and a System.nanoTime loop",
  engines     = cb.available(engines),
  algorithms  = { "sha256", "sha512", "aes-256-gcm", "aes-128-cbc" },
  ops         = { "hash", "encrypt" },
  sizes       = { "64B", "16KiB", "1MiB" },
  rounds      = cb.param("rounds", rounds),
  order       = order,
  warmup      = warmup,
  trial_time  = cb.param("trial_time", "20ms"),
}
