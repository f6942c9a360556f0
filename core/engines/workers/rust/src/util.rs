// What the worker needs besides ring: the input generator, page-placed
// buffers, the clocks, hex and base64 (../../PROTOCOL.md).
use std::collections::HashMap;
use std::time::Instant;

pub const UNIT: usize = 1 << 20;
pub const PAGE: usize = 4096;

/// The generator: a 32-bit xorshift from SEED, one byte per step, a 1 MiB
/// unit repeated to the largest size asked; the SHA-256 of each size kept.
#[derive(Default)]
pub struct Generator {
    seed: Option<u32>,
    unit: Vec<u8>,
    data: Vec<u8>,
    digests: HashMap<usize, String>,
}

impl Generator {
    pub fn get(&mut self, seed: u32, size: usize) -> (&[u8], String) {
        if self.seed != Some(seed) {
            let mut x = seed;
            self.unit = (0..UNIT)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 17;
                    x ^= x << 5;
                    x as u8
                })
                .collect();
            self.seed = Some(seed);
            self.data = self.unit.clone();
            self.digests.clear();
        }
        while self.data.len() < size {
            let unit = &self.unit;
            self.data.extend_from_slice(unit);
        }
        let view = &self.data[..size];
        let digest = self
            .digests
            .entry(size)
            .or_insert_with(|| sha256_hex(view))
            .clone();
        (view, digest)
    }
}

pub fn sha256_hex(data: &[u8]) -> String {
    hex(ring::digest::digest(&ring::digest::SHA256, data).as_ref())
}

/// Memory whose usable part starts OFFSET bytes past a page boundary, read
/// from its address; kept across requests.
#[derive(Default)]
pub struct Placed {
    store: Vec<u8>,
}

impl Placed {
    pub fn get(&mut self, n: usize, offset: usize) -> &mut [u8] {
        if self.store.len() < n + 2 * PAGE {
            self.store = vec![0; n + 2 * PAGE];
        }
        let addr = self.store.as_ptr() as usize;
        let shift = (offset % PAGE + PAGE - addr % PAGE) % PAGE;
        &mut self.store[shift..shift + n]
    }
}

pub fn page_offset(b: &[u8]) -> usize {
    b.as_ptr() as usize % PAGE
}

/// This thread's CPU time in nanoseconds (CLOCK_THREAD_CPUTIME_ID).
pub fn thread_cpu_ns() -> i64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given, nothing else.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as i64 * 1_000_000_000 + ts.tv_nsec as i64
}

/// CALLS calls of CALL and nothing else: wall time (std::time::Instant,
/// CLOCK_MONOTONIC), this thread's CPU time, and how many calls rejected a
/// tag or failed. CALL returns 0 (done), 1 (tag rejected) or 2 (failed).
#[inline(never)]
pub fn timed<F: FnMut() -> u8>(calls: u64, mut call: F) -> (u64, i64, u64, u64) {
    let (mut rejected, mut failed) = (0u64, 0u64);
    let cpu0 = thread_cpu_ns();
    let t0 = Instant::now();
    for _ in 0..calls {
        match call() {
            0 => {}
            1 => rejected += 1,
            _ => failed += 1,
        }
    }
    let ns = t0.elapsed().as_nanos() as u64;
    let cpu = thread_cpu_ns() - cpu0;
    (ns, cpu, rejected, failed)
}

pub fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{:02x}", x)).collect()
}

pub fn unhex(s: &str) -> Result<Vec<u8>, String> {
    if s.len() % 2 != 0 {
        return Err(format!("odd-length hex string ({} digits)", s.len()));
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).map_err(|_| format!("not hex: {:.40}", s)))
        .collect()
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

pub fn base64(b: &[u8]) -> String {
    let mut out = Vec::with_capacity((b.len() + 2) / 3 * 4);
    for c in b.chunks(3) {
        let v = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        out.push(B64[(v >> 18) as usize & 63]);
        out.push(B64[(v >> 12) as usize & 63]);
        out.push(if c.len() > 1 {
            B64[(v >> 6) as usize & 63]
        } else {
            b'='
        });
        out.push(if c.len() > 2 {
            B64[v as usize & 63]
        } else {
            b'='
        });
    }
    String::from_utf8(out).expect("base64 is ASCII")
}

pub fn unbase64(s: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    let (mut acc, mut bits) = (0u32, 0u32);
    for &ch in s.as_bytes() {
        let v = match ch {
            b'A'..=b'Z' => ch - b'A',
            b'a'..=b'z' => ch - b'a' + 26,
            b'0'..=b'9' => ch - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => break,
            _ => return Err(format!("not base64: byte {}", ch)),
        };
        acc = acc << 6 | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Ok(out)
}
