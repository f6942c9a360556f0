/* report_baseline.c: runs against a baseline, printed (baseline.h). */
#include "analysis/report/report.h"

#include <math.h>
#include <string.h>

#include "core/units.h"

#define NUM cb_report_json_number

const char *const cb_baseline_tables[] = {"cells", NULL};

const char *cb_report_baseline_verdict(const struct cb_baseline_row *row)
{
	return row->family ? "not resolved (table)" : cb_ratio_verdict_name(row->verdict);
}

void cb_report_baseline_summary(const struct cb_baseline *b, const char *name, const char *base,
                                char *buf, size_t len)
{
	static const enum cb_ratio_verdict order[] = {CB_RATIO_FASTER, CB_RATIO_SLOWER,
	                                              CB_RATIO_EQUIVALENT, CB_RATIO_NOT_RESOLVED};
	size_t used = 0, total = b->n_rows;
	bool first = true;

#define ADD(...) used += (size_t)snprintf(buf + used, used < len ? len - used : 0, __VA_ARGS__)
	if (total == 0) {
		snprintf(buf, len, "%s and %s have no cell in common", name, base);
		return;
	}
	for (size_t i = 0; i < 4; i++) {
		const struct cb_baseline_pool *p = &b->pools[order[i]];
		char pct[32], lo[32], hi[32];

		if (!p->cells)
			continue;
		if (order[i] == CB_RATIO_FASTER || order[i] == CB_RATIO_SLOWER) {
			bool up = order[i] == CB_RATIO_FASTER;
			double v = up ? p->ratio.value - 1 : 1 - p->ratio.value;
			double l = up ? p->ratio.lo - 1 : 1 - p->ratio.hi;
			double h = up ? p->ratio.hi - 1 : 1 - p->ratio.lo;

			snprintf(pct, sizeof pct, "%.1f%%", v * 100);
			snprintf(lo, sizeof lo, "%.1f", l * 100);
			snprintf(hi, sizeof hi, "%.1f", h * 100);
			if (first)
				ADD("%s is %s [%s, %s] %s than %s on %zu of %zu cells", name, pct,
				    lo, hi, up ? "faster" : "slower", base, p->cells, total);
			else
				ADD(", %s by %s [%s, %s] on %zu", up ? "faster" : "slower", pct, lo,
				    hi, p->cells);
		} else if (order[i] == CB_RATIO_EQUIVALENT) {
			if (first)
				ADD("%s is equivalent to %s on %zu of %zu cells", name, base,
				    p->cells, total);
			else
				ADD(", equivalent on %zu", p->cells);
		} else {
			if (first)
				ADD("%s against %s: not resolved on %zu of %zu cells", name, base,
				    p->cells, total);
			else
				ADD(", not resolved on %zu", p->cells);
		}
		first = false;
	}
#undef ADD
}

static bool uniform_measure(const struct cb_baseline *b)
{
	for (size_t i = 1; i < b->n_rows; i++)
		if (b->rows[i].measure != b->rows[0].measure)
			return false;
	return true;
}

static bool any_threads(const struct cb_baseline *b)
{
	for (size_t i = 1; i < b->n_rows; i++)
		if (b->rows[i].base->cell->threads != b->rows[0].base->cell->threads)
			return true;
	return false;
}

void cb_report_baseline_table(FILE *out, enum cb_report_format f, const char *title,
                              struct cb_table *t, const struct cb_baseline *b)
{
	cb_report_heading(out, f, title);
	cb_table_print(out, t, f);
	cb_table_free(t);
	for (size_t i = 0; i < b->n_notes; i++) {
		char line[1200];

		snprintf(line, sizeof line, "note: %s", b->notes[i]);
		cb_report_wrapped(out, f == CB_FORMAT_MARKDOWN ? "- " : "  ", line);
	}
}

static void print_table(FILE *out, const struct cb_baseline *b, size_t index,
                        enum cb_report_format f)
{
	const char *all[] = {"engine", "algorithm", "op",
	                     "size",   "thr",       "on",
	                     "MB/s A", "MB/s B",    "B/A: change [95% CI]",
	                     "verdict"};
	bool thr = any_threads(b), on = !uniform_measure(b);
	const char *h[10];
	char align[11], title[1024], measure[64];
	size_t n = 0;

	for (size_t i = 0; i < 10; i++) {
		if ((i == 4 && !thr) || (i == 5 && !on))
			continue;
		align[n] = i == 3 || i == 4 || i == 6 || i == 7 ? 'r' : 'l';
		h[n++] = all[i];
	}
	align[n] = '\0';
	struct cb_table *t = cb_table_new(h, n, align);
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct cb_baseline_row *row = &b->rows[i];
		const struct cb_result_cell *c = row->base->cell;
		char x[3][80];

		cb_report_cell_key(t, c, thr);
		if (on)
			cb_table_cell(t, "%s", cb_compare_measure_name(row->measure));
		cb_table_cell(t, "%s", cb_fmt_num(row->base_mbs.value, x[0]));
		cb_table_cell(t, "%s", cb_fmt_num(row->other_mbs.value, x[1]));
		cb_table_cell(
		    t, "%s",
		    cb_fmt_change(row->margin.ratio, row->margin.lo, row->margin.hi, x[2]));
		cb_table_cell(t, "%s", cb_report_baseline_verdict(row));
	}
	if (on || !b->n_rows)
		snprintf(measure, sizeof measure, "the measure of column 'on'");
	else
		snprintf(measure, sizeof measure, "median %s",
		         b->rows[0].measure == CB_MEASURE_MBS ? "MB/s" : "cycles per byte");
	snprintf(title, sizeof title,
	         "B%zu = %s against A = the baseline %s (speed ratio on %s, %.0f%% interval; "
	         "verdicts against delta %.3g%%%s)",
	         index + 1, b->other->results->path, b->base->results->path, measure,
	         (1 - b->alpha) * 100, b->n_rows ? b->rows[0].delta * 100 : NAN,
	         on ? " on cycles, more on MB/s" : "");
	cb_report_baseline_table(out, f, title, t, b);
	if (b->only_base || b->only_other) {
		char line[256];

		snprintf(line, sizeof line,
		         "note: %zu cell%s only in the baseline, %zu only in B%zu (not compared)",
		         b->only_base, b->only_base == 1 ? "" : "s", b->only_other, index + 1);
		cb_report_wrapped(out, f == CB_FORMAT_MARKDOWN ? "- " : "  ", line);
	}
}

static void print_csv(FILE *out, struct cb_baseline *const *bs, size_t n)
{
	fputs(CB_CSV_KEYS ",baseline_file,measure,baseline,baseline_lo,baseline_hi,estimate,"
	                  "estimate_lo,estimate_hi,baseline_mb_per_s_median,mb_per_s_median,ratio,"
	                  "ratio_lo,ratio_hi,delta,verdict,p_beyond,p_within,p_adjusted\n",
	      out);
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < bs[k]->n_rows; i++) {
			cb_csv_cell_keys(out, bs[k]->other->results->path, k + 1,
			                 bs[k]->rows[i].other->cell);
			cb_csv_text(out, bs[k]->base->results->path);
			cb_csv_baseline_row(out, &bs[k]->rows[i]);
			fputc('\n', out);
		}
}

void cb_csv_baseline_row(FILE *out, const struct cb_baseline_row *row)
{
	cb_csv_text(out, cb_compare_measure_name(row->measure));
	double v[] = {row->base_e.value, row->base_e.lo,  row->base_e.hi,      row->other_e.value,
	              row->other_e.lo,   row->other_e.hi, row->base_mbs.value, row->other_mbs.value,
	              row->margin.ratio, row->margin.lo,  row->margin.hi,      row->delta};
	for (size_t j = 0; j < sizeof v / sizeof v[0]; j++)
		cb_csv_num(out, v[j]);
	cb_csv_text(out, cb_report_baseline_verdict(row));
	cb_csv_num(out, row->margin.p_beyond);
	cb_csv_num(out, row->margin.p_within);
	cb_csv_num(out, row->p_adjusted);
}

static json_t *estimate_json(const struct cb_estimate *e)
{
	return json_pack("{s:o, s:o, s:o}", "value", NUM(e->value), "lo", NUM(e->lo), "hi",
	                 NUM(e->hi));
}

json_t *cb_report_baseline_json(const struct cb_baseline *b)
{
	json_t *cells = json_array(), *pools = json_object(), *notes = json_array();
	char line[1024];

	for (size_t i = 0; i < b->n_rows; i++) {
		const struct cb_baseline_row *row = &b->rows[i];

		json_array_append_new(
		    cells,
		    json_pack(
		        "{s:O, s:s, s:o, s:o, s:o, s:o, s:o, s:s, s:b, s:o, s:o, s:o}", "cell",
		        row->other->cell->json, "measure", cb_compare_measure_name(row->measure),
		        "baseline", estimate_json(&row->base_e), "estimate",
		        estimate_json(&row->other_e), "ratio",
		        json_pack("{s:o, s:o, s:o}", "value", NUM(row->margin.ratio), "lo",
		                  NUM(row->margin.lo), "hi", NUM(row->margin.hi)),
		        "mb_per_s_median",
		        json_pack("{s:o, s:o}", "baseline", NUM(row->base_mbs.value), "run",
		                  NUM(row->other_mbs.value)),
		        "delta", NUM(row->delta), "verdict", cb_ratio_verdict_name(row->verdict),
		        "beyond_delta_alone", row->family, "p_beyond", NUM(row->margin.p_beyond),
		        "p_within", NUM(row->margin.p_within), "p_adjusted", NUM(row->p_adjusted)));
	}
	for (int v = 0; v < 4; v++)
		json_object_set_new(pools, cb_ratio_verdict_name((enum cb_ratio_verdict)v),
		                    json_pack("{s:I, s:o}", "cells", (json_int_t)b->pools[v].cells,
		                              "ratio", estimate_json(&b->pools[v].ratio)));
	for (size_t i = 0; i < b->n_notes; i++)
		json_array_append_new(notes, json_string(b->notes[i]));
	cb_report_baseline_summary(b, b->other->results->path, b->base->results->path, line,
	                           sizeof line);
	return json_pack("{s:s, s:s, s:o, s:o, s:s, s:I, s:I, s:o}", "file",
	                 b->other->results->path, "baseline", b->base->results->path, "cells",
	                 cells, "verdicts", pools, "summary", line, "only_in_baseline",
	                 (json_int_t)b->only_base, "only_in_run", (json_int_t)b->only_other,
	                 "notes", notes);
}

void cb_report_baseline_footer(FILE *out, double alpha)
{
	fprintf(out,
	        "\nEach cell's median (cycles per byte where both runs counted cycles on one CPU "
	        "model, else\nMB/s) in each run, with its exact interval; their ratio with a "
	        "%.0f%% interval. faster or\nslower: the interval lies beyond the margin delta, "
	        "also after Benjamini-Hochberg across\nthe table at %.3g%%; equivalent: within "
	        "delta by two one-sided tests; not resolved otherwise.\nA summary's figure pools "
	        "its cells (random effects: the interval widens when they disagree).\n",
	        (1 - alpha) * 100, alpha * 100);
}

void cb_report_baseline(FILE *out, struct cb_baseline *const *bs, size_t n, enum cb_report_format f)
{
	char line[1024];

	if (f == CB_FORMAT_CSV) {
		print_csv(out, bs, n);
		return;
	}
	if (f == CB_FORMAT_JSON) {
		json_t *all = json_array();

		for (size_t i = 0; i < n; i++)
			json_array_append_new(all, cb_report_baseline_json(bs[i]));
		json_dumpf(all, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', out);
		json_decref(all);
		return;
	}
	fprintf(out, "%scompare: %zu run%s against the baseline %s\n",
	        f == CB_FORMAT_MARKDOWN ? "## " : "", n, n == 1 ? "" : "s",
	        n ? bs[0]->base->results->path : "?");
	for (size_t i = 0; i < n; i++)
		print_table(out, bs[i], i, f);
	if (f == CB_FORMAT_MARKDOWN)
		fputs("\n### Summary\n\n", out);
	else
		fputc('\n', out);
	for (size_t i = 0; i < n; i++) {
		cb_report_baseline_summary(bs[i], bs[i]->other->results->path,
		                           bs[i]->base->results->path, line, sizeof line);
		cb_report_wrapped(out, f == CB_FORMAT_MARKDOWN ? "- " : "", line);
	}
	if (f == CB_FORMAT_TEXT)
		cb_report_baseline_footer(out, n ? bs[0]->alpha : 0.05);
}
