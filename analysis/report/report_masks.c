/* report_masks.c: the capability masks' section of the report (text,
 * Markdown) and their JSON, from the masks the analysis built once
 * (verdicts/masks.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/report/report.h"
#include "analysis/verdicts/masks.h"
#include "core/units.h"

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

void cb_masks_print(FILE *out, const struct cb_analysis *a, enum cb_report_format f)
{
	static const char *const h[] = {"mask",     "algorithm", "op",   "size",         "ratio",
	                                "interval", "measure",   "cell", "feature worth"};
	const struct cb_masks *ms = a->masks;
	char title[1024];
	struct cb_table *t;

	if (!ms || ms->n == 0)
		return;
	t = cb_table_new(h, 9, "lllrrllll");
	for (size_t i = 0; i < ms->n; i++) {
		const struct cb_mask *m = &ms->masks[i];

		for (size_t k = 0; k < m->n_cells; k++) {
			const struct cb_mask_cell *c = &m->cells[k];
			const struct cb_result_cell *cell = c->masked->cell;
			/* The interval that decided: the Bonferroni one for a cell
			 * beyond delta, the 90% one otherwise. */
			const struct cb_ratio *shown =
			    c->verdict == CB_MARGIN_BEYOND ? &c->beyond : &c->within;
			char b[2][80], size[32], w[64];

			worth_short(m, c, w, sizeof w);
			cb_table_cell(t, "%s", m->label);
			cb_table_cell(t, "%s", cell->algorithm);
			cb_table_cell(t, "%s", cell->op);
			if (cell->threads > 1)
				cb_table_cell(t, "%s x%u", cb_format_size(cell->size, size),
				              cell->threads);
			else
				cb_table_cell(t, "%s", cb_format_size(cell->size, size));
			cb_table_cell(t, "%s", cb_fmt_num(c->ok ? c->beyond.value : NAN, b[0]));
			if (c->ok && shown->ci.available)
				cb_table_cell(t, "%s %.3g%%",
				              cb_fmt_interval(shown->ci.lo, shown->ci.hi, b[1]),
				              shown->ci.level * 100);
			else
				cb_table_cell(t, "-");
			cb_table_cell(t, "%s", cb_mask_measure_short[c->measure]);
			cb_table_cell(t, "%s",
			              c->verdict == CB_MARGIN_BEYOND   ? "beyond"
			              : c->verdict == CB_MARGIN_WITHIN ? "within"
			                                               : "not resolved");
			cb_table_cell(t, "%s", w);
		}
	}
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
		cb_report_wrapped(out, "- ", full);
	}
}

/* ---- JSON ---- */

static json_t *ratio_json(const struct cb_ratio *r)
{
	return json_pack("{s:o, s:o, s:o, s:f, s:o, s:s}", "value", cb_report_json_number(r->value),
	                 "lo", cb_report_json_number(r->ci.lo), "hi",
	                 cb_report_json_number(r->ci.hi), "level", r->ci.level, "coverage",
	                 cb_report_json_number(r->ci.coverage), "method",
	                 r->ci.method ? r->ci.method : "exact sign test");
}

static json_t *cell_json(const struct cb_mask *m, const struct cb_mask_cell *c)
{
	char w[160];
	json_t *o = json_pack("{s:s, s:s, s:b}", "cell", c->masked->cell->key, "reference_cell",
	                      c->reference->cell->key, "ok", c->ok);

	worth(m, c, w, sizeof w);
	if (c->rounds_needed)
		json_object_set_new(o, "rounds_needed", json_integer((json_int_t)c->rounds_needed));
	if (c->ok) {
		json_object_set_new(o, "rounds", json_integer((json_int_t)c->beyond.n));
		json_object_set_new(o, "throughput",
		                    json_string(cb_mask_measure_names[c->measure]));
		json_object_set_new(o, "ratio", cb_report_json_number(c->beyond.value));
		json_object_set_new(o, "beyond_interval", ratio_json(&c->beyond));
		json_object_set_new(o, "within_interval", ratio_json(&c->within));
	}
	json_object_set_new(o, "verdict", json_string(cell_verdict_name(c->verdict)));
	if (c->why[0])
		json_object_set_new(o, "why", json_string(c->why));
	json_object_set_new(o, "feature_worth", json_string(w));
	return o;
}

json_t *cb_masks_json(const struct cb_analysis *a)
{
	const struct cb_masks *ms = a->masks;
	json_t *all;

	if (!ms || ms->n == 0)
		return NULL;
	all = json_array();
	for (size_t i = 0; i < ms->n; i++) {
		const struct cb_mask *m = &ms->masks[i];
		json_t *cells = json_array(), *o;
		char line[1024];

		verdict_line(ms, m, line, sizeof line);
		o = json_pack("{s:s, s:s, s:O, s:s?, s:s, s:s, s:f, s:f, s:I, s:I}", "label",
		              m->label, "engine", m->engine, "env", m->env, "reference",
		              m->reference, "verdict", cb_mask_verdict_name(m->verdict), "summary",
		              line, "delta", ms->delta, "alpha", ms->alpha, "cells_beyond",
		              (json_int_t)m->n_beyond, "cells_within", (json_int_t)m->n_within);
		if (m->reference)
			json_object_set_new(o, "reference_process",
			                    json_string(m->other_process ? "cryptobench's own"
			                                                 : "a process of its own"));
		if (m->effect)
			json_object_set_new(o, "effect",
			                    json_pack("{s:s, s:o}", "cell",
			                              m->effect->masked->cell->key, "ratio",
			                              ratio_json(&m->effect->beyond)));
		for (size_t k = 0; k < m->n_cells; k++)
			json_array_append_new(cells, cell_json(m, &m->cells[k]));
		json_object_set_new(o, "cells", cells);
		json_array_append_new(all, o);
	}
	return all;
}
