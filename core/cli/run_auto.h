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
 * The runs' time, against the budget, is counted as a run counts its own
 * (core/runner.h): the wall time of each run (its end line's elapsed_s),
 * or on virtual clocks only (the sim engine) its trials' virtual time, so
 * that a budget behaves the same in every test. On the real clock the
 * decisions' own time counts too: planning a table of a hundred rows takes
 * tens of seconds, and a budget is the user's wall time. */
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
};

/* Start deciding for the runs of DIR (appending to its plan.log). 0, or -1
 * with ERR. */
int cb_runs_auto_open(struct cb_runs_auto *a, const char *dir, double budget_s, char *err,
                      size_t err_len);

/* After K runs (DIR/run-1.jsonl .. run-K.jsonl): 1 make another, of
 * *ROUNDS measured rounds; 0 stop (the decision is logged); -1 with ERR
 * when the runs cannot be read or compared. */
int cb_runs_auto_next(struct cb_runs_auto *a, unsigned k, unsigned *rounds, char *err,
                      size_t err_len);

void cb_runs_auto_close(struct cb_runs_auto *a);

#endif
