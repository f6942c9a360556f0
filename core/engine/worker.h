/* worker.h: out-of-process workers speaking the JSON-lines protocol of
 * core/engines/workers/PROTOCOL.md.
 *
 * A worker is started once per (engine, command, environment) and kept for
 * the whole process, so its start-up is never measured. A worker that dies,
 * hangs (no answer within the timeout: killed) or writes something that is
 * not the answer expected is dropped; the failing request reports why in one
 * line naming the engine, and the next cb_worker_get starts it again.
 *
 * Starting a worker sets SIGPIPE to be ignored, so that writing to a worker
 * that died returns EPIPE instead of ending cryptobench. Not thread-safe:
 * one thread at a time (the runner runs worker engines on one thread). */
#ifndef CB_WORKER_H
#define CB_WORKER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>

struct cb_worker;

/* The protocol's version: 2 added what a reply says was timed (`timed`)
 * and where the worker placed its buffers (`placed`). */
#define CB_WORKER_PROTOCOL 2

/* The live worker of ENGINE started with ARGV (argv[0] looked up in PATH)
 * and ENV ("NAME=value" pairs added to cryptobench's environment; NULL or
 * NULL-ended), starting it and reading its hello when there is none. NULL
 * with ERR (one line, naming ENGINE) when it cannot start, says it is
 * unavailable (ERR is its reason), or does not greet with protocol CB_WORKER_PROTOCOL. */
struct cb_worker *cb_worker_get(const char *engine, const char *const *argv, char *const *env,
                                char *err, size_t err_len);

/* The worker's hello (borrowed; valid while the worker lives). */
const json_t *cb_worker_hello(const struct cb_worker *w);

/* The worker's process id, 0 when it is not running (a profiled trial
 * samples it: core/run/explain.h). */
pid_t cb_worker_pid(const struct cb_worker *w);

/* How many times this worker had to be started again after a failure. */
unsigned cb_worker_restarts(const struct cb_worker *w);

/* Send REQ (an "id" is added) and wait for its answer: a new reference, or
 * NULL with ERR when the worker died, hung or answered with something else;
 * the worker is then stopped. *ROUND_TRIP_NS gets the time from writing the
 * request to reading the answer. */
json_t *cb_worker_request(struct cb_worker *w, json_t *req, uint64_t *round_trip_ns, char *err,
                          size_t err_len);

/* Seconds to wait for an answer: CRYPTOBENCH_WORKER_TIMEOUT, or 60 (a hello
 * gets at least 30 s). */
double cb_worker_timeout(void);

/* End W's input and wait up to TIMEOUT seconds for it to exit, as a
 * worker must at the end of its input: 0 with HOW ("exited with status
 * 0"), or -1 when it had to be killed (HOW says so). W is not running
 * afterwards (the next cb_worker_get starts it again). */
int cb_worker_end(struct cb_worker *w, double timeout, char *how, size_t how_len);

/* Stop every worker (close its stdin, wait briefly, then kill). */
void cb_workers_stop(void);

/* Base64 (RFC 4648, padded) of LEN bytes: a malloc'd string, or NULL. */
char *cb_base64_encode(const unsigned char *buf, size_t len);
/* Decode TEXT into OUT (room for MAX bytes): the length, or -1 when TEXT is
 * not base64 or longer than MAX. */
long cb_base64_decode(const char *text, unsigned char *out, size_t max);

#endif
