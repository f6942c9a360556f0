"""timeit on the calls the Python workers time (tests/bench/peers.sh).

usage: timeit_peers.py INPUT >> TSV (label alg size ns: the median per-call
time of 7 repeats, each about 20 ms, on the input file the script wrote).

The calls get the input as a memoryview, as the worker's do.
Each call keeps its output until the next call replaces it, as the worker's
loop does (and a user's `out = ...` in a loop): an output dropped as soon as
it is made changes glibc's heap. cryptography's CBC `update` makes two 1 MiB
buffers per call at 1 MiB; dropped at once, after the 1 MiB AES-GCM cells
had raised malloc's mmap threshold, they grew the heap and trimmed it again
every call, 480 page faults a call (7.1 ms a call against 0.88 ms kept)."""
import hashlib
import statistics
import sys
import timeit

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

data_all = open(sys.argv[1], "rb").read()
key32, key16, iv12, iv16 = bytes(range(32)), bytes(range(16)), bytes(range(12)), bytes(range(16))


def cells(size):
    # A memoryview, as the worker's calls get (a view of the memory it placed
    # the input in, core/engines/workers/worker.py): a view's buffer costs
    # hashlib more than bytes' (SHA-512 64 B: 495 against 478 ns a call).
    data = memoryview(data_all)[:size]
    gcm, cbc = AESGCM(key32), Cipher(algorithms.AES(key16), modes.CBC(iv16))
    buf_gcm, buf_cbc = bytearray(size + 16), bytearray(size + 15)

    last = [None]  # the last call's output, kept until the next call's

    def hashlib_call(ctor):
        def call():
            last[0] = ctor(data).digest()
        return call

    def crypto_hash(kind):
        def call():
            h = hashes.Hash(kind())
            h.update(data)
            last[0] = h.finalize()
        return call

    def gcm_into():
        gcm.encrypt_into(iv12, data, None, buf_gcm)

    def gcm_fresh():
        last[0] = gcm.encrypt(iv12, data, None)

    def cbc_into():
        e = cbc.encryptor()
        e.update_into(data, buf_cbc)
        e.finalize()

    def cbc_fresh():
        e = cbc.encryptor()
        last[0] = e.update(data)
        e.finalize()

    return [
        ("python-hashlib", "sha256", hashlib_call(hashlib.sha256)),
        ("python-hashlib", "sha512", hashlib_call(hashlib.sha512)),
        ("python-cryptography", "sha256", crypto_hash(hashes.SHA256)),
        ("python-cryptography", "sha512", crypto_hash(hashes.SHA512)),
        ("python-cryptography", "aes-256-gcm", gcm_into),
        ("python-cryptography-output=fresh", "aes-256-gcm", gcm_fresh),
        ("python-cryptography", "aes-128-cbc", cbc_into),
        ("python-cryptography-output=fresh", "aes-128-cbc", cbc_fresh),
    ]


for size in (64, 16384, 1048576):
    for label, alg, call in cells(size):
        t = timeit.Timer(call)
        number = 1
        while t.timeit(number) < 0.02:
            number *= 2
        runs = t.repeat(repeat=7, number=number)
        print("%s\t%s\t%d\t%.1f" % (label, alg, size, statistics.median(runs) / number * 1e9))
