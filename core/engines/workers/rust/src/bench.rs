// `cryptobench-rust-ring --bench INPUT`: the peer of tests/bench/peers.sh.
// `cargo bench`'s own harness (the test crate's #[bench]) needs a nightly
// compiler, and criterion is not used, so this is the loop a Rust user would
// write: ring's own calls, as the worker makes them (calls.rs), back
// to back on the first 64 B, 16 KiB and 1 MiB of INPUT, timed with
// std::time::Instant. Like timeit: a batch of calls doubled until it lasts
// 20 ms, then 7 batches; the median of their means, one line per cell
// ("label alg size ns", the time per call in ns).
use ring::{aead, digest};
use std::hint::black_box;
use std::time::Instant;

const SIZES: [usize; 3] = [64, 16384, 1 << 20];

/// The median over 7 batches of the time per call of CALL.
fn per_call<F: FnMut()>(mut call: F) -> f64 {
    let batch = |n: u64, call: &mut F| {
        let t0 = Instant::now();
        for _ in 0..n {
            call();
        }
        t0.elapsed().as_secs_f64()
    };
    let mut n = 1u64;
    while batch(n, &mut call) < 0.02 {
        n *= 2;
    }
    let mut means: Vec<f64> = (0..7).map(|_| batch(n, &mut call) / n as f64).collect();
    means.sort_by(|a, b| a.partial_cmp(b).expect("a time"));
    means[3] * 1e9
}

fn counting(n: usize) -> Vec<u8> {
    (0..n).map(|i| i as u8).collect()
}

pub fn main(path: &str) -> i32 {
    let all = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{}: {}", path, e);
            return 2;
        }
    };
    for (name, alg) in [("sha256", &digest::SHA256), ("sha512", &digest::SHA512)] {
        for size in SIZES {
            let data = &all[..size.min(all.len())];
            let ns = per_call(|| {
                black_box(digest::digest(alg, black_box(data)));
            });
            // No digest into a buffer: both of the worker's modes time this.
            println!("rust-ring\t{}\t{}\t{:.3}", name, size, ns);
            println!("rust-ring-output=fresh\t{}\t{}\t{:.3}", name, size, ns);
        }
    }
    let key = aead::LessSafeKey::new(
        aead::UnboundKey::new(&aead::AES_256_GCM, &counting(32)).expect("a 32-byte key"),
    );
    let nonce: [u8; 12] = counting(12).try_into().expect("12 bytes");
    for size in SIZES {
        let data = &all[..size.min(all.len())];
        let mut in_out = vec![0u8; data.len()];
        let reuse = per_call(|| {
            in_out.copy_from_slice(black_box(data));
            let n = aead::Nonce::assume_unique_for_key(nonce);
            let tag = key.seal_in_place_separate_tag(n, aead::Aad::empty(), &mut in_out);
            let _ = black_box(tag.expect("sealed"));
        });
        // Each call's Vec kept until the next call's replaces it, as the
        // worker keeps its last output (calls.rs) and a user's `out = ...`
        // in a loop does, so that both allocate while the last is alive
        // (the same figure here either way: 238-253 us at 1 MiB).
        let mut last = Vec::new();
        let fresh = per_call(|| {
            let mut v = Vec::with_capacity(data.len() + 16);
            v.extend_from_slice(black_box(data));
            let n = aead::Nonce::assume_unique_for_key(nonce);
            key.seal_in_place_append_tag(n, aead::Aad::empty(), &mut v)
                .expect("sealed");
            last = black_box(v);
        });
        drop(last);
        println!("rust-ring\taes-256-gcm\t{}\t{:.3}", size, reuse);
        println!(
            "rust-ring-output=fresh\taes-256-gcm\t{}\t{:.3}",
            size, fresh
        );
    }
    0
}
