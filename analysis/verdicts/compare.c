/* compare.c: cells and derived metrics across runs, rank flips, notes. */
#include "analysis/verdicts/compare.h"

#include "core/engine/engine.h"
#include "core/base/errbuf.h"
#include "core/machine/host_id.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cb_compare_defaults(struct cb_compare_options *opt)
{
	cb_summary_defaults(&opt->summary);
	cb_derive_defaults(&opt->derive);
	cb_repro_defaults(&opt->repro);
	opt->delta_cycles = 0.02;
	opt->delta_mbs = 0.05;
	opt->tiny_size = 64;
}

const char *cb_compare_measure_name(enum cb_compare_measure m)
{
	static const char *const names[] = {"ratio", "MB/s", "c/B", "cycles/call"};

	return names[m];
}

static const char *header_text(const struct cb_results *r, const char *obj, const char *key)
{
	json_t *o = obj ? json_object_get(r->header, obj) : r->header;

	return json_string_value(json_object_get(o, key));
}

static bool same_text(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static int push_note(struct cb_compare *c, const char *fmt, ...)
{
	char buf[1024], **grown;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (!(grown = realloc(c->notes, (c->n_notes + 1) * sizeof *grown)))
		return -1;
	c->notes = grown;
	if (!(c->notes[c->n_notes] = strdup(buf)))
		return -1;
	c->n_notes++;
	return 0;
}

/* Refuse what cannot be compared; note what differs but may be. */
static int check_files(struct cb_compare *c, char *err, size_t err_len)
{
	struct cb_results *const *f = c->files;
	const char *schema0 = header_text(f[0], NULL, "schema");
	const char *name0 = header_text(f[0], "scenario", "name");

	for (size_t i = 1; i < c->k; i++) {
		const char *schema = header_text(f[i], NULL, "schema");
		const char *name = header_text(f[i], "scenario", "name");
		const char *id = header_text(f[i], NULL, "run_id");

		if (!same_text(schema, schema0)) {
			cb_errorf(err, err_len,
			          "%s has results schema '%s' but %s has '%s': files of different "
			          "schema versions cannot be compared",
			          f[i]->path, schema ? schema : "?", f[0]->path,
			          schema0 ? schema0 : "?");
			return CB_COMPARE_MISMATCH;
		}
		if (!same_text(name, name0)) {
			cb_errorf(
			    err, err_len,
			    "%s is a run of scenario '%s' but %s is a run of '%s': only runs of "
			    "one scenario can be compared",
			    f[i]->path, name ? name : "?", f[0]->path, name0 ? name0 : "?");
			return CB_COMPARE_MISMATCH;
		}
		for (size_t j = 0; j < i && id; j++)
			if (same_text(id, header_text(f[j], NULL, "run_id"))) {
				cb_errorf(
				    err, err_len,
				    "%s and %s are the same run (run_id %s): a run compared with "
				    "itself always agrees",
				    f[j]->path, f[i]->path, id);
				return CB_COMPARE_MISMATCH;
			}
	}
	return 0;
}

static int note_differences(struct cb_compare *c)
{
	struct cb_results *const *f = c->files;
	json_t *p0 = json_object_get(json_object_get(f[0]->header, "scenario"), "params");

	for (size_t i = 1; i < c->k; i++) {
		json_t *p = json_object_get(json_object_get(f[i]->header, "scenario"), "params");
		const char *key;
		json_t *v;
		int rc = 0;

		if (!same_text(header_text(f[i], "scenario", "sha256"),
		               header_text(f[0], "scenario", "sha256")))
			rc |= push_note(c, "%s: the scenario's text differs from %s's (sha256)",
			                f[i]->path, f[0]->path);
		json_object_foreach(p, key, v)
		{
			const char *a = json_string_value(json_object_get(v, "value"));
			const char *b =
			    json_string_value(json_object_get(json_object_get(p0, key), "value"));

			if (!same_text(a, b))
				rc |= push_note(c, "%s: parameter %s = %s (%s: %s)", f[i]->path,
				                key, a ? a : "?", f[0]->path, b ? b : "unset");
		}
		if (!same_text(header_text(f[i], "host", "cpu"), header_text(f[0], "host", "cpu")))
			rc |= push_note(c, "%s: another CPU (%s)", f[i]->path,
			                header_text(f[i], "host", "cpu") ?: "?");
		if (!cb_host_id_same(json_object_get(f[i]->header, "host"),
		                     json_object_get(f[0]->header, "host")))
			rc |= push_note(c, "%s: another host (%s)", f[i]->path,
			                cb_host_id_name(json_object_get(f[i]->header, "host")));
		if (rc)
			return -1;
	}
	for (size_t i = 0; i < c->k; i++)
		if (f[i]->interrupted &&
		    push_note(c, "%s: the run was interrupted (partial)", f[i]->path) != 0)
			return -1;
	return 0;
}

/* ---- Rows ---- */

static struct cb_compare_row *find_row(struct cb_compare *c, enum cb_compare_kind kind,
                                       const char *key)
{
	for (size_t i = 0; i < c->n_rows; i++)
		if (c->rows[i].kind == kind && strcmp(c->rows[i].key, key) == 0)
			return &c->rows[i];
	return NULL;
}

static struct cb_compare_row *add_row(struct cb_compare *c, enum cb_compare_kind kind,
                                      const char *key)
{
	struct cb_compare_row *row = find_row(c, kind, key), *grown;

	if (row)
		return row;
	if (!(grown = realloc(c->rows, (c->n_rows + 1) * sizeof *grown)))
		return NULL;
	c->rows = grown;
	row = &c->rows[c->n_rows];
	memset(row, 0, sizeof *row);
	row->kind = kind;
	row->key = key;
	row->runs = calloc(c->k, sizeof *row->runs);
	row->run_of = calloc(c->k, sizeof *row->run_of);
	if (!row->runs || !row->run_of) {
		free(row->runs);
		free(row->run_of);
		return NULL;
	}
	c->n_rows++;
	return row;
}

static int collect(struct cb_compare *c)
{
	for (size_t r = 0; r < c->k; r++) {
		const struct cb_analysis *a = c->runs[r];

		for (size_t i = 0; i < a->summary->n_cells; i++) {
			const struct cb_cell_summary *s = &a->summary->cells[i];
			struct cb_compare_row *row = add_row(c, CB_ROW_CELL, s->cell->key);

			if (!row)
				return -1;
			if (!row->cell)
				row->cell = s->cell;
			if (s->n == 0)
				continue;
			row->runs[r] = (struct cb_compare_value){
			    .present = true,
			    .mbs = {s->mbs.median, s->mbs.median_ci.lo, s->mbs.median_ci.hi},
			    .have_cycles = s->have_cycles,
			    .cpb = {NAN, NAN, NAN},
			    .bytes_per_call = s->bytes_per_call,
			    .n = s->n,
			    .level = s->mbs.median_ci.level,
			    .contaminated = s->ns.contaminated};
			if (s->have_cycles)
				row->runs[r].cpb = (struct cb_estimate){
				    s->cpb.median, s->cpb.median_ci.lo, s->cpb.median_ci.hi};
		}
		for (size_t i = 0; i < a->n_derived; i++) {
			const struct cb_derived *m = &a->derived[i];
			struct cb_compare_row *row = add_row(c, CB_ROW_DERIVED, m->key);

			if (!row)
				return -1;
			if (!row->derived)
				row->derived = m;
			if (!m->ok)
				continue;
			row->runs[r] = (struct cb_compare_value){
			    .present = true,
			    .e = {m->ratio.value, m->ratio.ci.lo, m->ratio.ci.hi},
			    .n = m->ratio.n,
			    .level = m->level,
			    .verdict = m->verdict,
			    .has_expect = m->has_expect,
			    .expectation = m->expectation};
		}
	}
	return 0;
}

static void expectation_across(struct cb_compare_row *row)
{
	for (size_t r = 0; r < row->present; r++) {
		const struct cb_compare_value *v = &row->runs[row->run_of[r]];

		if (!v->has_expect)
			continue;
		row->has_expect = true;
		row->expect_runs++;
		row->expect_consistent += v->expectation == CB_EXPECT_CONSISTENT;
		row->expect_inconsistent += v->expectation == CB_EXPECT_INCONSISTENT;
	}
	row->expectation = CB_EXPECT_NOT_RESOLVED;
	if (row->expect_runs && row->expect_consistent == row->expect_runs)
		row->expectation = CB_EXPECT_CONSISTENT;
	else if (row->expect_runs && row->expect_inconsistent == row->expect_runs)
		row->expectation = CB_EXPECT_INCONSISTENT;
}

/* A cell is judged on cycles when every run that has it counted them. */
static void choose_measure(const struct cb_compare *c, struct cb_compare_row *row)
{
	bool cycles = true;

	if (row->kind == CB_ROW_DERIVED) {
		row->measure = CB_MEASURE_RATIO;
		row->delta = c->options.derive.delta;
		return;
	}
	for (size_t r = 0; r < c->k; r++)
		cycles &= !row->runs[r].present || row->runs[r].have_cycles;
	row->measure = !cycles                                  ? CB_MEASURE_MBS
	               : row->cell->size < c->options.tiny_size ? CB_MEASURE_CPC
	                                                        : CB_MEASURE_CPB;
	row->delta = cycles ? c->options.delta_cycles : c->options.delta_mbs;
	for (size_t r = 0; r < c->k; r++) {
		struct cb_compare_value *v = &row->runs[r];
		double scale = row->measure == CB_MEASURE_CPC ? v->bytes_per_call : 1.0;

		if (!v->present)
			continue;
		v->e = row->measure == CB_MEASURE_MBS
		           ? v->mbs
		           : (struct cb_estimate){v->cpb.value * scale, v->cpb.lo * scale,
		                                  v->cpb.hi * scale};
	}
}

static int judge_row(struct cb_compare *c, struct cb_compare_row *row, char *err, size_t err_len)
{
	struct cb_repro_options opt = c->options.repro;
	struct cb_estimate *e = malloc(c->k * sizeof *e);
	double *levels = malloc(c->k * sizeof *levels);
	int rc = -1;

	if (!e || !levels) {
		cb_errorf(err, err_len, "out of memory");
		goto done;
	}
	choose_measure(c, row);
	row->present = 0;
	for (size_t r = 0; r < c->k; r++)
		if (row->runs[r].present) {
			row->run_of[row->present] = r;
			levels[row->present] = row->runs[r].level;
			e[row->present++] = row->runs[r].e;
		}
	opt.reference = row->kind == CB_ROW_DERIVED ? 1.0 : NAN;
	opt.delta = row->delta;
	if (cb_repro_compare(e, levels, row->present, &opt, &row->repro, err, err_len) != 0)
		goto done;
	if (row->kind == CB_ROW_DERIVED)
		expectation_across(row);
	rc = 0;
done:
	free(e);
	free(levels);
	return rc;
}

/* ---- Engines: each label's cells pooled ---- */

/* Summary of the cell KEY in run R, or NULL. */
static const struct cb_cell_summary *summary_of(const struct cb_compare *c, size_t r,
                                                const char *key)
{
	long i = cb_results_find_cell(c->files[r], key);

	return i < 0 ? NULL : &c->runs[r]->summary->cells[i];
}

/* Cell S's measure in round J, oriented as the cell rows' (c/B: larger is
 * slower; MB/s), or NaN. */
static double round_value(const struct cb_cell_summary *s, size_t j, bool cycles)
{
	double x = cycles ? 1.0 / s->round_bpc[j] : s->round_mbs[j];

	return x > 0 && isfinite(x) ? x : NAN;
}

/* Run R's estimate for the pooled row: per round in which every one of the
 * N cells CELLS has a sample, exp(sum w log x) (W sums to 1); the median of
 * those with its exact interval at LEVEL. */
static int pooled_estimate(const struct cb_compare *c, size_t r,
                           const struct cb_compare_row *const *cells, const double *w, size_t n,
                           bool cycles, double level, struct cb_compare_value *out)
{
	const struct cb_run_summary *rs = c->runs[r]->summary;
	const struct cb_cell_summary **s = malloc(n * sizeof *s);
	double *v = malloc((rs->n_rounds ? rs->n_rounds : 1) * sizeof *v);
	struct cb_stats_interval ci;
	size_t m = 0;
	int rc = -1;

	if (!s || !v)
		goto done;
	for (size_t i = 0; i < n; i++)
		if (!(s[i] = summary_of(c, r, cells[i]->key)) || s[i]->n == 0) {
			rc = 0; /* not present in this run */
			goto done;
		}
	for (size_t j = 0; j < rs->n_rounds; j++) {
		double sum = 0;
		bool all = true;

		for (size_t i = 0; i < n && all; i++) {
			double x = round_value(s[i], j, cycles);

			all = !isnan(x);
			sum += all ? w[i] * log(x) : 0;
		}
		if (all)
			v[m++] = exp(sum);
	}
	rc = 0;
	if (m == 0)
		goto done;
	gsl_sort(v, 1, m);
	if (cb_stats_median_interval(v, m, level, &ci) != 0) {
		rc = -1;
		goto done;
	}
	*out =
	    (struct cb_compare_value){.present = true,
	                              .e = {gsl_stats_median_from_sorted_data(v, 1, m),
	                                    ci.available ? ci.lo : NAN, ci.available ? ci.hi : NAN},
	                              .mbs = {NAN, NAN, NAN},
	                              .cpb = {NAN, NAN, NAN},
	                              .n = m,
	                              .level = level};
done:
	free(s);
	free(v);
	return rc;
}

/* Weights of the pooled mean: each cell's inverse variance on the log scale
 * (its interval's standard error squared, averaged over the runs), so a cell
 * whose trials swing counts less than a steady one; the same weights in
 * every run. Equal weights when some cell has no usable standard error. */
void cb_compare_pooled_weights(const struct cb_compare *c,
                               const struct cb_compare_row *const *cells, size_t n, bool cycles,
                               double *w)
{
	double total = 0;
	bool usable = true;

	for (size_t i = 0; i < n; i++) {
		double var = 0;

		for (size_t r = 0; r < c->k; r++) {
			const struct cb_compare_value *v = &cells[i]->runs[r];
			double se = cb_repro_log_se(cycles ? &v->e : &v->mbs, v->level);

			usable &= se > 0 && isfinite(se);
			var += se * se / (double)c->k;
		}
		w[i] = 1.0 / var;
		total += w[i];
	}
	for (size_t i = 0; i < n; i++)
		w[i] = usable && total > 0 && isfinite(total) ? w[i] / total : 1.0 / (double)n;
}

/* One pooled row for LABEL over the cell rows CELLS[0..n-1]. */
static int pool_label(struct cb_compare *c, const struct cb_compare_row *const *cells, size_t n,
                      struct cb_compare_row *row, char *err, size_t err_len)
{
	struct cb_repro_options opt = c->options.repro;
	struct cb_estimate *e = malloc(c->k * sizeof *e);
	double *levels = malloc(c->k * sizeof *levels), *w = malloc(n * sizeof *w);
	bool cycles = true;
	int rc = -1;

	memset(row, 0, sizeof *row);
	row->kind = CB_ROW_ENGINE;
	row->cell = cells[0]->cell;
	row->key = cells[0]->cell->label;
	row->pooled_cells = n;
	row->runs = calloc(c->k, sizeof *row->runs);
	row->run_of = calloc(c->k, sizeof *row->run_of);
	if (!e || !levels || !w || !row->runs || !row->run_of) {
		cb_errorf(err, err_len, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < n; i++)
		cycles &= cells[i]->measure != CB_MEASURE_MBS;
	row->measure = cycles ? CB_MEASURE_CPB : CB_MEASURE_MBS;
	row->delta = cycles ? c->options.delta_cycles : c->options.delta_mbs;
	cb_compare_pooled_weights(c, cells, n, cycles, w);
	for (size_t r = 0; r < c->k; r++) {
		if (pooled_estimate(c, r, cells, w, n, cycles, c->options.summary.level,
		                    &row->runs[r]) != 0) {
			cb_errorf(err, err_len, "out of memory");
			goto done;
		}
		if (!row->runs[r].present)
			continue;
		row->run_of[row->present] = r;
		levels[row->present] = row->runs[r].level;
		e[row->present++] = row->runs[r].e;
	}
	opt.reference = NAN;
	opt.delta = row->delta;
	rc = cb_repro_compare(e, levels, row->present, &opt, &row->repro, err, err_len);
done:
	free(e);
	free(levels);
	free(w);
	return rc;
}

/* A pooled row per label that has two or more cells in every run. */
static int pool_engines(struct cb_compare *c, char *err, size_t err_len)
{
	const struct cb_compare_row **cells = malloc((c->n_rows + 1) * sizeof *cells);
	int rc = -1;

	if (!cells || !(c->engine_rows = calloc(c->n_rows + 1, sizeof *c->engine_rows))) {
		cb_errorf(err, err_len, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct cb_compare_row *row = &c->rows[i];
		size_t n = 0;
		bool first = true;

		if (row->kind != CB_ROW_CELL || row->present != c->k)
			continue;
		for (size_t e = 0; e < i && first; e++)
			first = !(c->rows[e].kind == CB_ROW_CELL && c->rows[e].present == c->k &&
			          strcmp(c->rows[e].cell->label, row->cell->label) == 0);
		if (!first)
			continue;
		for (size_t e = i; e < c->n_rows; e++)
			if (c->rows[e].kind == CB_ROW_CELL && c->rows[e].present == c->k &&
			    strcmp(c->rows[e].cell->label, row->cell->label) == 0)
				cells[n++] = &c->rows[e];
		if (n < 2)
			continue;
		if (pool_label(c, cells, n, &c->engine_rows[c->n_engine_rows++], err, err_len) != 0)
			goto done;
	}
	rc = 0;
done:
	free(cells);
	return rc;
}

/* The table is one family: Benjamini-Hochberg across every row's p. */
static int judge_family(struct cb_compare *c)
{
	struct cb_repro **rows = malloc((c->n_rows + c->n_engine_rows + 1) * sizeof *rows);
	long downgraded;

	if (!rows)
		return -1;
	c->family = 0;
	for (size_t i = 0; i < c->n_rows; i++)
		if (!isnan(c->rows[i].repro.p_beyond))
			rows[c->family++] = &c->rows[i].repro;
	for (size_t i = 0; i < c->n_engine_rows; i++)
		if (!isnan(c->engine_rows[i].repro.p_beyond))
			rows[c->family++] = &c->engine_rows[i].repro;
	downgraded = cb_repro_family(rows, c->family, c->options.repro.alpha);
	free(rows);
	if (downgraded < 0)
		return -1;
	c->family_downgraded = (size_t)downgraded;
	for (size_t i = 0; i < c->n_rows; i++)
		(c->rows[i].kind == CB_ROW_CELL ? c->cells
		                                : c->derived)[c->rows[i].repro.verdict]++;
	for (size_t i = 0; i < c->n_engine_rows; i++)
		c->engines[c->engine_rows[i].repro.verdict]++;
	return 0;
}

/* ---- Rankings ---- */

/* Cells of one algorithm, op, size and threads: a ranking group. */
static bool same_group(const struct cb_result_cell *a, const struct cb_result_cell *b)
{
	return strcmp(a->algorithm, b->algorithm) == 0 && strcmp(a->op, b->op) == 0 &&
	       a->size == b->size && a->threads == b->threads;
}

/* Median MB/s of label LABEL in the group of G in run R, or NaN. */
static double median_in(const struct cb_compare *c, size_t r, const struct cb_result_cell *g,
                        const char *label)
{
	const struct cb_run_summary *s = c->runs[r]->summary;

	for (size_t i = 0; i < s->n_cells; i++)
		if (s->cells[i].n > 0 && same_group(s->cells[i].cell, g) &&
		    strcmp(s->cells[i].cell->label, label) == 0)
			return s->cells[i].mbs.median;
	return NAN;
}

static int flips_of_pair(struct cb_compare *c, const struct cb_result_cell *a,
                         const struct cb_result_cell *b)
{
	size_t ra = c->k, rb = c->k;

	for (size_t r = 0; r < c->k; r++) {
		double x = median_in(c, r, a, a->label), y = median_in(c, r, a, b->label);

		if (isnan(x) || isnan(y))
			continue;
		if (x > y && ra == c->k)
			ra = r;
		if (y > x && rb == c->k)
			rb = r;
	}
	if (ra == c->k || rb == c->k)
		return 0;
	struct cb_rank_flip *grown = realloc(c->flips, (c->n_flips + 1) * sizeof *grown);
	if (!grown)
		return -1;
	c->flips = grown;
	c->flips[c->n_flips++] = (struct cb_rank_flip){.a = a,
	                                               .b = b,
	                                               .run_a = ra,
	                                               .run_b = rb,
	                                               .a_in_a = median_in(c, ra, a, a->label),
	                                               .b_in_a = median_in(c, ra, a, b->label),
	                                               .a_in_b = median_in(c, rb, a, a->label),
	                                               .b_in_b = median_in(c, rb, a, b->label)};
	return 0;
}

/* The labels of group G present in every run, ranked by Kendall's W. */
static int rank_group(struct cb_compare *c, const struct cb_result_cell *g,
                      const struct cb_result_cell **members, size_t m)
{
	size_t used = 0;
	double *scores = malloc(c->k * m * sizeof *scores);
	const struct cb_result_cell **kept = malloc(m * sizeof *kept);
	struct cb_ranking rk = {.cell = g, .w = NAN, .p = NAN};
	int rc = -1;

	if (!scores || !kept)
		goto done;
	for (size_t j = 0; j < m; j++) {
		bool everywhere = true;

		for (size_t r = 0; r < c->k && everywhere; r++)
			everywhere = !isnan(median_in(c, r, g, members[j]->label));
		if (everywhere)
			kept[used++] = members[j];
	}
	rc = 0;
	if (used < 2)
		goto done;
	for (size_t r = 0; r < c->k; r++)
		for (size_t j = 0; j < used; j++)
			scores[r * used + j] = median_in(c, r, g, kept[j]->label);
	rk.engines = used;
	cb_repro_kendall_w(scores, c->k, used, &rk.w, &rk.p);
	struct cb_ranking *grown = realloc(c->rankings, (c->n_rankings + 1) * sizeof *grown);
	if (!grown) {
		rc = -1;
		goto done;
	}
	c->rankings = grown;
	c->rankings[c->n_rankings++] = rk;
done:
	free(scores);
	free(kept);
	return rc;
}

/* Over the union of cells (the rows), grouped; the references (null: the
 * harness, memcpy: the memory ceiling) are not contenders, so not ranked. */
static int rank_engines(struct cb_compare *c)
{
	const struct cb_result_cell **members = malloc((c->n_rows + 1) * sizeof *members);
	int rc = -1;

	if (!members)
		return -1;
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct cb_result_cell *g = c->rows[i].cell;
		size_t m = 0;
		bool first = true;

		if (c->rows[i].kind != CB_ROW_CELL || cb_engine_is_reference(g->engine))
			continue;
		for (size_t e = 0; e < i && first; e++)
			first =
			    !(c->rows[e].kind == CB_ROW_CELL && same_group(c->rows[e].cell, g) &&
			      !cb_engine_is_reference(c->rows[e].cell->engine));
		if (!first)
			continue;
		for (size_t e = i; e < c->n_rows; e++) {
			const struct cb_result_cell *x = c->rows[e].cell;

			if (c->rows[e].kind == CB_ROW_CELL && same_group(x, g) &&
			    !cb_engine_is_reference(x->engine))
				members[m++] = x;
		}
		for (size_t p = 0; p < m; p++)
			for (size_t q = p + 1; q < m; q++)
				if (flips_of_pair(c, members[p], members[q]) != 0)
					goto done;
		if (m >= 2 && rank_group(c, g, members, m) != 0)
			goto done;
	}
	rc = 0;
done:
	free(members);
	return rc;
}

/* ---- The whole comparison ---- */

int cb_compare_build(struct cb_results *const *files, size_t k,
                     const struct cb_compare_options *opt, struct cb_compare **out, char *err,
                     size_t err_len)
{
	struct cb_compare *c = calloc(1, sizeof *c);
	int rc = -1;

	*out = NULL;
	if (!c) {
		cb_errorf(err, err_len, "out of memory");
		return -1;
	}
	c->k = k;
	c->files = files;
	if (opt)
		c->options = *opt;
	else
		cb_compare_defaults(&c->options);
	c->options.repro.level = c->options.derive.level;
	if (!(c->options.delta_cycles > 0 && c->options.delta_mbs > 0)) {
		cb_errorf(err, err_len, "compare: margins must be positive");
		goto fail;
	}
	if (k < 2) {
		cb_errorf(err, err_len, "comparing needs at least two runs (got %zu)", k);
		rc = CB_COMPARE_MISMATCH;
		goto fail;
	}
	if ((rc = check_files(c, err, err_len)) != 0)
		goto fail;
	rc = -1;
	if (!(c->runs = calloc(k, sizeof *c->runs)))
		goto oom;
	for (size_t r = 0; r < k; r++) {
		char why[512];

		c->runs[r] = cb_analysis_build(files[r], &c->options.summary, &c->options.derive,
		                               why, sizeof why);
		if (!c->runs[r]) {
			cb_errorf(err, err_len, "%s: %s", files[r]->path, why);
			goto fail;
		}
	}
	if (note_differences(c) != 0 || collect(c) != 0)
		goto oom;
	for (size_t i = 0; i < c->n_rows; i++)
		if (judge_row(c, &c->rows[i], err, err_len) != 0)
			goto fail;
	if (pool_engines(c, err, err_len) != 0)
		goto fail;
	if (judge_family(c) != 0 || rank_engines(c) != 0)
		goto oom;
	*out = c;
	return 0;
oom:
	cb_errorf(err, err_len, "out of memory");
fail:
	cb_compare_free(c);
	return rc;
}

void cb_compare_free(struct cb_compare *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n_rows; i++) {
		free(c->rows[i].runs);
		free(c->rows[i].run_of);
	}
	for (size_t i = 0; i < c->n_engine_rows; i++) {
		free(c->engine_rows[i].runs);
		free(c->engine_rows[i].run_of);
	}
	free(c->engine_rows);
	for (size_t r = 0; r < c->k && c->runs; r++)
		cb_analysis_free(c->runs[r]);
	for (size_t i = 0; i < c->n_notes; i++)
		free(c->notes[i]);
	free(c->notes);
	free(c->runs);
	free(c->rows);
	free(c->flips);
	free(c->rankings);
	free(c);
}

bool cb_compare_any_unreproduced(const struct cb_compare *c)
{
	return c->cells[CB_REPRO_NON_REPRODUCIBLE] || c->cells[CB_REPRO_CONTRADICTORY] ||
	       c->engines[CB_REPRO_NON_REPRODUCIBLE] || c->engines[CB_REPRO_CONTRADICTORY] ||
	       c->derived[CB_REPRO_NON_REPRODUCIBLE] || c->derived[CB_REPRO_CONTRADICTORY];
}
