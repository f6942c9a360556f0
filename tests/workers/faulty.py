#!/usr/bin/env python3
"""A test fixture standing in for a misbehaving worker: the real Python worker
(hashlib backend) that misbehaves once, at the first request of round 1.

usage: faulty.py MODE MARKER
  die        killed by SIGKILL instead of answering
  garbage    answers with a line that is not JSON
  hang       never answers
  wrongseed  answers with the input digest of another seed
  assemble   joins the output inside the timed loop (as a worker that built
             its output in every call would)
  untimed    answers without saying what it timed
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


def assembling(calls):
    """CALLS, whose every call also joins its output: assembly in the loop."""
    def make(*args):
        c = calls(*args)
        one = c.fn

        def fn(data):
            ok = one(data)
            worker.assemble(c.pieces())
            return ok

        c.fn = fn
        return c

    return make


def run(backend, inputs, arenas, req):
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
        if mode == "assemble":
            backend.calls = assembling(backend.calls)
            answer = real_run(backend, inputs, arenas, req)
            del backend.calls  # the class's own again
            return answer
        if mode == "untimed":
            answer = real_run(backend, inputs, arenas, req)
            del answer["timed"]
            return answer
    return real_run(backend, inputs, arenas, req)


worker.run = run
sys.argv = [sys.argv[0], "hashlib"]
sys.exit(worker.main())
