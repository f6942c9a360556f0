/* runner.h: running a plan and writing every trial to the results file. */
#ifndef CB_RUNNER_H
#define CB_RUNNER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/measure/plan.h"
#include "core/results/results.h"

/* A look of a sequential run (a scenario with a stop rule, scenario.h):
 * after each block of rounds, once the file is synced, the run asks a hook
 * which cells stay in the rotation. The hook (the run command's) reads the
 * file back and checks the open questions: core/ measures, it does not
 * judge. */
struct cb_run_look {
	unsigned round;        /* the block's last round, as trial lines number rounds
	                        * (warm-up rounds first) */
	unsigned measured;     /* measured rounds so far: whole blocks, or the max */
	double elapsed_s;      /* the run's time so far, against the budget (cb_run_execute) */
	bool *open;            /* one per plan cell, true while it is measured: the hook
	                        * clears the cells that leave the rotation */
	size_t questions_open; /* the hook says: questions still open (0: all answered) */
	json_t *fields;        /* the hook's fields for the look line (new reference: the
	                        * open questions, why each cell stopped), or NULL */
};

/* 0, or -1 with ERR: the run then stops as if interrupted (resumable). */
typedef int (*cb_run_look_fn)(void *ctx, struct cb_run_look *look, char *err, size_t err_len);

struct cb_run_options {
	unsigned run_index;              /* among --runs; recorded, and sim's run */
	unsigned runs;                   /* how many runs the command asked for */
	bool progress;                   /* show progress on stderr */
	volatile sig_atomic_t *stop;     /* set by SIGINT/SIGTERM: finish the trial, then stop */
	const struct cb_results *resume; /* what an interrupted file already holds, or NULL */
	const char *command_line;        /* recorded in the header */
	const char *host_name;           /* run --host: host.name_given, or NULL */
	cb_run_look_fn look;             /* a sequential scenario's looks (required for one) */
	void *look_ctx;
};

struct cb_run_totals {
	uint64_t trials; /* written by this process */
	uint64_t invalid;
	bool interrupted;
	bool write_failed; /* the results file could not take a line (disk full) */
	char first_error[256];
	/* A sequential run: why it ended (CB_STOP_* below), its looks (in this
	 * process), the measured rounds and what the last look left open. */
	const char *outcome;
	unsigned looks, measured_rounds;
	size_t open_cells, questions_open;
};

/* Why a sequential run ended, as its end line records it ("stop"). */
#define CB_STOP_RESOLVED "resolved"       /* every question answered */
#define CB_STOP_MAX_ROUNDS "max_rounds"   /* questions open after the last planned round */
#define CB_STOP_BUDGET "budget"           /* the next block would not fit the budget */
#define CB_STOP_INTERRUPTED "interrupted" /* a signal, a failed write or look */

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
 * cannot be written (ERR says why). Does not close W.
 *
 * A sequential scenario: the measured rounds run in blocks of stop.block
 * rounds; the first look comes after the scenario's rounds (rounded up to a
 * block), then one after every block, and after the last planned round.
 * Each look writes a "look" line (round, elapsed_s, the hook's fields, and
 * "measuring": the keys of the cells still measured) and a closed cell's
 * later slots are left out, so the order rule applies to the open cells and
 * each cell's measured rounds stay whole blocks; the placements are drawn so
 * that each block of 8 measured rounds is one of the layout's strata
 * (trial.h: the 8 stack classes once), the warm-up rounds before them. The run ends
 * when no cell is open, after the last planned round, or before a block
 * that the time per trial so far says would end past the budget. Time is
 * the wall clock, or on a plan of virtual clocks only (the sim engine) the
 * sum of the trials' virtual times, so that a budget behaves the same in
 * every test. A resumed file goes on from its last look: the same cells
 * open, the looks it had not taken taken, the time it had counted.
 *
 * With the scenario's explain settings, once the timed rounds are over (a
 * sequential run: once it stops), every cell gets its profiled trials
 * (core/run/explain.h), written as profile lines before the end line. */
int cb_run_execute(struct cb_run *run, struct cb_writer *w, struct cb_run_totals *totals, char *err,
                   size_t err_len);

/* The profiled trials RUN makes after its timed ones (core/run/explain.h), or
 * NULL when the scenario asks for none. */
struct cb_explain;
const struct cb_explain *cb_run_explain(const struct cb_run *run);

/* The end line: totals, interruption, host state. New reference. */
json_t *cb_run_end(const struct cb_run *run, const struct cb_run_totals *totals);

#endif
