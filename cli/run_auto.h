/* run_auto.h: `run --runs auto --budget D`, runs until the table is known.
 *
 * More rounds narrow each run's interval but not the variation between
 * runs, so a table that compare leaves not resolved may need more runs.
 * After each run of the folder this module reads every run so far and asks
 * the planner (analysis/verdicts/plan_runs.h) whether to make another, of
 * how many rounds, or to stop: the table is resolved, the plan says it
 * cannot be, or the runs left would not fit in the budget. Each decision
 * is one JSON line of the folder's plan.log (not a results file: its name
 * does not end in .jsonl, so a folder scan leaves it) and one line on
 * stderr.
 *
 * The runs' time, against the budget, is the wall time of each run's
 * process (measured by run_many.c, logged as run_s; for a run made before a
 * resume, its end line's elapsed_s), or on virtual clocks only (the sim
 * engine) its trials' virtual time, so that a budget behaves the same in
 * every test. On the real clock the decisions' own time counts too
 * (plan_s).
 *
 * What a run costs is predicted from the pilot (the first runs, of equal
 * rounds): its per-round cost and start cost (plan_runs.h, "Costs"). Every
 * run after the pilot is set against that model: the cost factor is the
 * runs' actual time over the model's, summed over the runs since the
 * pilot (1 before any), and every decision plans with the model times the
 * factor. Each line of plan.log says what the run just made cost (run_s),
 * what the last decision predicted for it (predicted_s), the factor, and
 * what the next run is predicted to cost (next_run_s). */
#ifndef CB_RUN_AUTO_H
#define CB_RUN_AUTO_H

#include <stddef.h>
#include <stdio.h>

#define CB_RUNS_AUTO_MAX 30 /* the planner's max_runs (plan_runs.h) */

struct cb_runs_auto {
	const char *dir;
	double budget_s;  /* 0: none */
	double elapsed_s; /* the runs' time so far */
	FILE *log;        /* DIR/plan.log */
	/* The last decision's plan (plan.log's last line on a resume): a set
	 * of runs is carried out as planned before it is planned again. */
	size_t planned_runs, planned_rounds;
	double plan_s; /* the decisions' own wall time so far (plan.log's plan_s) */
	/* Run i's process wall time, i from 1 (NaN: not measured here nor
	 * logged), and the last decision's prediction for the next run. */
	double run_s[CB_RUNS_AUTO_MAX + 2];
	double next_run_s;
};

/* Start deciding for the runs of DIR (appending to its plan.log). 0, or -1
 * with ERR. */
int cb_runs_auto_open(struct cb_runs_auto *a, const char *dir, double budget_s, char *err,
                      size_t err_len);

/* Run K (from 1) took SECONDS of wall time, its process's start to its
 * end. */
void cb_runs_auto_ran(struct cb_runs_auto *a, unsigned k, double seconds);

/* After K runs (DIR/run-1.jsonl .. run-K.jsonl): 1 make another, of
 * *ROUNDS measured rounds; 0 stop (the decision is logged); -1 with ERR
 * when the runs cannot be read or compared. */
int cb_runs_auto_next(struct cb_runs_auto *a, unsigned k, unsigned *rounds, char *err,
                      size_t err_len);

void cb_runs_auto_close(struct cb_runs_auto *a);

#endif
