/* budget.h: the time budget of a run, in one unit.
 *
 * A budget is written as a span ("3m", "1h30m": units.h) in two places, `run
 * --budget D` and a scenario's `stop = { budget = ... }`; each is parsed once,
 * here, into seconds, the unit every part that judges it works in: the
 * runner (whether the next block fits), the stopping rule (whether a cell's
 * time is up: analysis/verdicts/stopping.h) and `run --runs auto` (whether
 * more runs fit). 0 seconds is no budget. */
#ifndef CB_BUDGET_H
#define CB_BUDGET_H

#include <stdbool.h>

/* The least budget anywhere, and the most a scenario may give (the command
 * line has no upper limit: --runs auto spans many runs). */
#define CB_BUDGET_MIN_S 1.0
#define CB_BUDGET_MAX_S (30.0 * 24 * 3600)

/* Parse TEXT, a span, into *SECONDS. 0, or -1 when TEXT is not a span (the
 * caller checks the range: its message is its own). */
int cb_budget_parse(const char *text, double *seconds);

/* Whether BUDGET_S (0: none) is used up after ELAPSED_S seconds. */
bool cb_budget_spent(double budget_s, double elapsed_s);

/* Whether MORE_S seconds after ELAPSED_S still end within BUDGET_S (always,
 * without a budget). */
bool cb_budget_fits(double budget_s, double elapsed_s, double more_s);

#endif
