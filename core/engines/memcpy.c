/* memcpy.c: the memory-bandwidth ceiling.
 *
 * Copies each message from the input to the output buffer. No engine that
 * reads its input and writes as many bytes can beat it, so it is the line
 * crypto throughput is read against. */
#include "core/engine/engine.h"

#include <stdio.h>
#include <string.h>

static const char *memcpy_version(void)
{
	return "builtin (libc memcpy)";
}

static int memcpy_probe(char *why, size_t why_len)
{
	(void)why;
	(void)why_len;
	return 0;
}

static bool memcpy_supports(const struct cb_algorithm *alg, enum cb_op op, enum cb_mode mode)
{
	(void)mode;
	return !cb_alg_is_pk(alg) &&
	       cb_op_applies(alg, op); /* a memory ceiling means nothing to an operation count */
}

static void *memcpy_open(const struct cb_cell_setup *cell, const struct cb_engine_setup *setup,
                         char *err, size_t err_len)
{
	(void)setup;
	(void)err;
	(void)err_len;
	return (void *)cell;
}

static int memcpy_call(void *ctx, const unsigned char *in, size_t len, unsigned char *out)
{
	const struct cb_cell_setup *setup = ctx;

	if (setup->op == CB_OP_DECRYPT_FORGED)
		return CB_REJECTED; /* a baseline rejects what a real engine must reject */
	memcpy(out, in, len);
	return CB_OK;
}

static int memcpy_finish(void *ctx, unsigned char *out)
{
	(void)ctx;
	(void)out;
	return CB_OK;
}

static void memcpy_close(void *ctx)
{
	(void)ctx;
}

static int memcpy_self_check(void *ctx, const unsigned char *in, size_t len,
                             const unsigned char *out, char *why, size_t why_len)
{
	(void)ctx;
	if (memcmp(in, out, len) == 0)
		return 0;
	snprintf(why, why_len, "memcpy output differs from its input");
	return -1;
}

/* The timed loop: direct calls (engine.h). */
static uint64_t memcpy_loop(void *ctx, const unsigned char *in, size_t len, unsigned char *out,
                            uint64_t calls, int expect, int *last)
{
	return cb_engine_loop(memcpy_call, ctx, in, len, out, calls, expect, last);
}

const struct cb_engine cb_engine_memcpy = {
    .name = "memcpy",
    .kind = "builtin",
    .reference = true,
    .version = memcpy_version,
    .probe = memcpy_probe,
    .supports = memcpy_supports,
    .open = memcpy_open,
    .call = memcpy_call,
    .loop = memcpy_loop,
    .finish = memcpy_finish,
    .close = memcpy_close,
    .self_check = memcpy_self_check,
};
