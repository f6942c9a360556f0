/* masks.c: capability masks judged honoured, ignored or not resolved
 * (masks.h), and their section of the report. */
#include "analysis/masks.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "core/errbuf.h"
#include "core/units.h"

#define MASK_ALPHA 0.05

const char *cb_mask_verdict_name(enum cb_mask_verdict v)
{
	switch (v) {
	case CB_MASK_HONOURED:
		return "honoured";
	case CB_MASK_IGNORED:
		return "ignored";
	case CB_MASK_NOT_RESOLVED:
		break;
	}
	return "not resolved";
}

/* ---- Which variants are masks, and against what ---- */

static json_t *variants_of(const struct cb_analysis *a)
{
	return json_object_get(json_object_get(a->results->header, "scenario"), "engines");
}

static bool has_env(json_t *v)
{
	return json_object_size(json_object_get(v, "env")) > 0;
}

/* R can stand for M without its environment: the same engine, run the same
 * way (mode, reuse, chunk, options), and no env. */
static bool reference_for(json_t *m, json_t *r)
{
	static const char *const same[] = {"engine", "mode", "reuse", "chunk", "options"};

	if (has_env(r))
		return false;
	for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
		json_t *x = json_object_get(m, same[i]), *y = json_object_get(r, same[i]);

		if (!(x == y || (x && y && json_equal(x, y))))
			return false;
	}
	return true;
}

static void env_text(json_t *env, char *buf, size_t len)
{
	const char *name;
	json_t *v;
	size_t used = 0;

	buf[0] = '\0';
	json_object_foreach(env, name, v)
	{
		if (used >= len)
			break;
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "", name,
		                         json_string_value(v) ? json_string_value(v) : "?");
	}
}

/* ---- One cell: masked over reference, paired by round ---- */

static int judge_cell(const struct cb_analysis *a, struct cb_mask_cell *c, size_t k, double delta,
                      double alpha)
{
	const struct cb_run_summary *s = a->summary;
	size_t rounds = s->n_rounds;
	double *num = malloc((rounds + 1) * sizeof *num), *den = malloc((rounds + 1) * sizeof *den);
	double upper = 1.0 + delta, lower = 1.0 / (1.0 + delta);
	char why[160];

	if (!num || !den) {
		free(num);
		free(den);
		return -1;
	}
	c->on_cycles = c->masked->have_cycles && c->reference->have_cycles;
	for (size_t r = 0; r < rounds; r++) {
		num[r] = c->on_cycles ? c->masked->round_bpc[r] : c->masked->round_mbs[r];
		den[r] = c->on_cycles ? c->reference->round_bpc[r] : c->reference->round_mbs[r];
	}
	c->ok =
	    cb_ratio_paired(num, den, rounds, 1.0 - alpha / (double)k, &c->beyond, why,
	                    sizeof why) == 0 &&
	    cb_ratio_paired(num, den, rounds, 1.0 - 2.0 * alpha, &c->within, why, sizeof why) == 0;
	free(num);
	free(den);
	c->verdict = CB_MARGIN_NOT_RESOLVED;
	if (!c->ok) {
		snprintf(c->why, sizeof c->why, "%s", why);
		return 0;
	}
	if (!c->beyond.ci.available || !c->within.ci.available) {
		snprintf(c->why, sizeof c->why, "%zu paired rounds: too few for an interval",
		         c->beyond.n);
		return 0;
	}
	if (c->beyond.ci.hi < lower || c->beyond.ci.lo > upper)
		c->verdict = CB_MARGIN_BEYOND;
	else if (c->within.ci.lo >= lower && c->within.ci.hi <= upper)
		c->verdict = CB_MARGIN_WITHIN;
	else
		snprintf(c->why, sizeof c->why,
		         "90%% interval [%.4g, %.4g] not inside [%.4g, %.4g], %.3g%% interval "
		         "[%.4g, %.4g] not outside it",
		         c->within.ci.lo, c->within.ci.hi, lower, upper, c->beyond.ci.level * 100,
		         c->beyond.ci.lo, c->beyond.ci.hi);
	return 0;
}

/* ---- One mask ---- */

/* How wide a cell's 90% interval is on the log scale (infinite without one). */
static double width(const struct cb_mask_cell *c)
{
	return c->ok && c->within.ci.available ? log(c->within.ci.hi / c->within.ci.lo) : INFINITY;
}

static void mask_verdict(struct cb_mask *m, double delta)
{
	double best = 0;
	const struct cb_mask_cell *unresolved = NULL;

	for (size_t i = 0; i < m->n_cells; i++) {
		const struct cb_mask_cell *c = &m->cells[i];

		if (c->verdict == CB_MARGIN_BEYOND) {
			m->n_beyond++;
			if (fabs(c->beyond.log_value) > best) {
				best = fabs(c->beyond.log_value);
				m->effect = c;
			}
		} else if (c->verdict == CB_MARGIN_WITHIN) {
			m->n_within++;
		} else if (!unresolved || width(c) > width(unresolved)) {
			unresolved = c; /* the least resolved cell says why */
		}
	}
	if (!m->reference) {
		m->verdict = CB_MASK_NOT_RESOLVED;
		snprintf(m->why, sizeof m->why,
		         "no variant of %s without env (same mode, reuse, chunk and options) to "
		         "compare with",
		         m->engine);
	} else if (m->own_cells == 0) {
		m->verdict = CB_MASK_NOT_RESOLVED;
		snprintf(m->why, sizeof m->why, "%s has no cell in this run (left out by --only?)",
		         m->label);
	} else if (m->n_cells == 0) {
		m->verdict = CB_MASK_NOT_RESOLVED;
		snprintf(m->why, sizeof m->why, "no cell of %s has a counterpart in %s", m->label,
		         m->reference);
	} else if (m->n_beyond) {
		m->verdict = CB_MASK_HONOURED;
	} else if (m->n_within == m->n_cells) {
		m->verdict = CB_MASK_IGNORED;
	} else {
		char name[256];

		m->verdict = CB_MASK_NOT_RESOLVED;
		cb_report_cell_name(unresolved->masked->cell, name);
		snprintf(
		    m->why, sizeof m->why,
		    "no cell beyond delta %.3g%% and %zu of %zu not shown within it (%s: %s)%s",
		    delta * 100, m->n_cells - m->n_within, m->n_cells, name, unresolved->why,
		    isfinite(width(unresolved)) ? ": more rounds would tell" : "");
	}
}

static int build_mask(const struct cb_analysis *a, struct cb_mask *m, json_t *variant,
                      json_t *variants, double delta, double alpha)
{
	const struct cb_results *r = a->results;
	size_t i;
	json_t *v;

	m->label = json_string_value(json_object_get(variant, "label"));
	m->engine = json_string_value(json_object_get(variant, "engine"));
	m->env = json_object_get(variant, "env");
	env_text(m->env, m->env_text, sizeof m->env_text);
	json_array_foreach(variants, i, v)
	{
		if (v != variant && reference_for(variant, v)) {
			m->reference = json_string_value(json_object_get(v, "label"));
			break;
		}
	}
	m->cells = calloc(r->n_cells ? r->n_cells : 1, sizeof *m->cells);
	if (!m->cells || !m->label || !m->engine)
		return -1;
	for (size_t c = 0; m->reference && c < r->n_cells; c++) {
		const struct cb_result_cell *cell = &r->cells[c];
		char key[512];
		long ref;

		if (strcmp(cell->label, m->label) != 0)
			continue;
		m->own_cells++;
		snprintf(key, sizeof key, "%s|%s|%s|%llu|%u", m->reference, cell->algorithm,
		         cell->op, (unsigned long long)cell->size, cell->threads);
		ref = cb_results_find_cell(r, key);
		if (ref < 0)
			continue;
		m->cells[m->n_cells].masked = &a->summary->cells[c];
		m->cells[m->n_cells++].reference = &a->summary->cells[ref];
	}
	for (size_t c = 0; c < m->n_cells; c++)
		if (judge_cell(a, &m->cells[c], m->n_cells, delta, alpha) != 0)
			return -1;
	mask_verdict(m, delta);
	return 0;
}

struct cb_masks *cb_masks_build(const struct cb_analysis *a, double delta, double alpha, char *err,
                                size_t err_len)
{
	json_t *variants = variants_of(a), *v;
	struct cb_masks *ms;
	size_t i, n = 0;

	if (!(delta > 0) || !(alpha > 0 && alpha < 0.5)) {
		cb_errorf(err, err_len, "masks: delta %g or alpha %g out of range", delta, alpha);
		return NULL;
	}
	json_array_foreach(variants, i, v) n += has_env(v);
	ms = calloc(1, sizeof *ms);
	if (!ms || !(ms->masks = calloc(n ? n : 1, sizeof *ms->masks))) {
		free(ms);
		cb_errorf(err, err_len, "out of memory");
		return NULL;
	}
	ms->delta = delta;
	ms->alpha = alpha;
	json_array_foreach(variants, i, v)
	{
		if (!has_env(v))
			continue;
		if (build_mask(a, &ms->masks[ms->n++], v, variants, delta, alpha) != 0) {
			cb_masks_free(ms);
			cb_errorf(err, err_len, "out of memory");
			return NULL;
		}
	}
	return ms;
}

void cb_masks_free(struct cb_masks *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++)
		free(m->masks[i].cells);
	free(m->masks);
	free(m);
}

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

		cb_report_cell_name(e->masked->cell, name);
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
	static const char *const h[] = {"mask",  "algorithm", "op",   "size",
	                                "ratio", "interval",  "cell", "feature worth"};
	char err[256], title[1024];
	struct cb_masks *ms = cb_masks_build(a, a->options.delta, MASK_ALPHA, err, sizeof err);
	struct cb_table *t;

	if (!ms || ms->n == 0) {
		if (!ms)
			fprintf(out, "\nmasks: %s\n", err);
		cb_masks_free(ms);
		return;
	}
	t = cb_table_new(h, 8, "lllrrlll");
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
			cb_table_cell(t, "%s",
			              c->verdict == CB_MARGIN_BEYOND   ? "beyond"
			              : c->verdict == CB_MARGIN_WITHIN ? "within"
			                                               : "not resolved");
			cb_table_cell(t, "%s", w);
		}
	}
	snprintf(title, sizeof title,
	         "Capability masks (each variant with env against the same engine without it: "
	         "throughput masked/unmasked per cell, paired by round; beyond: the 1-%.2g/k "
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
		snprintf(full, sizeof full, "%s (%s) against %s: %s", m->label, m->env_text,
		         m->reference ? m->reference : "-", line);
		cb_report_wrapped(out, "- ", full);
	}
	cb_masks_free(ms);
}

/* ---- JSON ---- */

static json_t *ratio_json(const struct cb_ratio *r)
{
	return json_pack("{s:o, s:o, s:o, s:f, s:o, s:s}", "value", cb_report_json_number(r->value),
	                 "lo", cb_report_json_number(r->ci.lo), "hi",
	                 cb_report_json_number(r->ci.hi), "level", r->ci.level, "coverage",
	                 cb_report_json_number(r->ci.coverage), "method", "exact sign test");
}

static json_t *cell_json(const struct cb_mask *m, const struct cb_mask_cell *c)
{
	char w[160];
	json_t *o = json_pack("{s:s, s:s, s:b}", "cell", c->masked->cell->key, "reference_cell",
	                      c->reference->cell->key, "ok", c->ok);

	worth(m, c, w, sizeof w);
	if (c->ok) {
		json_object_set_new(o, "rounds", json_integer((json_int_t)c->beyond.n));
		json_object_set_new(o, "throughput",
		                    json_string(c->on_cycles ? "bytes per cycle" : "MB/s"));
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
	char err[256];
	struct cb_masks *ms = cb_masks_build(a, a->options.delta, MASK_ALPHA, err, sizeof err);
	json_t *all;

	if (!ms || ms->n == 0) {
		cb_masks_free(ms);
		return ms ? NULL : json_pack("{s:s}", "error", err);
	}
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
	cb_masks_free(ms);
	return all;
}
