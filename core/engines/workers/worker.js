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

// ---- Public-key cells (PROTOCOL.md, "Public-key cells") ----
//
// Every scheme the cells name, as Node's crypto offers it: crypto.sign and
// crypto.verify take the message and hash it themselves (no call signs a
// digest), so RSA and ECDSA sign and verify the message, the `size` bytes of
// the input, whose digest is the one the cell's signature is of; Ed25519
// signs the message (algorithm null). derive is crypto.diffieHellman, keygen
// generateKeyPairSync with the key's JWK export for its numbers (the cells'
// layout). Keys are KeyObjects made before the timed loop.
const RSA_BITS = { 'rsa-2048': 2048, 'rsa-3072': 3072, 'rsa-4096': 4096 };
const CURVES = { p256: ['P-256', 'sha256', 32], p384: ['P-384', 'sha384', 48], p521: ['P-521', 'sha512', 66] };
const pkAlgorithms = {};
for (const bits of [2048, 3072, 4096]) {
  pkAlgorithms[`rsa-${bits}-pkcs1`] = ['sign', 'verify', 'verify-forged', 'keygen'];
  pkAlgorithms[`rsa-${bits}-pss`] = ['sign', 'verify', 'verify-forged'];
}
for (const c of Object.keys(CURVES)) pkAlgorithms[`ecdsa-${c}`] = ['sign', 'verify', 'verify-forged', 'keygen'];
Object.assign(pkAlgorithms, { ed25519: ['sign', 'verify', 'verify-forged', 'keygen'], 'ecdh-p256': ['derive'], 'ecdh-p384': ['derive'], x25519: ['derive', 'keygen'] });

const scheme = (alg) => (alg.startsWith('rsa-') ? (alg.endsWith('pss') ? 'pss' : 'pkcs1') : alg.split('-')[0]);
const curveOf = (alg) => CURVES[alg.split('-')[1]];
// The hash crypto.sign is given (null: Ed25519, which hashes inside).
const hashOf = (alg) => ({ pkcs1: 'sha256', pss: 'sha256', ecdsa: (curveOf(alg) || [])[1] })[scheme(alg)] || null;

function pkApi(alg, op) {
  const s = scheme(alg);
  let fresh;
  if (op === 'keygen') {
    const what = s === 'pkcs1' ? `'rsa', {modulusLength: ${RSA_BITS[alg.slice(0, 8)]}, publicExponent: 65537}` : s === 'ecdsa' ? `'ec', {namedCurve: '${curveOf(alg)[0]}'}` : `'${s}'`;
    fresh = `generateKeyPairSync(${what}); privateKey.export({format: 'jwk'}) to bytes`;
  } else if (op === 'derive') {
    fresh = 'crypto.diffieHellman({privateKey, publicKey: peer})';
  } else {
    const opts = s === 'pss' ? '{key, padding: RSA_PKCS1_PSS_PADDING, saltLength: 32}' : s === 'ecdsa' ? "{key, dsaEncoding: 'der'}" : 'key';
    const h = hashOf(alg) ? `'${hashOf(alg)}'` : 'null';
    const hashes = hashOf(alg) ? ' (hashes the message itself)' : '';
    fresh = op === 'sign' ? `crypto.sign(${h}, message, ${opts})${hashes}` : `crypto.verify(${h}, message, ${opts}, signature)${hashes}`;
  }
  return { reuse: null, fresh }; // every call returns a new Buffer
}

// A JWK field as N big-endian bytes, zero-padded on the left.
function jwkBytes(value, n) {
  const b = Buffer.from(value, 'base64url');
  return b.length >= n ? b : Buffer.concat([Buffer.alloc(n - b.length), b]);
}

function pkKeygen(alg) {
  const s = scheme(alg), last = [];
  let fn;
  if (s === 'pkcs1') {
    const bits = RSA_BITS[alg.slice(0, 8)], opts = { modulusLength: bits, publicExponent: 65537 };
    fn = () => {
      const jwk = crypto.generateKeyPairSync('rsa', opts).privateKey.export({ format: 'jwk' });
      last[0] = jwkBytes(jwk.n, bits / 8);
      last[1] = jwkBytes(jwk.p, bits / 16);
      return true;
    };
  } else if (s === 'ecdsa') {
    const [namedCurve, , field] = curveOf(alg), four = Buffer.from([4]);
    fn = () => {
      const jwk = crypto.generateKeyPairSync('ec', { namedCurve }).privateKey.export({ format: 'jwk' });
      last[0] = jwkBytes(jwk.d, field);
      last[1] = four;
      last[2] = jwkBytes(jwk.x, field);
      last[3] = jwkBytes(jwk.y, field);
      return true;
    };
  } else {
    fn = () => {
      const jwk = crypto.generateKeyPairSync(s).privateKey.export({ format: 'jwk' });
      last[0] = Buffer.from(jwk.d, 'base64url');
      last[1] = Buffer.from(jwk.x, 'base64url');
      return true;
    };
  }
  return { fn, pieces: () => last.slice() };
}

// One public-key cell's calls, its keys made from the request's DER.
function pkCalls(alg, op, pk) {
  const done = (c) => Object.assign(c, { api: pkApi(alg, op).fresh, output: 'fresh' });
  if (op === 'keygen') return done(pkKeygen(alg));
  const hex = (name) => Buffer.from(pk[name], 'hex');
  const s = scheme(alg), last = [Buffer.alloc(0)];
  if (op === 'derive') {
    const keys = {
      privateKey: crypto.createPrivateKey({ key: hex('private'), format: 'der', type: 'pkcs8' }),
      publicKey: crypto.createPublicKey({ key: hex('peer'), format: 'der', type: 'spki' }),
    };
    return done({ fn: () => { last[0] = crypto.diffieHellman(keys); return true; }, pieces: () => [last[0]] });
  }
  const key = op === 'sign' ? crypto.createPrivateKey({ key: hex('private'), format: 'der', type: 'pkcs8' }) : crypto.createPublicKey({ key: hex('public'), format: 'der', type: 'spki' });
  const opts = s === 'pss' ? { key, padding: crypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 } : s === 'ecdsa' ? { key, dsaEncoding: 'der' } : key;
  const h = hashOf(alg);
  if (op === 'sign') return done({ fn: (msg) => { last[0] = crypto.sign(h, msg, opts); return true; }, pieces: () => [last[0]] });
  const sig = hex('signature');
  return done({ fn: (msg) => crypto.verify(h, msg, opts, sig), pieces: () => [] });
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
  if (pkAlgorithms[alg]) return answer(pkCalls(alg, op, req.pk || {}), data, n, inputSha);
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
  return answer(calls(alg, op, key, iv, aad), data, n, inputSha);
}

// The timed calls of TODO on DATA, and their answer.
function answer(todo, data, n, inputSha) {
  timing.assembledInLoop = 0;
  const t = timedLoop(todo.fn, data, n);
  if (t.rejected && t.rejected !== n) return { status: 'error', error: `${t.rejected} of ${n} calls rejected the tag or signature` };
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
    output: out, // encoded by send(), as it writes the line
  };
}

// The answer's output, base64, written into one Buffer kept across answers.
// A 1 MiB output's base64 as a string (1.4 MB, and again inside the JSON
// line, and again as the Buffer written) was garbage that landed on the next
// trial: V8's collection of it and glibc's trimming of the heap it had grown
// (AES-128-CBC 1 MiB: 2.5 ms a call and 160 page faults, against 0.87 ms and
// 19 without it, none with glibc's thresholds fixed; tinybench 0.88-0.98 ms).
const BASE64 = Buffer.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
let encoded = Buffer.alloc(0);
function base64(bytes) {
  const n = Math.ceil(bytes.length / 3) * 4;
  if (encoded.length < n) encoded = Buffer.alloc(n);
  let j = 0;
  for (let i = 0; i < bytes.length; i += 3) {
    const left = bytes.length - i;
    const v = (bytes[i] << 16) | (left > 1 ? bytes[i + 1] << 8 : 0) | (left > 2 ? bytes[i + 2] : 0);
    encoded[j++] = BASE64[v >> 18];
    encoded[j++] = BASE64[(v >> 12) & 63];
    encoded[j++] = left > 1 ? BASE64[(v >> 6) & 63] : 61; // '='
    encoded[j++] = left > 2 ? BASE64[v & 63] : 61;
  }
  return encoded.subarray(0, j);
}

// One JSON line; a result's output (a Buffer) goes in last, encoded in place.
function send(obj) {
  if (!Buffer.isBuffer(obj.output)) {
    process.stdout.write(JSON.stringify(obj) + '\n');
    return;
  }
  const { output, ...rest } = obj;
  process.stdout.write(JSON.stringify(rest).slice(0, -1) + ',"output":"');
  process.stdout.write(base64(output)); // stdout to a pipe is synchronous: reusing the Buffer is safe
  process.stdout.write('"}\n');
}

const algorithms = {};
const available = new Set([...crypto.getHashes(), ...crypto.getCiphers()]);
for (const [alg, name] of Object.entries(HASHES)) if (available.has(name)) algorithms[alg] = ['hash'];
for (const alg of CIPHERS) if (available.has(alg)) algorithms[alg] = ['encrypt', 'decrypt'];
for (const alg of AEADS) if (available.has(alg)) algorithms[alg] = ['encrypt', 'decrypt', 'decrypt-forged'];
const curves = new Set(crypto.getCurves());
for (const [alg, ops] of Object.entries(pkAlgorithms)) {
  const curve = curveOf(alg);
  if (!curve || curves.has({ 'P-256': 'prime256v1', 'P-384': 'secp384r1', 'P-521': 'secp521r1' }[curve[0]])) algorithms[alg] = ops;
}

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
  calls: Object.fromEntries(Object.entries(algorithms).map(([alg, ops]) => [alg, Object.fromEntries(ops.map((op) => [op, pkAlgorithms[alg] ? pkApi(alg, op) : api(alg, op)]))])),
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
