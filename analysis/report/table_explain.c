/* table_explain.c: which code ran, one row per profiled cell of a run: its
 * top function, where the time stops, the extensions of its hot code, the
 * runtime's share and the profiled trials' cost (verdicts/attribution.h,
 * tables.h). Cells whose profiles were all refused have no row: the report
 * says why once. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/report/report.h"
#include "analysis/report/tables.h"
#include "analysis/verdicts/analysis.h"
#include "analysis/verdicts/attribution.h"
#include "core/base/units.h"

#define CELL(fn, ...) CB_GET(fn, struct cb_attribution_cell, c, __VA_ARGS__)

static void rows(const void *source, cb_table_emit *emit, void *arg)
{
	const struct cb_attribution *e = ((const struct cb_analysis *)source)->attribution;

	for (size_t i = 0; e && i < e->n_cells; i++)
		if (e->cells[i].trials)
			emit(arg, &e->cells[i], 0);
}

/* The runtime's and the library's shares are a worker's question: the
 * samples of a process of its own (ptrace), not of cryptobench's. */
static bool own_process(const struct cb_attribution_cell *c)
{
	return c->sampler && strcmp(c->sampler, "ptrace") == 0;
}

static json_t *share_json(const struct cb_attribution_share *s)
{
	return json_pack("{s:I, s:o, s:o, s:o}", "samples", (json_int_t)s->samples, "share",
	                 cb_report_json_number(s->share), "lo", cb_report_json_number(s->lo), "hi",
	                 cb_report_json_number(s->hi));
}

/* {class: {samples, share, lo, hi}}, most samples first. */
static json_t *classes_json(const struct cb_attribution_share *parts, size_t n)
{
	json_t *o = json_object();

	for (size_t i = 0; i < n; i++)
		json_object_set_new(o, parts[i].what, share_json(&parts[i]));
	return o;
}

static json_t *functions_json(const struct cb_attribution_cell *c)
{
	json_t *a = json_array();
	char classes[256];

	for (size_t i = 0; i < c->n_functions && i < CB_ATTRIBUTION_TOP; i++) {
		const struct cb_attribution_function *f = &c->functions[i];
		json_t *o = share_json(&f->part);

		cb_attribution_classes_text(f->present, classes, sizeof classes);
		json_object_set_new(o, "name", json_string(f->name));
		json_object_set_new(o, "object", json_string(f->object));
		json_object_set_new(o, "offset", json_integer((json_int_t)f->offset));
		json_object_set_new(o, "side", json_string(cb_attribution_side_name(f->side)));
		json_object_set_new(o, "present", f->decoded ? json_string(classes) : json_null());
		json_array_append_new(a, o);
	}
	return a;
}

CB_GET(file, struct cb_attribution_cell, c,
       cb_value_text(v, ((const struct cb_analysis *)r->source)->results->path))
CB_GET(run, struct cb_attribution_cell, c, cb_value_int(v, (long long)r->run))
CB_KEY_GETTERS(k, struct cb_attribution_cell, c, c)
CELL(sampler, cb_value_text(v, c->sampler))
CELL(trials, cb_value_int(v, (long long)c->trials))
CELL(samples, cb_value_int(v, (long long)c->samples))
#define TOP(fn, expr) CELL(fn, if (!c->n_functions) v->missing = true; else expr)
TOP(top_function, cb_value_text(v, c->functions[0].name))
TOP(top_side, cb_value_text(v, cb_attribution_side_name(c->functions[0].side)))
TOP(top_share, cb_value_num(v, c->functions[0].part.share))
TOP(top_lo, cb_value_num(v, c->functions[0].part.lo))
TOP(top_hi, cb_value_num(v, c->functions[0].part.hi))
#define STOPS(fn, expr) CELL(fn, if (!c->n_before) v->missing = true; else expr)
STOPS(stops_at, cb_value_text(v, c->before[0].what))
STOPS(stops_share, cb_value_num(v, c->before[0].share))
STOPS(stops_lo, cb_value_num(v, c->before[0].lo))
STOPS(stops_hi, cb_value_num(v, c->before[0].hi))
CELL(
    present, if (!c->present_known) v->missing = true; else {
	    cb_attribution_classes_text(c->present, v->buf, sizeof v->buf);
	    cb_value_text(v, v->buf);
    })
#define SIDE(fn, side, field)                                                                      \
	CELL(fn, if (!own_process(c)) v->missing = true; else cb_value_num(v, c->sides[side].field))
SIDE(runtime_share, CB_SIDE_RUNTIME, share)
SIDE(runtime_lo, CB_SIDE_RUNTIME, lo)
SIDE(runtime_hi, CB_SIDE_RUNTIME, hi)
SIDE(library_share, CB_SIDE_LIBRARY, share)
SIDE(library_lo, CB_SIDE_LIBRARY, lo)
SIDE(library_hi, CB_SIDE_LIBRARY, hi)
CELL(cost, if (isnan(c->cost)) v->missing = true; else cb_value_num(v, c->cost))
CELL(degraded, if (!c->degraded) v->missing = true; else cb_value_text(v, c->degraded))
CELL(functions, v->j = functions_json(c))
CELL(before, v->j = classes_json(c->before, c->n_before))
CELL(at, v->j = classes_json(c->at, c->n_at))

#define WHY_WHOLE "every function and class with its share, whole in JSON; CSV has the first"
static const struct cb_column columns[] = {
    {"file", CB_COL_TEXT, NULL, file, CB_CSV, NULL, CB_WHY_FILE, NULL},
    {"run", CB_COL_INT, NULL, run, CB_CSV, NULL, CB_WHY_RUN, NULL},
    CB_KEY_COLUMNS(k, ""),
    {"sampler", CB_COL_TEXT, NULL, sampler, CB_CSV_JSON, "sampler", NULL, NULL},
    {"trials", CB_COL_INT, NULL, trials, CB_CSV_JSON, "trials", NULL, NULL},
    {"samples", CB_COL_INT, NULL, samples, CB_CSV_JSON, "samples", NULL, NULL},
    {"top_function", CB_COL_TEXT, NULL, top_function, CB_CSV_JSON, "top_function.name", NULL, NULL},
    {"top_function_side", CB_COL_TEXT, NULL, top_side, CB_CSV_JSON, "top_function.side", NULL,
     NULL},
    {"top_function_share", CB_COL_NUM, NULL, top_share, CB_CSV_JSON, "top_function.share", NULL,
     NULL},
    {"top_function_share_lo", CB_COL_NUM, NULL, top_lo, CB_CSV_JSON, "top_function.lo", NULL, NULL},
    {"top_function_share_hi", CB_COL_NUM, NULL, top_hi, CB_CSV_JSON, "top_function.hi", NULL, NULL},
    {"stops_at", CB_COL_TEXT, NULL, stops_at, CB_CSV_JSON, "stops_at.class", NULL, NULL},
    {"stops_at_share", CB_COL_NUM, NULL, stops_share, CB_CSV_JSON, "stops_at.share", NULL, NULL},
    {"stops_at_share_lo", CB_COL_NUM, NULL, stops_lo, CB_CSV_JSON, "stops_at.lo", NULL, NULL},
    {"stops_at_share_hi", CB_COL_NUM, NULL, stops_hi, CB_CSV_JSON, "stops_at.hi", NULL, NULL},
    {"present", CB_COL_TEXT, NULL, present, CB_CSV_JSON, "present", NULL, NULL},
    {"runtime_share", CB_COL_NUM, NULL, runtime_share, CB_CSV_JSON, "runtime.share", NULL, NULL},
    {"runtime_share_lo", CB_COL_NUM, NULL, runtime_lo, CB_CSV_JSON, "runtime.lo", NULL, NULL},
    {"runtime_share_hi", CB_COL_NUM, NULL, runtime_hi, CB_CSV_JSON, "runtime.hi", NULL, NULL},
    {"library_share", CB_COL_NUM, NULL, library_share, CB_CSV_JSON, "library.share", NULL, NULL},
    {"library_share_lo", CB_COL_NUM, NULL, library_lo, CB_CSV_JSON, "library.lo", NULL, NULL},
    {"library_share_hi", CB_COL_NUM, NULL, library_hi, CB_CSV_JSON, "library.hi", NULL, NULL},
    {"cost", CB_COL_NUM, NULL, cost, CB_CSV_JSON, "cost", NULL, NULL},
    {"degraded", CB_COL_TEXT, NULL, degraded, CB_CSV_JSON, "degraded", NULL, NULL},
    {"functions", CB_COL_OBJECT, NULL, functions, CB_JSON, "functions", WHY_WHOLE, NULL},
    {"classes_before", CB_COL_OBJECT, NULL, before, CB_JSON, "classes_before", WHY_WHOLE, NULL},
    {"classes", CB_COL_OBJECT, NULL, at, CB_JSON, "classes", WHY_WHOLE, NULL},
};

/* ---- Text ---- */

/* "97.1%", with " [96.3, 97.8]" (percent) when INTERVAL. */
static void share_text(const struct cb_attribution_share *s, bool interval, char *buf, size_t len)
{
	if (isnan(s->share))
		snprintf(buf, len, "-");
	else if (interval)
		snprintf(buf, len, "%.1f%% [%.1f, %.1f]", s->share * 100, s->lo * 100, s->hi * 100);
	else
		snprintf(buf, len, "%.1f%%", s->share * 100);
}

static bool details(const struct cb_row *r)
{
	return r->o->details || r->o->format == CB_FORMAT_MARKDOWN;
}

static void text_top(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_attribution_cell *c = r->item;

	if (!c->n_functions)
		snprintf(buf, len, "-");
	else
		share_text(&c->functions[0].part, details(r), buf, len);
}

static void text_stops(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_attribution_cell *c = r->item;
	char share[80];

	if (!c->n_before) {
		snprintf(buf, len, "-");
		return;
	}
	share_text(&c->before[0], details(r), share, sizeof share);
	snprintf(buf, len, "%s %s", c->before[0].what, share);
}

/* The hot code's notable extensions ("sha-ni"), or all its classes with
 * details; "none" when it has no notable one, "-" when not decoded. */
static void text_present(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_attribution_cell *c = r->item;
	uint32_t notable = 0;

	if (!c->present_known) {
		snprintf(buf, len, "-");
		return;
	}
	for (int x = 0; cb_attribution_extensions[x]; x++)
		for (int k = 0; cb_attribution_classes[k]; k++)
			if (strcmp(cb_attribution_classes[k], cb_attribution_extensions[x]) == 0)
				notable |= 1u << k;
	cb_attribution_classes_text(details(r) ? c->present : c->present & notable, buf, len);
	if (!buf[0])
		snprintf(buf, len, "none");
}

static void text_runtime(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_attribution_cell *c = r->item;

	if (!own_process(c))
		snprintf(buf, len, "-");
	else
		share_text(&c->sides[CB_SIDE_RUNTIME], details(r), buf, len);
}

/* Within 100 columns the function's name has no room: the brief text names
 * the top functions in a list below the table (cb_report_explain). */
static const struct cb_text_column text[] = {
    CB_KEY_TEXT(CB_IF_THREADS),
    {"samples", 'r', CB_IF_DETAILS, 0, "samples", CB_SHOW_VALUE, NULL, NULL, false},
    {"top function", 'l', CB_IF_DETAILS, 0, "top_function", CB_SHOW_VALUE, NULL, NULL, false},
    {"top function", 'l', CB_IF_MARKDOWN, CB_IF_DETAILS, "top_function", CB_SHOW_VALUE, NULL, NULL,
     false},
    {"top share", 'r', 0, 0, NULL, CB_SHOW_VALUE, text_top,
     "top_function_share top_function_share_lo top_function_share_hi, the interval with "
     "details",
     false},
    {"time stops at", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_stops,
     "stops_at stops_at_share stops_at_share_lo stops_at_share_hi", false},
    {"hot code has", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_present,
     "present, its notable extensions (every class with details)", false},
    {"runtime", 'r', 0, 0, NULL, CB_SHOW_VALUE, text_runtime,
     "runtime_share runtime_share_lo runtime_share_hi", false},
    {"cost", 'r', 0, 0, "cost", CB_SHOW_VALUE, NULL, NULL, false},
};

static unsigned conditions(const void *source, const struct cb_table_options *o)
{
	const struct cb_attribution *e = ((const struct cb_analysis *)source)->attribution;

	(void)o;
	for (size_t i = 1; e && i < e->n_cells; i++)
		if (e->cells[i].threads != e->cells[0].threads)
			return CB_IF_THREADS;
	return 0;
}

const struct cb_table_def cb_table_explain = {
    .name = "explain",
    .about = "one row per profiled cell of a run (run --explain): its top function and "
             "share of samples, the class where the time stops, the extensions of its hot "
             "code, the runtime's share (workers) and the profiled trials' cost",
    .json_rows = "explain.cells",
    .rows = rows,
    .conditions = conditions,
    .json_order = "engine label algorithm op size threads sampler trials samples top_function "
                  "stops_at present runtime library cost degraded functions classes_before "
                  "classes",
    .columns = columns,
    .n_columns = CB_N(columns),
    .text = {text, CB_N(text), NULL, false},
};

/* ---- Report section ---- */

/* Each profiled cell's top functions (up to three, 1% of its samples or
 * more), one line each: what the brief table has no room for. */
static void print_top_functions(FILE *out, const struct cb_attribution *e, enum cb_report_format f)
{
	char line[2048], size[32];

	for (size_t i = 0; i < e->n_cells; i++) {
		const struct cb_attribution_cell *c = &e->cells[i];
		size_t used;

		if (!c->trials || !c->n_functions)
			continue;
		used = (size_t)snprintf(line, sizeof line, "%s %s %s %s", c->label, c->algorithm,
		                        c->op, cb_format_size((size_t)c->size, size));
		if (c->threads > 1)
			used += (size_t)snprintf(line + used, sizeof line - used, " %u threads",
			                         c->threads);
		used += (size_t)snprintf(line + used, sizeof line - used, ":");
		for (size_t k = 0; k < c->n_functions && k < 3 && used < sizeof line; k++) {
			const struct cb_attribution_function *fn = &c->functions[k];

			if (k > 0 && fn->part.share < 0.01)
				break;
			used += (size_t)snprintf(line + used, sizeof line - used, "%s %s %.1f%%",
			                         k ? "," : "", fn->name, fn->part.share * 100);
		}
		cb_report_wrapped(out, cb_report_mark(f), line);
	}
}

void cb_report_explain(FILE *out, const struct cb_analysis *a, const struct cb_table_options *o)
{
	const struct cb_attribution *e = a->attribution;
	/* The brief text names the functions below its table, and gives
	 * intervals only with --details; Markdown has room for both. */
	bool brief = !o->details && o->format != CB_FORMAT_MARKDOWN;
	struct cb_table *t;
	bool shown = false;
	char title[1024], line[1024];

	if (!e->lines)
		return;
	if ((t = cb_table_text(&cb_table_explain, 0, a, o)) && cb_table_rows(t)) {
		shown = true;
		snprintf(
		    title, sizeof title,
		    "Which code ran (profiled trials, kept apart from the timed ones: samples "
		    "of the program counter; top share: of the cell's samples in its top "
		    "function%s; time stops at: the class of the instruction before the "
		    "sampled one; hot code has: the %s of functions with 5%% of the samples or "
		    "more; runtime: the share in the runtime's code, workers only; cost: time "
		    "per call profiled over timed; 95%% exact intervals%s)",
		    brief ? ", named below" : "",
		    brief ? "notable extensions" : "instruction-set classes",
		    brief ? " with --details" : "");
		cb_report_heading(out, o->format, title);
		cb_table_print(out, t, o->format);
	}
	cb_table_free(t);
	if (shown && brief)
		print_top_functions(out, e, o->format);
	if ((t = cb_table_text(&cb_table_explain_summary, 0, a, o)) && cb_table_rows(t)) {
		shown = true;
		snprintf(title, sizeof title,
		         "Which engines' hot code holds each extension (share of samples in "
		         "functions whose code holds it%s)",
		         brief ? "; 95% exact intervals with --details" : ", 95% exact interval");
		cb_report_heading(out, o->format, title);
		cb_table_print(out, t, o->format);
	}
	cb_table_free(t);
	for (size_t i = 0; i < e->n_refusals; i++) {
		snprintf(line, sizeof line, "no profile in %zu cell%s: %s", e->refusals[i].cells,
		         e->refusals[i].cells == 1 ? "" : "s", e->refusals[i].reason);
		if (i == 0 && !shown) /* the reason once, not a table of blanks */
			cb_report_heading(out, o->format, "Which code ran");
		else if (i == 0 && o->format == CB_FORMAT_MARKDOWN)
			fputc('\n', out); /* a list after a table */
		cb_report_wrapped(out, cb_report_mark(o->format), line);
	}
}

json_t *cb_report_explain_json(const struct cb_analysis *a, const struct cb_table_options *o)
{
	const struct cb_attribution *e = a->attribution;
	json_t *refused = json_array();

	for (size_t i = 0; i < e->n_refusals; i++)
		json_array_append_new(refused,
		                      json_pack("{s:s, s:I}", "reason", e->refusals[i].reason,
		                                "cells", (json_int_t)e->refusals[i].cells));
	return json_pack("{s:o, s:o, s:o}", "cells", cb_table_json(&cb_table_explain, a, 1, o),
	                 "summary", cb_table_json(&cb_table_explain_summary, a, 1, o), "refused",
	                 refused);
}
