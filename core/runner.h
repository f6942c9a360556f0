/* runner.h: running a plan and writing every trial to the results file. */
#ifndef CB_RUNNER_H
#define CB_RUNNER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/plan.h"
#include "core/results.h"

struct cb_run_options {
	unsigned run_index;              /* among --runs; recorded, and sim's run */
	unsigned runs;                   /* how many runs the command asked for */
	bool progress;                   /* show progress on stderr */
	volatile sig_atomic_t *stop;     /* set by SIGINT/SIGTERM: finish the trial, then stop */
	const struct cb_results *resume; /* what an interrupted file already holds, or NULL */
	const char *command_line;        /* recorded in the header */
};

struct cb_run_totals {
	uint64_t trials; /* written by this process */
	uint64_t invalid;
	bool interrupted;
	bool write_failed; /* the results file could not take a line (disk full) */
	char first_error[256];
};

struct cb_run;

/* Prepare a run of PLAN: the input (one buffer of the largest size, every
 * smaller payload a prefix), ciphertexts for decrypt cells, keys, expected
 * outputs and output buffers. NULL with ERR when memory or the reference
 * fails. */
struct cb_run *cb_run_prepare(const struct cb_plan *plan, const struct cb_run_options *options,
                              char *err, size_t err_len);
void cb_run_free(struct cb_run *run);

/* The header of a new results file: tool, host, scenario, engines, input
 * (with its SHA-256), counters, order and seeds. New reference. */
json_t *cb_run_header(const struct cb_run *run);

/* Write the plan's skip lines (a new file only). */
int cb_run_write_skips(const struct cb_run *run, struct cb_writer *w);

/* Run the plan's slots in order, appending each trial to W and syncing at
 * every round's end. With options->resume, slots already in the file are
 * skipped and calls per trial are taken from it. Stops early, after the
 * current trial, when options->stop is set. Fills TOTALS. 0, or -1 when W
 * cannot be written (ERR says why). Does not close W. */
int cb_run_execute(struct cb_run *run, struct cb_writer *w, struct cb_run_totals *totals, char *err,
                   size_t err_len);

/* The end line: totals, interruption, host state. New reference. */
json_t *cb_run_end(const struct cb_run *run, const struct cb_run_totals *totals);

#endif
