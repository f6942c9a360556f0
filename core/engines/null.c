/* null.c: the engine that does nothing but touch its output.
 *
 * Its time per call is the harness's own cost (its loop, in which every
 * engine's calls are timed, and the clock reads), reported beside every cell
 * so a measurement that is mostly harness is caught. */
#include "core/engine/engine.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *null_version(void)
{
	return "builtin";
}

static int null_probe(char *why, size_t why_len)
{
	(void)why;
	(void)why_len;
	return 0;
}

static bool null_supports(const struct cb_algorithm *alg, enum cb_op op, enum cb_mode mode)
{
	(void)mode;
	return !cb_alg_is_pk(alg) &&
	       cb_op_applies(alg, op); /* the empty call is a byte cell's harness cost */
}

static void *null_open(const struct cb_cell_setup *cell, const struct cb_engine_setup *setup,
                       char *err, size_t err_len)
{
	(void)setup;
	(void)err;
	(void)err_len;
	return (void *)cell; /* nothing to keep: any non-NULL pointer will do */
}

/* The output is the message length, so the compiler cannot drop the call
 * and the self check can tell a call that ran from one that did not. */
static int null_call(void *ctx, const unsigned char *in, size_t len, unsigned char *out)
{
	const struct cb_cell_setup *setup = ctx;

	if (setup->op == CB_OP_DECRYPT_FORGED)
		return CB_REJECTED; /* a baseline rejects what a real engine must reject */
	uint64_t mark = (uint64_t)len ^ in[0];

	memcpy(out, &mark, sizeof mark);
	return CB_OK;
}

static int null_finish(void *ctx, unsigned char *out)
{
	(void)ctx;
	(void)out;
	return CB_OK;
}

static void null_close(void *ctx)
{
	(void)ctx;
}

static int null_self_check(void *ctx, const unsigned char *in, size_t len, const unsigned char *out,
                           char *why, size_t why_len)
{
	uint64_t mark = (uint64_t)len ^ in[0], got;

	(void)ctx;
	memcpy(&got, out, sizeof got);
	if (got == mark)
		return 0;
	snprintf(why, why_len, "null output %016llx, expected %016llx", (unsigned long long)got,
	         (unsigned long long)mark);
	return -1;
}

/* The timed loop: direct calls (engine.h). */
static uint64_t null_loop(void *ctx, const unsigned char *in, size_t len, unsigned char *out,
                          uint64_t calls, int expect, int *last)
{
	return cb_engine_loop(null_call, ctx, in, len, out, calls, expect, last);
}

const struct cb_engine cb_engine_null = {
    .name = "null",
    .kind = "builtin",
    .reference = true,
    .version = null_version,
    .probe = null_probe,
    .supports = null_supports,
    .open = null_open,
    .call = null_call,
    .loop = null_loop,
    .finish = null_finish,
    .close = null_close,
    .self_check = null_self_check,
};
