/* report_baseline.c: runs against a baseline, printed (baseline.h): each
 * run's table (table_baseline.c), its notes, the summary lines. */
#include "analysis/report/report.h"

#include <math.h>
#include <string.h>

#include "analysis/report/table_baseline.h"
#include "core/base/units.h"

#define NUM cb_report_json_number

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

void cb_report_baseline_table(FILE *out, enum cb_report_format f, const char *title,
                              struct cb_table *t, const struct cb_baseline *b)
{
	cb_report_heading(out, f, title);
	cb_table_print(out, t, f);
	cb_table_free(t);
	for (size_t i = 0; i < b->n_notes; i++) {
		char line[1200];

		snprintf(line, sizeof line, "note: %s", b->notes[i]);
		cb_report_wrapped(out, cb_report_mark(f), line);
	}
}

void cb_report_baseline_measure(const struct cb_baseline *b, bool on, char *buf, size_t len)
{
	if (on || !b->n_rows)
		snprintf(buf, len, "the measure of column 'on'");
	else
		snprintf(buf, len, "median %s",
		         b->rows[0].measure == CB_MEASURE_MBS ? "MB/s" : "cycles per byte");
}

static void print_table(FILE *out, const struct cb_baseline *b, size_t index,
                        enum cb_report_format f)
{
	struct cb_table_options to = {.format = f};
	bool on = cb_tb_conditions(b) & CB_IF_MEASURES;
	char title[1024], measure[64];

	cb_report_baseline_measure(b, on, measure, sizeof measure);
	snprintf(title, sizeof title,
	         "B%zu = %s against A = the baseline %s (speed ratio on %s, %.0f%% interval; "
	         "verdicts against delta %.3g%%%s)",
	         index + 1, b->other->results->path, b->base->results->path, measure,
	         (1 - b->alpha) * 100, b->n_rows ? b->rows[0].delta * 100 : NAN,
	         on ? " on cycles, more on MB/s" : "");
	cb_report_baseline_table(out, f, title, cb_table_text(&cb_table_baseline, 0, b, &to), b);
	if (b->only_base || b->only_other) {
		char line[256];

		snprintf(line, sizeof line,
		         "note: %zu cell%s only in the baseline, %zu only in B%zu (not compared)",
		         b->only_base, b->only_base == 1 ? "" : "s", b->only_other, index + 1);
		cb_report_wrapped(out, cb_report_mark(f), line);
	}
}

static void print_csv(FILE *out, struct cb_baseline *const *bs, size_t n)
{
	struct cb_table_options to = {.format = CB_FORMAT_CSV};

	cb_table_csv_header(out, &cb_table_baseline);
	for (size_t k = 0; k < n; k++)
		cb_table_csv_rows(out, &cb_table_baseline, bs[k], k + 1, &to);
}

static json_t *estimate_json(const struct cb_estimate *e)
{
	return json_pack("{s:o, s:o, s:o}", "value", NUM(e->value), "lo", NUM(e->lo), "hi",
	                 NUM(e->hi));
}

json_t *cb_report_baseline_json(const struct cb_baseline *b)
{
	struct cb_table_options to = {.format = CB_FORMAT_JSON};
	json_t *cells = cb_table_json(&cb_table_baseline, b, 1, &to);
	json_t *pools = json_object(), *notes = json_array();
	char line[1024];

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
