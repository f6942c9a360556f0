// tinybench on the calls the Node.js worker times (tests/bench/peers.sh):
// createHash/createCipheriv, update, final, getAuthTag, on the input file the
// script wrote. usage: node tinybench.mjs INPUT >> TSV (engine alg size ns:
// the median over tinybench's samples of a sample's mean time per call).
//
// The same statistic as cryptobench's, on the same quantity: a tinybench
// task's iteration (one sample) is a batch of calls sized to about 20 ms, as
// a cryptobench trial is, and the figure is tinybench's p50 of the batches
// divided by the batch's calls, the median of batch means. A sample of one
// call would not be: the collector's cost of the calls' fresh Buffers lands
// on a few calls, so the median call leaves it out (AES-256-GCM 1 MiB: p50
// 2.3-2.8x below the mean) while every batch carries its share.
import { Bench } from 'tinybench';
import crypto from 'node:crypto';
import { readFileSync } from 'node:fs';

// cryptobench's trial_time in peers.lua, and its calibration's aim 10% past it
// (core/run/runner.c).
const BATCH_NS = 1.1 * 20e6;
const all = readFileSync(process.argv[2]);
const counting = (n) => Buffer.from(Array.from({ length: n }, (_, i) => i));
// The key and IV as the worker holds them: made once, outside the calls.
const key32 = counting(32), iv12 = counting(12), key16 = counting(16), iv16 = counting(16);
// The last call's output kept, as the worker keeps it (core/engines/workers/worker.js).
const last = [null, null];
const calls = {
  sha256: (d) => { last[0] = crypto.createHash('sha256').update(d).digest(); },
  sha512: (d) => { last[0] = crypto.createHash('sha512').update(d).digest(); },
  'aes-256-gcm': (d) => {
    const c = crypto.createCipheriv('aes-256-gcm', key32, iv12, { authTagLength: 16 });
    last[0] = c.update(d);
    c.final();
    last[1] = c.getAuthTag();
  },
  'aes-128-cbc': (d) => {
    const c = crypto.createCipheriv('aes-128-cbc', key16, iv16);
    c.setAutoPadding(false);
    last[0] = c.update(d);
    c.final();
  },
};

// The calls in one batch of about BATCH_NS: FN timed for 50 ms once warm.
function batchCalls(fn, data) {
  for (let i = 0; i < 100; i++) fn(data);
  let n = 0;
  const t0 = process.hrtime.bigint();
  while (Number(process.hrtime.bigint() - t0) < 50e6) {
    fn(data);
    n++;
  }
  const perCall = Number(process.hrtime.bigint() - t0) / n;
  return Math.max(1, Math.ceil(BATCH_NS / perCall));
}

for (const [alg, fn] of Object.entries(calls)) {
  for (const size of [64, 16384, 1048576]) {
    const data = all.subarray(0, size);
    const n = batchCalls(fn, data);
    // 11 batches after about 100 ms of warm-up batches (peers.lua's cells: 7 trials).
    const bench = new Bench({ time: 0, iterations: 11, warmupTime: 100, warmupIterations: 2 });
    bench.add(alg, () => {
      for (let i = 0; i < n; i++) fn(data);
    });
    await bench.run();
    const r = bench.tasks[0].result;
    console.log(`node-crypto\t${alg}\t${size}\t${(r.latency.p50 * 1e6) / n}`);
  }
}
