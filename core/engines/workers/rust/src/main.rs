// cryptobench worker for Rust's ring crate (see ../../PROTOCOL.md).
//
// Speaks JSON lines on stdin/stdout: a hello first, then one result per
// request. One call is one message through ring: digest::digest, and
// LessSafeKey's in-place seal and open for AES-GCM and ChaCha20-Poly1305
// (calls.rs says what each output mode times). The timed loop holds those
// calls and nothing else; the last call's pieces are joined after the
// timing. `--bench INPUT` is instead the plain loop of tests/bench/peers.sh
// (bench.rs).
mod bench;
mod calls;
mod util;

use serde_json::{json, Value};
use std::io::{BufRead, BufWriter, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use util::{base64, page_offset, sha256_hex, unbase64, unhex, Generator, Placed, PAGE};

// Whether a timed loop runs, and how many outputs were assembled while it
// did (../../PROTOCOL.md: timed.assembled_in_loop, which must be 0).
static TIMING: AtomicBool = AtomicBool::new(false);
static ASSEMBLED_IN_LOOP: AtomicU64 = AtomicU64::new(0);

/// The output from the last call's pieces (AEAD: ciphertext, then tag).
fn assemble(pieces: &[Vec<u8>]) -> Vec<u8> {
    if TIMING.load(Ordering::Relaxed) {
        ASSEMBLED_IN_LOOP.fetch_add(1, Ordering::Relaxed);
    }
    pieces.concat()
}

/// What the worker keeps across requests.
#[derive(Default)]
struct State {
    generator: Generator,
    input: Placed,
    output: Placed,
}

fn material(v: Option<&Value>, n: usize) -> Result<Vec<u8>, String> {
    match v.and_then(Value::as_str).unwrap_or("counting") {
        "counting" => Ok((0..n).map(|i| i as u8).collect()),
        s => unhex(s),
    }
}

fn number(req: &Value, key: &str) -> Result<u64, String> {
    req[key]
        .as_u64()
        .ok_or_else(|| format!("the request has no {}", key))
}

fn run(st: &mut State, req: &Value) -> Result<Value, String> {
    let alg = req["algorithm"]
        .as_str()
        .ok_or("the request has no algorithm")?;
    let op = req["op"].as_str().ok_or("the request has no op")?;
    let size = number(req, "size")? as usize;
    let calls = number(req, "calls")?;
    let output = req["output"].as_str().unwrap_or("reuse");
    if output != "reuse" && output != "fresh" {
        return Err(format!("output must be reuse or fresh, not {}", output));
    }
    let in_offset = req["input_offset"].as_u64().unwrap_or(0) as usize % PAGE;
    let out_offset = req["layout"]["out"].as_u64().unwrap_or(0) as usize % PAGE;
    let src = &req["input"];
    let (mut message, mut input_sha) = match src["base64"].as_str() {
        Some(b) => {
            let bytes = unbase64(b)?;
            let sha = sha256_hex(&bytes);
            (bytes, Some(sha))
        }
        None => {
            let seed = src["seed"]
                .as_u64()
                .ok_or("the request's input has no seed")? as u32;
            let (view, sha) = st.generator.get(seed, size);
            (view.to_vec(), Some(sha))
        }
    };
    let names = calls::api(alg, op);
    // ring has no digest into a buffer: "reuse" times "fresh" and says so.
    let mode = if names[output].is_null() {
        "fresh"
    } else {
        output
    };
    let api = names[mode].as_str().unwrap_or_default().to_string();

    let timed = if let Some((h, _)) = calls::hash(alg) {
        if op != "hash" {
            return Err(format!("{} is a hash: no {}", alg, op));
        }
        let placed = st.input.get(message.len(), in_offset);
        placed.copy_from_slice(&message);
        let t = run_timed(|| calls::run_hash(h, placed, calls));
        (t, page_offset(placed), None)
    } else if let Some((a, _)) = calls::aead(alg) {
        let key = material(req.get("key"), a.key_len())?;
        let iv = material(req.get("iv"), 12)?;
        let aad = match req["aad"].as_str() {
            Some(s) => unhex(s)?,
            None => Vec::new(),
        };
        let k = calls::Keyed::new(a, &key, &iv, aad)?;
        if op.starts_with("decrypt") {
            if src["base64"].is_string() {
                let tag = unhex(req["tag"].as_str().ok_or("a decryption without a tag")?)?;
                message.extend_from_slice(&tag);
                input_sha = None; // the plaintext is what comes out
            } else {
                message = k.seal(&message);
                if op == "decrypt-forged" {
                    message[size] ^= 1;
                }
            }
        } else if op != "encrypt" {
            return Err(format!("{} has no op {}", alg, op));
        }
        let placed = st.input.get(message.len(), in_offset);
        placed.copy_from_slice(&message);
        let n = placed.len();
        let reuse = mode == "reuse";
        let out = if reuse {
            Some(st.output.get(n, out_offset))
        } else {
            None
        };
        let t = if op == "encrypt" {
            run_timed(|| calls::run_seal(&k, placed, calls, out))
        } else {
            run_timed(|| calls::run_open(&k, placed, calls, out))
        };
        (
            t,
            page_offset(placed),
            if reuse { Some(out_offset) } else { None },
        )
    } else {
        return Err(format!("ring offers no {} here", alg));
    };
    let (t, input_at, out_at) = timed;

    if t.failed != 0 {
        return Err(format!("{} of {} calls failed", t.failed, calls));
    }
    if t.rejected != 0 && t.rejected != calls {
        return Err(format!(
            "{} of {} calls rejected the tag",
            t.rejected, calls
        ));
    }
    let out = if t.rejected != 0 {
        Vec::new()
    } else {
        assemble(&t.pieces)
    };
    let input_sha = input_sha.unwrap_or_else(|| sha256_hex(&out));
    Ok(json!({
        "status": if t.rejected != 0 { "rejected" } else { "ok" },
        "calls": calls,
        "ns": t.ns,
        "cpu_ns": t.cpu_ns,
        "timed": { "calls": calls, "api": api, "output": mode,
                   "assembled_in_loop": ASSEMBLED_IN_LOOP.load(Ordering::Relaxed) },
        // Rust has no alloca: the stack is not moved, and says so.
        "placed": { "input_offset": input_at, "out": out_at, "stack": null },
        "input_sha256": input_sha,
        "output": base64(&out),
    }))
}

/// A timed loop with TIMING set around it (what assemble() counts).
fn run_timed<F: FnOnce() -> calls::Timed>(f: F) -> calls::Timed {
    ASSEMBLED_IN_LOOP.store(0, Ordering::Relaxed);
    TIMING.store(true, Ordering::Relaxed);
    let t = f();
    TIMING.store(false, Ordering::Relaxed);
    t
}

fn hello() -> Value {
    let algorithms = calls::algorithms();
    let mut apis = serde_json::Map::new();
    for (alg, ops) in algorithms.as_object().expect("an object") {
        let mut by_op = serde_json::Map::new();
        for op in ops.as_array().expect("an array") {
            let op = op.as_str().expect("a string");
            by_op.insert(op.into(), calls::api(alg, op));
        }
        apis.insert(alg.clone(), Value::Object(by_op));
    }
    let exe = std::env::current_exe()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    json!({
        "type": "hello",
        "protocol": 2,
        "engine": "rust-ring",
        "runtime": env!("CB_RUSTC_VERSION"),
        "executable": exe,
        "library": format!("ring {}", env!("CB_RING_VERSION")),
        "module": "ring::digest, ring::aead",
        "clock": "std::time::Instant (CLOCK_MONOTONIC)",
        "cpu_clock": "clock_gettime(CLOCK_THREAD_CPUTIME_ID)",
        "algorithms": algorithms,
        "calls": apis,
    })
}

fn send(out: &mut impl Write, v: &Value) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, v)?;
    out.write_all(b"\n")?;
    out.flush()
}

/// glibc malloc's thresholds fixed, as the Python worker fixes them
/// (../../PROTOCOL.md): left to move, the answers between trials (a 1 MiB
/// output's base64 and its JSON line) moved them, and the next trial's fresh
/// 1 MiB outputs cost AES-256-GCM 333-346 us a call against 237-240 for the
/// reused buffer; fixed, 239-244, as the plain loop's 238-253. Allocations
/// below 32 MiB come from the heap, and freed memory stays.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn steady_heap() {
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20); // its largest
        libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 30);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn steady_heap() {}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() == 3 && args[1] == "--bench" {
        std::process::exit(bench::main(&args[2]));
    }
    steady_heap();
    let stdout = std::io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    if send(&mut out, &hello()).is_err() {
        return;
    }
    let mut st = State::default();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let (id, answer) = match serde_json::from_str::<Value>(&line) {
            Ok(req) => {
                let r =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(&mut st, &req)));
                let answer = match r {
                    Ok(Ok(a)) => a,
                    Ok(Err(e)) => json!({ "status": "error", "error": e }),
                    Err(_) => json!({ "status": "error", "error": "the worker panicked" }),
                };
                (req["id"].clone(), answer)
            }
            Err(e) => (
                Value::Null,
                json!({ "status": "error", "error": format!("not JSON: {}", e) }),
            ),
        };
        let mut answer = answer;
        answer["type"] = json!("result");
        answer["id"] = id;
        if send(&mut out, &answer).is_err() {
            break;
        }
    }
}
