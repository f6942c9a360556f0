/* process.h: what every engine running in a worker process shares (the
 * other runtimes' engines, one CB_PROCESS_ENGINE line each in core/engines/
 * such as python_hashlib.c and node_crypto.c, and in-process engines under a
 * changed environment, run by `cryptobench worker ENGINE`).
 *
 * A process engine finds its worker command once (`find`, from the probe),
 * keeps the worker's hello, and answers version, supports and describe from
 * it. Its contexts send one request per trial (`remote`) or per message
 * (`call`, for known-answer checks). Only message mode is offered; a variant
 * with `env` gets a worker of its own started with that environment. */
#ifndef CB_PROCESS_H
#define CB_PROCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <jansson.h>

#include "core/engine/engine.h"

struct cb_worker;

#define CB_PROCESS_MAX_ARGS 16

struct cb_process_engine {
	const struct cb_engine *engine;
	/* Set argv (and start the worker with cb_process_start): 0, or -1
	 * with WHY. Called once, by the probe. */
	int (*find)(struct cb_process_engine *pe, char *why, size_t why_len);
	const char *backend; /* an argument for find (worker.py's backend) */

	/* Filled by the probe. */
	const char *argv[CB_PROCESS_MAX_ARGS];
	char words[1024];  /* storage for argv words that are not literals */
	char script[4096]; /* the worker program's path (cb_process_script) */
	json_t *hello;
	char version[512];
};

/* Start PE's worker with PE->argv and no extra environment, and keep its
 * hello: 0, or -1 with WHY. For find functions. */
int cb_process_start(struct cb_process_engine *pe, char *why, size_t why_len);

/* The live worker of ENGINE, a process engine whose probe started it,
 * with no extra environment (started again when it is not running): NULL
 * with ERR. */
struct cb_worker *cb_process_worker(const struct cb_engine *engine, char *err, size_t err_len);

/* The options a worker engine's variant takes: output = "reuse" (the
 * default: the calls write into buffers made before the timed loop, where
 * the runtime has such a call) or "fresh" (each call allocates its output,
 * the runtime's allocating API). */
extern const char *const cb_process_options[];

/* The check of those options (struct cb_engine's check_options). */
int cb_process_check_options(const struct cb_engine_config *config, const char **key, char *why,
                             size_t why_len);

const char *cb_process_version(struct cb_process_engine *pe);
int cb_process_probe(struct cb_process_engine *pe, char *why, size_t why_len);
bool cb_process_supports(struct cb_process_engine *pe, const struct cb_algorithm *alg,
                         enum cb_op op, enum cb_mode mode);
void *cb_process_open(struct cb_process_engine *pe, const struct cb_cell_setup *setup, char *err,
                      size_t err_len);
void cb_process_describe(struct cb_process_engine *pe, json_t *obj);

int cb_process_call(void *ctx, const unsigned char *in, size_t len, unsigned char *out);
/* Why the last cb_process_call that returned CB_FAILED did ("" before one). */
const char *cb_process_call_error(void);
int cb_process_remote(void *ctx, const struct cb_trial_info *trial, unsigned char *out,
                      struct cb_remote_times *t, char *why, size_t why_len);
void cb_process_close(void *ctx);
/* The process id of the worker that runs the calls of CTX, a context of a
 * process engine (its remote is cb_process_remote); 0 when none runs. */
pid_t cb_process_pid(const void *ctx);

/* FILE in the folder of worker programs (core/base/datadir.h), kept in PE. */
const char *cb_process_script(struct cb_process_engine *pe, const char *file);
/* The worker's command from $CRYPTOBENCH_WORKER_<ENGINE> (upper case, '-'
 * as '_'; words separated by spaces), a test fixture's: true when set. */
bool cb_process_override(struct cb_process_engine *pe);
/* Why a worker that make builds (and installs) is missing from FILE, where
 * core/base/datadir.h looks for it, into WHY: "the RUNTIME worker is not built
 * (FILE): MISSING when configure ran, or `make` did not build or install
 * it". */
void cb_process_not_built(char *why, size_t why_len, const char *runtime, const char *file,
                          const char *missing);
/* Python: the first of `python3` on PATH and /usr/bin/python3 (or only
 * $CRYPTOBENCH_PYTHON) that has PE->backend's module runs `-B
 * core/engines/workers/worker.py BACKEND`; the hello records which. -B
 * (here and for afalg.py) writes no bytecode beside the worker, where it
 * would land in the source tree or the installed $(pkgdatadir), and stay
 * there after `make uninstall`. */
int cb_process_find_python(struct cb_process_engine *pe, char *why, size_t why_len);
/* The same with another script of the workers' folder, and BACKEND (NULL:
 * none) as its argument. */
int cb_process_find_python_script(struct cb_process_engine *pe, const char *script, char *why,
                                  size_t why_len);

/* Define cb_engine_SYM, named LABEL, a worker found by FIND_FN (BACKEND is
 * its argument): one line per runtime engine file. */
#define CB_PROCESS_ENGINE(sym, label, find_fn, backend_arg)                                        \
	extern const struct cb_engine cb_engine_##sym;                                             \
	static struct cb_process_engine cb_pe_##sym = {                                            \
	    .engine = &cb_engine_##sym, .find = find_fn, .backend = backend_arg};                  \
	static const char *sym##_version(void)                                                     \
	{                                                                                          \
		return cb_process_version(&cb_pe_##sym);                                           \
	}                                                                                          \
	static int sym##_probe(char *why, size_t why_len)                                          \
	{                                                                                          \
		return cb_process_probe(&cb_pe_##sym, why, why_len);                               \
	}                                                                                          \
	static bool sym##_supports(const struct cb_algorithm *alg, enum cb_op op,                  \
	                           enum cb_mode mode)                                              \
	{                                                                                          \
		return cb_process_supports(&cb_pe_##sym, alg, op, mode);                           \
	}                                                                                          \
	static void *sym##_open(const struct cb_cell_setup *cell,                                  \
	                        const struct cb_engine_setup *setup, char *err, size_t err_len)    \
	{                                                                                          \
		(void)setup;                                                                       \
		return cb_process_open(&cb_pe_##sym, cell, err, err_len);                          \
	}                                                                                          \
	static void sym##_describe(json_t *obj)                                                    \
	{                                                                                          \
		cb_process_describe(&cb_pe_##sym, obj);                                            \
	}                                                                                          \
	const struct cb_engine cb_engine_##sym = {                                                 \
	    .name = label,                                                                         \
	    .kind = "process",                                                                     \
	    .version = sym##_version,                                                              \
	    .probe = sym##_probe,                                                                  \
	    .supports = sym##_supports,                                                            \
	    .open = sym##_open,                                                                    \
	    .call = cb_process_call,                                                               \
	    .close = cb_process_close,                                                             \
	    .describe = sym##_describe,                                                            \
	    .remote = cb_process_remote,                                                           \
	    .options = cb_process_options,                                                         \
	    .check_options = cb_process_check_options,                                             \
	}

#endif
