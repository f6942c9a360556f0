/* python_afalg.c: python-afalg, the Linux kernel's crypto API through
 * Python's standard library (socket.AF_ALG), a worker engine (see
 * core/engine/process.h and core/engines/workers/PROTOCOL.md). The kernel picks the
 * implementation, as for kcapi; the worker names its drivers. Where the
 * kernel has no AF_ALG sockets the worker says so and the engine is
 * unavailable. The engine is CB_PROCESS_ENGINE's, written out, with one
 * more hook: max_len, the longest AEAD message the worker sends whole. */
#include "config.h"

#include "core/engine/process.h"

#include <stdio.h>
#include <stdlib.h>

/* The worker's AEAD_MAX (afalg.py): text, tag and AAD of one AEAD
 * operation, the same 16 pages as the kcapi engine's. */
#define AFALG_AEAD_MAX 65536

/* The interpreters cb_process_find_python tries, running afalg.py (no
 * module to look for: the socket module is always there). */
static int find_afalg(struct cb_process_engine *pe, char *why, size_t why_len)
{
	return cb_process_find_python_script(pe, "afalg.py", why, why_len);
}

extern const struct cb_engine cb_engine_python_afalg;
static struct cb_process_engine afalg = {.engine = &cb_engine_python_afalg, .find = find_afalg};

static const char *afalg_version(void)
{
	return cb_process_version(&afalg);
}

static int afalg_probe(char *why, size_t why_len)
{
	return cb_process_probe(&afalg, why, why_len);
}

static bool afalg_supports(const struct cb_algorithm *alg, enum cb_op op, enum cb_mode mode)
{
	return cb_process_supports(&afalg, alg, op, mode);
}

static void *afalg_open(const struct cb_cell_setup *cell, const struct cb_engine_setup *setup,
                        char *err, size_t err_len)
{
	(void)setup;
	return cb_process_open(&afalg, cell, err, err_len);
}

static void afalg_describe(json_t *obj)
{
	cb_process_describe(&afalg, obj);
}

/* An AEAD message goes whole through the socket (hashes and CBC/CTR go in
 * pieces: no limit). */
static size_t afalg_max_len(const struct cb_algorithm *alg, enum cb_op op)
{
	(void)op;
	return alg->kind == CB_KIND_AEAD ? AFALG_AEAD_MAX - alg->tag_len : 0;
}

const struct cb_engine cb_engine_python_afalg = {
    .name = "python-afalg",
    .kind = "process",
    .version = afalg_version,
    .probe = afalg_probe,
    .supports = afalg_supports,
    .open = afalg_open,
    .call = cb_process_call,
    .close = cb_process_close,
    .describe = afalg_describe,
    .remote = cb_process_remote,
    .max_len = afalg_max_len,
};
