/* run_plan.h: what a run will do, before it does it (run --dry-run). */
#ifndef CB_RUN_PLAN_H
#define CB_RUN_PLAN_H

#include <stdio.h>

#include "core/measure/plan.h"

/* The expected duration of one run of PLAN, in seconds: every trial lasts
 * about the calibration's target (1.1 x trial_time), and each cell is
 * calibrated once with about one such trial. A lower bound when one call
 * alone outlasts the trial time. With explain, each cell's profiled trials
 * last the samples asked for at about 250 per second of CPU time (the
 * kernel's tick bounds the in-process timer's rate; workers' ptrace sampler
 * is faster, so an upper bound for them), at most their cap of CPU time
 * (core/explain.h) and at least one trial; building the profiles is not
 * counted. */
struct cb_run_estimate {
	double trials_s;       /* the recorded trials, warm-up included */
	double calibration_s;  /* the unrecorded trials that size them */
	double explain_s;      /* the profiled trials (0 without explain) */
	double explain_cell_s; /* ... of one cell */
	double total_s;
};
struct cb_run_estimate cb_run_estimate(const struct cb_plan *plan);

/* "1h 02m", "3m 12s", "45s", "0.8s". */
const char *cb_format_duration(double seconds, char buf[32]);

/* Print the plan to OUT: its cells, trials, skips, and the estimate for
 * RUNS runs. */
void cb_run_plan_print(FILE *out, const struct cb_plan *plan, unsigned runs);

#endif
