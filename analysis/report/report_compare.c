/* report_compare.c: a comparison across runs, printed: the runs, the
 * tables of cells, derived metrics, engines and rank flips (table_compare_*.c,
 * table_flips.c), the totals and the method; CSV one of those tables, JSON
 * all of them. */
#include "analysis/report/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report/table_compare.h"
#include "core/base/units.h"

#define NUM cb_report_json_number

static void print_runs(FILE *out, const struct cb_compare *c, enum cb_report_format f)
{
	const char *mark = cb_report_mark(f);
	char line[2048];

	if (f == CB_FORMAT_HTML) {
		fprintf(out, "<h2>compare: %zu runs of scenario ", c->k);
		cb_html_escape(out, cb_results_header_string(c->files[0], "scenario", "name"));
		fputs("</h2>\n", out);
	} else
		fprintf(out, "%scompare: %zu runs of scenario %s\n",
		        f == CB_FORMAT_MARKDOWN ? "## " : "", c->k,
		        cb_results_header_string(c->files[0], "scenario", "name"));
	if (f == CB_FORMAT_MARKDOWN)
		fputc('\n', out);
	for (size_t r = 0; r < c->k; r++) {
		const struct cb_results *x = c->files[r];

		snprintf(line, sizeof line,
		         "run %zu: %s (run_id %s, run index %lld, started %s, order %s seed %lld, "
		         "input seed %lld)",
		         r + 1, x->path, cb_results_header_string(x, NULL, "run_id"),
		         cb_results_header_int(x, NULL, "run_index"),
		         cb_results_header_string(x, NULL, "started"),
		         cb_results_header_string(x, NULL, "order"),
		         cb_results_header_int(x, NULL, "order_seed"),
		         cb_results_header_int(x, "input", "seed"));
		cb_report_wrapped(out, mark, line);
	}
	if (c->n_notes) {
		if (f == CB_FORMAT_HTML)
			cb_report_heading(out, f, "Notes");
		else
			fprintf(out, f == CB_FORMAT_MARKDOWN ? "\nNotes:\n\n" : "notes:\n");
		for (size_t i = 0; i < c->n_notes; i++)
			cb_report_wrapped(out, mark, c->notes[i]);
	}
}

/* The table DEF of C (its VIEW) as F, or nothing without a row; TITLE
 * before it: a wrapped heading when WRAPPED, else one line. */
static bool print_table(FILE *out, const struct cb_table_def *def, int view,
                        const struct cb_compare *c, enum cb_report_format f, bool details,
                        const char *title, bool wrapped)
{
	struct cb_table_options to = {.format = f, .details = details};
	struct cb_table *t = cb_table_text(def, view, c, &to);
	bool any = t && cb_table_rows(t);

	if (any) {
		if (wrapped || f == CB_FORMAT_HTML)
			cb_report_heading(out, f, title);
		else
			fprintf(out, f == CB_FORMAT_MARKDOWN ? "\n### %s\n\n" : "\n%s\n", title);
		cb_table_print(out, t, f);
	}
	cb_table_free(t);
	return any;
}

/* The measure every cell row was judged on, or NULL when they differ. */
static const char *cells_measure(const struct cb_compare *c)
{
	const struct cb_compare_row *first = NULL;

	for (size_t i = 0; i < c->n_rows; i++) {
		if (c->rows[i].kind != CB_ROW_CELL)
			continue;
		if (!first)
			first = &c->rows[i];
		else if (c->rows[i].measure != first->measure)
			return NULL;
	}
	return !first                             ? NULL
	       : first->measure == CB_MEASURE_MBS ? "MB/s"
	       : first->measure == CB_MEASURE_CPC ? "cycles per call"
	                                          : "cycles per byte";
}

/* Expectations below the derived table, one line for each metric that has one. */
static void print_expectations(FILE *out, const struct cb_compare *c, enum cb_report_format f)
{
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct cb_compare_row *row = &c->rows[i];
		char by[256], buf[512];

		if (row->kind != CB_ROW_DERIVED || !row->has_expect)
			continue;
		cb_report_by_values(row->derived, by, sizeof by);
		snprintf(buf, sizeof buf,
		         "%s %s: expected %.4g +/- %.3g%%: %s (consistent in %zu of %zu runs)",
		         row->derived->name, by, row->derived->expect_value,
		         row->derived->expect_tolerance * 100,
		         cb_ratio_expectation_name(row->expectation), row->expect_consistent,
		         row->expect_runs);
		cb_report_wrapped(out, cb_report_mark(f), buf);
	}
}

/* Text and Markdown without --details: the verdict, the difference that
 * decided it and the across-run value, within 100 columns. */
static void print_compact(FILE *out, const struct cb_compare *c, enum cb_report_format f)
{
	const char *measure = cells_measure(c);
	char title[512];

	print_table(out, &cb_table_compare_derived, 0, c, f, false,
	            "Derived metrics across runs (per run: a ratio paired by round; runs "
	            "differ by: the pair of runs that decided the verdict, with its "
	            "interval; --details gives each run's ratio and why)",
	            true);
	print_expectations(out, c, f);
	snprintf(title, sizeof title,
	         "Cells across runs (per run: the median %s with its exact 95%% "
	         "interval; runs differ by: the pair of runs that decided the verdict, "
	         "with its interval; across: the across-run value, given when "
	         "reproduced; --details "
	         "gives each run's median and why)",
	         measure ? measure : "of the measure named ('on')");
	print_table(out, &cb_table_compare_cells, 0, c, f, false, title, true);
}

/* With --details: each run's estimate and why each verdict was given. */
static void print_details(FILE *out, const struct cb_compare *c, enum cb_report_format f)
{
	print_table(out, &cb_table_compare_derived, 1, c, f, true,
	            "Derived metrics across runs (per run: ratio of throughputs, bytes per "
	            "cycle where the cells have cycles, paired by "
	            "round, exp of the median log ratio, exact sign-test interval)",
	            false);
	print_table(out, &cb_table_compare_cells, 1, c, f, true,
	            "Cells across runs (per run: the median of the measure named, with "
	            "its exact 95% order-statistic interval; MB/s beside cycles)",
	            false);
}

static void print_flips(FILE *out, const struct cb_compare *c, enum cb_report_format f)
{
	print_table(out, &cb_table_flips, 0, c, f, false,
	            f == CB_FORMAT_MARKDOWN
	                ? "Rank flips (the order of two engines differs between runs: which is "
	                  "faster is not resolved)"
	                : "Rank flips (the order of two engines differs between runs: which "
	                  "is faster\nis not resolved)",
	            false);
	print_table(out, &cb_table_rankings, 0, c, f, false,
	            "Ranking stability (Kendall's W of the engines' order by median MB/s: 1 = the "
	            "same in every run)",
	            false);
}

static void print_totals(FILE *out, const struct cb_compare *c, enum cb_report_format f)
{
	const struct cb_compare_options *o = &c->options;

	char line[512];

	snprintf(line, sizeof line,
	         "cells: %zu reproduced, %zu non-reproducible, %zu not resolved; derived "
	         "metrics: %zu reproduced, %zu non-reproducible, %zu contradictory, %zu not "
	         "resolved",
	         c->cells[CB_REPRO_REPRODUCED], c->cells[CB_REPRO_NON_REPRODUCIBLE],
	         c->cells[CB_REPRO_NOT_RESOLVED], c->derived[CB_REPRO_REPRODUCED],
	         c->derived[CB_REPRO_NON_REPRODUCIBLE], c->derived[CB_REPRO_CONTRADICTORY],
	         c->derived[CB_REPRO_NOT_RESOLVED]);
	fputc('\n', out);
	cb_report_wrapped(out, cb_report_lead(f), line);
	if (c->n_engine_rows) {
		snprintf(line, sizeof line,
		         "engines (each label's cells pooled): %zu reproduced, %zu "
		         "non-reproducible, %zu not resolved",
		         c->engines[CB_REPRO_REPRODUCED], c->engines[CB_REPRO_NON_REPRODUCIBLE],
		         c->engines[CB_REPRO_NOT_RESOLVED]);
		if (f == CB_FORMAT_MARKDOWN)
			fputc('\n', out);
		cb_report_wrapped(out, cb_report_lead(f), line);
	}
	snprintf(line, sizeof line,
	         "false alarms: Benjamini-Hochberg across the %zu rows of this table, false "
	         "discovery rate %.3g%% (%zu row%s beyond delta alone, not across the table)",
	         c->family, o->repro.alpha * 100, c->family_downgraded,
	         c->family_downgraded == 1 ? "" : "s");
	if (f == CB_FORMAT_MARKDOWN)
		fputc('\n', out);
	cb_report_wrapped(out, cb_report_lead(f), line);
	if (f != CB_FORMAT_TEXT)
		return;
	fprintf(out,
	        "\nEvery verdict is against a practical margin delta: %.3g%% for cells on cycles "
	        "(c/B; cycles\nper call below %llu B), %.3g%% for cells on MB/s (no cycles: "
	        "the clock moves them), %.3g%%\nfor derived ratios. non-reproducible: the "
	        "interval of two runs' ratio lies wholly outside\n[1/(1+delta), 1+delta] "
	        "(Bonferroni over the pairs of runs); reproduced: every pair shown\nequivalent "
	        "within delta (two one-sided tests at %.3g%%); contradictory: two runs "
	        "significant in\nopposite directions; not resolved otherwise, saying why. "
	        "across runs: geometric mean of the run\nestimates with a %.0f%% t-interval on "
	        "k-1 df, given only when reproduced. An expectation holds\nacross runs when it "
	        "is consistent in every run. engines: each label's cells pooled (per round\n"
	        "the precision-weighted geometric mean over its cells, one observation per "
	        "round),\njudged like a cell.\n",
	        o->delta_cycles * 100, o->tiny_size, o->delta_mbs * 100, o->derive.delta * 100,
	        o->repro.alpha * 100, o->repro.level * 100);
}

/* ---- CSV and JSON ---- */

static void print_csv(FILE *out, const struct cb_compare *c, const char *table)
{
	const struct cb_table_def *def = cb_report_table_of(cb_compare_table_set, table);
	struct cb_table_options to = {.format = CB_FORMAT_CSV};

	cb_table_csv_header(out, def);
	cb_table_csv_rows(out, def, c, 1, &to);
}

json_t *cb_report_compare_json(const struct cb_compare *c)
{
	const struct cb_repro_options *o = &c->options.repro;
	struct cb_table_options to = {.format = CB_FORMAT_JSON};
	json_t *j = json_object(), *runs = json_array(), *notes = json_array();

	json_object_set_new(j, "scenario",
	                    json_string(cb_results_header_string(c->files[0], "scenario", "name")));
	for (size_t r = 0; r < c->k; r++) {
		const struct cb_results *x = c->files[r];

		json_array_append_new(
		    runs,
		    json_pack("{s:I, s:s, s:s, s:I, s:s, s:{s:I, s:I, s:O?}, s:b}", "run",
		              (json_int_t)r + 1, "file", x->path, "run_id",
		              cb_results_header_string(x, NULL, "run_id"), "run_index",
		              (json_int_t)cb_results_header_int(x, NULL, "run_index"), "started",
		              cb_results_header_string(x, NULL, "started"), "seeds", "order",
		              (json_int_t)cb_results_header_int(x, NULL, "order_seed"), "input",
		              (json_int_t)cb_results_header_int(x, "input", "seed"), "params",
		              json_object_get(json_object_get(x->header, "scenario"), "params"),
		              "interrupted", x->interrupted));
	}
	json_object_set_new(j, "runs", runs);
	json_object_set_new(
	    j, "options",
	    json_pack("{s:o, s:o, s:{s:o, s:o, s:o}, s:I, s:{s:s, s:I, s:I}}", "level",
	              NUM(o->level), "alpha", NUM(o->alpha), "delta", "cycles",
	              NUM(c->options.delta_cycles), "mbs", NUM(c->options.delta_mbs), "ratio",
	              NUM(c->options.derive.delta), "tiny_size", (json_int_t)c->options.tiny_size,
	              "family", "method", "Benjamini-Hochberg", "rows", (json_int_t)c->family,
	              "downgraded", (json_int_t)c->family_downgraded));
	for (size_t i = 0; i < c->n_notes; i++)
		json_array_append_new(notes, json_string(c->notes[i]));
	json_object_set_new(j, "cells", cb_table_json(&cb_table_compare_cells, c, 1, &to));
	json_object_set_new(j, "derived", cb_table_json(&cb_table_compare_derived, c, 1, &to));
	json_object_set_new(j, "engines", cb_table_json(&cb_table_compare_engines, c, 1, &to));
	json_object_set_new(j, "rank_flips", cb_table_json(&cb_table_flips, c, 1, &to));
	json_object_set_new(j, "rankings", cb_table_json(&cb_table_rankings, c, 1, &to));
	json_object_set_new(j, "notes", notes);
	return j;
}

void cb_report_compare(FILE *out, const struct cb_compare *c, enum cb_report_format f,
                       const char *table, bool details)
{
	if (f == CB_FORMAT_CSV) {
		print_csv(out, c, table);
		return;
	}
	if (f == CB_FORMAT_JSON) {
		json_t *j = cb_report_compare_json(c);

		json_dumpf(j, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', out);
		json_decref(j);
		return;
	}
	print_runs(out, c, f);
	if (details)
		print_details(out, c, f);
	else
		print_compact(out, c, f);
	print_table(out, &cb_table_compare_engines, 0, c, f, details,
	            "Engines across runs (each label's cells pooled: per round the "
	            "geometric mean of the measure over its cells, weighted by their "
	            "precision; per run the median over rounds with its exact 95% "
	            "interval; judged like a cell)",
	            true);
	print_flips(out, c, f);
	print_totals(out, c, f);
}
