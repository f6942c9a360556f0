/* report_sections.c: the sections of one run's report, each its text (and
 * Markdown, HTML) and its JSON members side by side, in one table that
 * report.c and report_json.c both walk (cb_report_sections, report.h). */
#include "analysis/report/report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/report/tables.h"
#include "analysis/stats/confseq.h"
#include "analysis/verdicts/masks.h"

/* The report's options as the tables take them. */
static struct cb_table_options table_options(const struct cb_report_options *o)
{
	return (struct cb_table_options){
	    .format = o->format, .statistic = o->statistic, .details = o->details};
}

/* TITLE, then the table DEF of A (its VIEW) unless it has no row. */
static void print_table(FILE *out, const struct cb_table_def *def, int view,
                        const struct cb_analysis *a, const struct cb_report_options *o,
                        const char *title)
{
	struct cb_table_options to = table_options(o);
	struct cb_table *t = cb_table_text(def, view, a, &to);

	if (t && cb_table_rows(t)) {
		cb_report_heading(out, o->format, title);
		cb_table_print(out, t, o->format);
	}
	cb_table_free(t);
}

void cb_report_winners(FILE *out, const struct cb_analysis *a, const struct cb_report_options *o)
{
	char title[512];

	if (!a->winners)
		return;
	snprintf(
	    title, sizeof title,
	    "Fastest engine per algorithm, op and size, with those tied with it (each engine's "
	    "throughput over the fastest's, paired by round, in bytes per cycle where the "
	    "cells have cycles, else MB/s; tied: equivalent within %.3g%%; not resolved: "
	    "the interval reaches across the margin; MB/s: the fastest's headline, as below)",
	    a->winners->delta * 100);
	print_table(out, &cb_table_winners, 0, a, o, title);
}

/* Public-key cells: who is fastest per operation, then the cells, in
 * operations per second. */
static void print_pk(FILE *out, const struct cb_analysis *a, const struct cb_report_options *o)
{
	char title[512];

	if (!cb_analysis_has_pk(a))
		return;
	if (a->winners) {
		snprintf(title, sizeof title,
		         "Fastest engine per public-key algorithm and operation, with those tied "
		         "with it (each engine's rate over the fastest's, paired by round, on "
		         "cycles per operation where the cells have cycles, else operations per "
		         "second; tied: equivalent within %.3g%%; op/s: the fastest's headline)",
		         a->winners->delta * 100);
		print_table(out, &cb_table_pk_winners, 0, a, o, title);
	}
	print_table(out, &cb_table_pk_cells, 0, a, o,
	            "Public-key cells (op/s = operations per second over all threads; us/op: "
	            "one operation on one thread; n = valid measured trials)");
}

static void print_cells(FILE *out, const struct cb_analysis *a, const struct cb_report_options *o)
{
	print_table(out, &cb_table_cells, 0, a, o,
	            "Cells (MB/s = 10^6 bytes/s of payload over all threads; n = valid measured "
	            "trials)");
	if (o->details)
		print_table(
		    out, &cb_table_cells, 1, a, o,
		    "Spread per cell (throughput quantiles over trials; median/min-1 on time per "
		    "call; drift and lag-1 on cycles per byte where cycles exist, else on time; "
		    "'- (n 5)': too few trials for the test to flag anything)");
}

static void print_derived(FILE *out, const struct cb_analysis *a, const struct cb_report_options *o)
{
	enum cb_report_format f = o->format;
	char title[512];
	bool bonferroni = false;

	if (!a->n_derived)
		return;
	size_t on_cpu = 0;
	bool pk = false;

	for (size_t i = 0; i < a->n_derived; i++) {
		bonferroni |= a->derived[i].family > 1;
		on_cpu += a->derived[i].measure == CB_MEASURE_CPU;
	}
	/* Public-key cells count operations: the title says so where they are. */
	for (size_t i = 0; i < a->summary->n_cells; i++)
		pk |= a->summary->cells[i].cell->ops;
	snprintf(title, sizeof title,
	         "Derived metrics (ratio of throughputs paired by round, in %s per cycle where "
	         "the cells have cycles, else %s%s: exp of the median per-round log ratio; %s "
	         "%s interval; verdicts with delta %.3g%%)",
	         pk ? "bytes or operations (public key)" : "bytes", pk ? "MB/s or op/s" : "MB/s",
	         on_cpu ? " of CPU time where every round has it, else MB/s" : "",
	         a->summary->options.sequential ? "confidence-sequence" : "exact sign-test",
	         bonferroni && !o->details ? "95% (Bonferroni-widened where one denominator "
	                                     "serves several)"
	                                   : "95%",
	         a->options.delta * 100);
	print_table(out, &cb_table_derived, 0, a, o, title);
	if (o->details)
		return;
	/* The expectations, once per declaration rather than on every row. */
	for (size_t i = 0; i < a->n_derived; i++) {
		const struct cb_derived *m = &a->derived[i];
		bool first = true;
		char line[256];

		for (size_t k = 0; k < i && first; k++)
			first = a->derived[k].decl != m->decl || !a->derived[k].has_expect;
		if (!m->has_expect || !first)
			continue;
		snprintf(line, sizeof line, "%s: expected %.4g +/- %.3g%%", m->name,
		         m->expect_value, m->expect_tolerance * 100);
		cb_report_wrapped(out, cb_report_mark(f), line);
	}
}

static void print_slopes(FILE *out, const struct cb_analysis *a, const struct cb_report_options *o)
{
	print_table(
	    out, &cb_table_slopes, 0, a, o,
	    "Cost per call and per byte (time per call = overhead + size x ns/B, fitted over "
	    "every trial; 95% intervals; 'not resolved': the interval is wider than the "
	    "estimate)");
}

static void print_crossings(FILE *out, const struct cb_analysis *a,
                            const struct cb_report_options *o)
{
	print_table(out, &cb_table_crossovers, 0, a, o,
	            "Crossovers (median throughput; interpolated in log size)");
}

/* Cells with preempted trials: one line each when few, else one line for all
 * (the flags column of the spread table names them). */
static void preemption_total(const struct cb_run_summary *rs, size_t *cells, size_t *trials,
                             size_t *samples)
{
	*cells = *trials = *samples = 0;
	for (size_t i = 0; i < rs->n_cells; i++) {
		*cells += rs->cells[i].preempted > 0;
		*trials += rs->cells[i].preempted;
		*samples += rs->cells[i].n;
	}
}

static bool shown_dependent(const struct cb_dependence *d)
{
	return d->dependent;
}

static bool held_open(const struct cb_dependence *d)
{
	return d->dependent && d->hold;
}

static bool with_margin(const struct cb_dependence *d)
{
	return d->margin > 0;
}

/* The paired ratios of A (winners against their leader, derived metrics)
 * whose dependence is WHICH: shown dependent, held open, or given the margin
 * for each side's own slow noise. */
static size_t count_ratios(const struct cb_analysis *a, bool (*which)(const struct cb_dependence *))
{
	size_t n = 0;

	for (size_t i = 0; i < a->n_derived; i++)
		n += a->derived[i].ok && which(&a->derived[i].ratio.dependence);
	for (size_t i = 0; a->winners && i < a->winners->n_groups; i++)
		for (size_t k = 0; k < a->winners->groups[i].n_members; k++) {
			const struct cb_winner_member *m = &a->winners->groups[i].members[k];

			n += m->ratio_ok && which(&m->ratio.dependence);
		}
	return n;
}

/* Warnings that change what a figure means stay; the per-cell diagnostics
 * (drift, lag-1, a few preempted trials, a noticeable harness share) are
 * counted, and listed with --details. */
static void print_warnings(FILE *out, const struct cb_analysis *a,
                           const struct cb_report_options *o)
{
	const struct cb_run_summary *rs = a->summary;
	enum cb_report_format f = o->format;
	const char *mark = cb_report_mark(f);
	size_t pre_cells, pre_trials, samples, drift = 0, lag = 0, overhead = 0;
	bool any = false, details = o->details;
	char name[256], b[3][32], line[1024];

	preemption_total(rs, &pre_cells, &pre_trials, &samples);
#define WARN(...)                                                                                  \
	(any ? 0 : (cb_report_heading(out, f, "Warnings"), any = true),                            \
	 snprintf(line, sizeof line, __VA_ARGS__), cb_report_wrapped(out, mark, line))
	for (size_t i = 0; i < rs->n_cells; i++) {
		const struct cb_cell_summary *s = &rs->cells[i];

		cb_cell_name(s->cell, name);
		if (s->invalid)
			WARN("%s: %zu invalid trial%s, no timing kept: %s", name, s->invalid,
			     s->invalid == 1 ? "" : "s", s->first_error ? s->first_error : "?");
		if (s->n == 0)
			continue;
		drift += s->order->drift;
		lag += s->order->autocorrelated;
		overhead += s->overhead_warning && !s->unreliable;
		if (s->ns.contaminated)
			WARN("%s: contaminated: median/min - 1 = %s > %s; the headline is the "
			     "minimum time",
			     name, cb_fmt_pct(s->ns.contamination, b[0]),
			     cb_fmt_pct(rs->options.contamination_max, b[1]));
		if (s->layout_sensitive)
			WARN("%s: layout-sensitive: its %s differs with where its stack falls "
			     "(Kruskal-Wallis over the stack offset mod 64, p %s); every run "
			     "samples the placements in equal shares, and the median lies between "
			     "their speeds",
			     name, s->order_measure, cb_fmt_p(s->layout_p, b[0]));
		if (s->order->drift && details)
			WARN("%s: drift: %s against round, Spearman rho %s (p %s)", name,
			     s->order_measure, cb_fmt_num(s->order->drift_rho, b[0]),
			     cb_fmt_p(s->order->drift_p, b[1]));
		if (s->order->autocorrelated && details)
			WARN("%s: consecutive rounds depend on each other: lag-1 of ranks of %s %s "
			     "beyond +/-%s",
			     name, s->order_measure, cb_fmt_num(s->order->lag1_rank, b[0]),
			     cb_fmt_num(s->order->lag1_limit, b[1]));
		if (s->preempted && pre_cells <= 3 && details)
			WARN("%s: %zu of %zu trials preempted (CPU time < %.0f%% of wall time)",
			     name, s->preempted, s->n, rs->options.preempt_ratio * 100);
		if (s->overhead_warning && (details || s->unreliable))
			WARN("%s: the null engine's %s ns/call is %s of this cell's time%s", name,
			     cb_fmt_num(s->overhead_ns, b[0]), cb_fmt_pct(s->overhead_share, b[1]),
			     s->unreliable ? ": unreliable (above 25%)" : "");
	}
	if (!details && (drift || lag || overhead || (pre_cells && pre_cells <= 3)))
		WARN("%zu cell%s drift across rounds, %zu depend%s on the previous round (lag-1), "
		     "%zu had preempted trials, %zu spend over 5%% of their time in the harness: "
		     "--details names them",
		     drift, drift == 1 ? "" : "s", lag, lag == 1 ? "s" : "",
		     pre_cells <= 3 ? pre_cells : 0, overhead);
	size_t dependent = count_ratios(a, shown_dependent), held = count_ratios(a, held_open);
	if (dependent)
		WARN(
		    "%zu paired ratio%s ha%s rounds that depend on each other, each side's own "
		    "slow "
		    "noise: %s interval%s widened for it (batch means of the signs)%s; the winners "
		    "and derived tables name them",
		    dependent, dependent == 1 ? "" : "s", dependent == 1 ? "s" : "ve",
		    dependent == 1 ? "its" : "their", dependent == 1 ? "" : "s",
		    held ? ", or held while too few rounds size it" : "");
	size_t margins = count_ratios(a, with_margin);
	if (margins)
		WARN(
		    "%zu paired ratio%s ha%s sides that share little of their noise, so slow noise "
		    "of each side's own is not ruled out: %s interval%s take%s a margin for it "
		    "until "
		    "%d rounds show a short memory; the winners and derived tables name them",
		    margins, margins == 1 ? "" : "s", margins == 1 ? "s" : "ve",
		    margins == 1 ? "its" : "their", margins == 1 ? "" : "s",
		    margins == 1 ? "s" : "", CB_OWN_SIZED_ROUNDS);
	if (rs->short_trials)
		WARN("%zu of the trials fell short of the trial time (%lld ns): calibration "
		     "aimed past it, the clock or the machine moved",
		     rs->short_trials, cb_results_header_int(rs->results, NULL, "trial_time_ns"));
	if (pre_cells > 3)
		WARN("%zu of %zu cells had preempted trials, %zu of %zu trials in all (CPU time < "
		     "%.0f%% of wall time): the machine was busy%s",
		     pre_cells, rs->n_cells, pre_trials, samples, rs->options.preempt_ratio * 100,
		     details ? "; see the flags column" : "");
	for (size_t i = 0; i < a->n_notes; i++)
		WARN("%s", a->notes[i]);
#undef WARN
}

static void print_skips(FILE *out, const struct cb_results *r, enum cb_report_format f)
{
	if (!json_array_size(r->skips))
		return;
	cb_report_heading(out, f, "Skipped");
	for (size_t i = 0; i < json_array_size(r->skips); i++)
		cb_report_wrapped(
		    out, cb_report_mark(f),
		    json_string_value(json_object_get(json_array_get(r->skips, i), "reason")));
}

/* ---- The sections' JSON members ---- */

static void winners_json(json_t *j, const struct cb_analysis *a, const struct cb_report_options *o)
{
	struct cb_table_options to = table_options(o);

	json_object_set_new(
	    j, "winners",
	    json_pack("{s:s, s:o, s:o}", "method",
	              a->summary->options.sequential
	                  ? "median per-round throughput; others over the fastest paired by "
	                    "round, confidence sequence (normal mixture), Bonferroni; tied: "
	                    "equivalent within delta"
	                  : "median per-round throughput; others over the fastest paired by "
	                    "round, exact sign-test interval, Bonferroni; tied: equivalent "
	                    "within delta",
	              "delta", cb_report_json_number(a->winners ? a->winners->delta : NAN),
	              "groups", cb_table_json(&cb_table_winners, a, 1, &to)));
}

/* TABLE's JSON as member KEY of J. */
static void table_json(json_t *j, const char *key, const struct cb_table_def *table,
                       const struct cb_analysis *a, const struct cb_report_options *o)
{
	struct cb_table_options to = table_options(o);

	json_object_set_new(j, key, cb_table_json(table, a, 1, &to));
}

static void cells_json(json_t *j, const struct cb_analysis *a, const struct cb_report_options *o)
{
	table_json(j, "cells", &cb_table_cells, a, o);
}

/* Only for a run with public-key cells. */
static void pk_json(json_t *j, const struct cb_analysis *a, const struct cb_report_options *o)
{
	if (!cb_analysis_has_pk(a))
		return;
	table_json(j, "pk_winners", &cb_table_pk_winners, a, o);
	table_json(j, "pk_cells", &cb_table_pk_cells, a, o);
}

static void derived_json(json_t *j, const struct cb_analysis *a, const struct cb_report_options *o)
{
	table_json(j, "derived", &cb_table_derived, a, o);
}

/* Only for a run with masked variants. */
static void masks_json(json_t *j, const struct cb_analysis *a, const struct cb_report_options *o)
{
	struct cb_table_options to = table_options(o);
	json_t *masks = cb_masks_json(a, &to);

	if (masks)
		json_object_set_new(j, "masks", masks);
}

/* Only for a run with profiled trials. */
static void explain_json(json_t *j, const struct cb_analysis *a, const struct cb_report_options *o)
{
	struct cb_table_options to = table_options(o);

	if (a->attribution->lines)
		json_object_set_new(j, "explain", cb_report_explain_json(a, &to));
}

static void slopes_json(json_t *j, const struct cb_analysis *a, const struct cb_report_options *o)
{
	table_json(j, "slopes", &cb_table_slopes, a, o);
}

static void crossovers_json(json_t *j, const struct cb_analysis *a,
                            const struct cb_report_options *o)
{
	table_json(j, "crossovers", &cb_table_crossovers, a, o);
}

static void skips_json(json_t *j, const struct cb_analysis *a, const struct cb_report_options *o)
{
	(void)o;
	json_object_set_new(j, "skips", json_copy(a->results->skips));
}

static void notes_json(json_t *j, const struct cb_analysis *a, const struct cb_report_options *o)
{
	json_t *notes = json_array();

	(void)o;
	for (size_t i = 0; i < a->n_notes; i++)
		json_array_append_new(notes, json_string(a->notes[i]));
	json_object_set_new(j, "notes", notes);
}

/* ---- The tables no section above places ----
 *
 * A table added to CB_REPORT_TABLE_LIST (tables.h) is in the report without
 * a section written for it: after the sections that place their own, under
 * its name and description, and in JSON as its json_rows member. These are
 * the tables the sections above place. */
static const struct cb_table_def *const placed[] = {
    &cb_table_winners, &cb_table_cells,      &cb_table_pk_winners, &cb_table_pk_cells,
    &cb_table_derived, &cb_table_masks,      &cb_table_explain,    &cb_table_explain_summary,
    &cb_table_slopes,  &cb_table_crossovers,
};

static bool is_placed(const struct cb_table_def *def)
{
	for (size_t i = 0; i < sizeof placed / sizeof placed[0]; i++)
		if (placed[i] == def)
			return true;
	return false;
}

static void others_text(FILE *out, const struct cb_analysis *a, const struct cb_report_options *o)
{
	char title[512];

	for (size_t t = 0; cb_report_table_set[t]; t++) {
		const struct cb_table_def *def = cb_report_table_set[t];
		if (is_placed(def))
			continue;
		snprintf(title, sizeof title, "%s: %s", def->name, def->about);
		print_table(out, def, 0, a, o, title);
	}
}

static void others_json(json_t *j, const struct cb_analysis *a, const struct cb_report_options *o)
{
	for (size_t t = 0; cb_report_table_set[t]; t++) {
		const struct cb_table_def *def = cb_report_table_set[t];
		if (!is_placed(def) && def->json_rows)
			table_json(j, def->json_rows, def, a, o);
	}
}

/* ---- The sections, in the order both print them ---- */

static void masks_text(FILE *out, const struct cb_analysis *a, const struct cb_report_options *o)
{
	struct cb_table_options to = table_options(o);

	cb_masks_print(out, a, &to);
}

static void explain_text(FILE *out, const struct cb_analysis *a, const struct cb_report_options *o)
{
	struct cb_table_options to = table_options(o);

	cb_report_explain(out, a, &to);
	if (o->format == CB_FORMAT_HTML && o->explain_figures && a->attribution->lines)
		o->explain_figures(out, a->results, o->explain_figures_arg);
}

static void skips_text(FILE *out, const struct cb_analysis *a, const struct cb_report_options *o)
{
	print_skips(out, a->results, o->format);
}

const struct cb_report_section cb_report_sections[] = {
    {.name = "winners", .text = cb_report_winners, .json = winners_json, .answer = true},
    {.name = "cells", .text = print_cells, .json = cells_json},
    {.name = "public key", .text = print_pk, .json = pk_json},
    {.name = "derived", .text = print_derived, .json = derived_json},
    {.name = "masks", .text = masks_text, .json = masks_json},
    {.name = "explain", .text = explain_text, .json = explain_json},
    {.name = "slopes", .text = print_slopes, .json = slopes_json},
    {.name = "crossovers", .text = print_crossings, .json = crossovers_json},
    {.name = "other tables", .text = others_text, .json = others_json},
    {.name = "warnings", .text = print_warnings},
    {.name = "skips", .text = skips_text, .json = skips_json},
    {.name = "notes", .json = notes_json},
};
const size_t cb_n_report_sections = sizeof cb_report_sections / sizeof cb_report_sections[0];
