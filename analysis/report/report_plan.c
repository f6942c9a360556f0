/* report_plan.c: compare --plan, what it would take to resolve the table
 * (plan_runs.h), as text, Markdown or JSON.
 *
 * Self-contained: one table of the rows compare left not resolved, then the
 * one plan for the whole table. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>

#include "analysis/report/format.h"
#include "analysis/report/report.h"
#include "analysis/verdicts/plan_runs.h"
#include "core/base/units.h"

static const char *const kind_names[] = {"cell", "derived", "engine"};

/* "9 min", "40 s", "2.1 h"; "-" when unknown. */
static const char *fmt_duration(double s, char buf[32])
{
	if (!(s >= 0.0))
		snprintf(buf, 32, "-");
	else if (s < 120.0)
		snprintf(buf, 32, "%.0f s", s);
	else if (s < 7200.0)
		snprintf(buf, 32, "%.0f min", s / 60.0);
	else
		snprintf(buf, 32, "%.1f h", s / 3600.0);
	return buf;
}

/* A cell row as the compare tables name it: "openssl aes-128-cbc encrypt
 * 16KiB" (and its threads when more than one); other rows by their key. */
static void row_name(const struct cb_compare_row *row, char *buf, size_t len)
{
	const struct cb_result_cell *c = row->cell;
	char size[32];

	if (row->kind != CB_ROW_CELL || !c) {
		snprintf(buf, len, "%s", row->key);
		return;
	}
	cb_format_size((size_t)c->size, size);
	if (c->threads > 1)
		snprintf(buf, len, "%s %s %s %s %u threads", c->label, c->algorithm, c->op, size,
		         c->threads);
	else
		snprintf(buf, len, "%s %s %s %s", c->label, c->algorithm, c->op, size);
}

/* What would resolve ROW, in words. */
static void row_words(const struct cb_runs_plan *p, const struct cb_plan_row *r, char *buf,
                      size_t len)
{
	char t[32];

	switch (r->choice.status) {
	case CB_PLAN_NEEDS:
		snprintf(buf, len, "needs ~ %zu runs of %zu rounds (~ %s%s)", r->choice.runs,
		         r->choice.rounds, fmt_duration(r->choice.seconds, t),
		         p->costs.virtual_clock ? " of virtual time" : " on this machine");
		break;
	case CB_PLAN_UNSURE:
		snprintf(buf, len,
		         "unsure: the pilot's runs cannot bound the between-run spread; at its "
		         "estimates ~ %zu runs of %zu rounds; more pilot runs would tell",
		         r->choice.runs, r->choice.rounds);
		break;
	case CB_PLAN_CANNOT:
		/* The spread is the reason only where it is as large as delta
		 * itself; below it, the plan's limits decided. */
		if (r->choice.spread >= r->row->delta)
			snprintf(buf, len,
			         "cannot be resolved at delta %.3g%%: the between-run spread alone "
			         "is %.2g%%",
			         100.0 * r->row->delta, 100.0 * r->choice.spread);
		else
			snprintf(buf, len,
			         "cannot be resolved at delta %.3g%% within %zu runs of up to %zu "
			         "rounds (between-run spread %.2g%%)",
			         100.0 * r->row->delta, p->options.max_runs, p->options.max_rounds,
			         100.0 * r->choice.spread);
		break;
	default:
		snprintf(buf, len, "no data: too few runs or no run interval");
	}
}

/* The cheapest plan for each number of rows, at most eight of them (the
 * first and the last always): what a smaller or larger budget buys. */
static void print_frontier(FILE *out, const struct cb_runs_plan *p, enum cb_report_format format)
{
	static const char *const headers[] = {"rows", "runs", "rounds", "time"};
	size_t n = p->n_frontier, shown = n < 8 ? n : 8;
	char tbuf[32];

	if (n < 2)
		return;
	struct cb_table *t = cb_table_new(headers, 4, "rrrr");
	if (!t)
		return;
	for (size_t j = 0; j < shown; j++) {
		const struct cb_plan_point *f =
		    &p->frontier[shown > 1 ? j * (n - 1) / (shown - 1) : 0];

		cb_table_cell(t, "%zu", f->rows);
		cb_table_cell(t, "%zu", f->runs);
		cb_table_cell(t, "%zu", f->rounds);
		cb_table_cell(t, "%s", fmt_duration(f->seconds, tbuf));
	}
	fprintf(out, "\nWhat more time buys (the cheapest plan for each number of rows%s):\n\n",
	        isnan(p->expected) ? "" : ", resolved in expectation");
	cb_table_print(out, t, format);
	cb_table_free(t);
}

static void print_table(FILE *out, const struct cb_runs_plan *p, enum cb_report_format format)
{
	static const char *const headers[] = {"row", "kind", "between-run", "plan"};
	struct cb_table *t = cb_table_new(headers, 4, "llrl");
	char words[256], tbuf[32], name[256];

	if (!t)
		return;
	for (size_t i = 0; i < p->n_rows; i++) {
		const struct cb_plan_row *r = &p->rows[i];

		if (r->choice.status == CB_PLAN_RESOLVED)
			continue;
		row_words(p, r, words, sizeof words);
		row_name(r->row, name, sizeof name);
		cb_table_cell(t, "%s", name);
		cb_table_cell(t, "%s", kind_names[r->row->kind]);
		if (isnan(r->choice.spread))
			cb_table_cell(t, "-");
		else
			cb_table_cell(t, "%.2f%%", 100.0 * r->choice.spread);
		cb_table_cell(t, "%s", words);
	}
	fprintf(out,
	        format == CB_FORMAT_MARKDOWN ? "## A plan for runs\n\n" : "A plan for runs\n\n");
	if (cb_table_rows(t))
		cb_table_print(out, t, format);
	fprintf(out,
	        "\n%zu rows not resolved: %zu with a plan, %zu cannot be, %zu unsure (a larger "
	        "pilot would tell), %zu without data.\n",
	        p->status[CB_PLAN_NEEDS] + p->status[CB_PLAN_CANNOT] + p->status[CB_PLAN_UNSURE] +
	            p->status[CB_PLAN_NO_DATA],
	        p->status[CB_PLAN_NEEDS], p->status[CB_PLAN_CANNOT], p->status[CB_PLAN_UNSURE],
	        p->status[CB_PLAN_NO_DATA]);
	if (p->runs && !isnan(p->expected))
		fprintf(
		    out,
		    "The whole table within the budget: %zu runs of %zu rounds (~ %s%s) resolve "
		    "about %.1f of the %zu open rows in expectation, %zu of the %zu planned rows "
		    "with P >= %.0f%%.\n",
		    p->runs, p->rounds, fmt_duration(p->seconds, tbuf),
		    p->costs.virtual_clock ? " of virtual time" : " on this machine", p->expected,
		    p->status[CB_PLAN_NEEDS] + p->status[CB_PLAN_UNSURE], p->covered,
		    p->status[CB_PLAN_NEEDS], 100.0 * p->options.target);
	else if (p->runs)
		fprintf(out,
		        "The whole table: %zu runs of %zu rounds (~ %s%s) resolve %zu of the %zu "
		        "planned rows with P >= %.0f%% (lowest %.0f%%).\n",
		        p->runs, p->rounds, fmt_duration(p->seconds, tbuf),
		        p->costs.virtual_clock ? " of virtual time" : " on this machine",
		        p->covered, p->status[CB_PLAN_NEEDS], 100.0 * p->options.target,
		        100.0 * p->p_min);
	else if (p->status[CB_PLAN_NEEDS])
		fprintf(out,
		        "No one plan within %zu runs of up to %zu rounds resolves a planned row "
		        "with P >= %.0f%%.\n",
		        p->options.max_runs, p->options.max_rounds, 100.0 * p->options.target);
	print_frontier(out, p, format);
	cb_table_free(t);
}

static json_t *num_or_null(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static void print_json(FILE *out, const struct cb_runs_plan *p)
{
	json_t *rows = json_array(), *root = json_object();

	for (size_t i = 0; i < p->n_rows; i++) {
		const struct cb_plan_row *r = &p->rows[i];

		if (r->choice.status == CB_PLAN_RESOLVED)
			continue;
		json_array_append_new(
		    rows, json_pack("{s:s, s:s, s:s, s:o, s:o, s:I, s:I, s:o, s:o}", "row",
		                    r->row->key, "kind", kind_names[r->row->kind], "status",
		                    cb_plan_status_name(r->choice.status), "between_spread",
		                    num_or_null(r->choice.spread), "delta",
		                    num_or_null(r->row->delta), "runs", (json_int_t)r->choice.runs,
		                    "rounds", (json_int_t)r->choice.rounds, "seconds",
		                    num_or_null(r->choice.seconds), "p_resolved",
		                    num_or_null(r->choice.p_reproduced + r->choice.p_beyond)));
		json_object_set_new(json_array_get(rows, json_array_size(rows) - 1),
		                    "in_table_plan", json_boolean(r->in_plan));
	}
	json_t *frontier = json_array();
	for (size_t i = 0; i < p->n_frontier; i++)
		json_array_append_new(frontier,
		                      json_pack("{s:I, s:I, s:I, s:o}", "rows",
		                                (json_int_t)p->frontier[i].rows, "runs",
		                                (json_int_t)p->frontier[i].runs, "rounds",
		                                (json_int_t)p->frontier[i].rounds, "seconds",
		                                num_or_null(p->frontier[i].seconds)));
	json_object_set_new(root, "rows", rows);
	json_object_set_new(root, "target", json_real(p->options.target));
	json_object_set_new(
	    root, "table",
	    json_pack("{s:I, s:I, s:I, s:o, s:o, s:o, s:b}", "runs", (json_int_t)p->runs, "rounds",
	              (json_int_t)p->rounds, "rows", (json_int_t)p->covered, "expected_rows",
	              num_or_null(p->expected), "seconds", num_or_null(p->seconds), "p_min",
	              num_or_null(p->p_min), "virtual_clock", p->costs.virtual_clock));
	json_object_set_new(root, "frontier", frontier);
	json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(root);
}

void cb_report_plan(FILE *out, const struct cb_runs_plan *p, enum cb_report_format format)
{
	if (format == CB_FORMAT_JSON)
		print_json(out, p);
	else
		print_table(out, p, format);
}
