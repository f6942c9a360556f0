/* test_derive.c: per-cell summaries, derived metrics, slopes, crossovers and
 * comparisons across runs, on small results files written here with known
 * numbers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/verdicts/compare.h"
#include "analysis/verdicts/analysis.h"
#include "analysis/report/format.h"
#include "analysis/report/report.h"
#include "core/results/results.h"
#include "analysis/stats/summary.h"
#include "tests/tap.h"

struct cell {
	const char *label, *engine, *alg, *op;
	unsigned size, threads;
};

struct file {
	FILE *f;
	char path[64];
	unsigned long seq;
};

/* Jitter that repeats: 1 + a small deterministic wobble per (round, salt). */
static double wobble(unsigned round, unsigned salt)
{
	unsigned x = round * 2654435761u ^ salt * 40503u;

	x ^= x >> 13;
	x *= 0x5bd1e995u;
	x ^= x >> 15;
	return 1.0 + ((double)(x % 1000) - 500.0) / 50000.0; /* +/- 1% */
}

static int begin(struct file *w, const char *scenario, const char *run_id, const char *derive)
{
	int fd;

	snprintf(w->path, sizeof w->path, "/tmp/cb-test-derive-XXXXXX");
	if ((fd = mkstemp(w->path)) < 0 || !(w->f = fdopen(fd, "w")))
		return -1;
	w->seq = 0;
	fprintf(w->f,
	        "{\"type\":\"run\",\"schema\":\"cryptobench/1\",\"run_id\":\"%s\",\"run_index\":0,"
	        "\"scenario\":{\"name\":\"%s\",\"sha256\":\"x\",\"derive\":%s},"
	        "\"counter\":{\"cycles\":\"estimate\"},\"order\":\"round-robin\",\"order_seed\":7,"
	        "\"input\":{\"seed\":20260804}}\n",
	        run_id, scenario, derive ? derive : "[]");
	return 0;
}

static void trial(struct file *w, const struct cell *c, unsigned round, double ns_per_call,
                  double cpu_share, double cycles_per_call)
{
	unsigned long calls = 100;

	fprintf(w->f,
	        "{\"type\":\"trial\",\"round\":%u,\"seq\":%lu,\"cell\":{\"engine\":\"%s\","
	        "\"label\":\"%s\",\"algorithm\":\"%s\",\"op\":\"%s\",\"size\":%u,\"threads\":%u,"
	        "\"mode\":\"message\"},\"warmup\":%s,\"calls\":%lu,\"bytes\":%lu,\"valid\":true,"
	        "\"ns\":%.0f,\"cpu_ns\":%.0f",
	        round, w->seq++, c->engine, c->label, c->alg, c->op, c->size, c->threads,
	        round == 0 ? "true" : "false", calls, calls * c->size * c->threads,
	        ns_per_call * (double)calls, ns_per_call * (double)calls * cpu_share);
	if (cycles_per_call > 0)
		fprintf(w->f, ",\"cycles\":%.0f", cycles_per_call * (double)calls);
	fprintf(w->f, "}\n");
}

static void invalid(struct file *w, const struct cell *c, unsigned round, const char *why)
{
	fprintf(w->f,
	        "{\"type\":\"trial\",\"round\":%u,\"seq\":%lu,\"cell\":{\"engine\":\"%s\","
	        "\"label\":\"%s\",\"algorithm\":\"%s\",\"op\":\"%s\",\"size\":%u,\"threads\":%u},"
	        "\"warmup\":false,\"calls\":100,\"bytes\":%u,\"valid\":false,\"error\":\"%s\"}\n",
	        round, w->seq++, c->engine, c->label, c->alg, c->op, c->size, c->threads,
	        100 * c->size, why);
}

static struct cb_results *finish(struct file *w)
{
	char err[512];
	struct cb_results *r;

	fprintf(w->f, "{\"type\":\"end\",\"interrupted\":false}\n");
	fclose(w->f);
	r = cb_results_read(w->path, err, sizeof err);
	if (!r)
		diag("%s", err);
	return r;
}

static const struct cb_cell_summary *find(const struct cb_run_summary *s, const char *label,
                                          const char *alg, const char *op, unsigned size)
{
	for (size_t i = 0; i < s->n_cells; i++) {
		const struct cb_result_cell *c = s->cells[i].cell;

		if (strcmp(c->label, label) == 0 && strcmp(c->algorithm, alg) == 0 &&
		    strcmp(c->op, op) == 0 && c->size == size)
			return &s->cells[i];
	}
	return NULL;
}

static void test_summary(void)
{
	const struct cell a = {"eng", "eng", "sha256", "hash", 1000, 1};
	const struct cell slow = {"eng", "eng", "md5", "hash", 1000, 1};
	const struct cell z = {"null", "null", "sha256", "hash", 1000, 1};
	struct file w = {0};
	struct cb_results *r;
	struct cb_run_summary *s;
	const struct cb_cell_summary *x;

	if (!ok(begin(&w, "t", "r1", NULL) == 0, "write a results file"))
		return;
	for (unsigned round = 0; round <= 21; round++) {
		/* 1000 ns/call (1000 MB/s at 1000 B); round 5 preempted (CPU 50% of wall);
		 * round 21 invalid. */
		if (round == 21)
			invalid(&w, &a, 21, "digest mismatch");
		else
			trial(&w, &a, round, 1000 * wobble(round, 1), round == 5 ? 0.5 : 0.99,
			      2500);
		/* A cell whose later half is 30% slower: contaminated, drifting. */
		trial(&w, &slow, round, round > 10 ? 1300 : 1000 * wobble(round, 2), 0.99, 0);
		trial(&w, &z, round, 100, 0.99, 0);
	}
	r = finish(&w);
	unlink(w.path);
	if (!ok(r != NULL, "it reads back"))
		return;
	s = cb_summary_build(r, NULL, NULL, 0);
	if (!ok(s != NULL && s->n_cells == 3, "summary of 3 cells"))
		goto out;
	is_num(s->n_rounds, 21, "measured rounds 1..21");
	is_num(s->first_round, 1, "round 0 is warm-up");
	x = find(s, "eng", "sha256", "hash", 1000);
	is_num(x->n, 20, "20 valid measured trials (warm-up and invalid left out)");
	is_num(x->warmup, 1, "one warm-up trial");
	is_num(x->invalid, 1, "one invalid trial");
	is_str(x->first_error, "digest mismatch", "its reason is kept");
	is_num(x->preempted, 1, "the trial with CPU time at half its wall time is preempted");
	near(x->mbs.median, 1000, 10, "throughput about 1000 MB/s (%.1f)", x->mbs.median);
	near(x->ns.median * x->mbs.median, 1e6, 1e6 * 0.001, "ns/call x MB/s = bytes x 1000");
	ok(x->have_cycles && fabs(x->cpb.median - 2.5) < 1e-9, "cycles per byte 2.5 (%g)",
	   x->cpb.median);
	is_str(s->counter, "estimate", "the cycle counter is named from the header");
	near(x->overhead_ns, 100, 1e-9, "the null engine's 100 ns/call is the overhead");
	near(x->overhead_share, 100 / x->ns.median, 1e-12, "its share of the time");
	ok(x->overhead_warning && !x->unreliable, "10%% overhead: a warning, not unreliable");
	ok(isnan(x->round_mbs[20]), "round 21 has no valid trial: NaN in its round slot");
	ok(!isnan(x->round_mbs[0]), "round 1 has its throughput");

	struct cb_headline h;
	x = find(s, "eng", "md5", "hash", 1000);
	ok(x->ns.contaminated && x->ns.drift,
	   "a slower second half: contaminated (%.1f%%) and "
	   "drifting (p %.2g)",
	   x->ns.contamination * 100, x->ns.drift_p);
	cb_summary_headline(x, CB_STAT_AUTO, &h);
	ok(h.switched && h.mbs == x->mbs.max && isnan(h.lo),
	   "auto headline switches to the min "
	   "time: %s",
	   h.name);
	cb_summary_headline(x, CB_STAT_MEDIAN, &h);
	ok(!h.switched && h.mbs == x->mbs.median && !isnan(h.lo),
	   "--statistic median keeps the median, with its interval");
	cb_summary_headline(x, CB_STAT_MEAN, &h);
	ok(h.mbs == x->mbs.mean && strcmp(h.name, "mean") == 0, "--statistic mean");
	cb_summary_headline(x, CB_STAT_AUTO, &h);
	ok(h.stat == &cb_statistics[CB_STAT_MIN] && strcmp(h.name, h.stat->headline) == 0,
	   "a switched headline carries the min entry of the statistics' table");
	for (int i = 0; i < CB_N_STATISTICS; i++)
		ok(cb_statistic_parse(cb_statistics[i].name) == i && cb_statistics[i].pick,
		   "the table's entry %d is --statistic %s, with its pick", i,
		   cb_statistics[i].name);
	ok(cb_summary_flagged(x), "the cell is flagged");
	x = find(s, "null", "sha256", "hash", 1000);
	ok(x->builtin_null && isnan(x->overhead_share), "the null cell has no overhead of its own");
out:
	cb_summary_free(s);
	cb_results_free(r);
}

/* Ranks catch a stretch that one spike hides from the plain lag-1. */
static void test_rank_lag1(void)
{
	double v[40];
	struct cb_stats_summary s;

	for (int i = 0; i < 40; i++)
		v[i] = (i >= 10 && i < 30 ? 1.5 : 1.0) * wobble((unsigned)i, 9);
	v[35] = 30; /* one wild spike */
	cb_stats_summarize(v, 40, NULL, &s, NULL, 0);
	ok(fabs(s.lag1) < s.lag1_limit,
	   "plain lag-1 %.3f is inside +/-%.3f: the spike hides "
	   "the stretch",
	   s.lag1, s.lag1_limit);
	ok(s.lag1_rank > s.lag1_limit && s.autocorrelated, "lag-1 of ranks %.3f flags it",
	   s.lag1_rank);
}

#define KEY_SCALING                                                                                \
	"[{\"name\":\"k\",\"ratio\":[{\"algorithm\":\"aes-256-cbc\"},{\"algorithm\":\"aes-128-"    \
	"cbc\"}"                                                                                   \
	"],\"by\":[\"label\",\"op\"],\"expect\":{\"value\":0.7142857142857143,\"tolerance\":0.05," \
	"\"when\":{\"op\":\"encrypt\"}}},"                                                         \
	"{\"name\":\"pooled\",\"ratio\":[{\"algorithm\":\"aes-256-cbc\"},{\"algorithm\":"          \
	"\"aes-128-cbc\"}],\"by\":[\"label\"]},"                                                   \
	"{\"name\":\"vs-base\",\"ratio\":[{},{\"label\":\"base\"}],\"by\":[\"label\"]},"           \
	"{\"name\":\"nothing\",\"ratio\":[{\"algorithm\":\"md5\"},{\"algorithm\":\"sha1\"}]}]"

/* Engines base, a, b; AES-128 and AES-256 CBC; encrypt and decrypt; 16 rounds.
 * AES-256 takes 1.4x (encrypt) or 1.2x (decrypt) AES-128's time; engine a is
 * 10% faster than base and b 10% slower, in every cell. SIGN flips a and b. */
static struct cb_results *key_scaling_file(const char *run_id, double sign, double ratio_shift)
{
	unsigned salt = (unsigned)run_id[strlen(run_id) - 1] * 100;
	static const char *const labels[] = {"base", "a", "b"};
	const double speed[] = {1.0, 1.1, 0.9};
	struct file w = {0};

	if (begin(&w, "key", run_id, KEY_SCALING) != 0)
		return NULL;
	for (unsigned round = 1; round <= 16; round++)
		for (int e = 0; e < 3; e++)
			for (int k = 0; k < 2; k++)
				for (int o = 0; o < 2; o++) {
					const char *op = o ? "decrypt" : "encrypt";
					struct cell c = {
					    labels[e], labels[e], k ? "aes-256-cbc" : "aes-128-cbc",
					    op,        16384,     1};
					double s = e == 0 ? 1 : sign > 0 ? speed[e] : speed[3 - e];
					double t =
					    10000 / s * (k ? (o ? 1.2 : 1.4) * ratio_shift : 1.0);

					trial(
					    &w, &c, round,
					    t * wobble(round, salt + (unsigned)(e * 4 + k * 2 + o)),
					    1, 0);
				}
	struct cb_results *r = finish(&w);
	unlink(w.path);
	return r;
}

static const struct cb_derived *metric(const struct cb_analysis *a, const char *key)
{
	for (size_t i = 0; i < a->n_derived; i++)
		if (strcmp(a->derived[i].key, key) == 0)
			return &a->derived[i];
	return NULL;
}

/* The derived row KEY of a comparison, or NULL. */
static const struct cb_compare_row *derived_row(const struct cb_compare *c, const char *key)
{
	for (size_t i = 0; i < c->n_rows; i++)
		if (c->rows[i].kind == CB_ROW_DERIVED && strcmp(c->rows[i].key, key) == 0)
			return &c->rows[i];
	return NULL;
}

static void test_ratios(void)
{
	struct cb_results *r = key_scaling_file("k1", 1, 1);
	struct cb_analysis *a;
	const struct cb_derived *m;
	char err[256];

	if (!ok(r != NULL, "key-scaling file"))
		return;
	a = cb_analysis_build(r, NULL, NULL, err, sizeof err);
	if (!ok(a != NULL, "analysis builds"))
		goto out;
	/* k: 3 labels x 2 ops; pooled: 3 labels; vs-base: labels a and b */
	is_num(a->n_derived, 6 + 3 + 2, "11 metrics from 4 declarations");
	is_num(a->n_notes, 1, "the declaration matching nothing is noted");
	ok(a->n_notes && strstr(a->notes[0], "nothing"), "...by name: %s",
	   a->n_notes ? a->notes[0] : "");
	m = metric(a, "k label=a op=encrypt");
	if (!ok(m && m->ok, "metric 'k label=a op=encrypt' exists")) {
		tap_skip(8, "no metric 'k label=a op=encrypt'");
	} else {
		near(m->ratio.value, 1 / 1.4, 0.01, "ratio 1/1.4 = %.4f", m->ratio.value);
		is_num(m->ratio.n, 16, "paired over 16 rounds");
		ok(m->ratio.ci.lo < m->ratio.value && m->ratio.value < m->ratio.ci.hi,
		   "interval [%.4f, %.4f] holds it", m->ratio.ci.lo, m->ratio.ci.hi);
		is_str(cb_ratio_verdict_name(m->verdict), "slower", "verdict: slower");
		ok(m->has_expect, "the 10/14 expectation applies to encrypt");
		is_str(cb_ratio_expectation_name(m->expectation), "consistent",
		       "1/1.4 = 10/14: consistent");
		is_num(m->family, 1, "one denominator per metric: no Bonferroni");
		near(m->level, 0.95, 1e-12, "level 0.95");
	}
	m = metric(a, "k label=a op=decrypt");
	ok(m && m->ok && !m->has_expect, "decrypt: 'when' leaves the expectation out");
	ok(m && fabs(m->ratio.value - 1 / 1.2) < 0.01, "decrypt ratio 1/1.2");
	m = metric(a, "pooled label=base");
	ok(m && m->ok && m->ratio.n == 16 && m->n_pairs == 2,
	   "op not in 'by': encrypt and decrypt pooled, one observation per round (16 rounds, "
	   "2 pairs)");
	m = metric(a, "vs-base label=a");
	if (!ok(m && m->ok, "engine a against the base")) {
		tap_skip(5, "no metric 'vs-base label=a'");
	} else {
		near(m->ratio.value, 1.1, 0.02, "a is 1.1x base (%.4f)", m->ratio.value);
		is_num(m->n_pairs, 4, "paired on algorithm and op: 4 pairs");
		is_num(m->family, 2, "a and b share the base's cells: Bonferroni m = 2");
		near(m->level, 0.975, 1e-12, "level 1 - 0.05/2");
		is_str(cb_ratio_verdict_name(m->verdict), "faster", "a: faster");
	}
	m = metric(a, "vs-base label=b");
	ok(m && m->verdict == CB_RATIO_SLOWER, "b: slower");
	ok(!metric(a, "vs-base label=base"), "a cell is never its own denominator");
out:
	cb_analysis_free(a);
	cb_results_free(r);

	struct file w = {0};
	begin(&w, "bad", "x", "[{\"name\":\"bad\",\"ratio\":[{\"colour\":\"red\"},{}]}]");
	r = finish(&w);
	unlink(w.path);
	a = r ? cb_analysis_build(r, NULL, NULL, err, sizeof err) : NULL;
	ok(r && !a && strstr(err, "colour"), "an unknown dimension is refused: %s", err);
	cb_results_free(r);
}

/* A worker cell (no cycles) over an in-process one (cycles): its wall time
 * swings by 40% from round to round (preemption of the worker's process)
 * while its CPU time holds, so the ratio is judged on CPU time, as a mask's
 * is (measure.h); with one trial's CPU time missing, on wall time. */
static struct cb_results *worker_file(bool lose_cpu)
{
	static const struct cell worker = {"dotnet",  "dotnet", "aes-256-gcm",
	                                   "encrypt", 1 << 20,  1};
	static const struct cell local = {"openssl", "openssl", "aes-256-gcm",
	                                  "encrypt", 1 << 20,   1};
	struct file w = {0};
	struct cb_results *r;

	if (begin(&w, "worker-vs-openssl", "w1",
	          "[{\"name\":\"w/o\",\"ratio\":[{\"engine\":\"dotnet\"},"
	          "{\"engine\":\"openssl\"}]}]") != 0)
		return NULL;
	for (unsigned round = 0; round <= 16; round++) {
		double swing = round % 2 ? 1.4 : 1.0; /* wall only: CPU stays 200 us */
		double cpu_share = lose_cpu && round == 5 ? 0 : 1.0 / swing;

		trial(&w, &worker, round, 200000 * swing * wobble(round, 1), cpu_share, 0);
		trial(&w, &local, round, 100000 * wobble(round, 2), 1.0, 250000);
	}
	r = finish(&w);
	unlink(w.path);
	return r;
}

static void test_worker_ratio_on_cpu(void)
{
	char err[256];

	for (int lose = 0; lose < 2; lose++) {
		struct cb_results *r = worker_file(lose);
		struct cb_analysis *a =
		    r ? cb_analysis_build(r, NULL, NULL, err, sizeof err) : NULL;
		const struct cb_derived *m = a ? metric(a, "w/o") : NULL;

		if (!ok(m && m->ok, "%s: the worker/openssl ratio is computed",
		        lose ? "one CPU time missing" : "every trial with CPU time")) {
			tap_skip(2, "no ratio");
		} else if (!lose) {
			is_str(
			    cb_measure_names[m->measure], "MB/s of CPU time",
			    "no cycles on the worker, CPU time in every round: judged on CPU time");
			ok(fabs(m->ratio.value - 0.5) < 0.01 &&
			       m->ratio.ci.hi / m->ratio.ci.lo < 1.05,
			   "...0.5 within 5%%, where its wall time swings by 40%% (%.4f [%.4f, "
			   "%.4f])",
			   m->ratio.value, m->ratio.ci.lo, m->ratio.ci.hi);
		} else {
			is_str(cb_measure_names[m->measure], "MB/s",
			       "a round without CPU time: judged on wall time");
			ok(m->ratio.ci.hi / m->ratio.ci.lo > 1.2,
			   "...whose interval shows the swing ([%.4f, %.4f])", m->ratio.ci.lo,
			   m->ratio.ci.hi);
		}
		cb_analysis_free(a);
		cb_results_free(r);
	}
}

static void test_slope_and_crossover(void)
{
	static const unsigned sizes[] = {64, 128, 256, 512, 1024, 4096};
	struct file w = {0};
	struct cb_results *r;
	struct cb_analysis *a;
	char err[256];

	begin(&w, "sweep", "s1", NULL);
	for (unsigned round = 1; round <= 12; round++)
		for (size_t i = 0; i < 6; i++) {
			struct cell x = {"small", "small", "sha256", "hash", sizes[i], 1};
			struct cell y = {"big", "big", "sha256", "hash", sizes[i], 1};

			/* small: 50 + 2/B; big: 500 + 0.5/B; equal at 300 B */
			trial(&w, &x, round, (50 + 2.0 * sizes[i]) * wobble(round, i), 1, 0);
			trial(&w, &y, round, (500 + 0.5 * sizes[i]) * wobble(round, 10 + i), 1, 0);
		}
	r = finish(&w);
	unlink(w.path);
	a = r ? cb_analysis_build(r, NULL, NULL, err, sizeof err) : NULL;
	if (!ok(a != NULL, "sweep analysis"))
		goto out;
	is_num(a->n_slopes, 2, "one slope per engine");
	for (size_t i = 0; i < a->n_slopes; i++) {
		const struct cb_slope *s = &a->slopes[i];
		bool small = strcmp(s->cell->label, "small") == 0;

		near(s->ns.overhead.value, small ? 50 : 500, small ? 5 : 20,
		     "%s: overhead %.1f ns/call", s->cell->label, s->ns.overhead.value);
		near(s->ns.per_byte.value, small ? 2 : 0.5, 0.02, "%s: %.4f ns/B", s->cell->label,
		     s->ns.per_byte.value);
		is_num(s->ns.sizes, 6, "%s: 6 sizes", s->cell->label);
	}
	if (ok(a->n_crossings == 1, "one crossover (%zu)", a->n_crossings)) {
		const struct cb_crossing *x = &a->crossings[0];

		ok(x->x.bracket_lo == 256 && x->x.bracket_hi == 512, "between 256 and 512 B");
		ok(x->x.size > 256 && x->x.size < 512, "at %.0f B (300 by construction)",
		   x->x.size);
		ok(x->x.resolved, "resolved: the intervals are apart at both ends");
		is_str(x->kind, "engines", "between engines");
	}
out:
	cb_analysis_free(a);
	cb_results_free(r);
}

static void test_compare(void)
{
	struct cb_results *f[3] = {key_scaling_file("k1", 1, 1), key_scaling_file("k2", 1, 1),
	                           NULL};
	struct cb_compare *c = NULL;
	char err[512];
	int rc;

	if (!ok(f[0] && f[1], "two runs of one scenario")) {
		tap_skip(17, "no results files");
		goto out;
	}
	rc = cb_compare_build(f, 2, NULL, &c, err, sizeof err);
	if (!ok(rc == 0 && c, "compare builds (%s)", rc ? err : "ok")) {
		tap_skip(16, "no comparison");
		goto out;
	}
	is_num(c->derived[CB_REPRO_REPRODUCED] + c->derived[CB_REPRO_NOT_RESOLVED] +
	           c->derived[CB_REPRO_NON_REPRODUCIBLE] + c->derived[CB_REPRO_CONTRADICTORY],
	       11, "11 derived rows");
	const struct cb_compare_row *row = derived_row(c, "k label=a op=encrypt");
	if (!ok(row != NULL, "the comparison has the row 'k label=a op=encrypt'")) {
		tap_skip(4, "no row 'k label=a op=encrypt'");
	} else {
		is_str(cb_repro_verdict_name(row->repro.verdict), "reproduced",
		       "the same ratio twice: reproduced");
		ok(row->repro.value.lo < row->repro.value.value &&
		       row->repro.value.value < row->repro.value.hi,
		   "across runs: %.4f [%.4f, %.4f]", row->repro.value.value, row->repro.value.lo,
		   row->repro.value.hi);
		is_str(cb_ratio_expectation_name(row->expectation), "consistent",
		       "the expectation holds in both runs");
		is_num(row->expect_consistent, 2, "consistent in 2 of 2");
	}
	is_num(c->n_flips, 0, "no rank flips between identical runs");
	ok(c->derived[CB_REPRO_NON_REPRODUCIBLE] == 0 && c->derived[CB_REPRO_CONTRADICTORY] == 0,
	   "nothing non-reproducible or contradictory in the derived metrics (%zu, %zu)",
	   c->derived[CB_REPRO_NON_REPRODUCIBLE], c->derived[CB_REPRO_CONTRADICTORY]);
	cb_compare_free(c);
	c = NULL;

	/* Engines a and b swap places; AES-256 gets 20% slower. */
	cb_results_free(f[1]);
	f[1] = key_scaling_file("k3", -1, 1.2);
	rc = cb_compare_build(f, 2, NULL, &c, err, sizeof err);
	if (!ok(rc == 0 && c, "the changed runs compare (%s)", rc ? err : "ok")) {
		tap_skip(7, "no comparison");
		goto out;
	}
	row = derived_row(c, "k label=base op=encrypt");
	ok(row && row->repro.verdict == CB_REPRO_NON_REPRODUCIBLE &&
	       (row->repro.pair.lo > 1.02 || row->repro.pair.hi < 1 / 1.02),
	   "a 20%% change of the ratio: non-reproducible, interval beyond 2%% (row %s)",
	   row ? "found" : "missing");
	row = derived_row(c, "vs-base label=a");
	ok(row && row->repro.verdict == CB_REPRO_CONTRADICTORY,
	   "a faster in one run, slower in the other: contradictory (row %s)",
	   row ? "found" : "missing");
	is_num(c->n_flips, 12, "in each of 4 algorithm x op groups, a-base, b-base and a-b flip");
	ok(cb_compare_any_unreproduced(c), "--fail-on would fire");
	cb_compare_free(c);
	c = NULL;

	struct file w = {0};
	begin(&w, "other", "o1", NULL);
	trial(&w, &(struct cell){"x", "x", "md5", "hash", 64, 1}, 1, 100, 1, 0);
	f[2] = finish(&w);
	unlink(w.path);
	struct cb_results *mixed[2] = {f[0], f[2]};
	rc = cb_compare_build(mixed, 2, NULL, &c, err, sizeof err);
	ok(rc == CB_COMPARE_MISMATCH && strstr(err, "scenario"),
	   "runs of different scenarios are refused: %s", err);
	struct cb_results *twice[2] = {f[0], f[0]};
	rc = cb_compare_build(twice, 2, NULL, &c, err, sizeof err);
	ok(rc == CB_COMPARE_MISMATCH && strstr(err, "same run"), "one run twice is refused: %s",
	   err);
	rc = cb_compare_build(f, 1, NULL, &c, err, sizeof err);
	ok(rc == CB_COMPARE_MISMATCH, "one run alone is refused: %s", err);
out:
	cb_compare_free(c);
	for (int i = 0; i < 3; i++)
		cb_results_free(f[i]);
}

static void test_report_formats(void)
{
	struct cb_results *f[2] = {key_scaling_file("k1", 1, 1), key_scaling_file("k2", 1, 1)};
	struct cb_report_options o;
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *out;
	json_t *j;

	cb_report_defaults(&o);
	o.format = CB_FORMAT_CSV;
	out = open_memstream(&buf, &len);
	cb_report_print(out, f, 1, &o, err, sizeof err);
	fclose(out);
	const char *keys = "file,run,engine,label,algorithm,op,size,threads,n,";
	ok(buf && strncmp(buf, keys, strlen(keys)) == 0 && strstr(buf, ",mb_per_s_median,") &&
	       !strstr(buf, "\n\n"),
	   "CSV: one table, keyed by the columns compare shares, with the median MB/s");
	free(buf);
	buf = NULL;

	o.format = CB_FORMAT_JSON;
	out = open_memstream(&buf, &len);
	cb_report_print(out, f, 1, &o, err, sizeof err);
	fclose(out);
	j = json_loads(buf, 0, NULL);
	json_t *cell = json_array_get(json_object_get(json_array_get(j, 0), "cells"), 0);
	ok(json_is_object(json_object_get(json_object_get(cell, "mb_per_s"), "median_ci")),
	   "JSON keeps the median's interval");
	ok(json_is_string(json_object_get(
	       json_object_get(json_object_get(cell, "mb_per_s"), "median_ci"), "method")),
	   "...and names its method");
	ok(json_is_integer(
	       json_object_get(json_object_get(json_array_get(j, 0), "seeds"), "order")),
	   "JSON keeps the seeds");
	json_decref(j);
	free(buf);
	buf = NULL;

	struct cb_compare *c = NULL;
	if (!ok(cb_compare_build(f, 2, NULL, &c, err, sizeof err) == 0,
	        "the two runs compare for the report")) {
		tap_skip(3, "no comparison: %s", err);
	} else {
		out = open_memstream(&buf, &len);
		cb_report_compare(out, c, CB_FORMAT_JSON, NULL, false);
		fclose(out);
		j = json_loads(buf, 0, NULL);
		json_t *d = json_array_get(json_object_get(j, "derived"), 0);
		ok(json_is_string(json_object_get(d, "verdict")) &&
		       json_array_size(json_object_get(d, "runs")) == 2,
		   "compare JSON: a verdict and both runs per metric");
		ok(json_is_string(
		       json_object_get(json_array_get(json_object_get(d, "runs"), 0), "method")),
		   "...each run's estimate names its method");
		json_decref(j);
		free(buf);
		buf = NULL;
		out = open_memstream(&buf, &len);
		cb_report_compare(out, c, CB_FORMAT_TEXT, NULL, false);
		fclose(out);
		ok(buf && strstr(buf, "Derived metrics across runs") && strstr(buf, "reproduced"),
		   "compare text has the derived metrics and their verdicts");
		free(buf);
		cb_compare_free(c);
	}
	for (int i = 0; i < 2; i++)
		cb_results_free(f[i]);

	char n[32];
	is_str(cb_fmt_num(NAN, n), "-", "NaN prints as -");
	is_str(cb_fmt_num(1234.56, n), "1235", "four significant digits");
	is_str(cb_fmt_num(0.714285, n), "0.7143", "below one too");
}

int main(void)
{
	tap_plan(106);
	test_summary();
	test_rank_lag1();
	test_ratios();
	test_worker_ratio_on_cpu();
	test_slope_and_crossover();
	test_compare();
	test_report_formats();
	return tap_done();
}
