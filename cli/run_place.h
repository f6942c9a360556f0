/* run_place.h: the default builds' place, chosen by starting the process
 * again.
 *
 * Where a library's code lands moves its speed: on an AMD EPYC (family 26)
 * a libcrypto whose code straddles a 16 MiB boundary runs some cells 4-8%
 * slower, and the kernel's address-space randomisation puts it there in
 * one process of eight (analysis/README.md, "Two builds of one library:
 * where a build's code lands"). Other builds of a library are placed by
 * the default (core/builds/placement.h); the default itself, the library
 * the program linked, is where the loader put it before main. So a process
 * that is to measure looks, once the scenario is loaded and before anything
 * is written or started, at the default library of every in-process
 * library engine its cells use (core/builds/libbuild.h); while one's code
 * crosses a 16 MiB boundary it starts this program again, the same
 * arguments and environment plus CRYPTOBENCH_PLACEMENT_TRY (the try's
 * number), and each start draws the place anew. `run --kernel-place` keeps
 * the kernel's first place, as the library's users get it.
 *
 * CRYPTOBENCH_PLACEMENT_TEST_CROSS=N, for the tests: the answer of tries 1
 * to N is that every default library checked crosses, of later tries that
 * none does, whatever their places. */
#ifndef CB_RUN_PLACE_H
#define CB_RUN_PLACE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "core/measure/plan.h"

#define CB_RUN_PLACE_MAX_LIBRARIES 16

struct cb_run_place {
	/* "chosen": started again while a default crossed, up to max_tries;
	 * "kernel": --kernel-place; "fixed": address-space randomisation is off,
	 * so a start would land the same; "exec_failed": it could not start. */
	const char *defaults;
	unsigned tries;     /* processes started, this one the last; 0 with "kernel" */
	unsigned max_tries; /* CB_RUN_PLACE_TRIES */
	/* The table's engines ("openssl") whose default library the cells use,
	 * and those of them whose code crosses 16 MiB in this process. */
	const char *checked[CB_RUN_PLACE_MAX_LIBRARIES];
	size_t n_checked;
	const char *crossing[CB_RUN_PLACE_MAX_LIBRARIES];
	size_t n_crossing;
};

/* The try this process is, from the environment: 1 for the first. */
unsigned cb_run_place_try(void);

/* Check the default libraries PLAN's in-process cells use, and start this
 * program again (ARGC, ARGV: the run command's, from "run") when one's code
 * crosses a 16 MiB boundary, unless KERNEL_PLACE, *STOP is set, the tries
 * are used up or address-space randomisation is off. Returns only in the
 * process that is to measure, with PLACE filled, having said on stderr why
 * a default that still crosses does. */
void cb_run_place_defaults(const struct cb_plan *plan, bool kernel_place, int argc, char **argv,
                           volatile sig_atomic_t *stop, struct cb_run_place *place);

/* PLACE as the results header records it ("placement"). New reference. */
json_t *cb_run_place_json(const struct cb_run_place *place);

#endif
