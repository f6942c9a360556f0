#!/usr/bin/env node
// cryptobench worker for Node.js (see PROTOCOL.md in this folder).
//
// Speaks JSON lines on stdin/stdout: a hello first, then one result per
// request. One call is one message through the crypto module: createHash,
// update, digest; createCipheriv, update, final (no padding), getAuthTag.
// The timed loop holds those calls and nothing else: the last call's pieces
// (an AEAD's ciphertext and tag) are joined after the timing.
'use strict';

const crypto = require('crypto');
const readline = require('readline');

const UNIT = 1 << 20;
const HASHES = { md5: 'md5', sha1: 'sha1', sha256: 'sha256', sha512: 'sha512', 'blake2b-512': 'blake2b512', 'sha3-256': 'sha3-256' };
const CIPHERS = ['aes-128-cbc', 'aes-256-cbc', 'aes-128-ctr', 'aes-256-ctr'];
const AEADS = ['aes-128-gcm', 'aes-256-gcm', 'chacha20-poly1305'];

const isAead = (alg) => AEADS.includes(alg);
const keyLen = (alg) => (alg.startsWith('aes-128') ? 16 : 32);
const ivLen = (alg) => (isAead(alg) ? 12 : 16);
const counting = (n) => Buffer.from(Array.from({ length: n }, (_, i) => i));

function material(value, n) {
  if (value === null || value === undefined) return null;
  return value === 'counting' ? counting(n) : Buffer.from(value, 'hex');
}

// The 1 MiB unit of the generator (PROTOCOL.md), repeated to the largest size.
const inputs = { seed: null, unit: null, data: Buffer.alloc(0), digests: new Map() };
function generated(seed, size) {
  if (seed !== inputs.seed) {
    let x = seed >>> 0;
    const unit = Buffer.alloc(UNIT);
    for (let i = 0; i < UNIT; i++) {
      x ^= x << 13; x >>>= 0;
      x ^= x >>> 17;
      x ^= x << 5; x >>>= 0;
      unit[i] = x & 0xff;
    }
    Object.assign(inputs, { seed, unit, data: Buffer.alloc(0), digests: new Map() });
  }
  if (inputs.data.length < size) {
    const reps = Math.ceil(size / UNIT);
    inputs.data = Buffer.concat(Array(reps).fill(inputs.unit));
  }
  const view = inputs.data.subarray(0, size);
  if (!inputs.digests.has(size)) inputs.digests.set(size, crypto.createHash('sha256').update(view).digest('hex'));
  return [view, inputs.digests.get(size)];
}

// What each output mode calls, per algorithm and op (null: no such API). The
// crypto module's update, final and digest always return a new Buffer: Node
// has no call that writes into a caller's buffer, so "reuse" runs "fresh".
function api(alg, op) {
  if (HASHES[alg]) return { reuse: null, fresh: `createHash('${HASHES[alg]}').update(data).digest()` };
  const make = op === 'encrypt' ? 'createCipheriv' : 'createDecipheriv';
  if (isAead(alg)) {
    const tag = op === 'encrypt' ? '; getAuthTag()' : '';
    const set = op === 'encrypt' ? '' : '.setAuthTag(tag)';
    return { reuse: null, fresh: `${make}('${alg}', key, nonce)${set}.update(data); final()${tag}` };
  }
  return { reuse: null, fresh: `${make}('${alg}', key, iv).setAutoPadding(false).update(data); final()` };
}

// Whether a timed loop runs, and how many outputs were assembled while it
// did (PROTOCOL.md: timed.assembled_in_loop, which must be 0).
const timing = { running: false, assembledInLoop: 0 };

// The output from the last call's pieces (AEAD: ciphertext, then tag).
function assemble(pieces) {
  if (timing.running) timing.assembledInLoop++;
  return pieces.length === 1 ? pieces[0] : Buffer.concat(pieces);
}

// One cell's calls: fn(data) is one message (false: the tag was rejected);
// pieces() the last call's output, joined after the timing by assemble().
function calls(alg, op, key, iv, aad) {
  const last = [Buffer.alloc(0), null];
  const names = api(alg, op);
  const done = (fn, pieces) => ({ api: names.fresh, output: 'fresh', fn, pieces });
  if (HASHES[alg]) {
    const name = HASHES[alg];
    return done((data) => {
      last[0] = crypto.createHash(name).update(data).digest();
      return true;
    }, () => [last[0]]);
  }
  if (isAead(alg)) {
    const opts = { authTagLength: 16 };
    if (op === 'encrypt') {
      return done((data) => {
        const c = crypto.createCipheriv(alg, key, iv, opts);
        if (aad) c.setAAD(aad, { plaintextLength: data.length });
        last[0] = c.update(data);
        c.final();
        last[1] = c.getAuthTag();
        return true;
      }, () => [last[0], last[1]]);
    }
    return done((sealed) => {
      const n = sealed.length - 16;
      const d = crypto.createDecipheriv(alg, key, iv, opts);
      d.setAuthTag(sealed.subarray(n));
      if (aad) d.setAAD(aad, { plaintextLength: n });
      last[0] = d.update(sealed.subarray(0, n));
      try {
        d.final();
      } catch (e) {
        return false;
      }
      return true;
    }, () => [last[0]]);
  }
  const decrypt = op !== 'encrypt';
  return done((data) => {
    const c = decrypt ? crypto.createDecipheriv(alg, key, iv) : crypto.createCipheriv(alg, key, iv);
    c.setAutoPadding(false);
    last[0] = c.update(data);
    c.final();
    return true;
  }, () => [last[0]]);
}

// CALLS calls of FN on DATA and nothing else.
function timedLoop(fn, data, n) {
  let rejected = 0;
  timing.running = true;
  const cpu0 = process.cpuUsage(), t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) if (!fn(data)) rejected++;
  const t1 = process.hrtime.bigint(), cpu = process.cpuUsage(cpu0);
  timing.running = false;
  return { ns: Number(t1 - t0), cpuNs: (cpu.user + cpu.system) * 1000, rejected };
}

function run(req) {
  const { algorithm: alg, op } = req;
  const size = Number(req.size), n = Number(req.calls), src = req.input;
  const output = req.output === undefined ? 'reuse' : req.output;
  if (output !== 'reuse' && output !== 'fresh') return { status: 'error', error: `output must be reuse or fresh, not ${output}` };
  let data, inputSha;
  if (src.base64 !== undefined) {
    data = Buffer.from(src.base64, 'base64');
    inputSha = crypto.createHash('sha256').update(data).digest('hex');
  } else {
    [data, inputSha] = generated(Number(src.seed), size);
  }
  let key = null, iv = null, aad = null;
  if (op !== 'hash') {
    key = material(req.key === undefined ? 'counting' : req.key, keyLen(alg));
    iv = material(req.iv === undefined ? 'counting' : req.iv, ivLen(alg));
    aad = material(req.aad, 0);
  }
  if (op.startsWith('decrypt')) {
    let sealed;
    if (src.base64 !== undefined) {
      sealed = isAead(alg) ? Buffer.concat([data, Buffer.from(req.tag, 'hex')]) : data;
      inputSha = null; // the plaintext is what comes out
    } else {
      const seal = calls(alg, 'encrypt', key, iv, aad);
      seal.fn(data);
      sealed = Buffer.from(assemble(seal.pieces()));
    }
    if (op === 'decrypt-forged' && src.base64 === undefined) sealed[size] ^= 1;
    data = sealed;
  }
  const todo = calls(alg, op, key, iv, aad);
  timing.assembledInLoop = 0;
  const t = timedLoop(todo.fn, data, n);
  if (t.rejected && t.rejected !== n) return { status: 'error', error: `${t.rejected} of ${n} calls rejected the tag` };
  const out = t.rejected ? Buffer.alloc(0) : assemble(todo.pieces());
  if (inputSha === null) inputSha = crypto.createHash('sha256').update(out).digest('hex');
  return {
    status: t.rejected ? 'rejected' : 'ok',
    calls: n,
    ns: t.ns,
    cpu_ns: t.cpuNs,
    timed: { calls: n, api: todo.api, output: todo.output, assembled_in_loop: timing.assembledInLoop },
    // JavaScript cannot see a Buffer's address: nothing is placed.
    placed: { input_offset: null, out: null, stack: null },
    input_sha256: inputSha,
    output: out.toString('base64'),
  };
}

function send(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

const algorithms = {};
const available = new Set([...crypto.getHashes(), ...crypto.getCiphers()]);
for (const [alg, name] of Object.entries(HASHES)) if (available.has(name)) algorithms[alg] = ['hash'];
for (const alg of CIPHERS) if (available.has(alg)) algorithms[alg] = ['encrypt', 'decrypt'];
for (const alg of AEADS) if (available.has(alg)) algorithms[alg] = ['encrypt', 'decrypt', 'decrypt-forged'];

send({
  type: 'hello',
  protocol: 2,
  engine: 'node-crypto',
  runtime: `Node.js ${process.version}`,
  executable: process.execPath,
  library: `OpenSSL ${process.versions.openssl}`,
  module: 'crypto',
  clock: 'process.hrtime.bigint (CLOCK_MONOTONIC)',
  cpu_clock: 'process.cpuUsage (whole process)',
  algorithms,
  calls: Object.fromEntries(Object.entries(algorithms).map(([alg, ops]) => [alg, Object.fromEntries(ops.map((op) => [op, api(alg, op)]))])),
});

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  const req = JSON.parse(line);
  let answer;
  try {
    answer = run(req);
  } catch (e) {
    answer = { status: 'error', error: `${e.name}: ${e.message}`.split('\n')[0] };
  }
  send(Object.assign(answer, { type: 'result', id: req.id }));
});
