// ring's calls, per algorithm, op and output mode (../../PROTOCOL.md): what
// the hello names and what the timed loop runs.
//
// ring 0.16 has no call that writes a digest into a caller's buffer
// (digest::digest returns a Digest by value, on the stack: nothing is
// allocated), so a hash's "reuse" is null and "fresh" is digest::digest.
// Its AEAD calls work in place only (seal_in_place_separate_tag,
// seal_in_place_append_tag, open_in_place): each call overwrites its input,
// so a call on the same message again needs the message copied back first.
// "reuse" therefore times that copy into a buffer made before the loop and
// the in-place call, and names both; "fresh" allocates a Vec per call, as a
// user wanting a new output writes it. The cost of the copy alone is the
// memcpy engine's at the same size.
use crate::util::timed;
use ring::{aead, digest};
use serde_json::{json, Value};
use std::hint::black_box;

pub static HASHES: [(&str, &digest::Algorithm, &str); 3] = [
    (
        "sha1",
        &digest::SHA1_FOR_LEGACY_USE_ONLY,
        "SHA1_FOR_LEGACY_USE_ONLY",
    ),
    ("sha256", &digest::SHA256, "SHA256"),
    ("sha512", &digest::SHA512, "SHA512"),
];

pub static AEADS: [(&str, &aead::Algorithm, &str); 3] = [
    ("aes-128-gcm", &aead::AES_128_GCM, "AES_128_GCM"),
    ("aes-256-gcm", &aead::AES_256_GCM, "AES_256_GCM"),
    (
        "chacha20-poly1305",
        &aead::CHACHA20_POLY1305,
        "CHACHA20_POLY1305",
    ),
];

pub fn hash(alg: &str) -> Option<(&'static digest::Algorithm, &'static str)> {
    HASHES.iter().find(|h| h.0 == alg).map(|h| (h.1, h.2))
}

pub fn aead(alg: &str) -> Option<(&'static aead::Algorithm, &'static str)> {
    AEADS.iter().find(|a| a.0 == alg).map(|a| (a.1, a.2))
}

/// The hello's algorithms: each canonical name with its ops.
pub fn algorithms() -> Value {
    let mut a = serde_json::Map::new();
    for h in HASHES.iter() {
        a.insert(h.0.into(), json!(["hash"]));
    }
    for c in AEADS.iter() {
        a.insert(c.0.into(), json!(["encrypt", "decrypt", "decrypt-forged"]));
    }
    Value::Object(a)
}

/// What each output mode calls (null: ring has no such call). An AEAD's key
/// is made once per trial, before the loop.
pub fn api(alg: &str, op: &str) -> Value {
    if let Some((_, name)) = hash(alg) {
        return json!({ "reuse": null, "fresh": format!("ring::digest::digest(&{}, data)", name) });
    }
    let once = match aead(alg) {
        Some((_, name)) => format!("LessSafeKey::new(UnboundKey::new(&{}, key)) once; ", name),
        None => String::new(),
    };
    if op == "encrypt" {
        return json!({
            "reuse": format!("{}in_out.copy_from_slice(data); \
                              key.seal_in_place_separate_tag(nonce, aad, in_out)", once),
            "fresh": format!("{}let mut v = Vec::with_capacity(n + 16); v.extend_from_slice(data); \
                              key.seal_in_place_append_tag(nonce, aad, &mut v)", once),
        });
    }
    json!({
        "reuse": format!("{}in_out.copy_from_slice(ciphertext_and_tag); \
                          key.open_in_place(nonce, aad, in_out)", once),
        "fresh": format!("{}let mut v = ciphertext_and_tag.to_vec(); \
                          key.open_in_place(nonce, aad, &mut v)", once),
    })
}

/// One trial's material: the AEAD key (LessSafeKey, keyed once, as a C
/// engine's open does), its nonce and AAD.
pub struct Keyed {
    pub key: aead::LessSafeKey,
    pub nonce: [u8; 12],
    pub aad: Vec<u8>,
}

impl Keyed {
    pub fn new(
        alg: &'static aead::Algorithm,
        key: &[u8],
        iv: &[u8],
        aad: Vec<u8>,
    ) -> Result<Keyed, String> {
        let unbound = aead::UnboundKey::new(alg, key)
            .map_err(|_| format!("a {}-byte key is refused", key.len()))?;
        let nonce = iv
            .try_into()
            .map_err(|_| format!("the nonce is {} bytes, not 12", iv.len()))?;
        Ok(Keyed {
            key: aead::LessSafeKey::new(unbound),
            nonce,
            aad,
        })
    }

    /// An allocating seal, outside any timing (a decryption's ciphertext).
    pub fn seal(&self, data: &[u8]) -> Vec<u8> {
        let mut v = Vec::with_capacity(data.len() + 16);
        v.extend_from_slice(data);
        let nonce = aead::Nonce::assume_unique_for_key(self.nonce);
        self.key
            .seal_in_place_append_tag(nonce, aead::Aad::from(&self.aad[..]), &mut v)
            .expect("ring seals any message under 64 GiB");
        v
    }
}

/// What a timed loop gives: its times and counts, and the last call's
/// output in pieces (joined after the timing).
pub struct Timed {
    pub ns: u64,
    pub cpu_ns: i64,
    pub rejected: u64,
    pub failed: u64,
    pub pieces: Vec<Vec<u8>>,
}

fn done(t: (u64, i64, u64, u64), pieces: Vec<Vec<u8>>) -> Timed {
    Timed {
        ns: t.0,
        cpu_ns: t.1,
        rejected: t.2,
        failed: t.3,
        pieces,
    }
}

/// CALLS digests of INPUT (every mode: ring has no digest into a buffer).
pub fn run_hash(alg: &'static digest::Algorithm, input: &[u8], calls: u64) -> Timed {
    let mut last = digest::digest(alg, &[]);
    let t = timed(calls, || {
        last = digest::digest(alg, black_box(input));
        0
    });
    done(t, vec![last.as_ref().to_vec()])
}

/// CALLS seals of INPUT: into OUT (reuse, copied in first) or a new Vec.
pub fn run_seal(k: &Keyed, input: &[u8], calls: u64, out: Option<&mut [u8]>) -> Timed {
    let aad = &k.aad[..];
    match out {
        Some(in_out) => {
            let mut tag = None;
            let t = timed(calls, || {
                in_out.copy_from_slice(black_box(input));
                let nonce = aead::Nonce::assume_unique_for_key(k.nonce);
                match k
                    .key
                    .seal_in_place_separate_tag(nonce, aead::Aad::from(aad), in_out)
                {
                    Ok(x) => {
                        tag = Some(x);
                        0
                    }
                    Err(_) => 2,
                }
            });
            let tag = tag.map(|x| x.as_ref().to_vec()).unwrap_or_default();
            done(t, vec![in_out.to_vec(), tag])
        }
        None => {
            let mut last = Vec::new();
            let t = timed(calls, || {
                let mut v = Vec::with_capacity(input.len() + 16);
                v.extend_from_slice(black_box(input));
                let nonce = aead::Nonce::assume_unique_for_key(k.nonce);
                let rc = match k
                    .key
                    .seal_in_place_append_tag(nonce, aead::Aad::from(aad), &mut v)
                {
                    Ok(()) => 0,
                    Err(_) => 2,
                };
                last = v;
                rc
            });
            done(t, vec![last])
        }
    }
}

/// CALLS opens of SEALED (ciphertext then tag): in OUT (reuse, copied in
/// first) or in a new Vec. A rejected tag gives no output.
pub fn run_open(k: &Keyed, sealed: &[u8], calls: u64, out: Option<&mut [u8]>) -> Timed {
    let aad = &k.aad[..];
    let n = sealed.len().saturating_sub(16);
    match out {
        Some(in_out) => {
            let t = timed(calls, || {
                in_out.copy_from_slice(black_box(sealed));
                let nonce = aead::Nonce::assume_unique_for_key(k.nonce);
                match k.key.open_in_place(nonce, aead::Aad::from(aad), in_out) {
                    Ok(_) => 0,
                    Err(_) => 1,
                }
            });
            done(t, vec![in_out[..n].to_vec()])
        }
        None => {
            let mut last = Vec::new();
            let t = timed(calls, || {
                let mut v = black_box(sealed).to_vec();
                let nonce = aead::Nonce::assume_unique_for_key(k.nonce);
                let rc = match k.key.open_in_place(nonce, aead::Aad::from(aad), &mut v) {
                    Ok(_) => 0,
                    Err(_) => 1,
                };
                last = v;
                rc
            });
            last.truncate(n);
            done(t, vec![last])
        }
    }
}
