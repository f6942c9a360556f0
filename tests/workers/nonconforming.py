#!/usr/bin/env python3
"""nonconforming.py FAULT WORKER_PY: the shipped Python worker (WORKER_PY, worker.py)
with one fault planted, for tests/cli_worker_check.sh and tests/cli_extern.sh (faulty.py
beside it breaks a worker once, mid-run, for tests/cli_workers.sh).
It offers sha256 (hashlib) or, for forged-accepted, aes-128-gcm (cryptography).

  wrong-digest     every sha256 output has its first bit flipped
  forged-accepted  a forged tag is "accepted": decrypt-forged answers ok
  non-json         every answer is a line that is not JSON
  hang             every request is read and never answered
  old-protocol     the hello says protocol 1
"""
import base64
import os
import sys
import time

fault, worker_py = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.dirname(os.path.abspath(worker_py)))
import worker as w  # noqa: E402

backend_name, keep = ("cryptography", "aes-128-gcm") if fault == "forged-accepted" else ("hashlib", "sha256")
sys.argv = [worker_py, backend_name]
make_backend = w.BACKENDS[backend_name]


def only_one():
    b = make_backend()
    offered = b.algorithms
    b.algorithms = lambda: {k: v for k, v in offered().items() if k == keep}
    return b


w.BACKENDS[backend_name] = only_one
run, send = w.run, w.send


def faulty_run(backend, inputs, arenas, req):
    if fault == "hang":
        time.sleep(3600)
    if fault == "forged-accepted" and req.get("op") == "decrypt-forged":
        honest = dict(req, op="decrypt")
        if "tag" in req:  # a known-answer check hands the forged tag: undo the flip
            tag = bytearray.fromhex(req["tag"])
            tag[0] ^= 1
            honest["tag"] = tag.hex()
        answer = run(backend, inputs, arenas, honest)
        if answer.get("status") == "ok":
            answer["timed"]["api"] = backend.api(req["algorithm"], "decrypt-forged")[answer["timed"]["output"]]
        return answer
    answer = run(backend, inputs, arenas, req)
    if fault == "wrong-digest" and answer.get("status") == "ok":
        out = bytearray(base64.b64decode(answer["output"]))
        out[0] ^= 1
        answer["output"] = base64.b64encode(bytes(out)).decode("ascii")
    return answer


def faulty_send(obj):
    if fault == "old-protocol" and obj.get("type") == "hello":
        obj["protocol"] = 1
    if fault == "non-json" and obj.get("type") == "result":
        sys.stdout.write("this is not JSON\n")
        sys.stdout.flush()
        return
    send(obj)


w.run, w.send = faulty_run, faulty_send
sys.exit(w.main())
