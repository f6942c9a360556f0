/* run_until.h: the looks of a run until resolved (`run --until resolved`).
 *
 * core/run/runner.h measures in blocks and asks, after each, which cells stay
 * in the rotation; this module answers: it reads back the file so far
 * (results_read.c takes a file without its end line), analyses it with the
 * rule's intervals (confidence sequences, analysis/verdicts/stopping.h)
 * and asks the stopping rule which questions and cells are open. */
#ifndef CB_RUN_UNTIL_H
#define CB_RUN_UNTIL_H

#include <stddef.h>

#include <jansson.h>

#include "analysis/verdicts/stopping.h"
#include "core/measure/plan.h"
#include "core/run/runner.h"

struct cb_until_looks {
	const char *path;           /* the results file being written */
	const struct cb_plan *plan; /* its cells, in the runner's order */
	struct cb_stop_rule rule;
	int verbose; /* one line on stderr per look */
};

/* The rule of the sequential scenario SC (scenario.h's stop settings) for
 * a run of PLAN into PATH. */
void cb_until_init(struct cb_until_looks *u, const struct cb_scenario *sc,
                   const struct cb_plan *plan, const char *path);

/* The rule as the results header records it ("stop"). New reference. */
json_t *cb_until_rule_json(const struct cb_until_looks *u);

/* The runner's look hook (cb_run_look_fn); CTX is a struct cb_until_looks. */
int cb_until_look(void *ctx, struct cb_run_look *look, char *err, size_t err_len);

#endif
