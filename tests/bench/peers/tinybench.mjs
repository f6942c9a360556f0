// tinybench on the calls the Node.js worker times (tests/bench/peers.sh):
// createHash/createCipheriv, update, final, getAuthTag, on the input file the
// script wrote. usage: node tinybench.mjs INPUT >> TSV (engine alg size ns:
// the mean time per call).
import { Bench } from 'tinybench';
import crypto from 'node:crypto';
import { readFileSync } from 'node:fs';

const all = readFileSync(process.argv[2]);
const counting = (n) => Buffer.from(Array.from({ length: n }, (_, i) => i));
// The key and IV as the worker holds them: made once, outside the calls.
const key32 = counting(32), iv12 = counting(12), key16 = counting(16), iv16 = counting(16);
const calls = {
  sha256: (d) => crypto.createHash('sha256').update(d).digest(),
  sha512: (d) => crypto.createHash('sha512').update(d).digest(),
};
calls['aes-256-gcm'] = (d) => {
  const c = crypto.createCipheriv('aes-256-gcm', key32, iv12, { authTagLength: 16 });
  const body = c.update(d);
  c.final();
  return [body, c.getAuthTag()];
};
calls['aes-128-cbc'] = (d) => {
  const c = crypto.createCipheriv('aes-128-cbc', key16, iv16);
  c.setAutoPadding(false);
  const body = c.update(d);
  c.final();
  return body;
};
for (const [alg, fn] of Object.entries(calls)) {
  for (const size of [64, 16384, 1048576]) {
    const data = all.subarray(0, size);
    const bench = new Bench({ time: 300, warmupTime: 50 });
    bench.add(alg, () => fn(data));
    await bench.run();
    // The mean, not p50: a tinybench sample is one call, and the collector's
    // cost of the calls' fresh Buffers lands on a few of them, so the median
    // call leaves it out (AES-256-GCM at 1 MiB: p50 2.3-2.8x below the mean
    // here). cryptobench's sample, like BenchmarkDotNet's and timeit's, is a
    // batch of calls: its median is of batch means, which tinybench's mean is.
    const r = bench.tasks[0].result;
    console.log(`node-crypto\t${alg}\t${size}\t${r.latency.mean * 1e6}`);
  }
}
