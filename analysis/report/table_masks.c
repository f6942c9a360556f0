/* table_masks.c: capability masks, one row per masked cell of a run (each
 * variant with env against the same engine without it: verdicts/masks.h),
 * the report's section on them and their JSON (tables.h). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "analysis/report/report.h"
#include "analysis/report/tables.h"
#include "analysis/verdicts/analysis.h"
#include "analysis/verdicts/masks.h"
#include "core/base/units.h"

/* ---- Words ---- */

static const char *cell_verdict_name(enum cb_margin_verdict v)
{
	return v == CB_MARGIN_BEYOND   ? "beyond delta"
	       : v == CB_MARGIN_WITHIN ? "within delta"
	                               : "not resolved";
}

/* What the masked feature is worth to cell C of mask M, in words. */
static void worth(const struct cb_mask *m, const struct cb_mask_cell *c, char *buf, size_t len)
{
	if (m->verdict != CB_MASK_HONOURED)
		snprintf(buf, len, "withheld: the mask is not shown honoured");
	else if (c->verdict == CB_MARGIN_BEYOND && c->beyond.value < 1)
		snprintf(buf, len, "%.3gx (masked runs at %.3g%% of the speed)",
		         1.0 / c->beyond.value, c->beyond.value * 100);
	else if (c->verdict == CB_MARGIN_BEYOND)
		snprintf(buf, len, "%.3gx: faster masked", 1.0 / c->beyond.value);
	else if (c->verdict == CB_MARGIN_WITHIN)
		snprintf(buf, len, "nothing here (within delta)");
	else
		snprintf(buf, len, "not resolved");
}

/* The mask's verdict in one line: "honoured: aes-128-cbc encrypt 1MiB
 * 0.236x [0.230, 0.241] (98.3% interval)", "ignored: ...". */
static void verdict_line(const struct cb_masks *ms, const struct cb_mask *m, char *buf, size_t len)
{
	char name[256], iv[80];

	if (m->verdict == CB_MASK_HONOURED) {
		const struct cb_mask_cell *e = m->effect;

		cb_cell_name(e->masked->cell, name);
		snprintf(buf, len,
		         "honoured: %s %.4gx %s masked/unmasked (%.3g%% interval), %zu of %zu "
		         "cells beyond delta %.3g%%",
		         name, e->beyond.value,
		         cb_fmt_interval(e->beyond.ci.lo, e->beyond.ci.hi, iv),
		         e->beyond.ci.level * 100, m->n_beyond, m->n_cells, ms->delta * 100);
	} else if (m->verdict == CB_MASK_IGNORED) {
		snprintf(buf, len,
		         "ignored: every one of %zu cells within delta %.3g%% (%.3g%% intervals "
		         "inside [%.4g, %.4g]); nothing follows about the feature it masks",
		         m->n_cells, ms->delta * 100, (1 - 2 * ms->alpha) * 100,
		         1 / (1 + ms->delta), 1 + ms->delta);
	} else {
		snprintf(buf, len, "not resolved: %s; what it masks is not concluded", m->why);
	}
}

/* ---- Report section ---- */

/* The feature's worth to C in a word or two, for the table. */
static void worth_short(const struct cb_mask *m, const struct cb_mask_cell *c, char *buf,
                        size_t len)
{
	if (m->verdict != CB_MASK_HONOURED)
		snprintf(buf, len, "withheld");
	else if (c->verdict == CB_MARGIN_BEYOND)
		snprintf(buf, len, "%.3gx", 1.0 / c->beyond.value);
	else if (c->verdict == CB_MARGIN_WITHIN)
		snprintf(buf, len, "nothing");
	else
		snprintf(buf, len, "not resolved");
}

/* ---- The rows: one per mask and cell; a mask without a cell has one row,
 * its cell columns empty ---- */

#define NO_CELL SIZE_MAX

static void rows(const void *source, cb_table_emit *emit, void *arg)
{
	const struct cb_masks *ms = ((const struct cb_analysis *)source)->masks;

	for (size_t i = 0; ms && i < ms->n; i++) {
		for (size_t k = 0; k < ms->masks[i].n_cells; k++)
			emit(arg, &ms->masks[i], k);
		if (!ms->masks[i].n_cells)
			emit(arg, &ms->masks[i], NO_CELL);
	}
}

static const struct cb_masks *masks_of(const struct cb_row *r)
{
	return ((const struct cb_analysis *)r->source)->masks;
}

static const struct cb_mask_cell *cell_of(const struct cb_row *r)
{
	const struct cb_mask *m = r->item;

	return r->sub < m->n_cells ? &m->cells[r->sub] : NULL;
}

static bool no_cell(const struct cb_row *r)
{
	return !cell_of(r);
}

/* The interval that decided: the Bonferroni one for a cell beyond delta,
 * the 90% one otherwise. */
static const struct cb_ratio *shown(const struct cb_mask_cell *c)
{
	return c->verdict == CB_MARGIN_BEYOND ? &c->beyond : &c->within;
}

static json_t *ratio_json(const struct cb_ratio *r)
{
	return json_pack("{s:o, s:o, s:o, s:f, s:o, s:s}", "value", cb_report_json_number(r->value),
	                 "lo", cb_report_json_number(r->ci.lo), "hi",
	                 cb_report_json_number(r->ci.hi), "level", r->ci.level, "coverage",
	                 cb_report_json_number(r->ci.coverage), "method",
	                 r->ci.method ? r->ci.method : "exact sign test");
}

#define MASK(fn, ...) CB_GET(fn, struct cb_mask, m, __VA_ARGS__)
/* A figure of the row's cell: missing without one (or, with IF, unless IF). */
#define CELL_IF(fn, cond, ...)                                                                     \
	MASK(fn, const struct cb_mask_cell *c = cell_of(r); if (!c || !(cond)) v->missing = true;  \
	     else __VA_ARGS__)
#define CELL(fn, ...) CELL_IF(fn, true, __VA_ARGS__)
#define RATIO(fn, ...) CELL_IF(fn, c->ok, __VA_ARGS__)

CB_GET(file, struct cb_mask, m,
       cb_value_text(v, ((const struct cb_analysis *)r->source)->results->path))
CB_GET(run, struct cb_mask, m, cb_value_int(v, (long long)r->run))
MASK(label, cb_value_text(v, m->label))
MASK(engine, cb_value_text(v, m->engine))
MASK(env, cb_value_text(v, m->env_text))
MASK(env_object, v->j = json_incref(m->env))
MASK(reference, cb_value_text(v, m->reference))
MASK(process, if (!m->reference) v->missing = true;
     else cb_value_text(v, m->other_process ? "cryptobench's own" : "a process of its own"))
MASK(mask_verdict, cb_value_text(v, cb_mask_verdict_name(m->verdict)))
MASK(summary, verdict_line(masks_of(r), m, v->buf, sizeof v->buf); cb_value_text(v, v->buf))
MASK(delta, cb_value_num(v, masks_of(r)->delta))
MASK(alpha, cb_value_num(v, masks_of(r)->alpha))
MASK(cells_beyond, cb_value_int(v, (long long)m->n_beyond))
MASK(cells_within, cb_value_int(v, (long long)m->n_within))
MASK(effect, if (!m->effect) v->missing = true;
     else v->j = json_pack("{s:s, s:o}", "cell", m->effect->masked->cell->key, "ratio",
                           ratio_json(&m->effect->beyond)))
MASK(cells, v->j = json_array())
CELL(algorithm, cb_value_text(v, c->masked->cell->algorithm))
CELL(op, cb_value_text(v, c->masked->cell->op))
CELL(size, cb_value_int(v, (long long)c->masked->cell->size))
CELL(threads, cb_value_int(v, (long long)c->masked->cell->threads))
CELL(cell, cb_value_text(v, c->masked->cell->key))
CELL(reference_cell, cb_value_text(v, c->reference->cell->key))
CELL(ok, cb_value_bool(v, c->ok))
CELL_IF(rounds_needed, c->rounds_needed, cb_value_int(v, (long long)c->rounds_needed))
RATIO(rounds, cb_value_int(v, (long long)c->beyond.n))
RATIO(measure, cb_value_text(v, cb_measure_names[c->measure]))
RATIO(ratio, cb_value_num(v, c->beyond.value))
RATIO(ratio_lo, cb_value_num(v, c->beyond.ci.lo))
RATIO(ratio_hi, cb_value_num(v, c->beyond.ci.hi))
RATIO(ratio_level, cb_value_num(v, c->beyond.ci.level))
RATIO(ratio_coverage, cb_value_num(v, c->beyond.ci.coverage))
RATIO(within_value, cb_value_num(v, c->within.value))
RATIO(within_lo, cb_value_num(v, c->within.ci.lo))
RATIO(within_hi, cb_value_num(v, c->within.ci.hi))
RATIO(within_level, cb_value_num(v, c->within.ci.level))
RATIO(within_coverage, cb_value_num(v, c->within.ci.coverage))
RATIO(method, cb_value_text(v, c->beyond.ci.method ? c->beyond.ci.method : "exact sign test"))
CELL(verdict, cb_value_text(v, cell_verdict_name(c->verdict)))
CELL_IF(why, c->why[0], cb_value_text(v, c->why))
CELL(worth_text, worth(m, c, v->buf, sizeof v->buf); cb_value_text(v, v->buf))

/* ---- The code that ran: the masks joined with the profiles (masks.h),
 * where the run has profile lines ---- */

#define JOINED(fn, ...) MASK(fn, if (!masks_of(r)->joined) v->missing = true; else __VA_ARGS__)
#define CODE_IF(fn, cond, ...) CELL_IF(fn, masks_of(r)->joined && (cond), __VA_ARGS__)
#define CODE(fn, ...) CODE_IF(fn, true, __VA_ARGS__)

static void clears_text(const struct cb_mask *m, char *buf, size_t len)
{
	cb_attribution_classes_text(m->clears, buf, len);
	if (!buf[0])
		snprintf(buf, len, "none known");
}

JOINED(clears, clears_text(m, v->buf, sizeof v->buf); cb_value_text(v, v->buf))
JOINED(code_agrees, cb_value_int(v, (long long)m->n_agrees))
JOINED(code_disagrees, cb_value_int(v, (long long)m->n_disagrees))
JOINED(code_no_profile, cb_value_int(v, (long long)m->n_no_profile))
JOINED(code_not_judged, cb_value_int(v, (long long)m->n_not_judged))
CODE(agreement, cb_value_text(v, cb_mask_agreement_name(c->code.agreement)))
CODE(code_why, cb_value_text(v, c->code.why))
CODE_IF(ref_samples, c->code.reference.what, cb_value_int(v, (long long)c->code.reference.samples))
CODE_IF(ref_share, c->code.reference.what, cb_value_num(v, c->code.reference.share))
CODE_IF(ref_lo, c->code.reference.what, cb_value_num(v, c->code.reference.lo))
CODE_IF(ref_hi, c->code.reference.what, cb_value_num(v, c->code.reference.hi))
CODE_IF(masked_samples, c->code.masked.what, cb_value_int(v, (long long)c->code.masked.samples))
CODE_IF(masked_share, c->code.masked.what, cb_value_num(v, c->code.masked.share))
CODE_IF(masked_lo, c->code.masked.what, cb_value_num(v, c->code.masked.lo))
CODE_IF(masked_hi, c->code.masked.what, cb_value_num(v, c->code.masked.hi))

#define WHY_KEY "in JSON within cells[].cell, the masked cell's key"
#define WHY_ONCE "the same in every row of the interval, in JSON only"

static const struct cb_column columns[] = {
    {"file", CB_COL_TEXT, NULL, file, CB_CSV, NULL, CB_WHY_FILE, NULL},
    {"run", CB_COL_INT, NULL, run, CB_CSV, NULL, CB_WHY_RUN, NULL},
    {"mask", CB_COL_TEXT, NULL, label, CB_CSV_JSON, "label", NULL, NULL},
    {"engine", CB_COL_TEXT, NULL, engine, CB_CSV_JSON, "engine", NULL, NULL},
    {"env", CB_COL_TEXT, NULL, env, CB_CSV, NULL,
     "the variables as NAME=value words: JSON's env is their object (env_object)", NULL},
    {"env_object", CB_COL_OBJECT, NULL, env_object, CB_JSON, "env",
     "the variables' object: CSV's env spells them", NULL},
    {"reference", CB_COL_TEXT, NULL, reference, CB_CSV_JSON, "reference", NULL, NULL},
    {"reference_process", CB_COL_TEXT, NULL, process, CB_CSV_JSON, "reference_process", NULL, NULL},
    {"mask_verdict", CB_COL_TEXT, NULL, mask_verdict, CB_CSV_JSON, "verdict", NULL, NULL},
    {"summary", CB_COL_TEXT, NULL, summary, CB_CSV_JSON, "summary", NULL, NULL},
    {"delta", CB_COL_NUM, NULL, delta, CB_CSV_JSON, "delta", NULL, NULL},
    {"alpha", CB_COL_NUM, NULL, alpha, CB_CSV_JSON, "alpha", NULL, NULL},
    {"cells_beyond", CB_COL_INT, NULL, cells_beyond, CB_CSV_JSON, "cells_beyond", NULL, NULL},
    {"cells_within", CB_COL_INT, NULL, cells_within, CB_CSV_JSON, "cells_within", NULL, NULL},
    {"effect", CB_COL_OBJECT, NULL, effect, CB_JSON, "effect",
     "the honoured mask's clearest cell and its ratio: that cell's row in CSV", NULL},
    {"cells", CB_COL_OBJECT, NULL, cells, CB_JSON, "cells",
     "the array the cell columns fill (empty for a mask without a cell)", NULL},
    {"algorithm", CB_COL_TEXT, NULL, algorithm, CB_CSV, NULL, WHY_KEY, NULL},
    {"op", CB_COL_TEXT, NULL, op, CB_CSV, NULL, WHY_KEY, NULL},
    {"size", CB_COL_INT, "bytes", size, CB_CSV, NULL, WHY_KEY, NULL},
    {"threads", CB_COL_INT, NULL, threads, CB_CSV, NULL, WHY_KEY, NULL},
    {"cell", CB_COL_TEXT, NULL, cell, CB_CSV_JSON, "cells[].cell", NULL, NULL},
    {"reference_cell", CB_COL_TEXT, NULL, reference_cell, CB_CSV_JSON, "cells[].reference_cell",
     NULL, NULL},
    {"ok", CB_COL_BOOL, NULL, ok, CB_CSV_JSON, "cells[].ok", NULL, NULL},
    {"rounds_needed", CB_COL_INT, NULL, rounds_needed, CB_CSV_JSON, "cells[].rounds_needed", NULL,
     NULL},
    {"rounds", CB_COL_INT, NULL, rounds, CB_CSV_JSON, "cells[].rounds", NULL, NULL},
    {"measure", CB_COL_TEXT, NULL, measure, CB_CSV_JSON, "cells[].throughput", NULL, NULL},
    {"ratio", CB_COL_NUM, NULL, ratio, CB_CSV_JSON, "cells[].ratio", NULL, NULL},
    {"beyond_value", CB_COL_NUM, NULL, ratio, CB_JSON, "cells[].beyond_interval.value",
     "the ratio again, within its interval's object", NULL},
    {"ratio_lo", CB_COL_NUM, NULL, ratio_lo, CB_CSV_JSON, "cells[].beyond_interval.lo", NULL, NULL},
    {"ratio_hi", CB_COL_NUM, NULL, ratio_hi, CB_CSV_JSON, "cells[].beyond_interval.hi", NULL, NULL},
    {"ratio_level", CB_COL_NUM, NULL, ratio_level, CB_CSV_JSON, "cells[].beyond_interval.level",
     NULL, NULL},
    {"beyond_coverage", CB_COL_NUM, NULL, ratio_coverage, CB_JSON,
     "cells[].beyond_interval.coverage", "the interval's exact coverage, in JSON only", NULL},
    {"beyond_method", CB_COL_TEXT, NULL, method, CB_JSON, "cells[].beyond_interval.method",
     WHY_ONCE, NULL},
    {"within_value", CB_COL_NUM, NULL, within_value, CB_JSON, "cells[].within_interval.value",
     "the ratio again, within its interval's object", NULL},
    {"within_lo", CB_COL_NUM, NULL, within_lo, CB_CSV_JSON, "cells[].within_interval.lo", NULL,
     NULL},
    {"within_hi", CB_COL_NUM, NULL, within_hi, CB_CSV_JSON, "cells[].within_interval.hi", NULL,
     NULL},
    {"within_level", CB_COL_NUM, NULL, within_level, CB_CSV_JSON, "cells[].within_interval.level",
     NULL, NULL},
    {"within_coverage", CB_COL_NUM, NULL, within_coverage, CB_JSON,
     "cells[].within_interval.coverage", "the interval's exact coverage, in JSON only", NULL},
    {"within_method", CB_COL_TEXT, NULL, method, CB_JSON, "cells[].within_interval.method",
     WHY_ONCE, NULL},
    {"verdict", CB_COL_TEXT, NULL, verdict, CB_CSV_JSON, "cells[].verdict", NULL, NULL},
    {"why", CB_COL_TEXT, NULL, why, CB_CSV_JSON, "cells[].why", NULL, NULL},
    {"feature_worth", CB_COL_TEXT, NULL, worth_text, CB_CSV_JSON, "cells[].feature_worth", NULL,
     NULL},
    {"clears", CB_COL_TEXT, NULL, clears, CB_CSV_JSON, "clears", NULL, NULL},
    {"code_agrees", CB_COL_INT, NULL, code_agrees, CB_CSV_JSON, "code.agrees", NULL, NULL},
    {"code_disagrees", CB_COL_INT, NULL, code_disagrees, CB_CSV_JSON, "code.disagrees", NULL, NULL},
    {"code_no_profile", CB_COL_INT, NULL, code_no_profile, CB_CSV_JSON, "code.no_profile", NULL,
     NULL},
    {"code_not_judged", CB_COL_INT, NULL, code_not_judged, CB_CSV_JSON, "code.not_judged", NULL,
     NULL},
    {"code_agreement", CB_COL_TEXT, NULL, agreement, CB_CSV_JSON, "cells[].code.agreement", NULL,
     NULL},
    {"code_why", CB_COL_TEXT, NULL, code_why, CB_CSV_JSON, "cells[].code.why", NULL, NULL},
    {"reference_class_samples", CB_COL_INT, NULL, ref_samples, CB_CSV_JSON,
     "cells[].code.reference.samples", NULL, NULL},
    {"reference_class_share", CB_COL_NUM, NULL, ref_share, CB_CSV_JSON,
     "cells[].code.reference.share", NULL, NULL},
    {"reference_class_lo", CB_COL_NUM, NULL, ref_lo, CB_CSV_JSON, "cells[].code.reference.lo", NULL,
     NULL},
    {"reference_class_hi", CB_COL_NUM, NULL, ref_hi, CB_CSV_JSON, "cells[].code.reference.hi", NULL,
     NULL},
    {"masked_class_samples", CB_COL_INT, NULL, masked_samples, CB_CSV_JSON,
     "cells[].code.masked.samples", NULL, NULL},
    {"masked_class_share", CB_COL_NUM, NULL, masked_share, CB_CSV_JSON, "cells[].code.masked.share",
     NULL, NULL},
    {"masked_class_lo", CB_COL_NUM, NULL, masked_lo, CB_CSV_JSON, "cells[].code.masked.lo", NULL,
     NULL},
    {"masked_class_hi", CB_COL_NUM, NULL, masked_hi, CB_CSV_JSON, "cells[].code.masked.hi", NULL,
     NULL},
};

/* ---- Text ---- */

static void text_size(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_result_cell *cell = cell_of(r)->masked->cell;
	char size[32];

	if (cell->threads > 1)
		snprintf(buf, len, "%s x%u", cb_format_size(cell->size, size), cell->threads);
	else
		snprintf(buf, len, "%s", cb_format_size(cell->size, size));
}

static void text_interval(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_mask_cell *c = cell_of(r);
	const struct cb_ratio *s = shown(c);
	char b[80];

	if (c->ok && s->ci.available)
		snprintf(buf, len, "%s %.3g%%", cb_fmt_interval(s->ci.lo, s->ci.hi, b),
		         s->ci.level * 100);
	else
		snprintf(buf, len, "-");
}

static void text_measure(const struct cb_row *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s", cb_measure_short[cell_of(r)->measure]);
}

static void text_verdict(const struct cb_row *r, char *buf, size_t len)
{
	enum cb_margin_verdict v = cell_of(r)->verdict;

	snprintf(buf, len, "%s",
	         v == CB_MARGIN_BEYOND   ? "beyond"
	         : v == CB_MARGIN_WITHIN ? "within"
	                                 : "not resolved");
}

static void text_worth(const struct cb_row *r, char *buf, size_t len)
{
	worth_short(r->item, cell_of(r), buf, len);
}

/* A side's share of code with the cleared classes: "96.2%", with its
 * interval under --details and in Markdown. */
static void share_text(const struct cb_row *r, const struct cb_attribution_share *s, char *buf,
                       size_t len)
{
	if (!s->what)
		snprintf(buf, len, "-");
	else if (r->o->details || r->o->format == CB_FORMAT_MARKDOWN)
		snprintf(buf, len, "%.1f%% [%.1f, %.1f]", s->share * 100, s->lo * 100, s->hi * 100);
	else
		snprintf(buf, len, "%.1f%%", s->share * 100);
}

static void text_reference_share(const struct cb_row *r, char *buf, size_t len)
{
	share_text(r, &cell_of(r)->code.reference, buf, len);
}

static void text_masked_share(const struct cb_row *r, char *buf, size_t len)
{
	share_text(r, &cell_of(r)->code.masked, buf, len);
}

static const struct cb_text_column text[] = {
    {"mask", 'l', 0, 0, "mask", CB_SHOW_VALUE, NULL, NULL, false},
    {"algorithm", 'l', 0, 0, "algorithm", CB_SHOW_VALUE, NULL, NULL, false},
    {"op", 'l', 0, 0, "op", CB_SHOW_VALUE, NULL, NULL, false},
    {"size", 'r', 0, 0, NULL, CB_SHOW_VALUE, text_size, "size threads", false},
    {"ratio", 'r', 0, 0, "ratio", CB_SHOW_VALUE, NULL, NULL, false},
    {"interval", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_interval,
     "ratio_lo ratio_hi ratio_level beyond delta, else within_lo within_hi within_level", false},
    {"measure", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_measure, "measure, in short", false},
    {"cell", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_verdict, "verdict, in a word", false},
    {"feature worth", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_worth, "feature_worth, in short", false},
};

/* The second view: the code that ran, beside the timing (a run with
 * profile lines only: cb_masks_print). */
static const struct cb_text_column code_text[] = {
    {"mask", 'l', 0, 0, "mask", CB_SHOW_VALUE, NULL, NULL, false},
    {"algorithm", 'l', 0, 0, "algorithm", CB_SHOW_VALUE, NULL, NULL, false},
    {"op", 'l', 0, 0, "op", CB_SHOW_VALUE, NULL, NULL, false},
    {"size", 'r', 0, 0, NULL, CB_SHOW_VALUE, text_size, "size threads", false},
    {"clears", 'l', 0, 0, "clears", CB_SHOW_VALUE, NULL, NULL, false},
    {"timing", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_verdict, "verdict, in a word", false},
    {"reference", 'r', 0, 0, NULL, CB_SHOW_VALUE, text_reference_share,
     "reference_class_share reference_class_lo reference_class_hi", false},
    {"masked", 'r', 0, 0, NULL, CB_SHOW_VALUE, text_masked_share,
     "masked_class_share masked_class_lo masked_class_hi", false},
    {"code", 'l', 0, 0, "code_agreement", CB_SHOW_VALUE, NULL, NULL, false},
};

const struct cb_table_def cb_table_masks = {
    .name = "masks",
    .about = "one row per run, capability mask and cell: masked throughput over unmasked, "
             "paired by round, the cell's and the mask's verdicts; with profile lines, the "
             "share of code with the classes the mask clears and whether it agrees",
    .json_rows = "masks",
    .rows = rows,
    .json_order = "label engine env reference verdict summary delta alpha cells_beyond "
                  "cells_within reference_process effect clears code cells",
    .columns = columns,
    .n_columns = CB_N(columns),
    .text = {text, CB_N(text), no_cell, false},
    .text2 = {code_text, CB_N(code_text), no_cell, false},
};

/* ---- The report's section ---- */

/* The mask's code join in one line: "openssl-no-shani (clears sha-ni): the
 * profiles agree with the timing in 2 of 3 cells, DISAGREE in 1". */
static void code_line(const struct cb_mask *m, char *buf, size_t len)
{
	char classes[160];
	size_t used;

	clears_text(m, classes, sizeof classes);
	used =
	    (size_t)snprintf(buf, len,
	                     "%s (clears %s%s%s): the profiles agree with the timing in %zu of "
	                     "%zu cells",
	                     m->label, classes, m->unknown_variables[0] ? "; not known here: " : "",
	                     m->unknown_variables, m->n_agrees, m->n_cells);
	if (m->n_disagrees && used < len)
		used +=
		    (size_t)snprintf(buf + used, len - used, ", DISAGREE in %zu", m->n_disagrees);
	if (m->n_no_profile && used < len)
		used += (size_t)snprintf(buf + used, len - used, ", no profile in %zu",
		                         m->n_no_profile);
	if (m->n_not_judged && used < len)
		snprintf(buf + used, len - used, ", not judged in %zu", m->n_not_judged);
}

/* A cell whose profiles do not agree with its timing, and why: every
 * disagreement is said in words, never left to a table's cell. */
static void cell_line(const struct cb_mask *m, const struct cb_mask_cell *c, char *buf, size_t len)
{
	const struct cb_mask_code *k = &c->code;
	char name[256];

	cb_cell_name(c->masked->cell, name);
	if (k->reference.what && k->masked.what)
		snprintf(buf, len,
		         "%s: %s: %s (timing %s; code with the cleared classes: %.1f%% [%.1f, "
		         "%.1f] of %s's samples, %.1f%% [%.1f, %.1f] of %s's)",
		         name, cb_mask_agreement_name(k->agreement), k->why,
		         cell_verdict_name(c->verdict), k->reference.share * 100,
		         k->reference.lo * 100, k->reference.hi * 100, m->reference,
		         k->masked.share * 100, k->masked.lo * 100, k->masked.hi * 100, m->label);
	else
		snprintf(buf, len, "%s: %s: %s", name, cb_mask_agreement_name(k->agreement),
		         k->why);
}

/* The masks joined with the profiles: the table, one line per mask, and
 * one per cell that does not agree. */
static void print_code(FILE *out, const struct cb_analysis *a, const struct cb_table_options *o)
{
	const struct cb_masks *ms = a->masks;
	const char *mark = o->format == CB_FORMAT_HTML ? NULL : "- ";
	struct cb_table *t = cb_table_text(&cb_table_masks, 1, a, o);
	char line[1024];

	cb_table_name(t, "masks-code"); /* the page's second table of masks */

	cb_report_heading(
	    out, o->format,
	    "Capability masks and the code that ran (profiled trials: reference and masked, the "
	    "share of samples in functions whose code holds a class the mask clears, 95% exact "
	    "intervals with --details; the profiles agree with the timing when the cell is "
	    "beyond delta and that share fell, intervals apart, or within delta and the share "
	    "is the same)");
	if (cb_table_rows(t))
		cb_table_print(out, t, o->format);
	cb_table_free(t);
	if (o->format == CB_FORMAT_MARKDOWN)
		fputc('\n', out); /* a list after a table */
	for (size_t i = 0; i < ms->n; i++) {
		const struct cb_mask *m = &ms->masks[i];

		if (!m->n_cells)
			continue;
		code_line(m, line, sizeof line);
		cb_report_wrapped(out, mark, line);
		for (size_t k = 0; k < m->n_cells; k++)
			if (m->cells[k].code.agreement != CB_MASK_AGREES) {
				cell_line(m, &m->cells[k], line, sizeof line);
				cb_report_wrapped(out, mark ? "  - " : NULL, line);
			}
	}
}

void cb_masks_print(FILE *out, const struct cb_analysis *a, const struct cb_table_options *o)
{
	const struct cb_masks *ms = a->masks;
	enum cb_report_format f = o->format;
	char title[1024];
	struct cb_table *t;

	if (!ms || ms->n == 0)
		return;
	t = cb_table_text(&cb_table_masks, 0, a, o);
	snprintf(title, sizeof title,
	         "Capability masks (each variant with env against the same engine without it, "
	         "in a process of its own when there is such a variant (env = {}): "
	         "throughput masked/unmasked per cell, paired by round, in bytes per cycle, "
	         "else MB/s of CPU time, else MB/s; beyond: the 1-%.2g/k "
	         "interval, k the mask's cells, outside [%.4g, %.4g] (delta %.3g%%); within: the "
	         "%.3g%% interval inside it; the feature's worth is 1/ratio, stated only for an "
	         "honoured mask)",
	         ms->alpha, 1 / (1 + ms->delta), 1 + ms->delta, ms->delta * 100,
	         (1 - 2 * ms->alpha) * 100);
	cb_report_heading(out, f, title);
	if (cb_table_rows(t))
		cb_table_print(out, t, f);
	cb_table_free(t);
	fputc('\n', out);
	for (size_t i = 0; i < ms->n; i++) {
		const struct cb_mask *m = &ms->masks[i];
		char line[1024], full[1600];

		verdict_line(ms, m, line, sizeof line);
		snprintf(full, sizeof full, "%s (%s) against %s%s: %s", m->label, m->env_text,
		         m->reference ? m->reference : "-",
		         m->other_process ? " (in cryptobench's own process)" : "", line);
		cb_report_wrapped(out, f == CB_FORMAT_HTML ? NULL : "- ", full);
	}
	if (ms->joined)
		print_code(out, a, o);
}

json_t *cb_masks_json(const struct cb_analysis *a, const struct cb_table_options *o)
{
	if (!a->masks || a->masks->n == 0)
		return NULL;
	return cb_table_json(&cb_table_masks, a, 1, o);
}
