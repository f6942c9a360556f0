#!/usr/bin/env python3
"""cryptobench worker for Python (see PROTOCOL.md in this folder).

usage: worker.py hashlib|cryptography|pycryptodome

Speaks JSON lines on stdin/stdout: a hello first, then one result per request.
Each backend maps the canonical algorithm names to one call per message
(init, update, final), the way a Python program would write it. The timed
loop holds those calls and nothing else: with output "reuse" each writes into
a buffer made before the loop (update_into, encrypt_into, output=), with
"fresh" each returns a new object (the only way hashlib and every hash API
here has); the last call's pieces are joined after the timing."""

import base64
import ctypes
import hashlib
import itertools
import json
import mmap
import os
import platform
import sys
import time

PROTOCOL = 2
UNIT = 1 << 20
KEY_LEN = {"aes-128": 16, "aes-256": 32, "chacha20": 32}


def xorshift_unit(seed, n=UNIT):
    """The first N bytes of the generator's 1 MiB unit (PROTOCOL.md, core/algorithms/input.h)."""
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
OPS = {"hash": ["hash"], "cipher": ["encrypt", "decrypt"], "aead": ["encrypt", "decrypt", "decrypt-forged"]}


def kind(alg):
    return "hash" if alg in HASHES else "aead" if is_aead(alg) else "cipher"


class Timing:
    """Whether a timed loop is running, and how many outputs were assembled
    while it ran (PROTOCOL.md: `timed.assembled_in_loop`, which must be 0)."""

    running = False
    assembled_in_loop = 0


def assemble(pieces):
    """The output from the last call's pieces (AEAD: ciphertext, then tag)."""
    if Timing.running:
        Timing.assembled_in_loop += 1
    return b"".join(bytes(p) for p in pieces)


class Calls:
    """What one cell's loop calls: FN(data) is one message, False when the tag
    was rejected; PIECES() is the last call's output, in pieces; API names the
    library call; OUTPUT is "reuse" (into buffers made before the loop) or
    "fresh" (the call allocates its output)."""

    def __init__(self, api, output, fn, pieces, bytes_only=False):
        self.api, self.output, self.fn, self.pieces = api, output, fn, pieces
        self.bytes_only = bytes_only  # the call takes bytes, not a view of placed memory


PAGE = mmap.PAGESIZE


def page_offset(arena, offset):
    """Where ARENA's byte OFFSET lies past a page boundary, read from its address."""
    return ctypes.addressof(ctypes.c_char.from_buffer(arena.map, offset)) % PAGE


class Arena:
    """Page-aligned memory (an anonymous map), grown when needed and written
    once when made, so that no page fault lands in a timed loop."""

    def __init__(self):
        self.map = None
        self.place = 0  # where the next outputs start past a page boundary

    def view(self, n, offset):
        need = offset + n + 64
        if self.map is None or len(self.map) < need:
            size = (need + PAGE - 1) // PAGE * PAGE
            self.map = mmap.mmap(-1, size)
            self.map.write(bytes(size))
        return memoryview(self.map)[offset : offset + n]


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

    def api(self, alg, op):
        return {"reuse": None, "fresh": "hashlib.%s(data).digest()" % self.ctors[alg].__name__.replace("openssl_", "")}

    def calls(self, alg, op, output, outs, n, key, iv, aad):
        ctor, last = self.ctors[alg], [b""]

        def fn(data):
            last[0] = ctor(data).digest()
            return True

        return Calls(self.api(alg, op)["fresh"], "fresh", fn, lambda: [last[0]])


class Cryptography:
    module = "cryptography"

    def __init__(self):
        import cryptography
        from cryptography.hazmat.backends.openssl import backend
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
        from cryptography.hazmat.primitives.ciphers import aead
        from cryptography.exceptions import InvalidTag

        from worker_pk import CryptographyPk, pk_algorithms

        self.library = "%s (cryptography %s)" % (backend.openssl_version_text(), cryptography.__version__)
        self.pk, self.pk_algorithms = CryptographyPk(), pk_algorithms()
        self.h, self.Cipher, self.algos, self.modes = hashes, Cipher, algorithms, modes
        self.aead, self.InvalidTag = aead, InvalidTag
        self.hash_types = {
            "md5": (hashes.MD5, "MD5()"),
            "sha1": (hashes.SHA1, "SHA1()"),
            "sha256": (hashes.SHA256, "SHA256()"),
            "sha512": (hashes.SHA512, "SHA512()"),
            "blake2b-512": (lambda: hashes.BLAKE2b(64), "BLAKE2b(64)"),
            "sha3-256": (hashes.SHA3_256, "SHA3_256()"),
        }

    def algorithms(self):
        a = {h: ["hash"] for h in self.hash_types}
        a.update({c: OPS["cipher"] for c in CIPHERS})
        a.update({c: OPS["aead"] for c in AEADS})
        a.update(self.pk_algorithms)
        return a

    def box_type(self, alg):
        return self.aead.ChaCha20Poly1305 if alg == "chacha20-poly1305" else self.aead.AESGCM

    def api(self, alg, op):
        if alg in self.pk_algorithms:
            return self.pk.api(alg, op)
        k = kind(alg)
        if k == "hash":
            return {"reuse": None, "fresh": "Hash(%s).update(data); finalize()" % self.hash_types[alg][1]}
        verb = "encrypt" if op == "encrypt" else "decrypt"
        if k == "aead":
            box = self.box_type(alg)
            call = "%s(key).%s%%s(nonce, data, aad%%s)" % (box.__name__, verb)
            into = hasattr(box, verb + "_into")
            return {"reuse": call % ("_into", ", buf") if into else None, "fresh": call % ("", "")}
        ctx = "Cipher(AES(key), %s(iv)).%sor()" % ("CBC" if alg.endswith("cbc") else "CTR", verb)
        return {"reuse": ctx + ".update_into(data, buf); finalize()", "fresh": ctx + ".update(data); finalize()"}

    def calls(self, alg, op, output, outs, n, key, iv, aad):
        api, last = self.api(alg, op), [b""]
        k = kind(alg)
        if output == "reuse" and api["reuse"] is None:
            output = "fresh"
        if k == "hash":
            make, Hash = self.hash_types[alg][0], self.h.Hash

            def fn(data):
                h = Hash(make())
                h.update(data)
                last[0] = h.finalize()
                return True

            return Calls(api["fresh"], "fresh", fn, lambda: [last[0]])
        decrypt = op != "encrypt"
        if k == "aead":
            box, invalid = self.box_type(alg)(key), self.InvalidTag
            size = n - 16 if decrypt else n + 16  # the output's length
            if output == "reuse":
                buf = outs.view(size, outs.place)
                into = box.decrypt_into if decrypt else box.encrypt_into

                def fn(data):
                    try:
                        into(iv, data, aad, buf)
                    except invalid:
                        return False
                    return True

                return Calls(api["reuse"], "reuse", fn, lambda: [buf])
            once = box.decrypt if decrypt else box.encrypt

            def fn(data):
                try:
                    last[0] = once(iv, data, aad)
                except invalid:
                    return False
                return True

            # Versions without encrypt_into (before the Rust AEADs) take bytes only.
            bytes_only = not hasattr(box, "encrypt_into")
            return Calls(api["fresh"], "fresh", fn, lambda: [last[0]], bytes_only)
        mode = self.modes.CBC(iv) if alg.endswith("cbc") else self.modes.CTR(iv)
        c = self.Cipher(self.algos.AES(key), mode)
        if output == "reuse":
            buf = outs.view(n + 15, outs.place)  # update_into wants a block less one to spare

            def fn(data):
                ctx = c.decryptor() if decrypt else c.encryptor()
                ctx.update_into(data, buf)
                ctx.finalize()
                return True

            return Calls(api["reuse"], "reuse", fn, lambda: [buf[:n]])

        def fn(data):
            ctx = c.decryptor() if decrypt else c.encryptor()
            last[0] = ctx.update(data)
            ctx.finalize()
            return True

        return Calls(api["fresh"], "fresh", fn, lambda: [last[0]])


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
            "md5": (MD5.new, "MD5.new(data).digest()"),
            "sha1": (SHA1.new, "SHA1.new(data).digest()"),
            "sha256": (SHA256.new, "SHA256.new(data).digest()"),
            "sha512": (SHA512.new, "SHA512.new(data).digest()"),
            "blake2b-512": (lambda data: BLAKE2b.new(digest_bits=512, data=data),
                            "BLAKE2b.new(digest_bits=512, data=data).digest()"),
            "sha3-256": (SHA3_256.new, "SHA3_256.new(data).digest()"),
        }

    def algorithms(self):
        a = {h: ["hash"] for h in self.hash_new}
        a.update({c: OPS["cipher"] for c in CIPHERS})
        a.update({c: OPS["aead"] for c in AEADS})
        return a

    def api(self, alg, op):
        k = kind(alg)
        if k == "hash":
            return {"reuse": None, "fresh": self.hash_new[alg][1]}
        if k == "aead":
            new = "ChaCha20_Poly1305.new(key=key, nonce=nonce)" if alg == "chacha20-poly1305" else "AES.new(key, MODE_GCM, nonce=nonce)"
            verb, then = ("encrypt(data", "; digest()") if op == "encrypt" else ("decrypt(ct", "; verify(tag)")
        else:
            new = "AES.new(key, MODE_CBC, iv=iv)" if alg.endswith("cbc") else "AES.new(key, MODE_CTR, initial_value=iv)"
            verb, then = ("encrypt(data" if op == "encrypt" else "decrypt(data"), ""
        return {"reuse": "%s.%s, output=buf)%s" % (new, verb, then), "fresh": "%s.%s)%s" % (new, verb, then)}

    def calls(self, alg, op, output, outs, n, key, iv, aad):
        api, last, AES, k = self.api(alg, op), [b"", b""], self.AES, kind(alg)
        if k == "hash":
            new = self.hash_new[alg][0]

            def fn(data):
                last[0] = new(data).digest()
                return True

            return Calls(api["fresh"], "fresh", fn, lambda: [last[0]])
        reuse = output == "reuse"
        decrypt = op != "encrypt"
        if k == "aead":
            if alg == "chacha20-poly1305":
                make = lambda: self.ChaCha.new(key=key, nonce=iv)
            else:
                make = lambda: AES.new(key, AES.MODE_GCM, nonce=iv, mac_len=16)
            size = n - 16 if decrypt else n
            buf = outs.view(size, outs.place) if reuse else None
            if not decrypt:

                def fn(data):
                    c = make()
                    if aad:
                        c.update(aad)
                    last[0] = c.encrypt(data, output=buf)
                    last[1] = c.digest()
                    return True

                pieces = (lambda: [buf, last[1]]) if reuse else (lambda: [last[0], last[1]])
                return Calls(api[output], output, fn, pieces)

            def fn(sealed):
                c = make()
                if aad:
                    c.update(aad)
                try:
                    last[0] = c.decrypt(sealed[:-16], output=buf)
                    c.verify(sealed[-16:])
                except ValueError:
                    return False
                return True

            return Calls(api[output], output, fn, (lambda: [buf]) if reuse else (lambda: [last[0]]))
        if alg.endswith("cbc"):
            make = lambda: AES.new(key, AES.MODE_CBC, iv=iv)
        else:
            make = lambda: AES.new(key, AES.MODE_CTR, nonce=b"", initial_value=iv)
        buf = outs.view(n, outs.place) if reuse else None

        def fn(data):
            c = make()
            last[0] = c.decrypt(data, output=buf) if decrypt else c.encrypt(data, output=buf)
            return True

        return Calls(api[output], output, fn, (lambda: [buf]) if reuse else (lambda: [last[0]]))


BACKENDS = {"hashlib": Hashlib, "cryptography": Cryptography, "pycryptodome": Pycryptodome}


def steady_heap():
    """Fix glibc malloc's thresholds, which it otherwise moves as it goes:
    the worker's own answers (a 1 MiB output's base64 and its JSON line,
    between two trials) left the heap trimmed, so that a trial's 1 MiB
    outputs (fresh) took new pages from the kernel, page faults that a
    user's loop of the same calls does not pay after its first calls.
    Allocations below 32 MiB come from the heap, and freed memory stays."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc
        return
    mallopt(-3, 32 << 20)  # M_MMAP_THRESHOLD, its largest
    mallopt(-1, 1 << 30)  # M_TRIM_THRESHOLD


def send(obj):
    """OBJ as one line on standard output, written with os.write until all of
    it is out. Not sys.stdout: under the ptrace sampler (run --explain), a write
    to the pipe is cut short by each stop, and CPython 3.11's buffered stdout
    then returned from flush() with the rest of a long line (218 KB of a
    350 KB answer) never written: the worker waited for the next request, and
    cryptobench for the end of that line, until the worker timeout."""
    data = memoryview((json.dumps(obj, separators=(",", ":")) + "\n").encode())
    while data:
        data = data[os.write(1, data):]


def material(value, n):
    if value is None:
        return None
    if value == "counting":
        return counting(n)
    return bytes.fromhex(value)


def hello_calls(backend):
    """For each algorithm and op, what each output mode calls (null: no such API)."""
    return {alg: {op: backend.api(alg, op) for op in ops} for alg, ops in backend.algorithms().items()}


def timed_loop(fn, data, calls):
    """CALLS calls of FN on DATA and nothing else: (ns, cpu_ns, rejected).
    The loop counts with itertools.repeat, as timeit does: range() makes an
    int object per call past 256, which cost hashlib's SHA-512 64 B 15 ns
    a call (444-469 against 429-454 ns, 3.11, AMD EPYC family 26 model 2)."""
    rejected = 0
    Timing.running = True
    cpu0, t0 = time.thread_time_ns(), time.perf_counter_ns()
    for _ in itertools.repeat(None, calls):
        if not fn(data):
            rejected += 1
    t1, cpu1 = time.perf_counter_ns(), time.thread_time_ns()
    Timing.running = False
    return t1 - t0, cpu1 - cpu0, rejected


def run_pk(backend, data, input_sha, req):
    """A public-key cell (PROTOCOL.md): the keys of req["pk"] imported before
    the loop; the message (Ed25519's to sign) is the input, as bytes."""
    alg, op, calls = req["algorithm"], req["op"], int(req["calls"])
    fn, pieces = backend.pk.calls(alg, op, req.get("pk") or {})
    api = backend.api(alg, op)["fresh"]
    Timing.assembled_in_loop = 0
    ns, cpu_ns, rejected = timed_loop(fn, bytes(data), calls)
    if rejected and rejected != calls:
        return {"status": "error", "error": "%d of %d calls rejected the signature" % (rejected, calls)}
    out = b"" if rejected else assemble(pieces())
    return {
        "status": "rejected" if rejected else "ok",
        "calls": calls,
        "ns": ns,
        "cpu_ns": cpu_ns,
        "timed": {"calls": calls, "api": api, "output": "fresh",
                  "assembled_in_loop": Timing.assembled_in_loop},
        "placed": {"input_offset": None, "out": None, "stack": None},  # the calls allocate
        "input_sha256": input_sha,
        "output": base64.b64encode(out).decode("ascii"),
    }


def run(backend, inputs, arenas, req):
    alg, op, size, calls = req["algorithm"], req["op"], int(req["size"]), int(req["calls"])
    output = req.get("output", "reuse")
    if output not in ("reuse", "fresh"):
        return {"status": "error", "error": "output must be reuse or fresh, not %r" % output}
    offset = int(req.get("input_offset", 0)) % PAGE
    arenas[1].place = int((req.get("layout") or {}).get("out", 0)) % PAGE
    src = req["input"]
    if "base64" in src:
        data = base64.b64decode(src["base64"])
        input_sha = hashlib.sha256(data).hexdigest()
    else:
        data, input_sha = inputs.get(int(src["seed"]), size)
    if alg in getattr(backend, "pk_algorithms", {}):
        return run_pk(backend, data, input_sha, req)
    key = iv = aad = None
    if op != "hash":
        key = material(req.get("key", "counting"), key_len(alg))
        iv = material(req.get("iv", "counting"), iv_len(alg))
        aad = material(req.get("aad"), 0)
    if op.startswith("decrypt"):
        if "base64" in src:
            sealed = bytes(data) + (bytes.fromhex(req["tag"]) if is_aead(alg) else b"")
            input_sha = None  # the plaintext is what comes out
        else:
            seal = backend.calls(alg, "encrypt", "fresh", arenas[1], size, key, iv, aad)
            seal.fn(bytes(data))
            sealed = assemble(seal.pieces())
        if op == "decrypt-forged" and "base64" not in src:
            sealed = sealed[:size] + bytes([sealed[size] ^ 1]) + sealed[size + 1 :]
        data = sealed
    placed = arenas[0].view(len(data), offset)  # the input where the run put its own
    placed[:] = data
    todo = backend.calls(alg, op, output, arenas[1], len(data), key, iv, aad)
    if todo.bytes_only:
        placed = bytes(placed)  # copied before any timing; its placement is lost
    Timing.assembled_in_loop = 0
    ns, cpu_ns, rejected = timed_loop(todo.fn, placed, calls)
    if rejected and rejected != calls:
        return {"status": "error", "error": "%d of %d calls rejected the tag" % (rejected, calls)}
    out = b"" if rejected else assemble(todo.pieces())
    if input_sha is None:
        input_sha = hashlib.sha256(out).hexdigest()
    return {
        "status": "rejected" if rejected else "ok",
        "calls": calls,
        "ns": ns,
        "cpu_ns": cpu_ns,
        "timed": {"calls": calls, "api": todo.api, "output": todo.output,
                  "assembled_in_loop": Timing.assembled_in_loop},
        "placed": {"input_offset": None if todo.bytes_only else page_offset(arenas[0], offset),
                   "out": page_offset(arenas[1], arenas[1].place) if todo.output == "reuse" else None,
                   "stack": None},
        "input_sha256": input_sha,
        "output": base64.b64encode(out).decode("ascii"),
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
        "calls": hello_calls(backend),
    })
    steady_heap()
    inputs, arenas = Inputs(), [Arena(), Arena()]
    for line in sys.stdin:
        req = json.loads(line)
        try:
            answer = run(backend, inputs, arenas, req)
        except Exception as e:
            answer = {"status": "error", "error": "%s: %s" % (type(e).__name__, e)}
        answer.update({"type": "result", "id": req.get("id")})
        send(answer)
    return 0


if __name__ == "__main__":
    sys.exit(main())
