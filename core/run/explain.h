/* explain.h: profiled trials, after a run's timed ones (run --explain).
 *
 * For each cell, trials of the same calls on the same bytes during which
 * the program counter is sampled (core/profile/): in this process by the
 * CPU-time timer on the thread that makes thread 0's calls, in a worker
 * through ptrace. Each profiled trial is one "profile" line of the results
 * file (doc/results-format.md), never a trial line: no statistic, headline,
 * stop rule or verdict reads it. A cell gets profiled trials until it has
 * the samples asked for, or has used CB_EXPLAIN_CAP_NS of CPU time (the
 * line's profile then says so in its "degraded" text).
 *
 * Both samplers are probed once, when the run is prepared; one that cannot
 * be used here is named with the reason in the header's "explain" object
 * and in one line the run command prints, and the run still measures. */
#ifndef CB_EXPLAIN_H
#define CB_EXPLAIN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/results/results.h"
#include "core/measure/scenario.h"
#include "core/measure/trial.h"

#define CB_EXPLAIN_CAP_NS 2000000000ull /* CPU time of one cell's profiled trials */
#define CB_EXPLAIN_MAX_TRIALS 16        /* profiled trials per cell at most */

struct cb_explain;

/* Profiled trials for the N_CELLS cells of a plan, as SETTINGS say
 * (samples > 0), both samplers probed now. NULL when out of memory. */
struct cb_explain *cb_explain_new(const struct cb_explain_settings *settings, size_t n_cells);
void cb_explain_free(struct cb_explain *ex);

/* The header's "explain" object: samples, rate_hz, and for "timer" and
 * "ptrace" null or why that sampler cannot be used here. Borrowed. */
json_t *cb_explain_header(const struct cb_explain *ex);
/* One line saying which sampler cannot be used and why, into BUF: false
 * (BUF empty) when both can. */
bool cb_explain_note(const struct cb_explain *ex, char *buf, size_t len);

/* A timed trial of CELL (measured, valid): NS over CALLS, for the median
 * each profile line compares its time per call with. */
void cb_explain_timed(struct cb_explain *ex, size_t cell, double ns, uint64_t calls);

/* What the profiled pass runs on: the run's prepared cells and buffers. */
struct cb_explain_pass {
	struct cb_cell_state *states; /* one per plan cell */
	size_t n_cells;
	const struct cb_trial_context *tc; /* the run's (a copy gets the hook) */
	struct cb_trial_buffers *buffers;
	unsigned run_index;
	unsigned round; /* recorded: the round after the run's last */
	uint64_t seq;   /* recorded: the first profile line's, counting on after the
	                 * plan's slots */
	volatile sig_atomic_t *stop;
	bool progress; /* one progress line per cell on stderr */
};

/* Run the profiled trials of every cell that is not broken, one profile
 * line each, to W. 0; 1 when *stop was set (the pass stopped between two
 * trials); -1 with ERR when W cannot be written. */
int cb_explain_run(struct cb_explain *ex, const struct cb_explain_pass *pass, struct cb_writer *w,
                   char *err, size_t err_len);

#endif
