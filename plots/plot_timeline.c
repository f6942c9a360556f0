/* plot_timeline.c: one cell's trials in round order: time per call against
 * round, with the median and its interval, the minimum and the contamination
 * limit drawn, warm-up and preempted trials marked, and the cell's flags
 * (summary.h) written under the chart. Drift shows as a slope, contamination
 * as the median sitting high above the minimum. */
#include <math.h>
#include <string.h>

#include "plots/plot.h"
#include "plots/plot_internal.h"

/* A time unit that keeps the numbers short. */
static double pick_unit(double ns, const char **unit)
{
	if (ns >= 1e9) {
		*unit = "s";
		return 1e9;
	}
	if (ns >= 1e6) {
		*unit = "ms";
		return 1e6;
	}
	if (ns >= 1e3) {
		*unit = "µs";
		return 1e3;
	}
	*unit = "ns";
	return 1;
}

/* The cell's flags under the chart, in two lines: what was flagged and the
 * contamination; then drift, lag-1 and the counts. */
static void flags_text(const struct cb_cell_summary *cs, double cmax, char *l1, size_t len1,
                       char *l2, size_t len2)
{
	const struct cb_stats_summary *ns = &cs->ns;
	size_t used = 0;

	if (cb_summary_flagged(cs))
		used += (size_t)snprintf(
		    l1, len1, "FLAGGED:%s%s%s · ", ns->contaminated ? " contaminated" : "",
		    ns->drift ? " drift" : "", ns->autocorrelated ? " lag-1" : "");
	snprintf(l1 + used, used < len1 ? len1 - used : 0,
	         "contamination %.1f%% (median/min - 1; limit %g%%)", ns->contamination * 100,
	         cmax * 100);
	used = 0;
	if (isnan(ns->drift_rho))
		used += (size_t)snprintf(l2, len2, "drift: n/a · ");
	else
		used += (size_t)snprintf(l2, len2,
		                         "drift: Spearman rho %.2f, p %.2g · lag-1 of ranks %.2f "
		                         "(limit ±%.2f) · ",
		                         ns->drift_rho, ns->drift_p, ns->lag1_rank, ns->lag1_limit);
	snprintf(l2 + used, used < len2 ? len2 - used : 0,
	         "%zu samples, %zu outliers, %zu preempted, %zu invalid", cs->n,
	         ns->outliers_low_15 + ns->outliers_high_15, cs->preempted, cs->invalid);
}

static int timeline(struct plot_ctx *c, const struct cb_cell_summary *cs, bool threads_in_name)
{
	const struct cb_result_cell *cell = cs->cell;
	const struct cb_results *r = c->r;
	const struct cb_summary_options *so = &c->a->summary->options;
	const struct cb_stats_summary *ns = &cs->ns;
	char name[512], slug[400], size[32], title[512], what[512], who[256], stats[256], ylab[64];
	char flags[512], more[512];
	const char *unit;
	double scale = pick_unit(ns->median, &unit);
	size_t blocks = 0;
	FILE *f;

	plot_size(cell->size, false, size, sizeof size);
	snprintf(what, sizeof what, "%s %s %s %s", cell->label, cell->algorithm, cell->op, size);
	if (threads_in_name)
		snprintf(what + strlen(what), sizeof what - strlen(what), " %uthread%s",
		         cell->threads, cell->threads > 1 ? "s" : "");
	plot_slug(what, slug, sizeof slug);
	snprintf(name, sizeof name, "timeline/%s", slug);
	plot_label(r, cell, who, sizeof who);
	plot_size(cell->size, true, size, sizeof size);
	char thr[32] = "";

	if (cell->threads > 1)
		snprintf(thr, sizeof thr, ", %u threads", cell->threads);
	snprintf(title, sizeof title, "%s %s%s%s, %s%s: time per call in each round", who,
	         cell->algorithm, strcmp(cell->op, "hash") == 0 ? "" : " ",
	         strcmp(cell->op, "hash") == 0 ? "" : cell->op, size, thr);
	snprintf(what, sizeof what, "trials of %s %s %s %s in round order", who, cell->algorithm,
	         cell->op, size);
	if (!(f = plot_data_open(c, name, what)))
		return -1;
	fprintf(f,
	        "# columns: round  time_per_call_%s  status  status_name\n"
	        "#   status 0 measured, 1 measured but preempted (thread CPU time below %g x\n"
	        "#   wall time), 2 warm-up (left out of statistics); invalid trials have no time.\n"
	        "# summary of the measured trials (%s per call): median %.6g, its %g%% interval\n"
	        "#   [%.6g, %.6g], min %.6g, contamination limit min x %g = %.6g\n",
	        unit, so->preempt_ratio, unit, ns->median / scale, ns->median_ci.level * 100,
	        ns->median_ci.lo / scale, ns->median_ci.hi / scale, ns->min / scale,
	        1 + so->contamination_max, ns->min * (1 + so->contamination_max) / scale);
	plot_block(f, &blocks, "trials");
	for (size_t i = 0; i < r->n_trials; i++) {
		const struct cb_result_trial *t = &r->trials[i];
		int status;

		if (t->cell != cs->index || !t->valid || !(t->ns > 0) || t->calls == 0)
			continue;
		if (t->warmup)
			status = 2;
		else
			status =
			    t->cpu_ns >= 0 &&
			    t->cpu_ns < so->preempt_ratio * cb_wall_of_threads(t, cell->threads);
		fprintf(f, "%u %.6g %d %s\n", t->round, t->ns / (double)t->calls / scale, status,
		        status == 2 ? "warm-up"
		        : status    ? "preempted"
		                    : "measured");
	}
	/* median lo hi min limit, in the unit: the template's horizontal lines,
	 * then which of them is the cell's headline (as in the report). */
	struct cb_headline h;

	cb_summary_headline(cs, c->opt->statistic, &h);
	snprintf(stats, sizeof stats, "%.6g %.6g %.6g %.6g %.6g %s", ns->median / scale,
	         ns->median_ci.lo / scale, ns->median_ci.hi / scale, ns->min / scale,
	         ns->min * (1 + so->contamination_max) / scale, h.stat ? h.stat->name : "median");
	snprintf(ylab, sizeof ylab, "time per call (%s)", unit);
	flags_text(cs, so->contamination_max, flags, sizeof flags, more, sizeof more);
	const char *extra[] = {stats, ylab, flags, more};
	if (plot_chart_add(c, f, "timeline", name, title, c->where, extra, 4,
	                   cb_summary_flagged(cs)) != 0)
		return -1;
	struct cb_plot_chart *chart = &c->plot->charts[c->plot->n_charts - 1];

	plot_fmt(flags + strlen(flags), sizeof flags - strlen(flags), "; %s", more);
	if (!(chart->caption = strdup(flags))) {
		plot_err(c, "out of memory");
		return -1;
	}
	return 0;
}

/* The note on the cells without a timeline: each one when they are few. */
static int note_untimed(struct plot_ctx *c, const struct cb_cell_summary *cs, size_t untimed)
{
	const struct cb_result_cell *cell = cs->cell;

	if (untimed > 3)
		return plot_note(c,
		                 "no timeline of %zu cells: no valid measured trial (the first: "
		                 "%s %s %s %llu B, %u thread%s; its first error: %s)",
		                 untimed, cell->label, cell->algorithm, cell->op,
		                 (unsigned long long)cell->size, cell->threads,
		                 cell->threads > 1 ? "s" : "",
		                 cs->first_error ? cs->first_error : "none");
	return plot_note(c,
	                 "no timeline of %s %s %s %llu B, %u thread%s: no valid measured trial "
	                 "(%zu invalid%s%s)",
	                 cell->label, cell->algorithm, cell->op, (unsigned long long)cell->size,
	                 cell->threads, cell->threads > 1 ? "s" : "", cs->invalid,
	                 cs->first_error ? ": " : "", cs->first_error ? cs->first_error : "");
}

int cb_plot_timelines(struct plot_ctx *c)
{
	const struct cb_run_summary *s = c->a->summary;
	const struct cb_cell_summary *first_untimed = NULL;
	size_t untimed = 0;
	bool several = false;

	if (c->opt->timelines == CB_PLOT_TIMELINES_NONE)
		return 0;
	for (size_t i = 1; i < s->n_cells; i++)
		several |= s->cells[i].cell->threads != s->cells[0].cell->threads;
	for (size_t i = 0; i < s->n_cells; i++)
		if (s->cells[i].n == 0 && untimed++ == 0)
			first_untimed = &s->cells[i];
	for (size_t i = 0; i < s->n_cells; i++) {
		const struct cb_cell_summary *cs = &s->cells[i];

		if (cs->n == 0) {
			/* Nothing to draw: a note says which cells and why. */
			if ((untimed <= 3 || cs == first_untimed) &&
			    note_untimed(c, cs, untimed) != 0)
				return -1;
			continue;
		}
		if (c->opt->timelines == CB_PLOT_TIMELINES_FLAGGED && !cb_summary_flagged(cs))
			continue;
		if (timeline(c, cs, several) != 0)
			return -1;
	}
	return 0;
}
