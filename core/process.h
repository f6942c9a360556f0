/* process.h: what every engine running in a worker process shares (the
 * runtimes of runtimes.c, and in-process engines under a changed environment,
 * run by `cryptobench worker ENGINE`).
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

#include <jansson.h>

#include "core/engine.h"

#define CB_PROCESS_MAX_ARGS 16

struct cb_process_engine {
	const struct cb_engine *engine;
	/* Set argv (and start the worker with cb_process_start): 0, or -1
	 * with WHY. Called once, by the probe. */
	int (*find)(struct cb_process_engine *pe, char *why, size_t why_len);
	const char *backend; /* an argument for find (worker.py's backend) */

	/* Filled by the probe. */
	const char *argv[CB_PROCESS_MAX_ARGS];
	char words[1024]; /* storage for argv words that are not literals */
	json_t *hello;
	char version[512];
};

/* Start PE's worker with PE->argv and no extra environment, and keep its
 * hello: 0, or -1 with WHY. For find functions. */
int cb_process_start(struct cb_process_engine *pe, char *why, size_t why_len);

const char *cb_process_version(struct cb_process_engine *pe);
int cb_process_probe(struct cb_process_engine *pe, char *why, size_t why_len);
bool cb_process_supports(struct cb_process_engine *pe, const struct cb_algorithm *alg,
                         enum cb_op op, enum cb_mode mode);
void *cb_process_open(struct cb_process_engine *pe, const struct cb_cell_setup *setup, char *err,
                      size_t err_len);
void cb_process_describe(struct cb_process_engine *pe, json_t *obj);

int cb_process_call(void *ctx, const unsigned char *in, size_t len, unsigned char *out);
int cb_process_remote(void *ctx, const struct cb_trial_info *trial, unsigned char *out,
                      struct cb_remote_times *t, char *why, size_t why_len);
void cb_process_close(void *ctx);

#endif
