/* report.c: one run at a time: cells, derived metrics, slopes, crossovers, as
 * text, Markdown or CSV (report_json.c: as JSON). */
#include "analysis/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/masks.h"
#include "core/errbuf.h"
#include "core/units.h"

void cb_report_defaults(struct cb_report_options *opt)
{
	opt->format = CB_FORMAT_TEXT;
	opt->statistic = CB_STAT_AUTO;
	cb_summary_defaults(&opt->summary);
	cb_derive_defaults(&opt->derive);
}

const char *cb_report_cell_name(const struct cb_result_cell *c, char buf[256])
{
	char size[32];

	snprintf(buf, 256, "%s %s %s %s", c->label, c->algorithm, c->op,
	         cb_format_size(c->size, size));
	if (c->threads > 1)
		snprintf(buf + strlen(buf), 256 - strlen(buf), " x%u threads", c->threads);
	return buf;
}

/* ---- Text and Markdown ---- */

static void heading(FILE *out, enum cb_report_format f, const char *title)
{
	fprintf(out, f == CB_FORMAT_MARKDOWN ? "\n### %s\n\n" : "\n%s\n", title);
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

		if (!json_is_string(json_object_get(f, "runtime")))
			continue;
		fprintf(out, "worker %s: %s%s%s\n", json_string_value(json_object_get(e, "name")),
		        json_string_value(json_object_get(e, "version")),
		        exe ? "; executable " : "", exe ? exe : "");
	}
}

static void print_title(FILE *out, const struct cb_analysis *a, enum cb_report_format f)
{
	const struct cb_results *r = a->results;
	const char *counter = a->summary->counter;

	fprintf(out, "%s%s: scenario %s, run %s (run index %lld), started %s%s\n",
	        f == CB_FORMAT_MARKDOWN ? "## " : "", r->path,
	        cb_results_header_string(r, "scenario", "name"),
	        cb_results_header_string(r, NULL, "run_id"),
	        cb_results_header_int(r, NULL, "run_index"),
	        cb_results_header_string(r, NULL, "started"),
	        r->interrupted ? " (INTERRUPTED: partial)" : "");
	fprintf(out, "%shost: %s, %lld logical cores; input %s seed %lld (sha256 %.16s...)\n",
	        f == CB_FORMAT_MARKDOWN ? "\n" : "", cb_results_header_string(r, "host", "cpu"),
	        cb_results_header_int(r, "host", "logical_cores"),
	        cb_results_header_string(r, "input", "generator"),
	        cb_results_header_int(r, "input", "seed"),
	        cb_results_header_string(r, "input", "sha256"));
	fprintf(out, "order %s (seed %lld), %zu measured rounds; cycles: %s%s\n",
	        cb_results_header_string(r, NULL, "order"),
	        cb_results_header_int(r, NULL, "order_seed"), a->summary->n_rounds,
	        counter ? counter : "none",
	        a->summary->virtual_clock ? "; clock: virtual (sim engine)" : "");
	print_workers(out, r);
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

static void print_cells(FILE *out, const struct cb_analysis *a, const struct cb_report_options *o)
{
	/* ns/call last: scripts read it at the end of a cell's line. */
	static const char *const h1[] = {"engine",        "algorithm", "op",
	                                 "size",          "thr",       "n",
	                                 "headline MB/s", "statistic", "median MB/s [95% CI]",
	                                 "MiB/s",         "cycles/B",  "ns/call"};
	static const char *const h2[] = {"engine",
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
	                                 "robust CV",
	                                 "mean MB/s",
	                                 "SD",
	                                 "median/min-1",
	                                 "Tukey 1.5/3",
	                                 "drift rho (p)",
	                                 "lag-1 (ranks)",
	                                 "null overhead",
	                                 "flags"};
	struct cb_table *t1 = cb_table_new(h1, 12, "lllrrrrlrrrr");
	struct cb_table *t2 = cb_table_new(h2, 20, "lllrrrrrrrrrrrrrrrrl");
	const struct cb_run_summary *rs = a->summary;

	for (size_t i = 0; i < rs->n_cells; i++) {
		const struct cb_cell_summary *s = &rs->cells[i];
		const struct cb_result_cell *c = s->cell;
		const struct cb_stats_summary *m = &s->mbs;
		struct cb_headline h;
		char b[12][80], size[32], notes[256];

		/* The null engine moves no bytes: its only figure is time per call. */
		bool harness = strcmp(c->engine, "null") == 0;

		cb_summary_headline(s, o->statistic, &h);
		cell_notes(s, notes, sizeof notes);
		cb_format_size(c->size, size);
		cb_table_cell(t1, "%s", c->label);
		cb_table_cell(t1, "%s", c->algorithm);
		cb_table_cell(t1, "%s", c->op);
		cb_table_cell(t1, "%s", size);
		cb_table_cell(t1, "%u", c->threads);
		cb_table_cell(t1, "%zu", s->n);
		if (harness) {
			cb_table_cell(t1, "-");
			cb_table_cell(t1, "harness cost (%s)", s->n ? h.stat->label : "-");
			cb_table_cell(t1, "-");
			cb_table_cell(t1, "-");
			cb_table_cell(t1, "-");
			cb_table_cell(t1, "%s", cb_fmt_num(h.ns, b[4]));
			continue;
		}
		cb_table_cell(t1, "%s", cb_fmt_num(h.mbs, b[0]));
		cb_table_cell(t1, "%s%s", s->n ? h.stat->label : "-",
		              h.switched ? " (contaminated)" : "");
		cb_table_cell(t1, "%s %s", cb_fmt_num(s->n ? m->median : NAN, b[1]),
		              cb_fmt_interval(s->n ? m->median_ci.lo : NAN,
		                              s->n ? m->median_ci.hi : NAN, b[2]));
		cb_table_cell(t1, "%s", cb_fmt_num(h.mbs * CB_MIB_PER_MB, b[3]));
		cb_table_cell(t1, "%s", cb_fmt_num(s->have_cycles ? s->cpb.median : NAN, b[5]));
		cb_table_cell(t1, "%s", cb_fmt_num(h.ns, b[4]));
		if (s->n == 0)
			continue;
		cb_table_cell(t2, "%s", c->label);
		cb_table_cell(t2, "%s", c->algorithm);
		cb_table_cell(t2, "%s", c->op);
		cb_table_cell(t2, "%s", size);
		cb_table_cell(t2, "%u", c->threads);
		cb_table_cell(t2, "%s", cb_fmt_num(m->max, b[0]));
		cb_table_cell(t2, "%s", cb_fmt_num(m->p90, b[1]));
		cb_table_cell(t2, "%s", cb_fmt_num(m->q3, b[2]));
		cb_table_cell(t2, "%s", cb_fmt_num(m->q1, b[3]));
		cb_table_cell(t2, "%s", cb_fmt_num(m->p10, b[4]));
		cb_table_cell(t2, "%s", cb_fmt_num(m->min, b[5]));
		cb_table_cell(t2, "%s", cb_fmt_pct(m->robust_cv, b[6]));
		cb_table_cell(t2, "%s", cb_fmt_num(m->mean, b[7]));
		cb_table_cell(t2, "%s", cb_fmt_num(m->sd, b[8]));
		cb_table_cell(t2, "%s", cb_fmt_pct(s->ns.contamination, b[9]));
		cb_table_cell(t2, "%zu/%zu", s->ns.outliers_low_15 + s->ns.outliers_high_15,
		              s->ns.outliers_low_3 + s->ns.outliers_high_3);
		cb_table_cell(t2, "%s (%s)", cb_fmt_num(s->order->drift_rho, b[10]),
		              cb_fmt_num(s->order->drift_p, b[11]));
		cb_table_cell(t2, "%s", cb_fmt_num(s->order->lag1_rank, b[0]));
		cb_table_cell(t2, "%s", cb_fmt_pct(s->overhead_share, b[1]));
		cb_table_cell(t2, "%s", notes[0] ? notes : "-");
	}
	heading(out, o->format,
	        "Cells (MB/s = 10^6 bytes/s of payload over all threads; "
	        "n = valid measured trials)");
	cb_table_print(out, t1, o->format);
	heading(out, o->format,
	        "Spread per cell (throughput quantiles over trials; median/min-1 on time per "
	        "call; drift and lag-1 on cycles per byte where cycles exist, else on time)");
	cb_table_print(out, t2, o->format);
	cb_table_free(t1);
	cb_table_free(t2);
}

static void print_derived(FILE *out, const struct cb_analysis *a, enum cb_report_format f)
{
	static const char *const h[] = {"metric", "by",      "rounds",   "ratio",      "interval",
	                                "level",  "verdict", "expected", "expectation"};
	struct cb_table *t;
	char title[256];

	if (!a->n_derived)
		return;
	t = cb_table_new(h, 9, "llrrlrlll");
	for (size_t i = 0; i < a->n_derived; i++) {
		const struct cb_derived *m = &a->derived[i];
		char b[4][80];

		cb_table_cell(t, "%s", m->name);
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
	         "the cells have cycles, else MB/s: exp of the median per-round log ratio; exact "
	         "sign-test interval; verdicts with delta %.3g%%)",
	         a->options.delta * 100);
	heading(out, f, title);
	cb_table_print(out, t, f);
	cb_table_free(t);
}

static void print_slopes(FILE *out, const struct cb_analysis *a, enum cb_report_format f)
{
	static const char *const h[] = {
	    "engine",  "algorithm",           "op",        "thr",        "sizes",
	    "fit",     "ns/call at 0 B [CI]", "ns/B [CI]", "MB/s limit", "cycles/B (slope)",
	    "outliers"};
	struct cb_table *t;

	if (!a->n_slopes)
		return;
	t = cb_table_new(h, 11, "lllrrlllrrr");
	for (size_t i = 0; i < a->n_slopes; i++) {
		const struct cb_slope *s = &a->slopes[i];
		const struct cb_curve_slope *n = &s->ns;
		char b[6][80];

		cb_table_cell(t, "%s", s->cell->label);
		cb_table_cell(t, "%s", s->cell->algorithm);
		cb_table_cell(t, "%s", s->cell->op);
		cb_table_cell(t, "%u", s->cell->threads);
		cb_table_cell(t, "%zu", n->sizes);
		cb_table_cell(t, "%s", n->fit_name);
		cb_table_cell(t, "%s %s", cb_fmt_num(n->overhead.value, b[0]),
		              cb_fmt_interval(n->overhead.lo, n->overhead.hi, b[1]));
		cb_table_cell(t, "%s %s", cb_fmt_num(n->per_byte.value, b[2]),
		              cb_fmt_interval(n->per_byte.lo, n->per_byte.hi, b[3]));
		cb_table_cell(
		    t, "%s",
		    cb_fmt_num(n->per_byte.value > 0 ? 1e3 / n->per_byte.value : NAN, b[4]));
		cb_table_cell(t, "%s",
		              cb_fmt_num(s->have_cycles ? s->cycles.per_byte.value : NAN, b[5]));
		cb_table_cell(t, "%zu", n->outliers);
	}
	heading(out, f,
	        "Cost per call and per byte (time per call = overhead + size x ns/B, "
	        "fitted over every trial; 95% intervals)");
	cb_table_print(out, t, f);
	cb_table_free(t);
}

static void print_crossings(FILE *out, const struct cb_analysis *a, enum cb_report_format f)
{
	static const char *const h[] = {
	    "between",       "op",      "thr", "A", "B", "crossover size", "between sizes",
	    "as size grows", "resolved"};
	struct cb_table *t;

	if (!a->n_crossings)
		return;
	t = cb_table_new(h, 9, "llrllrlll");
	for (size_t i = 0; i < a->n_crossings; i++) {
		const struct cb_crossing *x = &a->crossings[i];
		bool engines = strcmp(x->kind, "engines") == 0;
		char lo[32], hi[32], at[32];
		const char *an = engines ? x->a->label : x->a->algorithm;
		const char *bn = engines ? x->b->label : x->b->algorithm;

		cb_table_cell(t, "%s (%s)", x->kind, engines ? x->a->algorithm : x->a->label);
		cb_table_cell(t, "%s", x->a->op);
		cb_table_cell(t, "%u", x->a->threads);
		cb_table_cell(t, "%s", an);
		cb_table_cell(t, "%s", bn);
		cb_table_cell(t, "%s", cb_format_size((size_t)llround(x->x.size), at));
		cb_table_cell(t, "%s..%s", cb_format_size((size_t)x->x.bracket_lo, lo),
		              cb_format_size((size_t)x->x.bracket_hi, hi));
		cb_table_cell(t, "%s overtakes %s", x->x.direction > 0 ? an : bn,
		              x->x.direction > 0 ? bn : an);
		cb_table_cell(t, "%s", x->x.resolved ? "yes" : "no (intervals overlap)");
	}
	heading(out, f, "Crossovers (median throughput; interpolated in log size)");
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

static void print_warnings(FILE *out, const struct cb_analysis *a, enum cb_report_format f)
{
	const struct cb_run_summary *rs = a->summary;
	const char *mark = f == CB_FORMAT_MARKDOWN ? "- " : "  ";
	size_t pre_cells, pre_trials, samples;
	bool any = false;
	char name[256], b[3][32];

	preemption_total(rs, &pre_cells, &pre_trials, &samples);
#define WARN(...)                                                                                  \
	(any ? 0 : (heading(out, f, "Warnings"), any = true), fputs(mark, out),                    \
	 fprintf(out, __VA_ARGS__), fputc('\n', out))
	for (size_t i = 0; i < rs->n_cells; i++) {
		const struct cb_cell_summary *s = &rs->cells[i];

		cb_report_cell_name(s->cell, name);
		if (s->invalid)
			WARN("%s: %zu invalid trial%s, no timing kept: %s", name, s->invalid,
			     s->invalid == 1 ? "" : "s", s->first_error ? s->first_error : "?");
		if (s->n == 0)
			continue;
		if (s->ns.contaminated)
			WARN("%s: contaminated: median/min - 1 = %s > %s; the headline is the "
			     "minimum "
			     "time",
			     name, cb_fmt_pct(s->ns.contamination, b[0]),
			     cb_fmt_pct(rs->options.contamination_max, b[1]));
		if (s->order->drift)
			WARN("%s: drift: %s against round, Spearman rho %s (p %s)", name,
			     s->order_measure, cb_fmt_num(s->order->drift_rho, b[0]),
			     cb_fmt_num(s->order->drift_p, b[1]));
		if (s->order->autocorrelated)
			WARN("%s: consecutive rounds depend on each other: lag-1 of ranks of %s %s "
			     "beyond +/-%s",
			     name, s->order_measure, cb_fmt_num(s->order->lag1_rank, b[0]),
			     cb_fmt_num(s->order->lag1_limit, b[1]));
		if (s->preempted && pre_cells <= 3)
			WARN("%s: %zu of %zu trials preempted (CPU time < %.0f%% of wall time)",
			     name, s->preempted, s->n, rs->options.preempt_ratio * 100);
		if (s->overhead_warning)
			WARN("%s: the null engine's %s ns/call is %s of this cell's time%s", name,
			     cb_fmt_num(s->overhead_ns, b[0]), cb_fmt_pct(s->overhead_share, b[1]),
			     s->unreliable ? ": unreliable (above 25%)" : "");
	}
	if (rs->short_trials)
		WARN("%zu of the trials fell short of the trial time (%lld ns): calibration "
		     "aimed past it, the clock or the machine moved",
		     rs->short_trials, cb_results_header_int(rs->results, NULL, "trial_time_ns"));
	if (pre_cells > 3)
		WARN("%zu of %zu cells had preempted trials, %zu of %zu trials in all (CPU time < "
		     "%.0f%% of wall time): the machine was busy; see the flags column",
		     pre_cells, rs->n_cells, pre_trials, samples, rs->options.preempt_ratio * 100);
	for (size_t i = 0; i < a->n_notes; i++)
		WARN("%s", a->notes[i]);
#undef WARN
}

static void print_skips(FILE *out, const struct cb_results *r, enum cb_report_format f)
{
	if (!json_array_size(r->skips))
		return;
	heading(out, f, "Skipped");
	for (size_t i = 0; i < json_array_size(r->skips); i++)
		fprintf(out, "%s%s\n", f == CB_FORMAT_MARKDOWN ? "- " : "  ",
		        json_string_value(json_object_get(json_array_get(r->skips, i), "reason")));
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
}

/* ---- CSV ---- */

static void csv_num(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, ",%.6g", v);
	else
		fputc(',', out);
}

static void csv_cells(FILE *out, const struct cb_analysis *a, const struct cb_report_options *o)
{
	const struct cb_run_summary *rs = a->summary;

	for (size_t i = 0; i < rs->n_cells; i++) {
		const struct cb_cell_summary *s = &rs->cells[i];
		const struct cb_result_cell *c = s->cell;
		const struct cb_stats_summary *m = &s->mbs, *t = &s->ns;
		struct cb_headline h;
		bool n = s->n > 0;

		cb_summary_headline(s, o->statistic, &h);
		cb_csv_field(out, a->results->path);
		fputc(',', out);
		cb_csv_field(out, c->label);
		fprintf(out, ",%s,%s,%llu,%u,%zu,%zu", c->algorithm, c->op,
		        (unsigned long long)c->size, c->threads, s->n, s->invalid);
		double v[] = {n ? m->max : NAN,
		              n ? m->median : NAN,
		              n ? m->median_ci.lo : NAN,
		              n ? m->median_ci.hi : NAN,
		              n ? m->min : NAN,
		              n ? m->mean : NAN,
		              n ? m->sd : NAN,
		              n ? m->p10 : NAN,
		              n ? m->q1 : NAN,
		              n ? m->q3 : NAN,
		              n ? m->p90 : NAN,
		              n ? m->median * CB_MIB_PER_MB : NAN,
		              n ? t->min : NAN,
		              n ? t->median : NAN,
		              n ? t->max : NAN,
		              n ? t->mean : NAN,
		              n ? t->robust_cv : NAN,
		              n ? t->contamination : NAN,
		              h.mbs,
		              s->have_cycles ? s->cpb.median : NAN,
		              n ? s->order->drift_rho : NAN,
		              n ? s->order->drift_p : NAN,
		              n ? s->order->lag1 : NAN,
		              s->overhead_share};
		for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
			csv_num(out, v[k]);
		fprintf(out, ",%s,%s,%d,%d,%d,%zu,%zu,%zu,%zu\n", h.name,
		        s->have_cycles && rs->counter ? rs->counter : "", n && t->contaminated,
		        n && s->order->drift, n && s->order->autocorrelated,
		        n ? t->outliers_low_15 + t->outliers_high_15 : 0,
		        n ? t->outliers_low_3 + t->outliers_high_3 : 0, s->preempted, s->warmup);
	}
}

static void csv_derived(FILE *out, const struct cb_analysis *a)
{
	for (size_t i = 0; i < a->n_derived; i++) {
		const struct cb_derived *m = &a->derived[i];

		cb_csv_field(out, a->results->path);
		fputc(',', out);
		cb_csv_field(out, m->name);
		fputc(',', out);
		cb_csv_field(out, m->by);
		fprintf(out, ",%zu", m->ok ? m->ratio.n : (size_t)0);
		csv_num(out, m->ok ? m->ratio.value : NAN);
		csv_num(out, m->ok ? m->ratio.ci.lo : NAN);
		csv_num(out, m->ok ? m->ratio.ci.hi : NAN);
		csv_num(out, m->level);
		fprintf(out, ",%zu,%s", m->family,
		        m->ok ? cb_ratio_verdict_name(m->verdict) : "not resolved");
		csv_num(out, m->has_expect ? m->expect_value : NAN);
		csv_num(out, m->has_expect ? m->expect_tolerance : NAN);
		fprintf(out, ",%s\n",
		        m->has_expect ? cb_ratio_expectation_name(m->expectation) : "");
	}
}

static void csv_slopes(FILE *out, const struct cb_analysis *a)
{
	for (size_t i = 0; i < a->n_slopes; i++) {
		const struct cb_slope *s = &a->slopes[i];

		cb_csv_field(out, a->results->path);
		fputc(',', out);
		cb_csv_field(out, s->cell->label);
		fprintf(out, ",%s,%s,%u,%zu,%s", s->cell->algorithm, s->cell->op, s->cell->threads,
		        s->ns.sizes, s->ns.fit_name);
		double v[] = {s->ns.overhead.value,
		              s->ns.overhead.lo,
		              s->ns.overhead.hi,
		              s->ns.per_byte.value,
		              s->ns.per_byte.lo,
		              s->ns.per_byte.hi,
		              s->have_cycles ? s->cycles.per_byte.value : NAN};
		for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
			csv_num(out, v[k]);
		fputc('\n', out);
	}
}

static void print_csv(FILE *out, struct cb_analysis *const *as, size_t n,
                      const struct cb_report_options *o)
{
	size_t derived = 0, slopes = 0;

	fputs("file,label,algorithm,op,size,threads,n,invalid,mb_per_s_max,mb_per_s_median,"
	      "mb_per_s_median_lo,mb_per_s_median_hi,mb_per_s_min,mb_per_s_mean,mb_per_s_sd,"
	      "mb_per_s_p10,mb_per_s_q1,mb_per_s_q3,mb_per_s_p90,mib_per_s_median,"
	      "ns_per_call_min,ns_per_call_median,ns_per_call_max,ns_per_call_mean,robust_cv,"
	      "contamination,headline_mb_per_s,cycles_per_byte_median,drift_rho,drift_p,lag1,"
	      "overhead_share,headline_statistic,cycles_counter,contaminated,drift,"
	      "autocorrelated,outliers_1_5iqr,outliers_3iqr,preempted,warmup\n",
	      out);
	for (size_t i = 0; i < n; i++) {
		csv_cells(out, as[i], o);
		derived += as[i]->n_derived;
		slopes += as[i]->n_slopes;
	}
	if (derived) {
		fputs("\nfile,metric,by,rounds,ratio,ratio_lo,ratio_hi,level,bonferroni_m,verdict,"
		      "expected,tolerance,expectation\n",
		      out);
		for (size_t i = 0; i < n; i++)
			csv_derived(out, as[i]);
	}
	if (slopes) {
		fputs("\nfile,label,algorithm,op,threads,sizes,fit,overhead_ns,overhead_ns_lo,"
		      "overhead_ns_hi,ns_per_byte,ns_per_byte_lo,ns_per_byte_hi,"
		      "cycles_per_byte_slope\n",
		      out);
		for (size_t i = 0; i < n; i++)
			csv_slopes(out, as[i]);
	}
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
		print_csv(out, as, n, o);
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
			print_cells(out, as[i], o);
			print_derived(out, as[i], f);
			cb_masks_print(out, as[i], f);
			print_slopes(out, as[i], f);
			print_crossings(out, as[i], f);
			print_warnings(out, as[i], f);
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
