// Records at build time what the hello reports (../PROTOCOL.md): the
// compiler that built the worker (`runtime`) and the version of ring that
// Cargo.lock pins (`library`).
use std::env;
use std::fs;
use std::process::Command;

fn main() {
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(&rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| "rustc (version unknown)".into());
    println!("cargo:rustc-env=CB_RUSTC_VERSION={}", version);

    let dir = env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let lock = fs::read_to_string(format!("{}/Cargo.lock", dir)).unwrap_or_default();
    let mut ring = String::from("unknown");
    let mut in_ring = false;
    for line in lock.lines() {
        if line == "[[package]]" {
            in_ring = false;
        } else if line == "name = \"ring\"" {
            in_ring = true;
        } else if in_ring {
            if let Some(v) = line.strip_prefix("version = \"") {
                ring = v.trim_end_matches('"').to_string();
            }
        }
    }
    println!("cargo:rustc-env=CB_RING_VERSION={}", ring);
    println!("cargo:rerun-if-changed=Cargo.lock");
    println!("cargo:rerun-if-env-changed=RUSTC");
}
