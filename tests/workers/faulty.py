#!/usr/bin/env python3
"""A test fixture standing in for a misbehaving worker: the real Python worker
(hashlib backend) that misbehaves once, at the first request of round 1.

usage: faulty.py MODE MARKER
  die        killed by SIGKILL instead of answering
  garbage    answers with a line that is not JSON
  hang       never answers
  wrongseed  answers with the input digest of another seed
  badhello   greets with a line that is not JSON (always)
MARKER is a file created when the fault fires, so a restarted worker behaves."""
import os
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.environ["top_srcdir"], "core", "engines", "workers"))
import worker  # noqa: E402

mode, marker = sys.argv[1], sys.argv[2]
if mode == "badhello":
    print("Traceback? no: this worker greets in prose", flush=True)
    sys.stdin.read()
    sys.exit(0)
real_run = worker.run


def run(backend, inputs, req):
    if req.get("round") == 1 and not os.path.exists(marker):
        open(marker, "w").close()
        if mode == "die":
            os.kill(os.getpid(), signal.SIGKILL)
        if mode == "garbage":
            sys.stdout.write("%%% not json %%%\n")
            sys.stdout.flush()
        if mode == "hang":
            time.sleep(120)
        if mode == "wrongseed":
            req["input"]["seed"] += 1
    return real_run(backend, inputs, req)


worker.run = run
sys.argv = [sys.argv[0], "hashlib"]
sys.exit(worker.main())
