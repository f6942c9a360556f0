/* worker_check.h: the parts of `cryptobench worker-check`
 * (cmd_worker_check.c) that live in files of their own. */
#ifndef CB_CLI_WORKER_CHECK_H
#define CB_CLI_WORKER_CHECK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "core/engine/engine.h"

/* How many checks ran, and how many failed. */
struct cb_check_tally {
	unsigned run, failed;
};

/* One check's line: "ok" or "FAIL", its name, the reason; counted in T.
 * Here, shared by both files of the command, so that neither calls into the
 * other. */
__attribute__((format(printf, 4, 5))) static inline void
cb_check_report(struct cb_check_tally *t, bool ok, const char *check, const char *fmt, ...)
{
	va_list ap;

	t->run++;
	t->failed += !ok;
	printf("%-4s  %s: ", ok ? "ok" : "FAIL", check);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* The public-key checks (worker_check_pk.c) of the worker engine E, on the
 * generator's input INPUT (its first 32 bytes are the message). */
void cb_worker_check_pk(struct cb_check_tally *t, const struct cb_engine *e,
                        const unsigned char *input);

#endif
