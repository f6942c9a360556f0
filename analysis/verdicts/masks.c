/* masks.c: capability masks judged honoured, ignored or not resolved
 * (masks.h); report/table_masks.c prints them. */
#include "analysis/verdicts/masks.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/verdicts/analysis_data.h"
#include "core/results/results.h"
#include "core/base/errbuf.h"
#include "core/base/units.h"

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

/* How well R can stand for M without its environment: 0 not at all; else the
 * same engine, run the same way (mode, reuse, chunk, options), and no
 * variable set. 2 when R was written with an empty env (`env = {}`, kept in
 * the header's "as_written"; its "env" is always there): like M it runs in a
 * process of its own (a library engine in a `cryptobench worker` child), so
 * the variable is the only difference; 1 when R has no env at all (a library
 * engine then runs in cryptobench's own process: the process differs too). */
static int reference_rank(json_t *m, json_t *r)
{
	static const char *const same[] = {"engine", "mode", "reuse", "chunk", "options"};

	if (has_env(r))
		return 0;
	for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
		json_t *x = json_object_get(m, same[i]), *y = json_object_get(r, same[i]);

		if (!(x == y || (x && y && json_equal(x, y))))
			return 0;
	}
	return json_is_object(json_object_get(json_object_get(r, "as_written"), "env")) ? 2 : 1;
}

/* ENGINE's kind in the run's header ("library", "process"...), or "". */
static const char *engine_kind(const struct cb_analysis *a, const char *engine)
{
	size_t i;
	json_t *e;

	json_array_foreach(json_object_get(a->results->header, "engines"), i, e)
	{
		const char *name = json_string_value(json_object_get(e, "name"));

		if (name && engine && strcmp(name, engine) == 0)
			return json_string_value(json_object_get(e, "kind")) ?: "";
	}
	return "";
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

/* About how many paired rounds would settle a cell left unresolved, were
 * its spread and ratio what they are now: an interval narrows as 1/sqrt(n),
 * so n (half-width / room)^2, the room being how far the ratio lies inside
 * E (for "within") or beyond it (for "beyond"), on the log scale. 0 when the
 * ratio sits on E's edge (no number of rounds would do, or too many). */
static size_t rounds_needed(const struct cb_mask_cell *c, double delta)
{
	double edge = log1p(delta), v = fabs(c->within.log_value), best = INFINITY;
	const struct cb_ratio *r[2] = {&c->within, &c->beyond};

	for (int i = 0; i < 2; i++) {
		double half = log(r[i]->ci.hi / r[i]->ci.lo) / 2;
		double room = i == 0 ? edge - v : fabs(r[i]->log_value) - edge;
		double n = (double)r[i]->n * (half / room) * (half / room);

		if (room > 0 && half > 0 && n < best)
			best = n;
	}
	return best <= 100.0 * (double)c->within.n ? (size_t)ceil(best) : 0;
}

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
	const struct cb_cell_summary *pair[2] = {c->masked, c->reference};

	c->measure = cb_measure_choose(a, pair, 2);
	c->on_cycles = c->measure == CB_MEASURE_CYCLES;
	if (cb_measure_rounds(a, c->masked, c->measure, num) != 0 ||
	    cb_measure_rounds(a, c->reference, c->measure, den) != 0) {
		free(num);
		free(den);
		return -1;
	}
	unsigned how = cb_summary_ratio_how(a->summary, c->on_cycles, pair, 2);
	c->ok = cb_ratio_paired_by(num, den, rounds, 1.0 - alpha / (double)k, how, &c->beyond, why,
	                           sizeof why) == 0 &&
	        cb_ratio_paired_by(num, den, rounds, 1.0 - 2.0 * alpha, how, &c->within, why,
	                           sizeof why) == 0;
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
	else {
		snprintf(c->why, sizeof c->why,
		         "90%% interval [%.4g, %.4g] not inside [%.4g, %.4g], %.3g%% interval "
		         "[%.4g, %.4g] not outside it",
		         c->within.ci.lo, c->within.ci.hi, lower, upper, c->beyond.ci.level * 100,
		         c->beyond.ci.lo, c->beyond.ci.hi);
		c->rounds_needed = rounds_needed(c, delta);
	}
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
		char name[256], more[160] = "";
		size_t need = 0;

		/* The rounds the slowest of the unresolved cells would need. */
		for (size_t i = 0; i < m->n_cells; i++)
			if (m->cells[i].verdict == CB_MARGIN_NOT_RESOLVED &&
			    m->cells[i].rounds_needed > need)
				need = m->cells[i].rounds_needed;
		if (need && isfinite(width(unresolved)))
			snprintf(more, sizeof more, " (about %zu rounds at this spread)", need);
		if (m->other_process)
			snprintf(more + strlen(more), sizeof more - strlen(more),
			         "; %s runs in cryptobench's own process, %s in a worker child: "
			         "a variant with env = {} compares like with like",
			         m->reference, m->label);
		m->verdict = CB_MASK_NOT_RESOLVED;
		cb_cell_name(unresolved->masked->cell, name);
		snprintf(
		    m->why, sizeof m->why,
		    "no cell beyond delta %.3g%% and %zu of %zu not shown within it (%s: %s)%s%s",
		    delta * 100, m->n_cells - m->n_within, m->n_cells, name, unresolved->why,
		    isfinite(width(unresolved)) ? ": more rounds would tell" : "", more);
	}
}

static int build_mask(const struct cb_analysis *a, struct cb_mask *m, json_t *variant,
                      json_t *variants, double delta, double alpha)
{
	const struct cb_results *r = a->results;
	size_t i;
	json_t *v;
	int best = 0;

	m->label = json_string_value(json_object_get(variant, "label"));
	m->engine = json_string_value(json_object_get(variant, "engine"));
	m->env = json_object_get(variant, "env");
	env_text(m->env, m->env_text, sizeof m->env_text);
	json_array_foreach(variants, i, v)
	{
		int rank = v != variant ? reference_rank(variant, v) : 0;

		if (rank > best) {
			best = rank;
			m->reference = json_string_value(json_object_get(v, "label"));
		}
	}
	/* A library engine's plain variant runs in cryptobench's own process,
	 * the masked one in a worker child: unlike processes. */
	m->other_process = best == 1 && strcmp(engine_kind(a, m->engine), "library") == 0;
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
