/* report.c: one run at a time: the fastest engines, cells, derived metrics,
 * slopes, crossovers, as text or Markdown (report_csv.c: as CSV,
 * report_json.c: as JSON). */
#include "analysis/report/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats/confseq.h"
#include "analysis/verdicts/masks.h"
#include "core/errbuf.h"
#include "core/units.h"

void cb_report_defaults(struct cb_report_options *opt)
{
	opt->format = CB_FORMAT_TEXT;
	opt->statistic = CB_STAT_AUTO;
	opt->table = NULL;
	opt->details = false;
	cb_summary_defaults(&opt->summary);
	cb_derive_defaults(&opt->derive);
}

/* ---- Text and Markdown ---- */

void cb_report_wrapped(FILE *out, const char *first, const char *text)
{
	size_t indent = strlen(first), col = indent;
	const char *p = text;

	fputs(first, out);
	while (*p) {
		const char *sp = strchr(p, ' ');
		size_t word = sp ? (size_t)(sp - p) : strlen(p);

		if (col > indent && col + 1 + word > CB_REPORT_WIDTH) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fwrite(p, 1, word, out);
		col += word;
		p += word;
		while (*p == ' ')
			p++;
	}
	fputc('\n', out);
}

void cb_report_heading(FILE *out, enum cb_report_format f, const char *title)
{
	if (f == CB_FORMAT_MARKDOWN) {
		fprintf(out, "\n### %s\n\n", title);
		return;
	}
	fputc('\n', out);
	cb_report_wrapped(out, "", title);
}

void cb_report_cell_key(struct cb_table *t, const struct cb_result_cell *c, bool threads)
{
	char size[32];

	cb_table_cell(t, "%s", c->label);
	cb_table_cell(t, "%s", c->algorithm);
	cb_table_cell(t, "%s", c->op);
	cb_table_cell(t, "%s", cb_format_size(c->size, size));
	if (threads)
		cb_table_cell(t, "%u", c->threads);
}

/* Engines in other processes: which runtime and crypto library ran them. */
static void print_workers(FILE *out, const struct cb_results *r)
{
	json_t *engines = json_object_get(r->header, "engines"), *e;
	size_t i;

	json_array_foreach(engines, i, e)
	{
		json_t *f = json_object_get(e, "features");
		const char *exe = json_string_value(json_object_get(f, "executable"));
		char line[1024];

		if (!json_is_string(json_object_get(f, "runtime")))
			continue;
		snprintf(line, sizeof line, "worker %s: %s%s%s",
		         json_string_value(json_object_get(e, "name")),
		         json_string_value(json_object_get(e, "version")),
		         exe ? "; executable " : "", exe ? exe : "");
		cb_report_wrapped(out, "", line);
	}
}

static void print_title(FILE *out, const struct cb_analysis *a, enum cb_report_format f)
{
	const struct cb_results *r = a->results;
	const char *counter = a->summary->counter;
	char line[1024];

	fprintf(out, "%s%s%s\n", f == CB_FORMAT_MARKDOWN ? "## " : "", r->path,
	        r->interrupted ? " (INTERRUPTED: partial)" : "");
	if (f == CB_FORMAT_MARKDOWN)
		fputc('\n', out);
	snprintf(line, sizeof line, "scenario %s, run %s (run index %lld), started %s",
	         cb_results_header_string(r, "scenario", "name"),
	         cb_results_header_string(r, NULL, "run_id"),
	         cb_results_header_int(r, NULL, "run_index"),
	         cb_results_header_string(r, NULL, "started"));
	cb_report_wrapped(out, "", line);
	snprintf(line, sizeof line,
	         "host: %s, %lld logical cores; input %s seed %lld (sha256 %.16s...)",
	         cb_results_header_string(r, "host", "cpu"),
	         cb_results_header_int(r, "host", "logical_cores"),
	         cb_results_header_string(r, "input", "generator"),
	         cb_results_header_int(r, "input", "seed"),
	         cb_results_header_string(r, "input", "sha256"));
	cb_report_wrapped(out, "", line);
	snprintf(line, sizeof line, "order %s (seed %lld), %zu measured rounds; cycles: %s%s",
	         cb_results_header_string(r, NULL, "order"),
	         cb_results_header_int(r, NULL, "order_seed"), a->summary->n_rounds,
	         counter ? counter : "none",
	         a->summary->virtual_clock ? "; clock: virtual (sim engine)" : "");
	cb_report_wrapped(out, "", line);
	print_workers(out, r);
}

/* Whether the run has more than one thread count: the tables' thr column. */
static bool several_threads(const struct cb_run_summary *rs)
{
	for (size_t i = 1; i < rs->n_cells; i++)
		if (rs->cells[i].cell->threads != rs->cells[0].cell->threads)
			return true;
	return false;
}

/* The first table: who is fastest, per algorithm, op, size (and threads). */
static void print_winners(FILE *out, const struct cb_analysis *a, const struct cb_report_options *o)
{
	enum cb_report_format f = o->format;
	const struct cb_winners *w = a->winners;
	const char *h[] = {"algorithm", "op",   "size",         "thr",
	                   "fastest",   "MB/s", "not resolved", "next: change [95% CI]"};
	const char *h1[] = {h[0], h[1], h[2], h[4], h[5], h[6], h[7]};
	bool thr = w && w->several_threads;
	struct cb_table *t;
	char title[512], size[32];

	if (!w || !w->n_groups)
		return;
	t = thr ? cb_table_new(h, 8, "llrrlrll") : cb_table_new(h1, 7, "llrlrll");
	for (size_t i = 0; i < w->n_groups; i++) {
		const struct cb_winner_group *g = &w->groups[i];
		const struct cb_winner_member *best = &g->members[g->best];
		const struct cb_result_cell *c = best->cell->cell;
		char tied[512], unresolved[512], b[2][80];

		cb_winners_names(g, CB_WINNER_TIED, tied, sizeof tied);
		cb_winners_names(g, CB_WINNER_NOT_RESOLVED, unresolved, sizeof unresolved);
		cb_table_cell(t, "%s", c->algorithm);
		cb_table_cell(t, "%s", c->op);
		cb_table_cell(t, "%s", cb_format_size(c->size, size));
		if (thr)
			cb_table_cell(t, "%u", c->threads);
		cb_table_cell(t, "%s%s%s", c->label, tied[0] ? ", " : "", tied);
		struct cb_headline hl;

		cb_summary_headline(best->cell, o->statistic, &hl);
		cb_table_cell(t, "%s", cb_fmt_num(hl.mbs, b[0]));
		cb_table_cell(t, "%s", unresolved[0] ? unresolved : "-");
		if (g->next < g->n_members) {
			const struct cb_winner_member *x = &g->members[g->next];

			cb_table_cell(
			    t, "%s %s", x->cell->cell->label,
			    cb_fmt_change(x->ratio.value, x->ratio.ci.lo, x->ratio.ci.hi, b[1]));
		} else {
			cb_table_cell(t, "-");
		}
	}
	snprintf(
	    title, sizeof title,
	    "Fastest engine per algorithm, op and size, with those tied with it (each engine's "
	    "throughput over the fastest's, paired by round, in bytes per cycle where the "
	    "cells have cycles, else MB/s; tied: equivalent within %.3g%%; not resolved: "
	    "the interval reaches across the margin; MB/s: the fastest's headline, as below)",
	    w->delta * 100);
	cb_report_heading(out, f, title);
	cb_table_print(out, t, f);
	cb_table_free(t);
}

/* Short flags for the notes column. */
static void cell_notes(const struct cb_cell_summary *s, char *buf, size_t len)
{
	char pct[32];
	size_t used = 0;

#define ADD(...) used += (size_t)snprintf(buf + used, used < len ? len - used : 0, __VA_ARGS__)
	buf[0] = '\0';
	if (s->invalid)
		ADD("%s%zu invalid", used ? ", " : "", s->invalid);
	if (s->n == 0)
		return;
	if (s->ns.contaminated)
		ADD("%scontaminated %s", used ? ", " : "", cb_fmt_pct(s->ns.contamination, pct));
	if (s->order->drift)
		ADD("%sdrift", used ? ", " : "");
	if (s->order->autocorrelated)
		ADD("%slag-1", used ? ", " : "");
	if (s->layout_sensitive)
		ADD("%slayout-sensitive", used ? ", " : "");
	if (s->ns.outliers_low_15 + s->ns.outliers_high_15)
		ADD("%s%zu outliers", used ? ", " : "",
		    s->ns.outliers_low_15 + s->ns.outliers_high_15);
	if (s->preempted)
		ADD("%s%zu preempted", used ? ", " : "", s->preempted);
	if (s->unreliable)
		ADD("%sunreliable: overhead %s", used ? ", " : "",
		    cb_fmt_pct(s->overhead_share, pct));
	else if (s->overhead_warning)
		ADD("%soverhead %s", used ? ", " : "", cb_fmt_pct(s->overhead_share, pct));
	if (s->n < 6)
		snprintf(buf + used, used < len ? len - used : 0, "%sn<6: no interval",
		         used ? ", " : "");
#undef ADD
}

static void print_spread(FILE *out, const struct cb_analysis *a, const struct cb_report_options *o)
{
	static const char *const h[] = {"engine",
	                                "algorithm",
	                                "op",
	                                "size",
	                                "thr",
	                                "max MB/s",
	                                "P90",
	                                "Q3",
	                                "Q1",
	                                "P10",
	                                "min MB/s",
	                                "MiB/s (median)",
	                                "robust CV",
	                                "mean MB/s",
	                                "SD",
	                                "median/min-1",
	                                "Tukey 1.5/3",
	                                "drift rho (p)",
	                                "lag-1 (ranks)",
	                                "null overhead",
	                                "flags"};
	struct cb_table *t = cb_table_new(h, 21, "lllrrrrrrrrrrrrrrrrrl");
	const struct cb_run_summary *rs = a->summary;

	for (size_t i = 0; i < rs->n_cells; i++) {
		const struct cb_cell_summary *s = &rs->cells[i];
		const struct cb_result_cell *c = s->cell;
		const struct cb_stats_summary *m = &s->mbs;
		char b[13][32], notes[256];

		if (s->n == 0)
			continue;
		cell_notes(s, notes, sizeof notes);
		cb_report_cell_key(t, c, true);
		cb_table_cell(t, "%s", cb_fmt_num(m->max, b[0]));
		cb_table_cell(t, "%s", cb_fmt_num(m->p90, b[1]));
		cb_table_cell(t, "%s", cb_fmt_num(m->q3, b[2]));
		cb_table_cell(t, "%s", cb_fmt_num(m->q1, b[3]));
		cb_table_cell(t, "%s", cb_fmt_num(m->p10, b[4]));
		cb_table_cell(t, "%s", cb_fmt_num(m->min, b[5]));
		cb_table_cell(t, "%s", cb_fmt_num(m->median * CB_MIB_PER_MB, b[12]));
		cb_table_cell(t, "%s", cb_fmt_pct(m->robust_cv, b[6]));
		cb_table_cell(t, "%s", cb_fmt_num(m->mean, b[7]));
		cb_table_cell(t, "%s", cb_fmt_num(m->sd, b[8]));
		cb_table_cell(t, "%s", cb_fmt_pct(s->ns.contamination, b[9]));
		cb_table_cell(t, "%zu/%zu", s->ns.outliers_low_15 + s->ns.outliers_high_15,
		              s->ns.outliers_low_3 + s->ns.outliers_high_3);
		if (s->order->drift_judged)
			cb_table_cell(t, "%s (%s)", cb_fmt_num(s->order->drift_rho, b[10]),
			              cb_fmt_p(s->order->drift_p, b[11]));
		else
			cb_table_cell(t, "- (n %zu)", s->n);
		if (s->order->lag1_judged)
			cb_table_cell(t, "%s", cb_fmt_num(s->order->lag1_rank, b[0]));
		else
			cb_table_cell(t, "- (n %zu)", s->n);
		cb_table_cell(t, "%s", cb_fmt_pct(s->overhead_share, b[1]));
		cb_table_cell(t, "%s", notes[0] ? notes : "-");
	}
	cb_report_heading(
	    out, o->format,
	    "Spread per cell (throughput quantiles over trials; median/min-1 on time per "
	    "call; drift and lag-1 on cycles per byte where cycles exist, else on time; "
	    "'- (n 5)': too few trials for the test to flag anything)");
	cb_table_print(out, t, o->format);
	cb_table_free(t);
}

static void print_cells(FILE *out, const struct cb_analysis *a, const struct cb_report_options *o)
{
	/* ns/call last: scripts read it at the end of a cell's line. */
	static const char *const h[] = {
	    "engine", "algorithm",     "op",        "size",     "thr",
	    "n",      "MB/s [95% CI]", "statistic", "cycles/B", "ns/call"};
	static const char *const h1[] = {"engine",        "algorithm", "op",       "size",   "n",
	                                 "MB/s [95% CI]", "statistic", "cycles/B", "ns/call"};
	const struct cb_run_summary *rs = a->summary;
	bool thr = several_threads(rs);
	struct cb_table *t =
	    thr ? cb_table_new(h, 10, "lllrrrrlrr") : cb_table_new(h1, 9, "lllrrrlrr");

	for (size_t i = 0; i < rs->n_cells; i++) {
		const struct cb_cell_summary *s = &rs->cells[i];
		const struct cb_result_cell *c = s->cell;
		struct cb_headline hl;
		char b[3][96];

		/* The null engine moves no bytes: its only figure is time per call. */
		bool harness = strcmp(c->engine, "null") == 0;

		cb_summary_headline(s, o->statistic, &hl);
		cb_report_cell_key(t, c, thr);
		cb_table_cell(t, "%zu", s->n);
		if (harness) {
			cb_table_cell(t, "harness cost");
			cb_table_cell(t, "%s", s->n ? hl.stat->label : "-");
			cb_table_cell(t, "-");
			cb_table_cell(t, "%s", cb_fmt_num(hl.ns, b[0]));
			continue;
		}
		cb_table_cell(t, "%s", cb_fmt_estimate(hl.mbs, hl.lo, hl.hi, b[0]));
		cb_table_cell(t, "%s%s", s->n ? hl.stat->label : "-",
		              hl.switched ? " (contaminated)" : "");
		cb_table_cell(t, "%s", cb_fmt_num(s->have_cycles ? s->cpb.median : NAN, b[1]));
		cb_table_cell(t, "%s", cb_fmt_num(hl.ns, b[2]));
	}
	cb_report_heading(
	    out, o->format,
	    "Cells (MB/s = 10^6 bytes/s of payload over all threads; n = valid measured "
	    "trials)");
	cb_table_print(out, t, o->format);
	cb_table_free(t);
	if (o->details)
		print_spread(out, a, o);
}

/* The values of a metric's `by`, without their keys: "sim-fast 16KiB 2 threads". */
void cb_report_by_values(const struct cb_derived *m, char *buf, size_t len)
{
	const char *key;
	json_t *v;
	size_t used = 0;

	buf[0] = '\0';
	json_object_foreach(m->by_json, key, v)
	{
		char x[64];

		if (strcmp(key, "size") == 0)
			cb_format_size((size_t)json_integer_value(v), x);
		else if (strcmp(key, "threads") == 0)
			snprintf(x, sizeof x, "%lld thread%s", (long long)json_integer_value(v),
			         json_integer_value(v) == 1 ? "" : "s");
		else
			snprintf(x, sizeof x, "%s",
			         json_string_value(v) ? json_string_value(v) : "?");
		if (used < len)
			used +=
			    (size_t)snprintf(buf + used, len - used, "%s%s", used ? " " : "", x);
	}
	if (!buf[0])
		snprintf(buf, len, "-");
}

static void print_derived(FILE *out, const struct cb_analysis *a, const struct cb_report_options *o)
{
	static const char *const hd[] = {"metric", "by",      "rounds",   "ratio",      "interval",
	                                 "level",  "verdict", "expected", "expectation"};
	static const char *const h[] = {"metric",     "by",      "n",
	                                "ratio [CI]", "verdict", "expectation"};
	enum cb_report_format f = o->format;
	struct cb_table *t;
	char title[512];
	bool bonferroni = false;

	if (!a->n_derived)
		return;
	t = o->details ? cb_table_new(hd, 9, "llrrlrlll") : cb_table_new(h, 6, "llrlll");
	for (size_t i = 0; i < a->n_derived; i++) {
		const struct cb_derived *m = &a->derived[i];
		char b[4][96];

		bonferroni |= m->family > 1;
		cb_table_cell(t, "%s", m->name);
		if (!o->details) {
			cb_report_by_values(m, b[0], sizeof b[0]);
			cb_table_cell(t, "%s", b[0]);
			cb_table_cell(t, "%zu", m->ok ? m->ratio.n : (size_t)0);
			/* A ratio that decides its verdict keeps its figures, however wide. */
			if (m->ok && m->verdict != CB_RATIO_NOT_RESOLVED)
				snprintf(b[1], sizeof b[1], "%s %s",
				         cb_fmt_num(m->ratio.value, b[2]),
				         cb_fmt_interval(m->ratio.ci.lo, m->ratio.ci.hi, b[3]));
			else if (m->ok)
				cb_fmt_estimate(m->ratio.value, m->ratio.ci.lo, m->ratio.ci.hi,
				                b[1]);
			cb_table_cell(t, "%s", m->ok ? b[1] : m->why);
			cb_table_cell(t, "%s",
			              m->ok ? cb_ratio_verdict_name(m->verdict) : "not resolved");
			cb_table_cell(t, "%s",
			              m->has_expect ? cb_ratio_expectation_name(m->expectation)
			                            : "-");
			continue;
		}
		cb_table_cell(t, "%s", m->by[0] ? m->by : "-");
		cb_table_cell(t, "%zu", m->ok ? m->ratio.n : (size_t)0);
		cb_table_cell(t, "%s", cb_fmt_num(m->ok ? m->ratio.value : NAN, b[0]));
		cb_table_cell(t, "%s",
		              m->ok ? cb_fmt_interval(m->ratio.ci.lo, m->ratio.ci.hi, b[1])
		                    : m->why);
		cb_table_cell(t, "%s%s", cb_fmt_pct(m->level, b[2]),
		              m->family > 1 ? " (Bonferroni)" : "");
		cb_table_cell(t, "%s", m->ok ? cb_ratio_verdict_name(m->verdict) : "not resolved");
		if (m->has_expect)
			cb_table_cell(t, "%.4g +/- %.3g%%", m->expect_value,
			              m->expect_tolerance * 100);
		else
			cb_table_cell(t, "-");
		cb_table_cell(t, "%s",
		              m->has_expect ? cb_ratio_expectation_name(m->expectation) : "-");
	}
	snprintf(title, sizeof title,
	         "Derived metrics (ratio of throughputs paired by round, in bytes per cycle where "
	         "the cells have cycles, else MB/s: exp of the median per-round log ratio; %s "
	         "%s interval; verdicts with delta %.3g%%)",
	         a->summary->options.sequential ? "confidence-sequence" : "exact sign-test",
	         bonferroni && !o->details ? "95% (Bonferroni-widened where one denominator "
	                                     "serves several)"
	                                   : "95%",
	         a->options.delta * 100);
	cb_report_heading(out, f, title);
	cb_table_print(out, t, f);
	cb_table_free(t);
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
		cb_report_wrapped(out, f == CB_FORMAT_MARKDOWN ? "- " : "  ", line);
	}
}

static void print_slopes(FILE *out, const struct cb_analysis *a, const struct cb_report_options *o)
{
	static const char *const hd[] = {
	    "engine",  "algorithm",           "op",        "thr",        "sizes",
	    "fit",     "ns/call at 0 B [CI]", "ns/B [CI]", "MB/s limit", "cycles/B (slope)",
	    "outliers"};
	enum cb_report_format f = o->format;
	struct cb_table *t;

	if (!a->n_slopes)
		return;
	static const char *const h[] = {"engine", "algorithm",         "op",        "thr",
	                                "sizes",  "per call, ns [CI]", "ns/B [CI]", "MB/s limit"};
	t = o->details ? cb_table_new(hd, 11, "lllrrlllrrr") : cb_table_new(h, 8, "lllrrllr");
	for (size_t i = 0; i < a->n_slopes; i++) {
		const struct cb_slope *s = &a->slopes[i];
		const struct cb_curve_slope *n = &s->ns;
		char b[4][96];
		bool per_byte = !(n->per_byte.hi - n->per_byte.lo > fabs(n->per_byte.value));

		cb_table_cell(t, "%s", s->cell->label);
		cb_table_cell(t, "%s", s->cell->algorithm);
		cb_table_cell(t, "%s", s->cell->op);
		cb_table_cell(t, "%u", s->cell->threads);
		cb_table_cell(t, "%zu", n->sizes);
		if (o->details)
			cb_table_cell(t, "%s", n->fit_name);
		cb_table_cell(
		    t, "%s",
		    cb_fmt_estimate(n->overhead.value, n->overhead.lo, n->overhead.hi, b[0]));
		cb_table_cell(
		    t, "%s",
		    cb_fmt_estimate(n->per_byte.value, n->per_byte.lo, n->per_byte.hi, b[1]));
		cb_table_cell(
		    t, "%s",
		    cb_fmt_num(per_byte && n->per_byte.value > 0 ? 1e3 / n->per_byte.value : NAN,
		               b[2]));
		if (!o->details)
			continue;
		cb_table_cell(t, "%s",
		              cb_fmt_num(s->have_cycles ? s->cycles.per_byte.value : NAN, b[3]));
		cb_table_cell(t, "%zu", n->outliers);
	}
	cb_report_heading(
	    out, f,
	    "Cost per call and per byte (time per call = overhead + size x ns/B, fitted over "
	    "every trial; 95% intervals; 'not resolved': the interval is wider than the "
	    "estimate)");
	cb_table_print(out, t, f);
	cb_table_free(t);
}

static void print_crossings(FILE *out, const struct cb_analysis *a, enum cb_report_format f)
{
	static const char *const h[] = {"between",       "op",           "thr", "crossover size",
	                                "between sizes", "as size grows"};
	struct cb_table *t;

	if (!a->n_crossings)
		return;
	t = cb_table_new(h, 6, "llrrll");
	for (size_t i = 0; i < a->n_crossings; i++) {
		const struct cb_crossing *x = &a->crossings[i];
		bool engines = strcmp(x->kind, "engines") == 0;
		char lo[32], hi[32], at[32];
		const char *an = engines ? x->a->label : x->a->algorithm;
		const char *bn = engines ? x->b->label : x->b->algorithm;

		cb_table_cell(t, "%s (%s)", x->kind, engines ? x->a->algorithm : x->a->label);
		cb_table_cell(t, "%s", x->a->op);
		cb_table_cell(t, "%u", x->a->threads);
		cb_table_cell(t, "%s",
		              x->x.resolved ? cb_format_size((size_t)llround(x->x.size), at)
		                            : "not resolved");
		cb_table_cell(t, "%s..%s", cb_format_size((size_t)x->x.bracket_lo, lo),
		              cb_format_size((size_t)x->x.bracket_hi, hi));
		/* Unresolved, the order may be noise at either end: both are named. */
		if (x->x.resolved)
			cb_table_cell(t, "%s overtakes %s", x->x.direction > 0 ? an : bn,
			              x->x.direction > 0 ? bn : an);
		else
			cb_table_cell(t, "%s or %s (intervals overlap)", an, bn);
	}
	cb_report_heading(out, f, "Crossovers (median throughput; interpolated in log size)");
	cb_table_print(out, t, f);
	cb_table_free(t);
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

/* Warnings that change what a figure means stay; the per-cell diagnostics
 * (drift, lag-1, a few preempted trials, a noticeable harness share) are
 * counted, and listed with --details. */
static void print_warnings(FILE *out, const struct cb_analysis *a,
                           const struct cb_report_options *o)
{
	const struct cb_run_summary *rs = a->summary;
	enum cb_report_format f = o->format;
	const char *mark = f == CB_FORMAT_MARKDOWN ? "- " : "  ";
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
		    out, f == CB_FORMAT_MARKDOWN ? "- " : "  ",
		    json_string_value(json_object_get(json_array_get(r->skips, i), "reason")));
}

/* A run that stopped by its rule: its intervals are not the legend's. */
static void print_sequential(FILE *out, const struct cb_analysis *a)
{
	if (a->summary->options.sequential)
		fprintf(out,
		        "Intervals: %s at %.0f%%, valid at the round the stop rule stopped\nat "
		        "(wider than a fixed-round run's fixed-n intervals).\n",
		        cb_confseq_method, a->summary->options.level * 100);
}

static void print_legend(FILE *out, const struct cb_report_options *o)
{
	fprintf(out,
	        "\nheadline: the median throughput unless median/min-1 of the time exceeds %.0f%%, "
	        "then the\nminimum time (maximum MB/s), labelled (--statistic chooses). Median "
	        "intervals: exact\ndistribution-free %.0f%% intervals from order statistics. "
	        "MiB/s = 2^20 bytes/s. Robust CV =\n1.4826 MAD/median. Outliers (Tukey fences at "
	        "1.5 and 3 IQR) are counted, never dropped.\n",
	        o->summary.contamination_max * 100, o->summary.level * 100);
	if (!o->details)
		fputs("--details adds the spread of each cell (quantiles, MiB/s, robust CV, "
		      "outliers, drift,\nlag-1, harness share) and names every flagged cell.\n",
		      out);
}

/* ---- Entry ---- */

int cb_report_print(FILE *out, struct cb_results *const *files, size_t n,
                    const struct cb_report_options *o, char *err, size_t err_len)
{
	struct cb_analysis **as = calloc(n ? n : 1, sizeof *as);
	enum cb_report_format f = o->format;
	int problems = 0, rc = -1;

	if (!as) {
		cb_errorf(err, err_len, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		char why[512];

		if (!(as[i] =
		          cb_analysis_build(files[i], &o->summary, &o->derive, why, sizeof why))) {
			cb_errorf(err, err_len, "%s: %s", files[i]->path, why);
			goto done;
		}
		for (size_t c = 0; c < as[i]->summary->n_cells; c++)
			problems |= as[i]->summary->cells[c].invalid > 0;
	}
	if (f == CB_FORMAT_CSV) {
		cb_report_csv(out, as, n, o);
	} else if (f == CB_FORMAT_JSON) {
		json_t *all = json_array();

		for (size_t i = 0; i < n; i++)
			json_array_append_new(all, cb_report_run_json(as[i], o));
		json_dumpf(all, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', out);
		json_decref(all);
	} else {
		for (size_t i = 0; i < n; i++) {
			if (i)
				fputc('\n', out);
			print_title(out, as[i], f);
			print_sequential(out, as[i]);
			print_winners(out, as[i], o);
			print_cells(out, as[i], o);
			print_derived(out, as[i], o);
			cb_masks_print(out, as[i], f);
			print_slopes(out, as[i], o);
			print_crossings(out, as[i], f);
			print_warnings(out, as[i], o);
			print_skips(out, files[i], f);
		}
		if (f == CB_FORMAT_TEXT)
			print_legend(out, o);
	}
	rc = problems;
done:
	for (size_t i = 0; i < n; i++)
		cb_analysis_free(as[i]);
	free(as);
	return rc;
}
