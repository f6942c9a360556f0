/* report_compare.c: a comparison across runs, printed. */
#include "analysis/report/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"

#define NUM cb_report_json_number

/* Why a row got its verdict, in words, with run numbers from 1. */
static void rules_text(const struct cb_compare *c, const struct cb_compare_row *row, char *buf,
                       size_t len)
{
	size_t *number = malloc((row->present ? row->present : 1) * sizeof *number);

	if (!number) {
		snprintf(buf, len, "-");
		return;
	}
	for (size_t i = 0; i < row->present; i++)
		number[i] = row->run_of[i] + 1;
	if (row->repro.why == CB_REPRO_WHY_FEW_RUNS)
		snprintf(buf, len, "only %zu run%s %s an estimate", row->present,
		         row->present == 1 ? "" : "s", row->present == 1 ? "has" : "have");
	else if (row->repro.why == CB_REPRO_WHY_NO_INTERVAL) {
		for (size_t i = 0; i < row->present; i++)
			if (isnan(row->runs[row->run_of[i]].e.lo)) {
				snprintf(buf, len, "run %zu has no interval (n %zu < 6)",
				         row->run_of[i] + 1, row->runs[row->run_of[i]].n);
				break;
			}
	} else
		cb_repro_why_text(&row->repro, row->delta, number, c->family, buf, len);
	free(number);
}

static void across_text(const struct cb_compare_row *row, char *buf, size_t len)
{
	char v[32], ci[80];

	if (row->repro.verdict != CB_REPRO_REPRODUCED) {
		snprintf(buf, len, "-");
		return;
	}
	snprintf(buf, len, "%s %s", cb_fmt_num(row->repro.value.value, v),
	         cb_fmt_interval(row->repro.value.lo, row->repro.value.hi, ci));
}

static void run_value_text(const struct cb_compare_value *v, enum cb_compare_measure measure,
                           char *buf, size_t len)
{
	char x[32], ci[80];

	if (!v->present) {
		snprintf(buf, len, "-");
		return;
	}
	int used = snprintf(buf, len, "%s %s", cb_fmt_num(v->e.value, x),
	                    cb_fmt_interval(v->e.lo, v->e.hi, ci));
	if (used < 0 || (size_t)used >= len)
		return;
	if (measure != CB_MEASURE_MBS && measure != CB_MEASURE_RATIO)
		used += snprintf(buf + used, len - (size_t)used, " (%s MB/s)",
		                 cb_fmt_num(v->mbs.value, x));
	if (v->contaminated && (size_t)used < len)
		snprintf(buf + used, len - (size_t)used, " (contaminated)");
}

static void print_runs(FILE *out, const struct cb_compare *c, enum cb_report_format f)
{
	const char *mark = f == CB_FORMAT_MARKDOWN ? "- " : "  ";
	char line[2048];

	fprintf(out, "%scompare: %zu runs of scenario %s\n", f == CB_FORMAT_MARKDOWN ? "## " : "",
	        c->k, cb_results_header_string(c->files[0], "scenario", "name"));
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
		fprintf(out, f == CB_FORMAT_MARKDOWN ? "\nNotes:\n\n" : "notes:\n");
		for (size_t i = 0; i < c->n_notes; i++)
			cb_report_wrapped(out, mark, c->notes[i]);
	}
}

/* The difference of the deciding pair of runs with its interval:
 * "+13.6% [-80, +600]", the runs named when there are more than two. */
static void difference_text(const struct cb_compare *c, const struct cb_compare_row *row, char *buf,
                            size_t len)
{
	const struct cb_margin *m = &row->repro.pair;
	char x[80];

	if (row->present < 2 || isnan(m->ratio)) {
		snprintf(buf, len, "-");
		return;
	}
	cb_fmt_change(m->ratio, m->lo, m->hi, x);
	if (c->k > 2)
		snprintf(buf, len, "%s (runs %zu, %zu)", x, row->run_of[row->repro.pair_a] + 1,
		         row->run_of[row->repro.pair_b] + 1);
	else
		snprintf(buf, len, "%s", x);
}

/* Whether every cell row was judged on one measure, and whether they have
 * more than one thread count: the compact table's optional columns. */
static void cell_columns(const struct cb_compare *c, bool *measure, bool *threads)
{
	const struct cb_compare_row *first = NULL;

	*measure = *threads = false;
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct cb_compare_row *row = &c->rows[i];

		if (row->kind != CB_ROW_CELL)
			continue;
		if (!first)
			first = row;
		*measure |= row->measure != first->measure;
		*threads |= row->cell->threads != first->cell->threads;
	}
}

/* Text and Markdown without --details: the verdict, the difference that
 * decided it and the across-run value, within 100 columns. */
static void print_rows_compact(FILE *out, const struct cb_compare *c, enum cb_compare_kind kind,
                               enum cb_report_format f)
{
	static const char *const hc[] = {"engine", "algorithm", "op",      "size",
	                                 "thr",    "on",        "verdict", "runs differ by [CI]",
	                                 "across"};
	static const char *const hd[] = {"metric", "by", "verdict", "runs differ by [CI]",
	                                 "across"};
	bool on, thr;
	const char *h[9];
	char align[10], buf[512], size[32], title[512];
	size_t n = 0;
	struct cb_table *t;

	cell_columns(c, &on, &thr);
	if (kind == CB_ROW_CELL) {
		for (size_t i = 0; i < 9; i++) {
			if ((i == 4 && !thr) || (i == 5 && !on))
				continue;
			align[n] = i == 3 || i == 4 || i >= 7 ? 'r' : 'l';
			h[n++] = hc[i];
		}
		align[n] = '\0';
		t = cb_table_new(h, n, align);
	} else {
		t = cb_table_new(hd, 5, "lllrr");
	}
	const struct cb_compare_row *first = NULL;
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct cb_compare_row *row = &c->rows[i];

		if (row->kind != kind)
			continue;
		if (!first)
			first = row;
		if (kind == CB_ROW_CELL) {
			cb_table_cell(t, "%s", row->cell->label);
			cb_table_cell(t, "%s", row->cell->algorithm);
			cb_table_cell(t, "%s", row->cell->op);
			cb_table_cell(t, "%s", cb_format_size(row->cell->size, size));
			if (thr)
				cb_table_cell(t, "%u", row->cell->threads);
			if (on)
				cb_table_cell(t, "%s", cb_compare_measure_name(row->measure));
		} else {
			cb_table_cell(t, "%s", row->derived->name);
			cb_report_by_values(row->derived, buf, sizeof buf);
			cb_table_cell(t, "%s", buf);
		}
		cb_table_cell(t, "%s", cb_repro_verdict_name(row->repro.verdict));
		difference_text(c, row, buf, sizeof buf);
		cb_table_cell(t, "%s", buf);
		/* The value alone: its t-interval is in --details. */
		if (row->repro.verdict == CB_REPRO_REPRODUCED)
			cb_table_cell(t, "%s", cb_fmt_num(row->repro.value.value, size));
		else
			cb_table_cell(t, "-");
	}
	if (cb_table_rows(t)) {
		if (kind == CB_ROW_DERIVED)
			snprintf(
			    title, sizeof title,
			    "Derived metrics across runs (per run: a ratio paired by round; runs "
			    "differ by: the pair of runs that decided the verdict, with its "
			    "interval; --details gives each run's ratio and why)");
		else
			snprintf(
			    title, sizeof title,
			    "Cells across runs (per run: the median %s with its exact 95%% "
			    "interval; runs differ by: the pair of runs that decided the verdict, "
			    "with its interval; across: the across-run value, given when "
			    "reproduced; --details "
			    "gives each run's median and why)",
			    on || !first                       ? "of the measure named ('on')"
			    : first->measure == CB_MEASURE_MBS ? "MB/s"
			    : first->measure == CB_MEASURE_CPC ? "cycles per call"
			                                       : "cycles per byte");
		cb_report_heading(out, f, title);
		cb_table_print(out, t, f);
	}
	cb_table_free(t);
	/* Expectations below the table, one line for each metric that has one. */
	for (size_t i = 0; kind == CB_ROW_DERIVED && i < c->n_rows; i++) {
		const struct cb_compare_row *row = &c->rows[i];
		char by[256];

		if (row->kind != CB_ROW_DERIVED || !row->has_expect)
			continue;
		cb_report_by_values(row->derived, by, sizeof by);
		snprintf(buf, sizeof buf,
		         "%s %s: expected %.4g +/- %.3g%%: %s (consistent in %zu of %zu runs)",
		         row->derived->name, by, row->derived->expect_value,
		         row->derived->expect_tolerance * 100,
		         cb_ratio_expectation_name(row->expectation), row->expect_consistent,
		         row->expect_runs);
		cb_report_wrapped(out, f == CB_FORMAT_MARKDOWN ? "- " : "  ", buf);
	}
}

static struct cb_table *row_table(const struct cb_compare *c, enum cb_compare_kind kind)
{
	const char *fixed_cell[] = {"engine", "algorithm", "op", "size", "thr", "measure"};
	const char *fixed_derived[] = {"metric", "by"};
	size_t nf = kind == CB_ROW_CELL ? 6 : 2, ncols = nf + c->k + (kind == CB_ROW_CELL ? 3 : 5);
	const char **h = calloc(ncols, sizeof *h);
	char(*names)[32] = calloc(c->k, sizeof *names);
	char *align = calloc(ncols + 1, 1);
	struct cb_table *t = NULL;
	size_t j = 0;

	if (!h || !names || !align)
		goto done;
	for (size_t i = 0; i < nf; i++, j++) {
		h[j] = kind == CB_ROW_CELL ? fixed_cell[i] : fixed_derived[i];
		align[j] = kind == CB_ROW_CELL && (i == 3 || i == 4) ? 'r' : 'l';
	}
	for (size_t r = 0; r < c->k; r++, j++) {
		snprintf(names[r], sizeof names[r], "run %zu", r + 1);
		h[j] = names[r];
		align[j] = 'r';
	}
	h[j] = "verdict", align[j++] = 'l';
	h[j] = "why", align[j++] = 'l';
	h[j] = "across", align[j++] = 'r';
	if (kind == CB_ROW_DERIVED) {
		h[j] = "expected", align[j++] = 'l';
		h[j] = "expectation", align[j++] = 'l';
	}
	t = cb_table_new(h, ncols, align);
done:
	free(h);
	free(names);
	free(align);
	return t;
}

static void print_rows(FILE *out, const struct cb_compare *c, enum cb_compare_kind kind,
                       enum cb_report_format f)
{
	struct cb_table *t = row_table(c, kind);
	char buf[512], size[32];

	for (size_t i = 0; i < c->n_rows; i++) {
		const struct cb_compare_row *row = &c->rows[i];

		if (row->kind != kind)
			continue;
		if (kind == CB_ROW_CELL) {
			cb_table_cell(t, "%s", row->cell->label);
			cb_table_cell(t, "%s", row->cell->algorithm);
			cb_table_cell(t, "%s", row->cell->op);
			cb_table_cell(t, "%s", cb_format_size(row->cell->size, size));
			cb_table_cell(t, "%u", row->cell->threads);
			cb_table_cell(t, "%s", cb_compare_measure_name(row->measure));
		} else {
			cb_table_cell(t, "%s", row->derived->name);
			cb_table_cell(t, "%s", row->derived->by[0] ? row->derived->by : "-");
		}
		for (size_t r = 0; r < c->k; r++) {
			run_value_text(&row->runs[r], row->measure, buf, sizeof buf);
			cb_table_cell(t, "%s", buf);
		}
		cb_table_cell(t, "%s", cb_repro_verdict_name(row->repro.verdict));
		rules_text(c, row, buf, sizeof buf);
		cb_table_cell(t, "%s", buf);
		across_text(row, buf, sizeof buf);
		cb_table_cell(t, "%s", buf);
		if (kind == CB_ROW_CELL)
			continue;
		if (!row->has_expect) {
			cb_table_cell(t, "-");
			cb_table_cell(t, "-");
			continue;
		}
		cb_table_cell(t, "%.4g +/- %.3g%%", row->derived->expect_value,
		              row->derived->expect_tolerance * 100);
		cb_table_cell(t, "%s (consistent in %zu of %zu runs)",
		              cb_ratio_expectation_name(row->expectation), row->expect_consistent,
		              row->expect_runs);
	}
	if (cb_table_rows(t)) {
		if (kind == CB_ROW_DERIVED)
			fprintf(
			    out, f == CB_FORMAT_MARKDOWN ? "\n### %s\n\n" : "\n%s\n",
			    "Derived metrics across runs (per run: ratio of throughputs, bytes per "
			    "cycle where the cells have cycles, paired by "
			    "round, exp of the median log ratio, exact sign-test interval)");
		else
			fprintf(out, f == CB_FORMAT_MARKDOWN ? "\n### %s\n\n" : "\n%s\n",
			        "Cells across runs (per run: the median of the measure named, with "
			        "its exact 95% order-statistic interval; MB/s beside cycles)");
		cb_table_print(out, t, f);
	}
	cb_table_free(t);
}

/* Each label's cells pooled: one row per engine. */
static void print_engines(FILE *out, const struct cb_compare *c, enum cb_report_format f,
                          bool details)
{
	static const char *const h[] = {"engine", "cells", "on", "verdict", "runs differ by [CI]",
	                                "why"};
	struct cb_table *t;
	char buf[512];

	if (!c->n_engine_rows)
		return;
	t = cb_table_new(h, details ? 6 : 5, details ? "lrllrl" : "lrllr");
	for (size_t i = 0; i < c->n_engine_rows; i++) {
		const struct cb_compare_row *row = &c->engine_rows[i];

		cb_table_cell(t, "%s", row->key);
		cb_table_cell(t, "%zu", row->pooled_cells);
		cb_table_cell(t, "%s", cb_compare_measure_name(row->measure));
		cb_table_cell(t, "%s", cb_repro_verdict_name(row->repro.verdict));
		difference_text(c, row, buf, sizeof buf);
		cb_table_cell(t, "%s", buf);
		if (details) {
			rules_text(c, row, buf, sizeof buf);
			cb_table_cell(t, "%s", buf);
		}
	}
	cb_report_heading(out, f,
	                  "Engines across runs (each label's cells pooled: per round the "
	                  "geometric mean of the measure over its cells, weighted by their "
	                  "precision; per run the median over rounds with its exact 95% "
	                  "interval; judged like a cell)");
	cb_table_print(out, t, f);
	cb_table_free(t);
}

static void print_flips(FILE *out, const struct cb_compare *c, enum cb_report_format f)
{
	static const char *const hf[] = {"algorithm",
	                                 "op",
	                                 "size",
	                                 "thr",
	                                 "A",
	                                 "B",
	                                 "A faster (median MB/s)",
	                                 "B faster (median MB/s)"};
	static const char *const hw[] = {"algorithm", "op",        "size", "thr",
	                                 "engines",   "Kendall W", "p"};
	struct cb_table *t;
	char size[32], b[4][32];

	if (c->n_flips) {
		t = cb_table_new(hf, 8, "lllrllll");
		for (size_t i = 0; i < c->n_flips; i++) {
			const struct cb_rank_flip *x = &c->flips[i];

			cb_table_cell(t, "%s", x->a->algorithm);
			cb_table_cell(t, "%s", x->a->op);
			cb_table_cell(t, "%s", cb_format_size(x->a->size, size));
			cb_table_cell(t, "%u", x->a->threads);
			cb_table_cell(t, "%s", x->a->label);
			cb_table_cell(t, "%s", x->b->label);
			cb_table_cell(t, "run %zu: %s vs %s", x->run_a + 1,
			              cb_fmt_num(x->a_in_a, b[0]), cb_fmt_num(x->b_in_a, b[1]));
			cb_table_cell(t, "run %zu: %s vs %s", x->run_b + 1,
			              cb_fmt_num(x->a_in_b, b[2]), cb_fmt_num(x->b_in_b, b[3]));
		}
		if (f == CB_FORMAT_MARKDOWN)
			fprintf(
			    out, "\n### %s\n\n",
			    "Rank flips (the order of two engines differs between runs: which is "
			    "faster is not resolved)");
		else
			fprintf(
			    out,
			    "\nRank flips (the order of two engines differs between runs: which "
			    "is faster\nis not resolved)\n");
		cb_table_print(out, t, f);
		cb_table_free(t);
	}
	if (!c->n_rankings)
		return;
	t = cb_table_new(hw, 7, "lllrrrr");
	for (size_t i = 0; i < c->n_rankings; i++) {
		const struct cb_ranking *x = &c->rankings[i];

		cb_table_cell(t, "%s", x->cell->algorithm);
		cb_table_cell(t, "%s", x->cell->op);
		cb_table_cell(t, "%s", cb_format_size(x->cell->size, size));
		cb_table_cell(t, "%u", x->cell->threads);
		cb_table_cell(t, "%zu", x->engines);
		cb_table_cell(t, "%s", cb_fmt_num(x->w, b[0]));
		cb_table_cell(t, "%s", cb_fmt_num(x->p, b[1]));
	}
	fprintf(out, f == CB_FORMAT_MARKDOWN ? "\n### %s\n\n" : "\n%s\n",
	        "Ranking stability (Kendall's W of the engines' order by median MB/s: 1 = the "
	        "same in every run)");
	cb_table_print(out, t, f);
	cb_table_free(t);
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
	cb_report_wrapped(out, "", line);
	if (c->n_engine_rows) {
		snprintf(line, sizeof line,
		         "engines (each label's cells pooled): %zu reproduced, %zu "
		         "non-reproducible, %zu not resolved",
		         c->engines[CB_REPRO_REPRODUCED], c->engines[CB_REPRO_NON_REPRODUCIBLE],
		         c->engines[CB_REPRO_NOT_RESOLVED]);
		if (f == CB_FORMAT_MARKDOWN)
			fputc('\n', out);
		cb_report_wrapped(out, "", line);
	}
	snprintf(line, sizeof line,
	         "false alarms: Benjamini-Hochberg across the %zu rows of this table, false "
	         "discovery rate %.3g%% (%zu row%s beyond delta alone, not across the table)",
	         c->family, o->repro.alpha * 100, c->family_downgraded,
	         c->family_downgraded == 1 ? "" : "s");
	if (f == CB_FORMAT_MARKDOWN)
		fputc('\n', out);
	cb_report_wrapped(out, "", line);
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

/* ---- CSV: one table, one line per row and run ---- */

const char *const cb_compare_tables[] = {"cells", "derived", "rankings", "flips", NULL};

/* The across-run columns shared by cells and derived metrics. */
static void csv_across(FILE *out, const struct cb_compare *c, const struct cb_compare_row *row)
{
	const struct cb_repro *p = &row->repro;
	bool rep = p->verdict == CB_REPRO_REPRODUCED;
	char why[512];

	cb_csv_text(out, cb_repro_verdict_name(p->verdict));
	cb_csv_num(out, rep ? p->value.value : NAN);
	cb_csv_num(out, rep ? p->value.lo : NAN);
	cb_csv_num(out, rep ? p->value.hi : NAN);
	cb_csv_num(out, row->delta);
	double more[] = {p->spread, p->q, p->q_p, p->i2, p->p_beyond, p->p_within, p->p_adjusted};
	for (size_t k = 0; k < sizeof more / sizeof more[0]; k++)
		cb_csv_num(out, more[k]);
	rules_text(c, row, why, sizeof why);
	cb_csv_text(out, why);
	fputc('\n', out);
}

static void csv_cells(FILE *out, const struct cb_compare *c)
{
	fputs(CB_CSV_KEYS ",n,mb_per_s_median,mb_per_s_median_lo,mb_per_s_median_hi,"
	                  "cycles_per_byte_median,contaminated,measure,estimate,estimate_lo,"
	                  "estimate_hi,level,across_verdict,across,across_lo,across_hi,delta,"
	                  "spread,q,q_p,i2,p_beyond,p_within,p_adjusted,why\n",
	      out);
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct cb_compare_row *row = &c->rows[i];

		if (row->kind != CB_ROW_CELL)
			continue;
		for (size_t r = 0; r < c->k; r++) {
			const struct cb_compare_value *v = &row->runs[r];
			bool p = v->present;

			cb_csv_cell_keys(out, c->files[r]->path, r + 1, row->cell);
			fprintf(out, ",%zu", p ? v->n : 0);
			cb_csv_num(out, p ? v->mbs.value : NAN);
			cb_csv_num(out, p ? v->mbs.lo : NAN);
			cb_csv_num(out, p ? v->mbs.hi : NAN);
			cb_csv_num(out, p && v->have_cycles ? v->cpb.value : NAN);
			fprintf(out, ",%s", p ? (v->contaminated ? "1" : "0") : "");
			cb_csv_text(out, cb_compare_measure_name(row->measure));
			cb_csv_num(out, p ? v->e.value : NAN);
			cb_csv_num(out, p ? v->e.lo : NAN);
			cb_csv_num(out, p ? v->e.hi : NAN);
			cb_csv_num(out, p ? v->level : NAN);
			csv_across(out, c, row);
		}
	}
}

static void csv_derived(FILE *out, const struct cb_compare *c)
{
	fputs("file,run,metric,by,rounds,ratio,ratio_lo,ratio_hi,level,verdict,expected,"
	      "tolerance,expectation,across_expectation,across_verdict,across,across_lo,"
	      "across_hi,delta,spread,q,q_p,i2,p_beyond,p_within,p_adjusted,why\n",
	      out);
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct cb_compare_row *row = &c->rows[i];
		const struct cb_derived *m = row->derived;

		if (row->kind != CB_ROW_DERIVED)
			continue;
		for (size_t r = 0; r < c->k; r++) {
			const struct cb_compare_value *v = &row->runs[r];
			bool p = v->present;

			cb_csv_field(out, c->files[r]->path);
			fprintf(out, ",%zu", r + 1);
			cb_csv_text(out, m->name);
			cb_csv_text(out, m->by);
			fprintf(out, ",%zu", p ? v->n : 0);
			cb_csv_num(out, p ? v->e.value : NAN);
			cb_csv_num(out, p ? v->e.lo : NAN);
			cb_csv_num(out, p ? v->e.hi : NAN);
			cb_csv_num(out, p ? v->level : NAN);
			cb_csv_text(out, p ? cb_ratio_verdict_name(v->verdict) : "");
			cb_csv_num(out, row->has_expect ? m->expect_value : NAN);
			cb_csv_num(out, row->has_expect ? m->expect_tolerance : NAN);
			cb_csv_text(out,
			            v->has_expect ? cb_ratio_expectation_name(v->expectation) : "");
			cb_csv_text(out, row->has_expect
			                     ? cb_ratio_expectation_name(row->expectation)
			                     : "");
			csv_across(out, c, row);
		}
	}
}

static void csv_rankings(FILE *out, const struct cb_compare *c)
{
	fputs("algorithm,op,size,threads,engines,kendall_w,p\n", out);
	for (size_t i = 0; i < c->n_rankings; i++) {
		const struct cb_ranking *x = &c->rankings[i];

		cb_csv_field(out, x->cell->algorithm);
		cb_csv_text(out, x->cell->op);
		fprintf(out, ",%llu,%u,%zu", (unsigned long long)x->cell->size, x->cell->threads,
		        x->engines);
		cb_csv_num(out, x->w);
		cb_csv_num(out, x->p);
		fputc('\n', out);
	}
}

static void csv_flips(FILE *out, const struct cb_compare *c)
{
	fputs("algorithm,op,size,threads,a,b,run_a,a_mb_per_s_in_run_a,b_mb_per_s_in_run_a,run_b,"
	      "a_mb_per_s_in_run_b,b_mb_per_s_in_run_b\n",
	      out);
	for (size_t i = 0; i < c->n_flips; i++) {
		const struct cb_rank_flip *x = &c->flips[i];

		cb_csv_field(out, x->a->algorithm);
		cb_csv_text(out, x->a->op);
		fprintf(out, ",%llu,%u", (unsigned long long)x->a->size, x->a->threads);
		cb_csv_text(out, x->a->label);
		cb_csv_text(out, x->b->label);
		fprintf(out, ",%zu", x->run_a + 1);
		cb_csv_num(out, x->a_in_a);
		cb_csv_num(out, x->b_in_a);
		fprintf(out, ",%zu", x->run_b + 1);
		cb_csv_num(out, x->a_in_b);
		cb_csv_num(out, x->b_in_b);
		fputc('\n', out);
	}
}

static void print_csv(FILE *out, const struct cb_compare *c, const char *table)
{
	static void (*const writers[])(FILE *, const struct cb_compare *) = {
	    csv_cells, csv_derived, csv_rankings, csv_flips};
	int t = table ? cb_report_table_index(cb_compare_tables, table) : 0;

	writers[t < 0 ? 0 : t](out, c);
}

/* ---- JSON ---- */

static json_t *test_json(const struct cb_compare *c, const struct cb_compare_row *row)
{
	const struct cb_repro *p = &row->repro;
	char why[512];

	rules_text(c, row, why, sizeof why);
	return json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:s}", "measure",
	                 cb_compare_measure_name(row->measure), "delta", NUM(row->delta),
	                 "p_beyond", NUM(p->p_beyond), "p_within", NUM(p->p_within), "p_adjusted",
	                 NUM(p->p_adjusted), "pair",
	                 isnan(p->pair.ratio) ? json_null()
	                                      : json_pack("{s:[I, I], s:o, s:o, s:o}", "runs",
	                                                  (json_int_t)row->run_of[p->pair_a] + 1,
	                                                  (json_int_t)row->run_of[p->pair_b] + 1,
	                                                  "ratio", NUM(p->pair.ratio), "lo",
	                                                  NUM(p->pair.lo), "hi", NUM(p->pair.hi)),
	                 "why", why);
}

static json_t *row_json(const struct cb_compare *c, const struct cb_compare_row *row)
{
	const struct cb_repro *p = &row->repro;
	json_t *o = json_object(), *runs = json_array();

	json_object_set_new(o, "key", json_string(row->key));
	if (row->kind == CB_ROW_CELL) {
		json_object_set_new(o, "cell", json_incref(row->cell->json));
	} else if (row->kind == CB_ROW_ENGINE) {
		json_object_set_new(o, "engine", json_string(row->cell->engine));
		json_object_set_new(o, "label", json_string(row->cell->label));
		json_object_set_new(o, "cells", json_integer((json_int_t)row->pooled_cells));
	} else {
		json_object_set_new(o, "metric", json_string(row->derived->name));
		json_object_set_new(o, "by", json_incref(row->derived->by_json));
	}
	for (size_t r = 0; r < c->k; r++) {
		const struct cb_compare_value *v = &row->runs[r];
		json_t *x;

		if (!v->present) {
			json_array_append_new(
			    runs, json_pack("{s:I, s:b}", "run", (json_int_t)r + 1, "present", 0));
			continue;
		}
		x = json_pack("{s:I, s:s, s:b, s:o, s:o, s:o, s:I, s:o, s:s}", "run",
		              (json_int_t)r + 1, "file", c->files[r]->path, "present", 1, "value",
		              NUM(v->e.value), "lo", NUM(v->e.lo), "hi", NUM(v->e.hi), "n",
		              (json_int_t)v->n, "level", NUM(v->level), "method",
		              row->kind == CB_ROW_CELL ? "median, order-statistic interval"
		              : row->kind == CB_ROW_ENGINE
		                  ? "median over rounds of the cells' precision-weighted geometric "
		                    "mean, order-statistic interval"
		                  : "exp(median per-round log ratio), exact sign-test interval");
		if (row->kind == CB_ROW_CELL) {
			json_object_set_new(x, "contaminated", json_boolean(v->contaminated));
			json_object_set_new(x, "mbs",
			                    json_pack("{s:o, s:o, s:o}", "value", NUM(v->mbs.value),
			                              "lo", NUM(v->mbs.lo), "hi", NUM(v->mbs.hi)));
		} else if (row->kind == CB_ROW_DERIVED)
			json_object_set_new(x, "verdict",
			                    json_string(cb_ratio_verdict_name(v->verdict)));
		if (v->has_expect)
			json_object_set_new(x, "expectation",
			                    json_string(cb_ratio_expectation_name(v->expectation)));
		json_array_append_new(runs, x);
	}
	json_object_set_new(o, "runs", runs);
	json_object_set_new(o, "verdict", json_string(cb_repro_verdict_name(p->verdict)));
	json_object_set_new(o, "test", test_json(c, row));
	json_object_set_new(o, "statistics",
	                    json_pack("{s:I, s:o, s:o, s:o, s:o}", "runs", (json_int_t)p->k,
	                              "spread", NUM(p->spread), "cochran_q", NUM(p->q),
	                              "cochran_q_p", NUM(p->q_p), "i2", NUM(p->i2)));
	json_object_set_new(o, "across_runs",
	                    json_pack("{s:s, s:o, s:o, s:o, s:o, s:b}", "method",
	                              "geometric mean of run estimates, t-interval on k-1 df",
	                              "value", NUM(p->value.value), "lo", NUM(p->value.lo), "hi",
	                              NUM(p->value.hi), "level", NUM(c->options.repro.level),
	                              "headline", p->verdict == CB_REPRO_REPRODUCED));
	if (row->has_expect)
		json_object_set_new(o, "expectation",
		                    json_pack("{s:o, s:o, s:s, s:I, s:I, s:I}", "value",
		                              NUM(row->derived->expect_value), "tolerance",
		                              NUM(row->derived->expect_tolerance), "verdict",
		                              cb_ratio_expectation_name(row->expectation),
		                              "consistent_runs", (json_int_t)row->expect_consistent,
		                              "inconsistent_runs",
		                              (json_int_t)row->expect_inconsistent, "runs",
		                              (json_int_t)row->expect_runs));
	return o;
}

json_t *cb_report_compare_json(const struct cb_compare *c)
{
	const struct cb_repro_options *o = &c->options.repro;
	json_t *j = json_object(), *runs = json_array(), *cells = json_array(), *der = json_array();
	json_t *flips = json_array(), *ranks = json_array(), *notes = json_array();
	json_t *engines = json_array();

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
	for (size_t i = 0; i < c->n_rows; i++)
		json_array_append_new(c->rows[i].kind == CB_ROW_CELL ? cells : der,
		                      row_json(c, &c->rows[i]));
	for (size_t i = 0; i < c->n_flips; i++) {
		const struct cb_rank_flip *x = &c->flips[i];

		json_array_append_new(
		    flips,
		    json_pack("{s:s, s:s, s:{s:I, s:o, s:o}, s:{s:I, s:o, s:o}}", "a", x->a->key,
		              "b", x->b->key, "a_faster", "run", (json_int_t)x->run_a + 1, "a",
		              NUM(x->a_in_a), "b", NUM(x->b_in_a), "b_faster", "run",
		              (json_int_t)x->run_b + 1, "a", NUM(x->a_in_b), "b", NUM(x->b_in_b)));
	}
	for (size_t i = 0; i < c->n_rankings; i++) {
		const struct cb_ranking *x = &c->rankings[i];

		json_array_append_new(ranks,
		                      json_pack("{s:s, s:s, s:I, s:I, s:I, s:o, s:o}", "algorithm",
		                                x->cell->algorithm, "op", x->cell->op, "size",
		                                (json_int_t)x->cell->size, "threads",
		                                (json_int_t)x->cell->threads, "engines",
		                                (json_int_t)x->engines, "kendall_w", NUM(x->w), "p",
		                                NUM(x->p)));
	}
	for (size_t i = 0; i < c->n_notes; i++)
		json_array_append_new(notes, json_string(c->notes[i]));
	json_object_set_new(j, "cells", cells);
	json_object_set_new(j, "derived", der);
	for (size_t i = 0; i < c->n_engine_rows; i++)
		json_array_append_new(engines, row_json(c, &c->engine_rows[i]));
	json_object_set_new(j, "engines", engines);
	json_object_set_new(j, "rank_flips", flips);
	json_object_set_new(j, "rankings", ranks);
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
	if (details) {
		print_rows(out, c, CB_ROW_DERIVED, f);
		print_rows(out, c, CB_ROW_CELL, f);
	} else {
		print_rows_compact(out, c, CB_ROW_DERIVED, f);
		print_rows_compact(out, c, CB_ROW_CELL, f);
	}
	print_engines(out, c, f, details);
	print_flips(out, c, f);
	print_totals(out, c, f);
}
