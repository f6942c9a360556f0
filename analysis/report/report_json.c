/* report_json.c: the report as JSON (everything, with intervals, methods, n
 * and seeds), and the JSON pieces report_compare.c shares. */
#include "analysis/report/report.h"

#include "analysis/verdicts/masks.h"

#include <math.h>
#include <string.h>

json_t *cb_report_json_number(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

#define NUM cb_report_json_number

json_t *cb_report_json_stats(const struct cb_stats_summary *s)
{
	const struct cb_stats_interval *ci = &s->median_ci;

	return json_pack(
	    "{s:I, s:o, s:o, s:o, s:{s:o, s:o, s:f, s:o, s:I, s:I, s:s}, s:o, s:o, s:o, s:o, "
	    "s:o, s:o, s:o, s:o, s:o, s:{s:{s:I, s:I}, s:{s:I, s:I}}, s:s, s:o, s:o, s:b, "
	    "s:{s:s, s:o, s:o, s:b}, s:{s:o, s:o, s:b}}",
	    "n", (json_int_t)s->n, "min", NUM(s->min), "max", NUM(s->max), "median", NUM(s->median),
	    "median_ci", "lo", NUM(ci->lo), "hi", NUM(ci->hi), "level", ci->level, "coverage",
	    NUM(ci->coverage), "rank_lo", (json_int_t)ci->rank_lo, "rank_hi",
	    (json_int_t)ci->rank_hi, "method",
	    ci->method ? ci->method : "order statistics (binomial, distribution-free)", "q1",
	    NUM(s->q1), "q3", NUM(s->q3), "p10", NUM(s->p10), "p90", NUM(s->p90), "iqr",
	    NUM(s->iqr), "mad", NUM(s->mad), "robust_cv", NUM(s->robust_cv), "mean", NUM(s->mean),
	    "sd", NUM(s->sd), "tukey_outliers", "1.5_iqr", "low", (json_int_t)s->outliers_low_15,
	    "high", (json_int_t)s->outliers_high_15, "3_iqr", "low", (json_int_t)s->outliers_low_3,
	    "high", (json_int_t)s->outliers_high_3, "best",
	    s->headline_name && strcmp(s->headline_name, "max") == 0 ? "max" : "min", "best_value",
	    NUM(s->best), "contamination", NUM(s->contamination), "contaminated", s->contaminated,
	    "drift", "method", "Spearman rho against round index", "rho", NUM(s->drift_rho), "p",
	    NUM(s->drift_p), "flag", s->drift, "lag1", "r", NUM(s->lag1), "limit",
	    NUM(s->lag1_limit), "flag", s->autocorrelated);
}

/* ---- One run ---- */

static json_t *cell_json(const struct cb_analysis *a, const struct cb_cell_summary *s,
                         enum cb_statistic st)
{
	struct cb_headline h;
	json_t *o;

	cb_summary_headline(s, st, &h);
	o = json_pack("{s:s, s:O, s:I, s:I, s:I, s:I, s:s?}", "key", s->cell->key, "cell",
	              s->cell->json, "n", (json_int_t)s->n, "invalid", (json_int_t)s->invalid,
	              "warmup", (json_int_t)s->warmup, "preempted", (json_int_t)s->preempted,
	              "first_error", s->first_error);
	json_object_set_new(o, "short_trials", json_integer((json_int_t)s->short_trials));
	if (s->n)
		json_object_set_new(o, "drift_and_lag1_on", json_string(s->order_measure));
	if (s->layout_judged)
		json_object_set_new(o, "layout",
		                    json_pack("{s:s, s:o, s:o, s:b}", "test",
		                              "Kruskal-Wallis over the stack offset mod 64", "h",
		                              NUM(s->layout_h), "p", NUM(s->layout_p), "sensitive",
		                              s->layout_sensitive));
	if (s->n == 0)
		return o;
	json_object_set_new(
	    o, "headline",
	    json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:b}", "statistic", h.name, "mb_per_s",
	              NUM(h.mbs), "mib_per_s", NUM(h.mbs * CB_MIB_PER_MB), "ns_per_call", NUM(h.ns),
	              "lo", NUM(h.lo), "hi", NUM(h.hi), "switched_for_contamination", h.switched));
	json_object_set_new(o, "mb_per_s", cb_report_json_stats(&s->mbs));
	json_object_set_new(o, "ns_per_call", cb_report_json_stats(&s->ns));
	if (s->have_cycles) {
		json_t *c = cb_report_json_stats(&s->cpb);

		json_object_set_new(c, "counter", json_string(a->summary->counter ?: "?"));
		json_object_set_new(o, "cycles_per_byte", c);
	}
	json_object_set_new(o, "overhead",
	                    json_pack("{s:s, s:o, s:o, s:b, s:b}", "method",
	                              "null engine's median ns per call at this size",
	                              "null_ns_per_call", NUM(s->overhead_ns), "share",
	                              NUM(s->overhead_share), "warning", s->overhead_warning,
	                              "unreliable", s->unreliable));
	return o;
}

static json_t *derived_json(const struct cb_derived *m)
{
	json_t *o = json_pack("{s:s, s:s, s:O, s:I, s:b}", "name", m->name, "key", m->key, "by",
	                      m->by_json, "pairs", (json_int_t)m->n_pairs, "ok", m->ok);

	if (!m->ok) {
		json_object_set_new(o, "why", json_string(m->why));
		return o;
	}
	json_object_set_new(
	    o, "ratio",
	    json_pack("{s:s, s:o, s:I, s:I, s:I, s:{s:o, s:o, s:f, s:o, s:s}}", "statistic",
	              "exp(median of per-round log ratios of throughput)", "value",
	              NUM(m->ratio.value), "rounds", (json_int_t)m->ratio.n, "skipped",
	              (json_int_t)m->ratio.skipped, "above_1", (json_int_t)m->ratio.above,
	              "interval", "lo", NUM(m->ratio.ci.lo), "hi", NUM(m->ratio.ci.hi), "level",
	              m->level, "coverage", NUM(m->ratio.ci.coverage), "method",
	              m->ratio.ci.method ? m->ratio.ci.method
	              : m->family > 1    ? "exact sign test, Bonferroni"
	                                 : "exact sign test"));
	json_object_set_new(o, "throughput",
	                    json_string(m->on_cycles ? "bytes per cycle" : "MB/s"));
	json_object_set_new(o, "bonferroni_m", json_integer((json_int_t)m->family));
	json_object_set_new(o, "verdict", json_string(cb_ratio_verdict_name(m->verdict)));
	if (m->has_expect)
		json_object_set_new(o, "expectation",
		                    json_pack("{s:f, s:f, s:s}", "value", m->expect_value,
		                              "tolerance", m->expect_tolerance, "verdict",
		                              cb_ratio_expectation_name(m->expectation)));
	return o;
}

static json_t *slope_json(const struct cb_slope *s)
{
	const struct cb_curve_slope *n = &s->ns;
	json_t *o = json_pack(
	    "{s:s, s:s, s:s, s:I, s:I, s:I, s:s, s:{s:o, s:o, s:o}, s:{s:o, s:o, s:o}, s:I}",
	    "label", s->cell->label, "algorithm", s->cell->algorithm, "op", s->cell->op, "threads",
	    (json_int_t)s->cell->threads, "points", (json_int_t)n->n, "sizes", (json_int_t)n->sizes,
	    "fit", n->fit_name, "overhead_ns_per_call", "value", NUM(n->overhead.value), "lo",
	    NUM(n->overhead.lo), "hi", NUM(n->overhead.hi), "ns_per_byte", "value",
	    NUM(n->per_byte.value), "lo", NUM(n->per_byte.lo), "hi", NUM(n->per_byte.hi),
	    "outliers", (json_int_t)n->outliers);

	if (s->have_cycles)
		json_object_set_new(
		    o, "cycles_per_byte",
		    json_pack("{s:o, s:o, s:o}", "value", NUM(s->cycles.per_byte.value), "lo",
		              NUM(s->cycles.per_byte.lo), "hi", NUM(s->cycles.per_byte.hi)));
	return o;
}

/* The fastest engines of each group (winners.h). */
static json_t *winners_json(const struct cb_winners *w, bool sequential)
{
	static const char *const standing[] = {"leader", "tied", "not resolved", "slower"};
	json_t *groups = json_array();

	for (size_t i = 0; w && i < w->n_groups; i++) {
		const struct cb_winner_group *g = &w->groups[i];
		const struct cb_result_cell *c = g->members[g->best].cell->cell;
		json_t *members = json_array();

		for (size_t k = 0; k < g->n_members; k++) {
			const struct cb_winner_member *m = &g->members[k];
			json_t *x = json_pack("{s:s, s:s, s:s, s:o, s:o}", "engine",
			                      m->cell->cell->engine, "label", m->cell->cell->label,
			                      "standing", standing[m->standing], "score",
			                      NUM(m->score), "mb_per_s_median", NUM(m->mbs));

			if (k != g->best)
				json_object_set_new(
				    x, "ratio_to_leader",
				    json_pack("{s:o, s:o, s:o, s:I}", "value",
				              NUM(m->ratio_ok ? m->ratio.value : NAN), "lo",
				              NUM(m->ratio_ok ? m->ratio.ci.lo : NAN), "hi",
				              NUM(m->ratio_ok ? m->ratio.ci.hi : NAN), "rounds",
				              (json_int_t)(m->ratio_ok ? m->ratio.n : 0)));
			json_array_append_new(members, x);
		}
		json_array_append_new(
		    groups, json_pack("{s:s, s:s, s:I, s:I, s:s, s:s, s:o, s:o}", "algorithm",
		                      c->algorithm, "op", c->op, "size", (json_int_t)c->size,
		                      "threads", (json_int_t)c->threads, "measure",
		                      g->on_cycles ? "bytes per cycle" : "MB/s", "fastest",
		                      c->label, "level", NUM(g->level), "engines", members));
	}
	return json_pack("{s:s, s:o, s:o}", "method",
	                 sequential ? "median per-round throughput; others over the fastest paired "
	                              "by round, confidence sequence (normal mixture), Bonferroni; "
	                              "tied: equivalent within delta"
	                            : "median per-round throughput; others over the fastest paired "
	                              "by round, exact sign-test interval, Bonferroni; tied: "
	                              "equivalent within delta",
	                 "delta", NUM(w ? w->delta : NAN), "groups", groups);
}

json_t *cb_report_run_json(const struct cb_analysis *a, const struct cb_report_options *o)
{
	const struct cb_results *r = a->results;
	json_t *j = json_object(), *cells = json_array(), *der = json_array(), *sl = json_array(),
	       *cr = json_array(), *notes = json_array(), *masks;

	json_object_set_new(j, "file", json_string(r->path));
	json_object_set_new(j, "run_id", json_string(cb_results_header_string(r, NULL, "run_id")));
	json_object_set_new(j, "scenario",
	                    json_string(cb_results_header_string(r, "scenario", "name")));
	json_object_set_new(j, "run_index",
	                    json_integer(cb_results_header_int(r, NULL, "run_index")));
	json_object_set_new(j, "interrupted", json_boolean(r->interrupted));
	json_object_set_new(
	    j, "seeds",
	    json_pack("{s:I, s:I, s:O?}", "order",
	              (json_int_t)cb_results_header_int(r, NULL, "order_seed"), "input",
	              (json_int_t)cb_results_header_int(r, "input", "seed"), "params",
	              json_object_get(json_object_get(r->header, "scenario"), "params")));
	json_object_set_new(j, "rounds", json_integer((json_int_t)a->summary->n_rounds));
	json_object_set_new(j, "cycles_counter",
	                    a->summary->counter ? json_string(a->summary->counter) : json_null());
	json_object_set_new(j, "virtual_clock", json_boolean(a->summary->virtual_clock));
	json_object_set_new(j, "options",
	                    json_pack("{s:f, s:f, s:f, s:f, s:f, s:s}", "level", o->summary.level,
	                              "contamination_max", o->summary.contamination_max,
	                              "drift_alpha", o->summary.drift_alpha, "preempt_ratio",
	                              o->summary.preempt_ratio, "delta", a->options.delta,
	                              "statistic", cb_statistics[o->statistic].name));
	for (size_t i = 0; i < a->summary->n_cells; i++)
		json_array_append_new(cells, cell_json(a, &a->summary->cells[i], o->statistic));
	for (size_t i = 0; i < a->n_derived; i++)
		json_array_append_new(der, derived_json(&a->derived[i]));
	for (size_t i = 0; i < a->n_slopes; i++)
		json_array_append_new(sl, slope_json(&a->slopes[i]));
	for (size_t i = 0; i < a->n_crossings; i++) {
		const struct cb_crossing *x = &a->crossings[i];

		json_array_append_new(cr, json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:i, s:b}",
		                                    "between", x->kind, "a", x->a->key, "b",
		                                    x->b->key, "size", NUM(x->x.size), "bracket_lo",
		                                    NUM(x->x.bracket_lo), "bracket_hi",
		                                    NUM(x->x.bracket_hi), "direction",
		                                    x->x.direction, "resolved", x->x.resolved));
	}
	for (size_t i = 0; i < a->n_notes; i++)
		json_array_append_new(notes, json_string(a->notes[i]));
	json_object_set_new(j, "winners", winners_json(a->winners, a->summary->options.sequential));
	json_object_set_new(j, "cells", cells);
	json_object_set_new(j, "derived", der);
	json_object_set_new(j, "slopes", sl);
	json_object_set_new(j, "crossovers", cr);
	json_object_set_new(j, "skips", json_copy(r->skips));
	json_object_set_new(j, "notes", notes);
	if ((masks = cb_masks_json(a)))
		json_object_set_new(j, "masks", masks); /* only for a run with masked variants */
	return j;
}
