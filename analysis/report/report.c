/* report.c: one run at a time: the fastest engines, cells, derived metrics,
 * slopes, crossovers, as text or Markdown (report_csv.c: as CSV,
 * report_json.c: as JSON). */
#include "analysis/report/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats/confseq.h"
#include "analysis/report/tables.h"
#include "analysis/verdicts/hosts.h"
#include "analysis/verdicts/masks.h"
#include "core/errbuf.h"
#include "core/units.h"

void cb_report_defaults(struct cb_report_options *opt)
{
	opt->format = CB_FORMAT_TEXT;
	opt->statistic = CB_STAT_AUTO;
	opt->table = NULL;
	opt->details = false;
	opt->part = CB_REPORT_ALL;
	cb_summary_defaults(&opt->summary);
	cb_derive_defaults(&opt->derive);
}

/* ---- Text and Markdown ---- */

void cb_report_wrapped(FILE *out, const char *first, const char *text)
{
	size_t indent, col;
	const char *p = text;

	if (!first) { /* HTML: a paragraph */
		fputs("<p>", out);
		cb_html_escape(out, text);
		fputs("</p>\n", out);
		return;
	}
	indent = col = strlen(first);
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

const char *cb_report_lead(enum cb_report_format f)
{
	return f == CB_FORMAT_HTML ? NULL : "";
}

const char *cb_report_mark(enum cb_report_format f)
{
	return f == CB_FORMAT_HTML ? NULL : f == CB_FORMAT_MARKDOWN ? "- " : "  ";
}

void cb_report_heading(FILE *out, enum cb_report_format f, const char *title)
{
	if (f == CB_FORMAT_HTML) {
		fputs("<h3>", out);
		cb_html_escape(out, title);
		fputs("</h3>\n", out);
		return;
	}
	if (f == CB_FORMAT_MARKDOWN) {
		fprintf(out, "\n### %s\n\n", title);
		return;
	}
	fputc('\n', out);
	cb_report_wrapped(out, "", title);
}

/* The output mode the scenario gave variant LABEL ("reuse" by default). */
static const char *variant_output(const struct cb_results *r, const char *label)
{
	json_t *variants = json_object_get(json_object_get(r->header, "scenario"), "engines"), *v;
	size_t i;

	json_array_foreach(variants, i, v)
	{
		const char *mode =
		    json_string_value(json_object_get(json_object_get(v, "options"), "output"));

		if (strcmp(json_string_value(json_object_get(v, "label")) ?: "", label) == 0)
			return mode ? mode : "reuse";
	}
	return "reuse";
}

/* What each cell of worker ENGINE (features F) called in its timed loop:
 * its hello's call for the variant's output mode, or the allocating call
 * where the runtime has none writing into a buffer. One line per variant,
 * algorithm and op. */
static void print_worker_calls(FILE *out, const struct cb_results *r, const char *engine, json_t *f)
{
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct cb_result_cell *c = &r->cells[i];
		json_t *by_op = json_object_get(
		    json_object_get(json_object_get(f, "calls"), c->algorithm), c->op);
		const char *mode = variant_output(r, c->label), *api;
		bool seen = false;
		char line[1024];

		if (strcmp(c->engine, engine) != 0 || !by_op)
			continue;
		for (size_t k = 0; k < i && !seen; k++) /* one line for all sizes */
			seen = strcmp(r->cells[k].label, c->label) == 0 &&
			       strcmp(r->cells[k].algorithm, c->algorithm) == 0 &&
			       strcmp(r->cells[k].op, c->op) == 0;
		if (seen)
			continue;
		api = json_string_value(json_object_get(by_op, mode));
		if (!api && strcmp(mode, "reuse") == 0)
			snprintf(line, sizeof line,
			         "%s %s %s: %s (output fresh: no call writes into a buffer)",
			         c->label, c->algorithm, c->op,
			         json_string_value(json_object_get(by_op, "fresh")) ?: "?");
		else
			snprintf(line, sizeof line, "%s %s %s: %s (output %s)", c->label,
			         c->algorithm, c->op, api ? api : "?", mode);
		cb_report_wrapped(out, "  ", line);
	}
}

/* Engines in other processes: which runtime and crypto library ran them,
 * and what each cell's timed loop called. */
static void print_workers(FILE *out, const struct cb_results *r, enum cb_report_format fmt)
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
		cb_report_wrapped(out, cb_report_lead(fmt), line);
		print_worker_calls(out, r, json_string_value(json_object_get(e, "name")), f);
	}
}

/* A run made under an emulator (host.virtualization "qemu-user" or
 * "emulated": core/host_arm.h) says so under its host: its timings are
 * the emulator's, whatever its tables show. */
static void print_emulated(FILE *out, const struct cb_results *r, enum cb_report_format f,
                           char *line, size_t len)
{
	const char *virt = cb_results_header_string(r, "host", "virtualization");
	const json_t *kernel = json_object_get(json_object_get(r->header, "host"), "kernel");
	const char *machine = json_string_value(json_object_get(kernel, "machine"));

	if (strcmp(virt, "qemu-user") != 0 && strcmp(virt, "emulated") != 0)
		return;
	snprintf(line, len,
	         "emulated (%s): the timings are the emulator's and say nothing of any %s CPU; "
	         "outputs and known answers are what such a run proves",
	         virt, machine ? machine : "real");
	cb_report_wrapped(out, cb_report_lead(f), line);
}

static void print_title(FILE *out, const struct cb_analysis *a, enum cb_report_format f)
{
	const struct cb_results *r = a->results;
	const char *counter = a->summary->counter;
	char line[1024];

	if (f == CB_FORMAT_HTML) {
		fputs("<h2>", out);
		cb_html_escape(out, r->path);
		fputs(r->interrupted ? " (INTERRUPTED: partial)</h2>\n" : "</h2>\n", out);
	} else
		fprintf(out, "%s%s%s\n", f == CB_FORMAT_MARKDOWN ? "## " : "", r->path,
		        r->interrupted ? " (INTERRUPTED: partial)" : "");
	if (f == CB_FORMAT_MARKDOWN)
		fputc('\n', out);
	snprintf(line, sizeof line, "scenario %s, run %s (run index %lld), started %s",
	         cb_results_header_string(r, "scenario", "name"),
	         cb_results_header_string(r, NULL, "run_id"),
	         cb_results_header_int(r, NULL, "run_index"),
	         cb_results_header_string(r, NULL, "started"));
	cb_report_wrapped(out, cb_report_lead(f), line);
	snprintf(line, sizeof line,
	         "host: %s, %lld logical cores; input %s seed %lld (sha256 %.16s...)",
	         cb_results_header_string(r, "host", "cpu"),
	         cb_results_header_int(r, "host", "logical_cores"),
	         cb_results_header_string(r, "input", "generator"),
	         cb_results_header_int(r, "input", "seed"),
	         cb_results_header_string(r, "input", "sha256"));
	cb_report_wrapped(out, cb_report_lead(f), line);
	print_emulated(out, r, f, line, sizeof line);
	snprintf(line, sizeof line, "order %s (seed %lld), %zu measured rounds; cycles: %s%s",
	         cb_results_header_string(r, NULL, "order"),
	         cb_results_header_int(r, NULL, "order_seed"), a->summary->n_rounds,
	         counter ? counter : "none",
	         a->summary->virtual_clock ? "; clock: virtual (sim engine)" : "");
	cb_report_wrapped(out, cb_report_lead(f), line);
	print_workers(out, r, f);
}

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

/* The first table: who is fastest, per algorithm, op, size (and threads). */
static void print_winners(FILE *out, const struct cb_analysis *a, const struct cb_report_options *o)
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

/* A run that stopped by its rule: its intervals are not the legend's. */
static void print_sequential(FILE *out, const struct cb_analysis *a, enum cb_report_format f)
{
	if (a->summary->options.sequential && f == CB_FORMAT_HTML)
		fprintf(out,
		        "<p>Intervals: %s at %.0f%%, valid at the round the stop rule stopped at "
		        "(wider than a fixed-round run's fixed-n intervals).</p>\n",
		        cb_confseq_method, a->summary->options.level * 100);
	else if (a->summary->options.sequential)
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

/* Files of several hosts are reported host by host: FILES in that order
 * into SORTED, each one's host's label into LABELS. */
static int by_host(struct cb_results *const *files, size_t n, struct cb_host **hosts,
                   size_t *n_hosts, struct cb_results **sorted, const char **labels)
{
	size_t i = 0;

	if (cb_hosts_group(files, n, hosts, n_hosts) != 0)
		return -1;
	for (size_t h = 0; h < *n_hosts; h++)
		for (size_t k = 0; k < (*hosts)[h].k; k++, i++) {
			sorted[i] = (*hosts)[h].files[k];
			labels[i] = (*hosts)[h].label;
		}
	return 0;
}

/* The heading of host H before its first run, when there are several. */
static void print_host(FILE *out, const struct cb_host *hosts, size_t n_hosts, size_t i,
                       const struct cb_results *file, enum cb_report_format f)
{
	char title[CB_HOST_LABEL_LEN + 64];

	for (size_t h = 0; n_hosts > 1 && h < n_hosts; h++)
		if (hosts[h].files[0] == file) {
			snprintf(title, sizeof title, "host %s: %zu run%s", hosts[h].label,
			         hosts[h].k, hosts[h].k == 1 ? "" : "s");
			if (i)
				fputc('\n', out);
			if (f == CB_FORMAT_HTML)
				cb_report_heading(out, f, title);
			else
				fprintf(out, "%s%s\n\n", f == CB_FORMAT_MARKDOWN ? "# " : "",
				        title);
		}
}

int cb_report_print(FILE *out, struct cb_results *const *given, size_t n,
                    const struct cb_report_options *o, char *err, size_t err_len)
{
	struct cb_analysis **as = calloc(n ? n : 1, sizeof *as);
	struct cb_results **files = calloc(n ? n : 1, sizeof *files);
	const char **labels = calloc(n ? n : 1, sizeof *labels);
	struct cb_host *hosts = NULL;
	size_t n_hosts = 0;
	enum cb_report_format f = o->format;
	int problems = 0, rc = -1;

	if (!as || !files || !labels || by_host(given, n, &hosts, &n_hosts, files, labels) != 0) {
		cb_errorf(err, err_len, "out of memory");
		goto done;
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

		for (size_t i = 0; i < n; i++) {
			json_t *run = cb_report_run_json(as[i], o);

			json_object_set_new(run, "host", json_string(labels[i]));
			json_array_append_new(all, run);
		}
		json_dumpf(all, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', out);
		json_decref(all);
	} else {
		for (size_t i = 0; i < n; i++) {
			if (o->part == CB_REPORT_WINNERS) {
				/* several runs: each table says whose it is */
				if (n > 1 && as[i]->winners)
					cb_report_heading(out, f, files[i]->path);
				print_winners(out, as[i], o);
				continue;
			}
			if (i)
				fputc('\n', out);
			print_host(out, hosts, n_hosts, i, files[i], f);
			print_title(out, as[i], f);
			print_sequential(out, as[i], f);
			if (o->part != CB_REPORT_NOT_WINNERS)
				print_winners(out, as[i], o);
			print_cells(out, as[i], o);
			print_pk(out, as[i], o);
			print_derived(out, as[i], o);
			struct cb_table_options to = table_options(o);

			cb_masks_print(out, as[i], &to);
			cb_report_explain(out, as[i], &to);
			print_slopes(out, as[i], o);
			print_crossings(out, as[i], o);
			print_warnings(out, as[i], o);
			print_skips(out, files[i], f);
		}
		if (f == CB_FORMAT_TEXT && o->part != CB_REPORT_WINNERS)
			print_legend(out, o);
	}
	rc = problems;
done:
	for (size_t i = 0; as && i < n; i++)
		cb_analysis_free(as[i]);
	free(as);
	free(files);
	free(labels);
	cb_hosts_group_free(hosts, n_hosts);
	return rc;
}
