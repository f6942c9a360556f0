/* run_until.c: the looks of a run until resolved. */
#include "config.h"

#include "cli/run_until.h"

#include <stdio.h>
#include <string.h>

#include "analysis/stats/summary.h"
#include "analysis/verdicts/analysis.h"
#include "core/base/errbuf.h"
#include "core/results/results.h"
#include "core/measure/scenario.h"

void cb_until_init(struct cb_until_looks *u, const struct cb_scenario *sc,
                   const struct cb_plan *plan, const char *path)
{
	memset(u, 0, sizeof *u);
	u->path = path;
	u->plan = plan;
	cb_stop_defaults(&u->rule);
	u->rule.until_resolved = true;
	u->rule.block = sc->stop.block;
	/* The scenario's rounds are the first rounds: every cell has them
	 * before anything may stop (scenario.h). */
	u->rule.min_rounds = cb_scenario_first_look(sc);
	u->rule.max_rounds = cb_scenario_planned_rounds(sc);
	u->rule.precision = sc->stop.precision;
	u->rule.budget_s = sc->stop.budget_s;
}

json_t *cb_until_rule_json(const struct cb_until_looks *u)
{
	return cb_stop_rule_json(&u->rule);
}

/* Copy the stopping rule's verdict on each results cell to the plan's
 * cells (matched by key); a plan cell the file has no trial of yet keeps
 * its flag. */
static void copy_open(const struct cb_until_looks *u, const struct cb_results *r,
                      const struct cb_stop_state *s, bool *open)
{
	char key[1024];

	for (size_t c = 0; c < u->plan->n_cells; c++) {
		long i;

		cb_cell_key(&u->plan->cells[c], key, sizeof key);
		i = cb_results_find_cell(r, key);
		if (i >= 0 && (size_t)i < s->n_cells)
			open[c] = open[c] && s->cells[i].open;
	}
}

int cb_until_look(void *ctx, struct cb_run_look *look, char *err, size_t err_len)
{
	struct cb_until_looks *u = ctx;
	struct cb_summary_options sopt;
	struct cb_derive_options dopt;
	struct cb_results *r = cb_results_read(u->path, err, err_len);
	struct cb_analysis *a = NULL;
	struct cb_stop_state *s = NULL;

	if (!r)
		return -1;
	cb_stop_analysis_options(&u->rule, &sopt, &dopt);
	if (!(a = cb_analysis_build(r, &sopt, &dopt, err, err_len)) ||
	    !(s = cb_stop_check(a, &u->rule, look->elapsed_s, err, err_len))) {
		cb_analysis_free(a);
		cb_results_free(r);
		return -1;
	}
	copy_open(u, r, s, look->open);
	look->questions_open = s->n_open;
	look->fields = cb_stop_state_json(s, r);
	if (u->verbose) {
		size_t open_cells = 0;

		for (size_t c = 0; c < u->plan->n_cells; c++)
			open_cells += look->open[c];
		fprintf(stderr,
		        "look after %u rounds: %zu of %zu questions open, %zu of %zu cells "
		        "measured on (%.0fs)\n",
		        look->measured, s->n_open, s->n_questions, open_cells, u->plan->n_cells,
		        look->elapsed_s);
	}
	cb_stop_state_free(s);
	cb_analysis_free(a);
	cb_results_free(r);
	return 0;
}
