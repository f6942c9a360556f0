/* baseline.c: a run against a baseline run, cell by cell, and pooled. */
#include "analysis/verdicts/baseline.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "core/base/errbuf.h"
#include "core/machine/host_id.h"

int cb_baseline_pool(const double *y, const double *se, size_t k, double alpha,
                     struct cb_estimate *out)
{
	double sw = 0, sw2 = 0, swy = 0, q = 0, tau2 = 0, ws = 0, wsy = 0;
	double z = gsl_cdf_ugaussian_Pinv(1.0 - alpha / 2.0);

	*out = (struct cb_estimate){NAN, NAN, NAN};
	if (k == 0)
		return -1;
	for (size_t i = 0; i < k; i++)
		if (!(isfinite(se[i]) && se[i] >= 0) || !isfinite(y[i]))
			return -1;
			/* Intervals of width 0 (a noiseless sim) would weigh infinitely: a floor
			 * far below any measured standard error keeps the arithmetic finite. */
#define VAR(i) (fmax(se[i], 1e-9) * fmax(se[i], 1e-9))
	for (size_t i = 0; i < k; i++) {
		double w = 1.0 / VAR(i);

		sw += w;
		sw2 += w * w;
		swy += w * y[i];
	}
	for (size_t i = 0; i < k; i++)
		q += (y[i] - swy / sw) * (y[i] - swy / sw) / VAR(i);
	if (k > 1 && sw > sw2 / sw)
		tau2 = fmax(0.0, (q - (double)(k - 1)) / (sw - sw2 / sw));
	for (size_t i = 0; i < k; i++) {
		double w = 1.0 / (VAR(i) + tau2);

		ws += w;
		wsy += w * y[i];
	}
#undef VAR
	double mu = wsy / ws, half = z / sqrt(ws);
	*out = (struct cb_estimate){exp(mu), exp(mu - half), exp(mu + half)};
	return 0;
}

/* The cell of A with KEY and samples, or NULL. */
static const struct cb_cell_summary *cell_in(const struct cb_analysis *a, const char *key)
{
	long i = cb_results_find_cell(a->results, key);

	return i >= 0 && a->summary->cells[i].n > 0 ? &a->summary->cells[i] : NULL;
}

/* Whether every run of both sides counted on one CPU model. */
static bool same_cpu(const struct cb_baseline *b)
{
	const char *x = cb_results_header_string(b->base->results, "host", "cpu");

	for (size_t i = 0; i < b->k_base + b->k_other; i++) {
		const struct cb_analysis *a =
		    i < b->k_base ? b->bases[i] : b->others[i - b->k_base];

		if (strcmp(x, cb_results_header_string(a->results, "host", "cpu")) != 0)
			return false;
	}
	return true;
}

/* The measure's median with its interval in S; SCALE turns c/B into cycles per call. */
static struct cb_estimate estimate_of(const struct cb_cell_summary *s, enum cb_compare_measure m)
{
	const struct cb_stats_summary *x = m == CB_MEASURE_MBS ? &s->mbs : &s->cpb;
	double scale = m == CB_MEASURE_CPC ? s->bytes_per_call : 1.0;

	return (struct cb_estimate){x->median * scale, x->median_ci.lo * scale,
	                            x->median_ci.hi * scale};
}

/* One side of a row: the cells of KEY in its K runs (CELLS[i], NULL where a
 * run lacks it; CELLS[0] is there). */
struct side {
	const struct cb_cell_summary **cells;
	size_t k;
};

/* The measure M of SIDE's cell: the one run's median and exact interval, or
 * the runs' medians pooled by random effects on the log scale with a 1-ALPHA
 * interval (no interval when a run has none). Its level into *LEVEL, the runs
 * pooled into *RUNS. */
static struct cb_estimate pooled(const struct side *side, enum cb_compare_measure m, double alpha,
                                 double *level, size_t *runs, double *y, double *se)
{
	struct cb_estimate out;
	size_t n = 0;
	bool intervals = true;

	for (size_t i = 0; i < side->k; i++) {
		const struct cb_cell_summary *s = side->cells[i];
		struct cb_estimate e;

		if (!s)
			continue;
		e = estimate_of(s, m);
		y[n] = log(e.value);
		se[n] = cb_repro_log_se(&e, s->mbs.median_ci.level);
		intervals &= isfinite(se[n]);
		n++;
	}
	*runs = n;
	if (n == 1) {
		*level = side->cells[0]->mbs.median_ci.level;
		return estimate_of(side->cells[0], m);
	}
	*level = 1 - alpha;
	if (intervals && cb_baseline_pool(y, se, n, alpha, &out) == 0)
		return out;
	double mean = 0;

	for (size_t i = 0; i < n; i++)
		mean += y[i] / (double)n;
	return (struct cb_estimate){exp(mean), NAN, NAN};
}

static void judge(struct cb_baseline_row *row, const struct side *base, const struct side *other,
                  const struct cb_compare_options *o, bool cycles, double *y, double *se)
{
	double level;
	size_t runs;

	row->measure = !cycles                                ? CB_MEASURE_MBS
	               : row->base->cell->size < o->tiny_size ? CB_MEASURE_CPC
	                                                      : CB_MEASURE_CPB;
	row->delta = cycles ? o->delta_cycles : o->delta_mbs;
	row->base_e =
	    pooled(base, row->measure, o->repro.alpha, &row->base_level, &row->base_runs, y, se);
	row->other_e =
	    pooled(other, row->measure, o->repro.alpha, &row->other_level, &row->other_runs, y, se);
	row->base_mbs = pooled(base, CB_MEASURE_MBS, o->repro.alpha, &level, &runs, y, se);
	row->other_mbs = pooled(other, CB_MEASURE_MBS, o->repro.alpha, &level, &runs, y, se);
	/* The speed ratio: MB/s other over baseline, or cycles baseline over other. */
	if (row->measure == CB_MEASURE_MBS)
		cb_margin_ratio(&row->other_e, row->other_level, &row->base_e, row->base_level,
		                row->delta, o->repro.alpha, &row->margin);
	else
		cb_margin_ratio(&row->base_e, row->base_level, &row->other_e, row->other_level,
		                row->delta, o->repro.alpha, &row->margin);
	row->p_adjusted = row->margin.p_beyond;
}

static enum cb_ratio_verdict verdict_of(const struct cb_baseline_row *row, double alpha)
{
	if (row->margin.verdict == CB_MARGIN_WITHIN)
		return CB_RATIO_EQUIVALENT;
	if (row->margin.verdict == CB_MARGIN_BEYOND && row->p_adjusted < alpha)
		return row->margin.ratio > 1 ? CB_RATIO_FASTER : CB_RATIO_SLOWER;
	return CB_RATIO_NOT_RESOLVED;
}

/* Benjamini-Hochberg across the rows, then the verdicts and their pools. */
static int conclude(struct cb_baseline *b)
{
	size_t n = b->n_rows ? b->n_rows : 1;
	double *p = malloc(n * sizeof *p), *y = malloc(n * sizeof *y), *se = malloc(n * sizeof *se);
	int rc = -1;

	if (!p || !y || !se)
		goto done;
	for (size_t i = 0; i < b->n_rows; i++)
		p[i] = b->rows[i].margin.p_beyond;
	if (cb_repro_bh(p, b->n_rows, p) != 0)
		goto done;
	for (size_t i = 0; i < b->n_rows; i++) {
		struct cb_baseline_row *row = &b->rows[i];

		row->p_adjusted = p[i];
		row->verdict = verdict_of(row, b->alpha);
		row->family = row->margin.verdict == CB_MARGIN_BEYOND &&
		              row->verdict == CB_RATIO_NOT_RESOLVED;
		b->family_downgraded += row->family;
	}
	for (int v = 0; v < 4; v++) {
		size_t k = 0;

		for (size_t i = 0; i < b->n_rows; i++)
			if (b->rows[i].verdict == (enum cb_ratio_verdict)v &&
			    !isnan(b->rows[i].margin.se)) {
				y[k] = b->rows[i].margin.log_ratio;
				se[k++] = b->rows[i].margin.se;
			}
		b->pools[v].cells = 0;
		for (size_t i = 0; i < b->n_rows; i++)
			b->pools[v].cells += b->rows[i].verdict == (enum cb_ratio_verdict)v;
		cb_baseline_pool(y, se, k, b->alpha, &b->pools[v].ratio);
	}
	rc = 0;
done:
	free(p);
	free(y);
	free(se);
	return rc;
}

static int push_note(struct cb_baseline *b, const char *fmt, ...)
{
	char buf[1024], **grown;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (!(grown = realloc(b->notes, (b->n_notes + 1) * sizeof *grown)))
		return -1;
	b->notes = grown;
	if (!(b->notes[b->n_notes] = strdup(buf)))
		return -1;
	b->n_notes++;
	return 0;
}

static const char *text_at(const struct cb_results *r, const char *obj, const char *key)
{
	return cb_results_header_string(r, obj, key);
}

/* The code a library engine ENGINE (a header's engines[] entry) ran: its
 * compilation and where its library's code ran from, in words; "" for an
 * engine without a library. Files from before either field ran the
 * program's engine on the file itself. */
static void library_code(const json_t *engine, char *out, size_t len)
{
	json_t *lib = json_object_get(engine, "library");
	const char *code = json_string_value(json_object_get(lib, "engine_code"));
	const char *from = json_string_value(json_object_get(lib, "code_from"));

	if (!lib) {
		out[0] = '\0';
		return;
	}
	snprintf(out, len, "%s, %s",
	         code && strcmp(code, "object") == 0 ? "the engine's object"
	                                             : "the engine compiled into the program",
	         from && strcmp(from, "copy") == 0 ? "its library's code from a copy of its file"
	                                           : "its library's code from its file");
}

/* What differs between the two configurations besides the numbers. */
static int note_differences(struct cb_baseline *b)
{
	const struct cb_results *x = b->other->results, *a = b->base->results;
	json_t *pa = json_object_get(json_object_get(a->header, "scenario"), "params");
	json_t *px = json_object_get(json_object_get(x->header, "scenario"), "params");
	json_t *ea = json_object_get(a->header, "engines"), *e;
	const json_t *hx = json_object_get(x->header, "host"),
	             *ha = json_object_get(a->header, "host");
	const char *key;
	json_t *v;
	size_t i;
	int rc = 0;

	if (strcmp(text_at(x, "scenario", "name"), text_at(a, "scenario", "name")) != 0)
		rc |= push_note(b, "scenario %s (baseline: %s)", text_at(x, "scenario", "name"),
		                text_at(a, "scenario", "name"));
	else if (strcmp(text_at(x, "scenario", "sha256"), text_at(a, "scenario", "sha256")) != 0)
		rc |= push_note(b, "the scenario's text differs (sha256)");
	json_object_foreach(px, key, v)
	{
		const char *p = json_string_value(json_object_get(v, "value"));
		const char *q =
		    json_string_value(json_object_get(json_object_get(pa, key), "value"));

		if (!p || !q || strcmp(p, q) != 0)
			rc |= push_note(b, "parameter %s = %s (baseline: %s)", key, p ? p : "?",
			                q ? q : "unset");
	}
	json_object_foreach(pa, key, v) if (!json_object_get(px, key)) rc |=
	    push_note(b, "parameter %s unset (baseline: %s)", key,
	              json_string_value(json_object_get(v, "value")) ?: "?");
	if (strcmp(text_at(x, "host", "cpu"), text_at(a, "host", "cpu")) != 0)
		rc |= push_note(b, "CPU %s (baseline: %s): judged on MB/s",
		                text_at(x, "host", "cpu"), text_at(a, "host", "cpu"));
	if (strcmp(cb_host_id_name(hx), cb_host_id_name(ha)) != 0)
		rc |= push_note(b, "host %s (baseline: %s)", cb_host_id_name(hx),
		                cb_host_id_name(ha));
	else if (!cb_host_id_same(hx, ha)) {
		char kx[512], ka[512];

		cb_host_id_key(hx, kx, sizeof kx);
		cb_host_id_key(ha, ka, sizeof ka);
		rc |= push_note(b, "another machine of that name: %s (baseline: %s)", kx, ka);
	}
	json_array_foreach(json_object_get(x->header, "engines"), i, e)
	{
		const char *name = json_string_value(json_object_get(e, "name"));
		const char *ver = json_string_value(json_object_get(e, "version"));
		json_t *f;
		size_t k;

		json_array_foreach(ea, k, f)
		{
			const char *w = json_string_value(json_object_get(f, "version"));

			char cx[128], ca[128];

			if (!name ||
			    strcmp(name, json_string_value(json_object_get(f, "name")) ?: "") != 0)
				continue;
			if (ver && w && strcmp(ver, w) != 0)
				rc |= push_note(b, "engine %s: %s (baseline: %s)", name, ver, w);
			library_code(e, cx, sizeof cx);
			library_code(f, ca, sizeof ca);
			if (strcmp(cx, ca) != 0)
				rc |= push_note(b, "engine %s: %s (baseline: %s)", name, cx, ca);
		}
	}
	if (x->interrupted)
		rc |= push_note(b, "the run was interrupted (partial)");
	if (a->interrupted)
		rc |= push_note(b, "the baseline run was interrupted (partial)");
	return rc ? -1 : 0;
}

/* SIDE's cells of KEY in the K runs AS, with samples; false when the first
 * run lacks it. Every cell found counts cycles into *CYCLES. */
static bool find_side(const struct cb_analysis *const *as, size_t k, const char *key,
                      struct side *side, bool *cycles)
{
	side->k = k;
	for (size_t i = 0; i < k; i++) {
		side->cells[i] = cell_in(as[i], key);
		if (side->cells[i])
			*cycles &= side->cells[i]->have_cycles;
	}
	return side->cells[0] != NULL;
}

int cb_baseline_build_runs(const struct cb_analysis *const *base, size_t k_base,
                           const struct cb_analysis *const *other, size_t k_other,
                           const struct cb_compare_options *opt, struct cb_baseline **out,
                           char *err, size_t err_len)
{
	struct cb_compare_options o;
	struct cb_baseline *b = calloc(1, sizeof *b);
	size_t k = k_base + k_other;
	const struct cb_cell_summary **cells = calloc(k + 1, sizeof *cells);
	double *y = calloc(k + 1, sizeof *y), *se = calloc(k + 1, sizeof *se);
	struct side bs = {NULL, k_base}, os = {NULL, k_other};
	bool cpu;

	*out = NULL;
	if (opt)
		o = *opt;
	else
		cb_compare_defaults(&o);
	if (!b || !cells || !y || !se || !k_base || !k_other ||
	    !(b->bases = malloc(k_base * sizeof *b->bases)) ||
	    !(b->others = malloc(k_other * sizeof *b->others)))
		goto oom;
	if (!(o.delta_cycles > 0 && o.delta_mbs > 0 && o.repro.alpha > 0 && o.repro.alpha < 0.5)) {
		cb_errorf(err, err_len, "baseline: margins must be positive, alpha in (0, 0.5)");
		goto fail;
	}
	bs.cells = cells;
	os.cells = cells + k_base;
	memcpy(b->bases, base, k_base * sizeof *base);
	memcpy(b->others, other, k_other * sizeof *other);
	b->k_base = k_base;
	b->k_other = k_other;
	b->base = base[0];
	b->other = other[0];
	b->alpha = o.repro.alpha;
	cpu = same_cpu(b);
	if (!(b->rows = calloc(base[0]->summary->n_cells + 1, sizeof *b->rows)))
		goto oom;
	for (size_t i = 0; i < base[0]->summary->n_cells; i++) {
		const struct cb_cell_summary *s = &base[0]->summary->cells[i];
		struct cb_baseline_row *row = &b->rows[b->n_rows];
		bool cycles = cpu;

		if (strcmp(s->cell->engine, "null") == 0)
			continue; /* the harness moves no bytes */
		if (s->n == 0 || !find_side(base, k_base, s->cell->key, &bs, &cycles) ||
		    !find_side(other, k_other, s->cell->key, &os, &cycles)) {
			b->only_base += s->n > 0;
			continue;
		}
		row->base = bs.cells[0];
		row->other = os.cells[0];
		judge(row, &bs, &os, &o, cycles, y, se);
		b->n_rows++;
	}
	for (size_t i = 0; i < other[0]->summary->n_cells; i++) {
		const struct cb_cell_summary *x = &other[0]->summary->cells[i];

		b->only_other += x->n > 0 && strcmp(x->cell->engine, "null") != 0 &&
		                 !cell_in(base[0], x->cell->key);
	}
	if (conclude(b) != 0 || note_differences(b) != 0)
		goto oom;
	free(cells);
	free(y);
	free(se);
	*out = b;
	return 0;
oom:
	cb_errorf(err, err_len, "out of memory");
fail:
	free(cells);
	free(y);
	free(se);
	cb_baseline_free(b);
	return -1;
}

int cb_baseline_build(const struct cb_analysis *base, const struct cb_analysis *other,
                      const struct cb_compare_options *opt, struct cb_baseline **out, char *err,
                      size_t err_len)
{
	return cb_baseline_build_runs(&base, 1, &other, 1, opt, out, err, err_len);
}

void cb_baseline_free(struct cb_baseline *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->n_notes; i++)
		free(b->notes[i]);
	free(b->notes);
	free(b->rows);
	free(b->bases);
	free(b->others);
	free(b);
}
