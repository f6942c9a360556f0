/* table_explain_summary.c: per algorithm, op and size of a run's profiled
 * cells, one row per notable extension some engine's hot code holds: which
 * engines' hot code holds it (with the share of samples in code that
 * does), which not, and which could not be decoded (verdicts/attribution.h,
 * tables.h). */
#include <stdbool.h>
#include <stdio.h>

#include "analysis/report/report.h"
#include "analysis/report/tables.h"
#include "analysis/verdicts/analysis.h"
#include "analysis/verdicts/attribution.h"

#define ROW(fn, ...) CB_GET(fn, struct cb_attribution_summary, s, __VA_ARGS__)

static void rows(const void *source, cb_table_emit *emit, void *arg)
{
	const struct cb_attribution *e = ((const struct cb_analysis *)source)->attribution;

	for (size_t i = 0; e && i < e->n_summary; i++)
		emit(arg, &e->summary[i], 0);
}

/* Each engine: its label, threads, whether its hot code holds the
 * extension (null: not known) and the share of samples in code that does. */
static json_t *engines_json(const struct cb_attribution_summary *s)
{
	json_t *a = json_array();

	for (size_t i = 0; i < s->n_engines; i++) {
		const struct cb_attribution_engine_use *u = &s->engines[i];

		json_array_append_new(a,
		                      json_pack("{s:s, s:I, s:o, s:I, s:o, s:o, s:o}", "label",
		                                u->label, "threads", (json_int_t)u->threads, "uses",
		                                u->uses < 0 ? json_null() : json_boolean(u->uses),
		                                "samples", (json_int_t)u->part.samples, "share",
		                                cb_report_json_number(u->part.share), "lo",
		                                cb_report_json_number(u->part.lo), "hi",
		                                cb_report_json_number(u->part.hi)));
	}
	return a;
}

CB_GET(file, struct cb_attribution_summary, s,
       cb_value_text(v, ((const struct cb_analysis *)r->source)->results->path))
CB_GET(run, struct cb_attribution_summary, s, cb_value_int(v, (long long)r->run))
ROW(algorithm, cb_value_text(v, s->algorithm))
ROW(op, cb_value_text(v, s->op))
ROW(size, cb_value_int(v, (long long)s->size))
ROW(extension, cb_value_text(v, s->extension))
ROW(uses, cb_value_text(v, s->uses))
ROW(not_used, cb_value_text(v, s->not_used))
ROW(unknown, cb_value_text(v, s->unknown))
ROW(engines, v->j = engines_json(s))

static const struct cb_column columns[] = {
    {"file", CB_COL_TEXT, NULL, file, CB_CSV, NULL, CB_WHY_FILE, NULL},
    {"run", CB_COL_INT, NULL, run, CB_CSV, NULL, CB_WHY_RUN, NULL},
    {"algorithm", CB_COL_TEXT, NULL, algorithm, CB_CSV_JSON, "algorithm", NULL, NULL},
    {"op", CB_COL_TEXT, NULL, op, CB_CSV_JSON, "op", NULL, NULL},
    {"size", CB_COL_INT, "bytes", size, CB_CSV_JSON, "size", NULL, NULL},
    {"extension", CB_COL_TEXT, NULL, extension, CB_CSV_JSON, "extension", NULL, NULL},
    {"in_hot_code_of", CB_COL_TEXT, NULL, uses, CB_CSV_JSON, "in_hot_code_of", NULL, NULL},
    {"not_in_hot_code_of", CB_COL_TEXT, NULL, not_used, CB_CSV_JSON, "not_in_hot_code_of", NULL,
     NULL},
    {"not_known_for", CB_COL_TEXT, NULL, unknown, CB_CSV_JSON, "not_known_for", NULL, NULL},
    {"engines", CB_COL_OBJECT, NULL, engines, CB_JSON, "engines",
     "each engine's answer and share as data, in JSON only; CSV has them in words", NULL},
};

/* The engines whose hot code holds the extension, with their shares (and
 * intervals with --details or in Markdown). */
static void text_uses(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_attribution_summary *s = r->item;
	bool intervals = r->o->details || r->o->format == CB_FORMAT_MARKDOWN;
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < s->n_engines && used < len; i++) {
		const struct cb_attribution_engine_use *u = &s->engines[i];

		if (u->uses <= 0)
			continue;
		used +=
		    (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", u->label);
		if (u->threads > 1 && used < len)
			used +=
			    (size_t)snprintf(buf + used, len - used, " (%u threads)", u->threads);
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, " %.1f%%",
			                         u->part.share * 100);
		if (intervals && used < len)
			used += (size_t)snprintf(buf + used, len - used, " [%.1f, %.1f]",
			                         u->part.lo * 100, u->part.hi * 100);
	}
}

/* Those whose hot code does not hold it, then those not known. */
static void text_not(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_attribution_summary *s = r->item;

	snprintf(buf, len, "%s%s%s%s", s->not_used, s->not_used[0] && s->unknown[0] ? "; " : "",
	         s->unknown[0] ? "not known: " : "", s->unknown);
}

static const struct cb_text_column text[] = {
    {"algorithm", 'l', 0, 0, "algorithm", CB_SHOW_VALUE, NULL, NULL, false},
    {"op", 'l', 0, 0, "op", CB_SHOW_VALUE, NULL, NULL, false},
    {"size", 'r', 0, 0, "size", CB_SHOW_SIZE, NULL, NULL, false},
    {"extension", 'l', 0, 0, "extension", CB_SHOW_VALUE, NULL, NULL, false},
    {"in the hot code of (share of samples there)", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_uses,
     "in_hot_code_of, the intervals with details", false},
    {"not in", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_not, "not_in_hot_code_of, not_known_for",
     false},
};

const struct cb_table_def cb_table_explain_summary = {
    .name = "explain-summary",
    .about = "one row per algorithm, op, size and notable extension (sha-ni, aes-ni, vaes, "
             "pclmul, vpclmulqdq, avx512, avx2) found in a profiled engine's hot code: the "
             "engines whose hot code holds it, those whose code does not, those not known",
    .json_rows = "explain.summary",
    .rows = rows,
    .json_order = "algorithm op size extension in_hot_code_of not_in_hot_code_of "
                  "not_known_for engines",
    .columns = columns,
    .n_columns = CB_N(columns),
    .text = {text, CB_N(text), NULL, false},
};
