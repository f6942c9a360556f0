#!/usr/bin/env python3
"""cryptobench worker for python-afalg: the Linux kernel's crypto API through
Python's standard library, socket.AF_ALG (see PROTOCOL.md in this folder).

usage: afalg.py

The Linux counterpart of a Python program calling its operating system's
crypto: no package, only the socket module. Each trial binds one algorithm
socket (key and tag length set on it) and accepts one operation socket,
outside the timing; each timed call is what a Python program writes on that
socket: a hash is sendall() then recv_into(); a cipher is sendmsg_afalg()
with the direction and IV, then recv_into(). Outputs land in a buffer made
once per trial (recv_into), so the timed loop allocates nothing.

The kernel's socket buffers bound one operation: a CBC or CTR message longer
than CHUNK bytes goes in pieces marked MSG_MORE (the kernel carries the
chaining value from piece to piece); an AEAD message must go whole through
the socket's send buffer (about 208 KiB by default; a longer one would block
the call forever): one longer than AEAD_MAX, the kcapi engine's limit, is
refused with a reason."""

import base64
import errno
import hashlib
import json
import os
import platform
import socket
import sys
import time

import worker as common  # the input generator and the key conventions

CHUNK = 1 << 16  # one kernel operation of the kcapi engine: 16 pages
AEAD_MAX = 1 << 16  # text, tag and AAD of one AEAD operation (python_afalg.c's max_len)

# Canonical name -> the kernel's name and the ops offered.
CIPHER_OPS = ["encrypt", "decrypt"]
AEAD_OPS = ["encrypt", "decrypt", "decrypt-forged"]
ALGORITHMS = {
    "md5": ("hash", "md5", ["hash"]),
    "sha1": ("hash", "sha1", ["hash"]),
    "sha256": ("hash", "sha256", ["hash"]),
    "sha512": ("hash", "sha512", ["hash"]),
    "blake2b-512": ("hash", "blake2b-512", ["hash"]),
    "sha3-256": ("hash", "sha3-256", ["hash"]),
    "aes-128-cbc": ("skcipher", "cbc(aes)", CIPHER_OPS),
    "aes-256-cbc": ("skcipher", "cbc(aes)", CIPHER_OPS),
    "aes-128-ctr": ("skcipher", "ctr(aes)", CIPHER_OPS),
    "aes-256-ctr": ("skcipher", "ctr(aes)", CIPHER_OPS),
    "aes-128-gcm": ("aead", "gcm(aes)", AEAD_OPS),
    "aes-256-gcm": ("aead", "gcm(aes)", AEAD_OPS),
    "chacha20-poly1305": ("aead", "rfc7539(chacha20,poly1305)", AEAD_OPS),
}
DIGEST_LEN = {"md5": 16, "sha1": 20, "sha256": 32, "sha512": 64, "blake2b-512": 64, "sha3-256": 32}
TAG_LEN = 16


def bind(kind, name, key=None):
    """An algorithm socket bound to NAME, with KEY (and, AEAD, the tag length) set."""
    alg = socket.socket(socket.AF_ALG, socket.SOCK_SEQPACKET, 0)
    try:
        alg.bind((kind, name))
        if key is not None:
            alg.setsockopt(socket.SOL_ALG, socket.ALG_SET_KEY, key)
        if kind == "aead":
            alg.setsockopt(socket.SOL_ALG, socket.ALG_SET_AEAD_AUTHSIZE, None, TAG_LEN)
    except OSError:
        alg.close()
        raise
    return alg


def offered():
    """The algorithms this kernel has: every name that binds (a missing module
    gives ENOENT). Binding instantiates templates such as cbc(aes), so
    /proc/crypto lists their drivers afterwards."""
    algorithms = {}
    for canonical, (kind, name, ops) in ALGORITHMS.items():
        try:
            bind(kind, name).close()
        except OSError:
            continue
        algorithms[canonical] = ops
    return algorithms


def drivers(names):
    """The highest priority driver of each kernel name in /proc/crypto."""
    best, name, driver = {}, None, None
    try:
        with open("/proc/crypto") as f:
            for line in f:
                key, _, value = (s.strip() for s in line.partition(":"))
                if key == "name":
                    name = value
                elif key == "driver":
                    driver = value
                elif key == "priority" and name in names:
                    if name not in best or int(value) > best[name][0]:
                        best[name] = (int(value), driver)
    except OSError:
        return {}
    return {n: d for n, (_, d) in best.items()}


class Trial:
    """One trial's sockets and buffers, made before the timing."""

    def __init__(self, alg, key, iv, aad, decrypt):
        kind, name, _ = ALGORITHMS[alg]
        self.kind, self.iv, self.aad = kind, iv, aad or b""
        self.decrypt = decrypt
        self.alg = bind(kind, name, None if kind == "hash" else key)
        self.op, _ = self.alg.accept()
        self.direction = socket.ALG_OP_DECRYPT if decrypt else socket.ALG_OP_ENCRYPT
        self.digest_len = DIGEST_LEN.get(alg, 0)

    def close(self):
        self.op.close()
        self.alg.close()

    def prepare(self, data):
        """The call on DATA (a bytes-like object), its output buffer made here."""
        n = len(data)
        if self.kind == "hash":
            out = bytearray(self.digest_len)
            op, view = self.op, memoryview(out)

            def call():
                op.sendall(data)
                op.recv_into(view)
                return view

            return call
        if self.kind == "aead":
            return self.aead(data)
        out = bytearray(n)
        view, op, direction, iv = memoryview(out), self.op, self.direction, self.iv
        data = memoryview(data)
        if n <= CHUNK:

            def call():
                op.sendmsg_afalg([data], op=direction, iv=iv)
                op.recv_into(view, n)
                return view

            return call
        more = socket.MSG_MORE
        pieces = [(data[off : off + CHUNK], view[off : off + CHUNK], more if off + CHUNK < n else 0)
                  for off in range(0, n, CHUNK)]
        first, rest = pieces[0], pieces[1:]

        def call():
            piece, into, flags = first
            op.sendmsg_afalg([piece], op=direction, iv=iv, flags=flags)
            op.recv_into(into, len(into))
            for piece, into, flags in rest:
                op.sendmsg_afalg([piece], op=direction, flags=flags)
                op.recv_into(into, len(into))
            return view

        return call

    def aead(self, data):
        """AEAD: the kernel reads AAD || text [|| tag] and writes AAD ||
        result [|| tag]; the result is returned without the AAD. Decrypting,
        a rejected tag is EBADMSG, returned as None. The kernel runs the
        operation only for a read of at least one byte (an empty text
        without AAD), so the read asks for one byte at least."""
        n, aad = len(data), self.aad
        tag = 0 if self.decrypt else TAG_LEN  # a decryption's input holds its tag
        if len(aad) + n + tag > AEAD_MAX:
            raise ValueError(
                "an AF_ALG AEAD operation goes whole: at most %d bytes of text, tag and AAD "
                "here, %d do not fit" % (AEAD_MAX, len(aad) + n + tag)
            )
        out_len = len(aad) + (n - TAG_LEN if self.decrypt else n + TAG_LEN)
        out = bytearray(max(out_len, 1))
        view, op, direction, iv = memoryview(out), self.op, self.direction, self.iv
        result = view[len(aad) : out_len]
        pieces = [aad, data] if aad else [data]
        assoclen = len(aad)
        if not self.decrypt:

            def seal():
                op.sendmsg_afalg(pieces, op=direction, iv=iv, assoclen=assoclen)
                op.recv_into(view, len(view))
                return result

            return seal
        bad = errno.EBADMSG

        def open_():
            op.sendmsg_afalg(pieces, op=direction, iv=iv, assoclen=assoclen)
            try:
                op.recv_into(view, len(view))
            except OSError as e:
                if e.errno == bad:
                    return None
                raise
            return result

        return open_


def api(kind):
    """What one timed call is, for each kind of socket (the hello's calls)."""
    return {"hash": "sendall + recv_into",
            "skcipher": "sendmsg_afalg + recv_into",
            "aead": "sendmsg_afalg + recv_into"}[kind]


def hello_calls(algorithms):
    """For each algorithm and op, what each output mode calls: every call
    writes into a buffer made before the loop; there is no allocating one."""
    return {alg: {op: {"reuse": api(ALGORITHMS[alg][0]), "fresh": None} for op in ops}
            for alg, ops in algorithms.items()}


def once(alg, key, iv, aad, decrypt, data):
    """One call outside any timing (the ciphertext that decryptions read)."""
    t = Trial(alg, key, iv, aad, decrypt)
    try:
        out = t.prepare(data)()
        return None if out is None else bytes(out)
    finally:
        t.close()


def run(inputs, req):
    alg, op, size, calls = req["algorithm"], req["op"], int(req["size"]), int(req["calls"])
    src = req["input"]
    if "base64" in src:
        data = base64.b64decode(src["base64"])
        input_sha = hashlib.sha256(data).hexdigest()
    else:
        data, input_sha = inputs.get(int(src["seed"]), size)
    key = iv = aad = None
    decrypt = op.startswith("decrypt")
    if op != "hash":
        key = common.material(req.get("key", "counting"), common.key_len(alg))
        iv = common.material(req.get("iv", "counting"), common.iv_len(alg))
        aad = common.material(req.get("aad"), 0)
    if decrypt:
        aead = common.is_aead(alg)
        if "base64" in src:
            sealed = bytes(data) + (bytes.fromhex(req["tag"]) if aead else b"")
            input_sha = None  # the plaintext is what comes out
        else:
            sealed = once(alg, key, iv, aad, False, data)
        if op == "decrypt-forged" and "base64" not in src:
            sealed = sealed[:size] + bytes([sealed[size] ^ 1]) + sealed[size + 1 :]
        data = sealed
    trial = Trial(alg, key, iv, aad, decrypt)
    try:
        call = trial.prepare(data)
        out = None
        rejected = 0
        cpu0, t0 = time.thread_time_ns(), time.perf_counter_ns()
        if decrypt and trial.kind == "aead":
            for _ in range(calls):
                out = call()
                if out is None:
                    rejected += 1
        else:
            for _ in range(calls):
                out = call()
        t1, cpu1 = time.perf_counter_ns(), time.thread_time_ns()
    finally:
        trial.close()
    if rejected and rejected != calls:
        return {"status": "error", "error": "%d of %d calls rejected the tag" % (rejected, calls)}
    out = b"" if out is None else bytes(out)
    if input_sha is None:
        input_sha = hashlib.sha256(out).hexdigest()
    return {
        "status": "rejected" if rejected else "ok",
        "calls": calls,
        "ns": t1 - t0,
        "cpu_ns": cpu1 - cpu0,
        # PROTOCOL.md: the loop holds the socket calls alone, each writing
        # into the buffer prepare() made; the output is copied after it.
        "timed": {"calls": calls, "api": api(trial.kind), "output": "reuse",
                  "assembled_in_loop": 0},
        # Python cannot place what the kernel reads and writes: none placed
        "placed": {"input_offset": None, "out": None, "stack": None},
        "input_sha256": input_sha,
        "output": base64.b64encode(out).decode("ascii"),
    }


def main():
    runtime = "%s %s" % (platform.python_implementation(), platform.python_version())
    try:
        if not hasattr(socket, "AF_ALG"):
            raise OSError("this Python's socket module has no AF_ALG (not built on Linux)")
        try:
            socket.socket(socket.AF_ALG, socket.SOCK_SEQPACKET, 0).close()
        except OSError as e:
            raise OSError("AF_ALG sockets: %s" % e)
        algorithms = offered()
        if not algorithms:
            raise OSError("AF_ALG sockets open, but no algorithm binds (algif_hash, algif_skcipher?)")
    except OSError as e:
        common.send({"type": "unavailable", "reason": str(e), "runtime": runtime,
                     "executable": sys.executable})
        return 0
    names = sorted({ALGORITHMS[a][1] for a in algorithms})
    chosen = drivers(names)
    common.send({
        "type": "hello",
        "protocol": common.PROTOCOL,
        "engine": "python-afalg",
        "runtime": runtime,
        "executable": sys.executable,
        "library": "Linux %s crypto API via AF_ALG (drivers: %s)" % (
            os.uname().release, ", ".join("%s=%s" % (n, chosen.get(n, "?")) for n in names)),
        "module": "socket (AF_ALG)",
        "clock": "time.perf_counter_ns (CLOCK_MONOTONIC)",
        "cpu_clock": "time.thread_time_ns",
        "algorithms": algorithms,
        "calls": hello_calls(algorithms),
    })
    inputs = common.Inputs()
    for line in sys.stdin:
        req = json.loads(line)
        try:
            answer = run(inputs, req)
        except Exception as e:
            answer = {"status": "error", "error": "%s: %s" % (type(e).__name__, e)}
        answer.update({"type": "result", "id": req.get("id")})
        common.send(answer)
    return 0


if __name__ == "__main__":
    sys.exit(main())
