#!/usr/bin/env node
// cryptobench worker for Node.js (see PROTOCOL.md in this folder).
//
// Speaks JSON lines on stdin/stdout: a hello first, then one result per
// request. One call is one message through the crypto module: createHash,
// update, digest; createCipheriv, update, final (no padding), getAuthTag.
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

function hasher(alg) {
  const name = HASHES[alg];
  return (data) => crypto.createHash(name).update(data).digest();
}

// One message: returns the output, or null when the tag is rejected.
function cipher(alg, key, iv, aad, decrypt) {
  if (isAead(alg)) {
    const opts = { authTagLength: 16 };
    if (!decrypt) {
      return (data) => {
        const c = crypto.createCipheriv(alg, key, iv, opts);
        if (aad) c.setAAD(aad, { plaintextLength: data.length });
        const body = c.update(data);
        c.final();
        return Buffer.concat([body, c.getAuthTag()]);
      };
    }
    return (sealed) => {
      const n = sealed.length - 16;
      const d = crypto.createDecipheriv(alg, key, iv, opts);
      d.setAuthTag(sealed.subarray(n));
      if (aad) d.setAAD(aad, { plaintextLength: n });
      const body = d.update(sealed.subarray(0, n));
      try {
        d.final();
      } catch (e) {
        return null;
      }
      return body;
    };
  }
  return (data) => {
    const c = decrypt ? crypto.createDecipheriv(alg, key, iv) : crypto.createCipheriv(alg, key, iv);
    c.setAutoPadding(false);
    const body = c.update(data);
    c.final();
    return body;
  };
}

function run(req) {
  const { algorithm: alg, op } = req;
  const size = Number(req.size), calls = Number(req.calls), src = req.input;
  let data, inputSha;
  if (src.base64 !== undefined) {
    data = Buffer.from(src.base64, 'base64');
    inputSha = crypto.createHash('sha256').update(data).digest('hex');
  } else {
    [data, inputSha] = generated(Number(src.seed), size);
  }
  let call;
  if (op === 'hash') {
    call = hasher(alg);
  } else {
    const key = material(req.key === undefined ? 'counting' : req.key, keyLen(alg));
    const iv = material(req.iv === undefined ? 'counting' : req.iv, ivLen(alg));
    const aad = material(req.aad, 0);
    if (op === 'encrypt') {
      call = cipher(alg, key, iv, aad, false);
    } else {
      let sealed;
      if (src.base64 !== undefined) {
        sealed = isAead(alg) ? Buffer.concat([data, Buffer.from(req.tag, 'hex')]) : data;
        inputSha = null; // the plaintext is what comes out
      } else {
        sealed = Buffer.from(cipher(alg, key, iv, aad, false)(data));
      }
      if (op === 'decrypt-forged' && src.base64 === undefined) sealed[size] ^= 1;
      data = sealed;
      call = cipher(alg, key, iv, aad, true);
    }
  }
  let out = null, rejected = 0;
  const cpu0 = process.cpuUsage(), t0 = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) {
    out = call(data);
    if (out === null) rejected++;
  }
  const t1 = process.hrtime.bigint(), cpu = process.cpuUsage(cpu0);
  if (rejected && rejected !== calls) return { status: 'error', error: `${rejected} of ${calls} calls rejected the tag` };
  if (inputSha === null) inputSha = crypto.createHash('sha256').update(out || Buffer.alloc(0)).digest('hex');
  return {
    status: rejected ? 'rejected' : 'ok',
    calls,
    ns: Number(t1 - t0),
    cpu_ns: (cpu.user + cpu.system) * 1000,
    input_sha256: inputSha,
    output: (out || Buffer.alloc(0)).toString('base64'),
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
  protocol: 1,
  engine: 'node-crypto',
  runtime: `Node.js ${process.version}`,
  executable: process.execPath,
  library: `OpenSSL ${process.versions.openssl}`,
  module: 'crypto',
  clock: 'process.hrtime.bigint (CLOCK_MONOTONIC)',
  cpu_clock: 'process.cpuUsage (whole process)',
  algorithms,
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
