#!/usr/bin/env python3
"""cryptobench worker for Python (see PROTOCOL.md in this folder).

usage: worker.py hashlib|cryptography|pycryptodome

Speaks JSON lines on stdin/stdout: a hello first, then one result per request.
Each backend maps the canonical algorithm names to one call per message
(init, update, final), the way a Python program would write it."""

import base64
import hashlib
import json
import platform
import sys
import time

PROTOCOL = 1
UNIT = 1 << 20
KEY_LEN = {"aes-128": 16, "aes-256": 32, "chacha20": 32}


def xorshift_unit(seed, n=UNIT):
    """The first N bytes of the generator's 1 MiB unit (PROTOCOL.md, core/input.h)."""
    x = seed & 0xFFFFFFFF
    out = bytearray(n)
    for i in range(n):
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        out[i] = x & 0xFF
    return bytes(out)


class Inputs:
    """The generated input, made once per seed and grown to the largest size
    (only as much of the unit as needed: pure Python takes ~1 s per MiB)."""

    def __init__(self):
        self.seed = None
        self.unit = b""
        self.data = b""
        self.digests = {}

    def get(self, seed, size):
        if seed != self.seed:
            self.seed, self.unit, self.data, self.digests = seed, b"", b"", {}
        if len(self.unit) < min(size, UNIT):
            self.unit = xorshift_unit(seed, min(size, UNIT))
            self.data = self.unit
        if len(self.data) < size:
            reps = (size + UNIT - 1) // UNIT
            self.data = self.unit * reps
        view = memoryview(self.data)[:size]
        if size not in self.digests:
            self.digests[size] = hashlib.sha256(view).hexdigest()
        return view, self.digests[size]


def counting(n):
    return bytes(range(n))


def key_len(alg):
    for prefix, n in KEY_LEN.items():
        if alg.startswith(prefix):
            return n
    return 0


def iv_len(alg):
    return 12 if alg.endswith("gcm") or alg == "chacha20-poly1305" else 16


def is_aead(alg):
    return alg.endswith("gcm") or alg == "chacha20-poly1305"


HASHES = ["md5", "sha1", "sha256", "sha512", "blake2b-512", "sha3-256"]
CIPHERS = ["aes-128-cbc", "aes-256-cbc", "aes-128-ctr", "aes-256-ctr"]
AEADS = ["aes-128-gcm", "aes-256-gcm", "chacha20-poly1305"]


class Hashlib:
    module = "hashlib"

    def __init__(self):
        import ssl

        self.library = ssl.OPENSSL_VERSION
        self.ctors = {
            "md5": hashlib.md5,
            "sha1": hashlib.sha1,
            "sha256": hashlib.sha256,
            "sha512": hashlib.sha512,
            "blake2b-512": hashlib.blake2b,
            "sha3-256": hashlib.sha3_256,
        }

    def algorithms(self):
        return {a: ["hash"] for a in self.ctors}

    def hasher(self, alg):
        ctor = self.ctors[alg]
        return lambda data: ctor(data).digest()


class Cryptography:
    module = "cryptography"

    def __init__(self):
        import cryptography
        from cryptography.hazmat.backends.openssl import backend
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
        from cryptography.hazmat.primitives.ciphers import aead
        from cryptography.exceptions import InvalidTag

        self.library = "%s (cryptography %s)" % (backend.openssl_version_text(), cryptography.__version__)
        self.h, self.Cipher, self.algos, self.modes = hashes, Cipher, algorithms, modes
        self.aead, self.InvalidTag = aead, InvalidTag
        self.hash_types = {
            "md5": hashes.MD5,
            "sha1": hashes.SHA1,
            "sha256": hashes.SHA256,
            "sha512": hashes.SHA512,
            "blake2b-512": lambda: hashes.BLAKE2b(64),
            "sha3-256": hashes.SHA3_256,
        }

    def algorithms(self):
        a = {h: ["hash"] for h in self.hash_types}
        a.update({c: ["encrypt", "decrypt"] for c in CIPHERS})
        a.update({c: ["encrypt", "decrypt", "decrypt-forged"] for c in AEADS})
        return a

    def hasher(self, alg):
        make, Hash = self.hash_types[alg], self.h.Hash

        def call(data):
            h = Hash(make())
            h.update(data)
            return h.finalize()

        return call

    def cipher(self, alg, key, iv, aad, decrypt):
        if is_aead(alg):
            box = (self.aead.ChaCha20Poly1305 if alg == "chacha20-poly1305" else self.aead.AESGCM)(key)
            if not decrypt:
                return lambda data: box.encrypt(iv, data, aad)
            invalid = self.InvalidTag

            def open_(sealed):
                try:
                    return box.decrypt(iv, sealed, aad)
                except invalid:
                    return None

            return open_
        mode = self.modes.CBC(iv) if alg.endswith("cbc") else self.modes.CTR(iv)
        c = self.Cipher(self.algos.AES(key), mode)

        def call(data):
            ctx = c.decryptor() if decrypt else c.encryptor()
            out = ctx.update(data)
            ctx.finalize()
            return out

        return call


class Pycryptodome:
    def __init__(self):
        try:
            import Cryptodome as pkg
            from Cryptodome.Cipher import AES, ChaCha20_Poly1305
            from Cryptodome.Hash import MD5, SHA1, SHA256, SHA512, BLAKE2b, SHA3_256
        except ImportError:
            import Crypto as pkg
            from Crypto.Cipher import AES, ChaCha20_Poly1305
            from Crypto.Hash import MD5, SHA1, SHA256, SHA512, BLAKE2b, SHA3_256
        self.module = pkg.__name__
        self.library = "pycryptodome %s (its own C code, module %s)" % (pkg.__version__, pkg.__name__)
        self.AES, self.ChaCha = AES, ChaCha20_Poly1305
        self.hash_new = {
            "md5": MD5.new,
            "sha1": SHA1.new,
            "sha256": SHA256.new,
            "sha512": SHA512.new,
            "blake2b-512": lambda data: BLAKE2b.new(digest_bits=512, data=data),
            "sha3-256": SHA3_256.new,
        }

    def algorithms(self):
        a = {h: ["hash"] for h in self.hash_new}
        a.update({c: ["encrypt", "decrypt"] for c in CIPHERS})
        a.update({c: ["encrypt", "decrypt", "decrypt-forged"] for c in AEADS})
        return a

    def hasher(self, alg):
        new = self.hash_new[alg]
        return lambda data: new(data).digest()

    def cipher(self, alg, key, iv, aad, decrypt):
        AES = self.AES
        if is_aead(alg):
            if alg == "chacha20-poly1305":
                make = lambda: self.ChaCha.new(key=key, nonce=iv)
            else:
                make = lambda: AES.new(key, AES.MODE_GCM, nonce=iv, mac_len=16)

            def seal(data):
                c = make()
                if aad:
                    c.update(aad)
                ct, tag = c.encrypt_and_digest(data)
                return ct + tag

            def open_(sealed):
                c = make()
                if aad:
                    c.update(aad)
                try:
                    return c.decrypt_and_verify(sealed[:-16], sealed[-16:])
                except ValueError:
                    return None

            return open_ if decrypt else seal
        if alg.endswith("cbc"):
            make = lambda: AES.new(key, AES.MODE_CBC, iv=iv)
        else:
            make = lambda: AES.new(key, AES.MODE_CTR, nonce=b"", initial_value=iv)
        if decrypt:
            return lambda data: make().decrypt(data)
        return lambda data: make().encrypt(data)


BACKENDS = {"hashlib": Hashlib, "cryptography": Cryptography, "pycryptodome": Pycryptodome}


def send(obj):
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def material(value, n):
    if value is None:
        return None
    if value == "counting":
        return counting(n)
    return bytes.fromhex(value)


def run(backend, inputs, req):
    alg, op, size, calls = req["algorithm"], req["op"], int(req["size"]), int(req["calls"])
    src = req["input"]
    if "base64" in src:
        data = base64.b64decode(src["base64"])
        input_sha = hashlib.sha256(data).hexdigest()
    else:
        data, input_sha = inputs.get(int(src["seed"]), size)
    if op == "hash":
        call = backend.hasher(alg)
    else:
        data = bytes(data)  # some AEAD APIs take bytes only; copied before any timing
        key = material(req.get("key", "counting"), key_len(alg))
        iv = material(req.get("iv", "counting"), iv_len(alg))
        aad = material(req.get("aad"), 0)
        if op == "encrypt":
            call = backend.cipher(alg, key, iv, aad, False)
        else:
            if "base64" in src:
                sealed = bytes(data) + (bytes.fromhex(req["tag"]) if is_aead(alg) else b"")
                input_sha = None  # the plaintext is what comes out
            else:
                sealed = backend.cipher(alg, key, iv, aad, False)(data)
            if op == "decrypt-forged" and "base64" not in src:
                sealed = sealed[:size] + bytes([sealed[size] ^ 1]) + sealed[size + 1 :]
            data = sealed
            call = backend.cipher(alg, key, iv, aad, True)
    out = None
    rejected = 0
    cpu0, t0 = time.thread_time_ns(), time.perf_counter_ns()
    if op.startswith("decrypt") and is_aead(alg):
        for _ in range(calls):
            out = call(data)
            if out is None:
                rejected += 1
    else:
        for _ in range(calls):
            out = call(data)
    t1, cpu1 = time.perf_counter_ns(), time.thread_time_ns()
    if rejected and rejected != calls:
        return {"status": "error", "error": "%d of %d calls rejected the tag" % (rejected, calls)}
    if input_sha is None:
        input_sha = hashlib.sha256(out or b"").hexdigest()
    return {
        "status": "rejected" if rejected else "ok",
        "calls": calls,
        "ns": t1 - t0,
        "cpu_ns": cpu1 - cpu0,
        "input_sha256": input_sha,
        "output": base64.b64encode(out or b"").decode("ascii"),
    }


def main():
    name = sys.argv[1] if len(sys.argv) > 1 else "hashlib"
    runtime = "%s %s" % (platform.python_implementation(), platform.python_version())
    try:
        backend = BACKENDS[name]()
    except Exception as e:  # a missing module: say so and leave
        send({"type": "unavailable", "reason": str(e).splitlines()[0] if str(e) else repr(e),
              "runtime": runtime, "executable": sys.executable})
        return 0
    send({
        "type": "hello",
        "protocol": PROTOCOL,
        "engine": "python-" + name,
        "runtime": runtime,
        "executable": sys.executable,
        "library": backend.library,
        "module": backend.module,
        "clock": "time.perf_counter_ns (CLOCK_MONOTONIC)",
        "cpu_clock": "time.thread_time_ns",
        "algorithms": backend.algorithms(),
    })
    inputs = Inputs()
    for line in sys.stdin:
        req = json.loads(line)
        try:
            answer = run(backend, inputs, req)
        except Exception as e:
            answer = {"status": "error", "error": "%s: %s" % (type(e).__name__, e)}
        answer.update({"type": "result", "id": req.get("id")})
        send(answer)
    return 0


if __name__ == "__main__":
    sys.exit(main())
