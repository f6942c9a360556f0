/* test_stopping.c: the median's confidence sequence (stats/confseq.h) and the
 * stopping rule's questions and cells (verdicts/stopping.h), on samples
 * drawn here and on small results files written here with known numbers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "analysis/stats/confseq.h"
#include "analysis/stats/dependence.h"
#include "analysis/stats/stats.h"
#include "analysis/verdicts/analysis.h"
#include "analysis/verdicts/stopping.h"
#include "core/results/results.h"
#include "tests/tap.h"

/* ---- The confidence sequence ---- */

static void test_ranks(void)
{
	size_t lo, hi, flo, fhi;
	double cov;
	bool wider = true;
	size_t first = 0;

	ok(cb_confseq_ranks(40, 0.95, &lo, &hi) == 0 && lo == 11 && hi == 30,
	   "40 observations at 95%%: ranks 11 and 30 (the fixed-n interval's are 14 and 27)");
	for (size_t t = 1; t <= 40 && !first; t++)
		if (cb_confseq_ranks(t, 0.95, &lo, &hi) == 0)
			first = t;
	ok(first >= 8 && first <= 16, "the first interval at 95%% comes at %zu observations",
	   first);
	for (size_t t = 6; t <= 2000; t++) {
		if (cb_confseq_ranks(t, 0.95, &lo, &hi) != 0)
			continue;
		cb_stats_median_ranks(t, 0.95, &flo, &fhi, &cov);
		wider &= lo <= flo && hi == t + 1 - lo;
	}
	ok(wider, "from 6 to 2000 observations the sequence's ranks are symmetric and never "
	          "inside the fixed-n interval's");
	ok(cb_confseq_ranks(40, 1.5, &lo, &hi) != 0 && lo == 0,
	   "a level outside (0, 1) is refused");
}

static void held_when_the_median_moves(gsl_rng *rng);

static void test_intervals(gsl_rng *rng)
{
	double v[300], last_lo = -INFINITY, last_hi = INFINITY;
	struct cb_stats_interval ci;
	bool nested = true;

	for (size_t i = 0; i < 50; i++)
		v[i] = 7.0;
	cb_confseq_median(v, 50, 0.95, &ci);
	ok(ci.available && ci.lo == 7.0 && ci.hi == 7.0 && ci.method == cb_confseq_method &&
	       ci.coverage == 0.95,
	   "50 equal values: the interval is that value, named a confidence sequence");
	for (size_t i = 0; i < 300; i++)
		v[i] = gsl_ran_gaussian(rng, 1.0);
	for (size_t n = 1; n <= 300; n++) {
		cb_confseq_median(v, n, 0.95, &ci);
		if (!ci.available)
			continue;
		nested &= ci.lo >= last_lo && ci.hi <= last_hi && ci.lo <= ci.hi;
		last_lo = ci.lo;
		last_hi = ci.hi;
	}
	ok(nested, "the running intersection only narrows as observations come");
	cb_confseq_median(v, 5, 0.95, &ci);
	ok(!ci.available && isnan(ci.lo), "5 observations: no interval yet");
	held_when_the_median_moves(rng);
}

/* A run whose median moved: a cell with two speeds (1000 and 800, as a
 * SHA-512 cell swings with what the other vCPU runs) that takes the fast one
 * in 9 of 10 rounds for 60 rounds, then in 3 of 10. The running intersection
 * keeps what the first rounds said and leaves out the run's own median; the
 * interval a report gives (cb_confseq_hold) holds it, and is the sequence's
 * interval at N alone; one that holds the median is left as it was. */
static void held_when_the_median_moves(gsl_rng *rng)
{
	enum { N = 160 };
	double v[N], sorted[N];
	struct cb_stats_interval ci, kept;
	size_t rl, rh;

	for (size_t i = 0; i < N; i++) {
		bool fast = i < 60 ? i % 10 != 0 : i % 10 < 3;
		v[i] = (fast ? 1000.0 : 800.0) + (double)(i % 7);
	}
	memcpy(sorted, v, sizeof v);
	cb_stats_sort(sorted, N);
	double median = (sorted[N / 2 - 1] + sorted[N / 2]) / 2.0;
	cb_confseq_median(v, N, 0.95, &ci);
	bool excluded = ci.available && !(ci.lo <= median && median <= ci.hi);
	cb_confseq_hold(&ci, sorted, N, median);
	cb_confseq_ranks(N, 0.95, &rl, &rh);
	ok(excluded && ci.lo <= median && median <= ci.hi && ci.lo == sorted[rl - 1] &&
	       ci.hi == sorted[rh - 1],
	   "the median moved (the fast speed in 9 of 10 rounds, then 3): the intersection left it "
	   "out; the interval given is the sequence's at N alone, which holds it");
	for (size_t i = 0; i < N; i++)
		v[i] = gsl_ran_gaussian(rng, 1.0);
	memcpy(sorted, v, sizeof v);
	cb_stats_sort(sorted, N);
	median = (sorted[N / 2 - 1] + sorted[N / 2]) / 2.0;
	cb_confseq_median(v, N, 0.95, &ci);
	kept = ci;
	cb_confseq_hold(&ci, sorted, N, median);
	ok(kept.lo <= median && median <= kept.hi && ci.lo == kept.lo && ci.hi == kept.hi,
	   "an intersection that holds the median is given as it is");
}

/* STREAMS streams of LEN observations whose median is 0, their scale
 * changing tenfold halfway (heteroscedastic: the assumption is a constant
 * conditional median, not identical draws). The share of streams that the
 * sequence covers at every length, and the share that the fixed-n interval
 * looked at every 8 observations covers at every look. */
static void uniform_coverage(gsl_rng *rng, size_t streams, size_t len, double *seq, double *fixed)
{
	double *v = malloc(len * sizeof *v), *sorted = malloc(len * sizeof *sorted);
	size_t seq_ok = 0, fixed_ok = 0;

	for (size_t s = 0; s < streams; s++) {
		struct cb_stats_interval ci;
		bool all = true;

		for (size_t i = 0; i < len; i++)
			v[i] = gsl_ran_gaussian(rng, i < len / 2 ? 1.0 : 10.0);
		/* The running intersection at LEN lies within every earlier one: it
		 * covers 0 only if each of them did. */
		cb_confseq_median(v, len, 0.95, &ci);
		seq_ok += ci.available && ci.lo <= 0 && 0 <= ci.hi;
		for (size_t n = 8; n <= len; n += 8) {
			memcpy(sorted, v, n * sizeof *v);
			cb_stats_sort(sorted, n);
			cb_stats_median_interval(sorted, n, 0.95, &ci);
			all &= !ci.available || (ci.lo <= 0 && 0 <= ci.hi);
		}
		fixed_ok += all;
	}
	*seq = (double)seq_ok / (double)streams;
	*fixed = (double)fixed_ok / (double)streams;
	free(v);
	free(sorted);
}

static void test_coverage(gsl_rng *rng)
{
	double seq, fixed;

	uniform_coverage(rng, 2000, 400, &seq, &fixed);
	diag("2000 streams of 400: covered at every length by the sequence %.3f, at every "
	     "8th by the fixed-n interval %.3f",
	     seq, fixed);
	ok(seq >= 0.95,
	   "the sequence covers the median at every one of 400 lengths in %.1f%% of "
	   "streams (>= 95%%)",
	   seq * 100);
	ok(fixed <= 0.80,
	   "the fixed-n interval looked at 50 times covers at every look in only "
	   "%.1f%% (<= 80%%): why the sequence",
	   fixed * 100);
}

/* ---- The rule ---- */

static void test_rule(void)
{
	struct cb_stop_rule rule, back;
	char err[256];
	json_t *j, *bad;

	cb_stop_defaults(&rule);
	ok(!rule.until_resolved && rule.alpha == 0.05 && rule.delta == 0.02 && rule.block == 8 &&
	       rule.min_rounds == 8 && rule.max_rounds == 400 && rule.budget_s == 0 &&
	       rule.precision == 0,
	   "defaults: fixed rounds, alpha 5%%, delta 2%%, blocks of 8, 8 to 400 rounds");
	rule.until_resolved = true;
	rule.precision = 0.01;
	rule.budget_s = 180;
	rule.max_rounds = 96;
	j = cb_stop_rule_json(&rule);
	ok(j && cb_stop_rule_parse(j, &back, err, sizeof err) == 0 && back.until_resolved &&
	       back.alpha == rule.alpha && back.delta == rule.delta &&
	       back.precision == rule.precision && back.block == rule.block &&
	       back.min_rounds == rule.min_rounds && back.max_rounds == rule.max_rounds &&
	       back.budget_s == rule.budget_s,
	   "the rule reads back from its JSON");
	json_decref(j);
	bad = json_pack("{s:b, s:f}", "until_resolved", 1, "alpha", 0.7);
	ok(cb_stop_rule_parse(bad, &back, err, sizeof err) != 0 && strstr(err, "alpha"),
	   "alpha 0.7 is refused: %s", err);
	json_decref(bad);
	bad = json_pack("{s:i}", "rounds", 8);
	ok(cb_stop_rule_parse(bad, &back, err, sizeof err) != 0 && strstr(err, "\"rounds\""),
	   "an unknown key is refused: %s", err);
	json_decref(bad);
	bad = json_pack("{s:i, s:i}", "min_rounds", 50, "max_rounds", 40);
	ok(cb_stop_rule_parse(bad, &back, err, sizeof err) != 0,
	   "max_rounds below min_rounds is refused");
	json_decref(bad);
}

/* ---- Questions and cells on a results file ---- */

struct cell {
	const char *label, *alg;
	double ns_per_call; /* at 1000 bytes */
	double noise;       /* relative, uniform in +-noise */
};

/* Deterministic noise in [-1, 1] per (round, salt). */
static double wobble(unsigned round, unsigned salt)
{
	unsigned x = round * 2654435761u ^ salt * 40503u;

	x ^= x >> 13;
	x *= 0x5bd1e995u;
	x ^= x >> 15;
	return ((double)(x % 2001) - 1000.0) / 1000.0;
}

/* A run of ROUNDS measured rounds of CELLS, with the stop rule STOP (NULL:
 * none) and the derive declarations DERIVE, read back. */
static struct cb_results *write_run(const struct cell *cells, size_t n, unsigned rounds,
                                    const char *stop, const char *derive)
{
	char path[] = "/tmp/cb-test-stopping-XXXXXX", err[512];
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	unsigned long seq = 0;
	struct cb_results *r;

	if (!f)
		return NULL;
	fprintf(f,
	        "{\"type\":\"run\",\"schema\":\"cryptobench/1\",\"run_id\":\"s\",\"run_index\":0,"
	        "\"scenario\":{\"name\":\"s\",\"sha256\":\"x\",\"derive\":%s},\"order\":\"round-"
	        "robin\","
	        "\"order_seed\":7,\"input\":{\"seed\":1}%s%s}\n",
	        derive, stop ? ",\"stop\":" : "", stop ? stop : "");
	for (unsigned round = 1; round <= rounds; round++)
		for (size_t c = 0; c < n; c++) {
			double ns = cells[c].ns_per_call *
			            (1 + cells[c].noise * wobble(round, (unsigned)c + 1)) * 100;

			fprintf(
			    f,
			    "{\"type\":\"trial\",\"round\":%u,\"seq\":%lu,\"cell\":{\"engine\":\"%"
			    "s\","
			    "\"label\":\"%s\",\"algorithm\":\"%s\",\"op\":\"hash\",\"size\":1000,"
			    "\"threads\":1,\"mode\":\"message\"},\"warmup\":false,\"calls\":100,"
			    "\"bytes\":100000,\"valid\":true,\"ns\":%.0f,\"cpu_ns\":%.0f}\n",
			    round, seq++, cells[c].label, cells[c].label, cells[c].alg, ns, ns);
		}
	fprintf(f, "{\"type\":\"end\",\"interrupted\":false}\n");
	fclose(f);
	r = cb_results_read(path, err, sizeof err);
	if (!r)
		diag("%s", err);
	unlink(path);
	return r;
}

static const struct cb_stop_cell *cell_of(const struct cb_stop_state *s, const struct cb_results *r,
                                          const char *label, const char *alg)
{
	for (size_t i = 0; i < r->n_cells; i++)
		if (strcmp(r->cells[i].label, label) == 0 &&
		    strcmp(r->cells[i].algorithm, alg) == 0)
			return &s->cells[i];
	return NULL;
}

static const struct cb_question *question(const struct cb_stop_state *s, const char *prefix)
{
	for (size_t q = 0; q < s->n_questions; q++)
		if (strncmp(s->questions[q].name, prefix, strlen(prefix)) == 0)
			return &s->questions[q];
	return NULL;
}

/* sha256: a and b, b 10% slower, 1% noise: resolved. md5: c and d the same
 * speed, d with 30% noise: not resolved in 48 rounds. aes: e alone, no
 * question. The derived b/a (expected 1/1.1) resolves with its expectation. */
static const struct cell cells[] = {
    {"a", "sha256", 1000, 0.01}, {"b", "sha256", 1100, 0.01}, {"c", "md5", 2000, 0.01},
    {"d", "md5", 2000, 0.30},    {"e", "aes", 500, 0.01},
};
static const char derive[] = "[{\"name\":\"b/a\",\"ratio\":[{\"label\":\"b\"},{\"label\":\"a\"}],"
                             "\"by\":[\"size\"],\"expect\":{\"value\":0.909,\"tolerance\":0.05}}]";

static struct cb_stop_state *check(const struct cb_analysis *a, const struct cb_stop_rule *rule,
                                   double elapsed)
{
	char err[256];
	struct cb_stop_state *s = cb_stop_check(a, rule, elapsed, err, sizeof err);

	if (!s)
		diag("%s", err);
	return s;
}

static void test_questions(void)
{
	struct cb_results *r = write_run(cells, 5, 48, "{\"until_resolved\":true}", derive);
	struct cb_analysis *a;
	struct cb_stop_rule rule;
	struct cb_stop_state *s;
	const struct cb_question *q;
	char err[256];

	if (!ok(r && cb_stop_rule_of(r, &rule, err, sizeof err) == 0 && rule.until_resolved,
	        "a file with a stop rule reads back with its rule") ||
	    !ok((a = cb_analysis_build(r, NULL, NULL, err, sizeof err)) != NULL,
	        "it is analysed")) {
		tap_skip(16, "no analysis");
		cb_results_free(r);
		return;
	}
	/* The ratio's sides have noise of their own: the sequence with the margin
	 * for it (dependence.h). */
	ok(a->summary->cells[0].mbs.median_ci.method == cb_confseq_method &&
	       (a->derived[0].ratio.ci.method == cb_confseq_method ||
	        a->derived[0].ratio.ci.method == cb_dependence_own_method),
	   "its cells' and ratios' intervals are the confidence sequence's");
	if (!ok((s = check(a, &rule, 10)) != NULL, "the rule is checked")) {
		tap_skip(13, "no state");
		goto done;
	}
	is_num(s->n_questions, 4,
	       "4 questions: two winners groups, a derived metric, its "
	       "expectation");
	q = question(s, "winners sha256");
	ok(q && !q->open && strstr(q->answer, "fastest a"), "sha256's group is answered: %s",
	   q ? q->answer : "?");
	q = question(s, "winners md5");
	ok(q && q->open, "md5's group is open: %s", q ? q->answer : "?");
	q = question(s, "derived");
	ok(q && !q->open && strstr(q->answer, "slower"), "b/a is answered: %s",
	   q ? q->answer : "?");
	q = question(s, "expectation");
	ok(q && !q->open && strstr(q->answer, "consistent"), "its expectation is answered: %s",
	   q ? q->answer : "?");
	is_num(s->n_open, 1, "one question open");
	ok(!cell_of(s, r, "a", "sha256")->open && !cell_of(s, r, "b", "sha256")->open &&
	       strcmp(cell_of(s, r, "b", "sha256")->why, "all 3 questions answered") == 0,
	   "sha256's cells leave the rotation: %s", cell_of(s, r, "b", "sha256")->why);
	ok(cell_of(s, r, "c", "md5")->open && cell_of(s, r, "d", "md5")->open,
	   "md5's cells stay: %s", cell_of(s, r, "d", "md5")->why);
	ok(!cell_of(s, r, "e", "aes")->open &&
	       strcmp(cell_of(s, r, "e", "aes")->why, "serves no question") == 0,
	   "a cell serving no question closes at once");
	is_num(s->n_open_cells, 2, "2 cells open");

	json_t *look = cb_stop_state_json(s, r);
	ok(look && json_array_size(json_object_get(look, "open_questions")) == 1 &&
	       json_array_size(json_object_get(look, "closed_cells")) == 3 &&
	       json_array_size(json_object_get(look, "open_cells")) == 2,
	   "the look line lists the open question, the 2 open and the 3 closed cells");
	json_decref(look);
	cb_stop_state_free(s);

	rule.min_rounds = 100;
	s = check(a, &rule, 10);
	ok(s && cell_of(s, r, "a", "sha256")->open && !cell_of(s, r, "e", "aes")->open,
	   "min_rounds keeps answered cells in: %s", s ? cell_of(s, r, "a", "sha256")->why : "?");
	cb_stop_state_free(s);
	rule.min_rounds = 8;
	rule.max_rounds = 48;
	s = check(a, &rule, 10);
	ok(s && s->n_open_cells == 0 &&
	       strcmp(cell_of(s, r, "d", "md5")->why, "max_rounds 48 reached") == 0,
	   "max_rounds closes every cell: %s", s ? cell_of(s, r, "d", "md5")->why : "?");
	cb_stop_state_free(s);
	rule.max_rounds = 400;
	rule.budget_s = 5;
	s = check(a, &rule, 10);
	ok(s && s->n_open_cells == 0 && strstr(cell_of(s, r, "c", "md5")->why, "budget"),
	   "so does the end of the budget: %s", s ? cell_of(s, r, "c", "md5")->why : "?");
	cb_stop_state_free(s);
done:
	cb_analysis_free(a);
	cb_results_free(r);
}

/* Without a rule the same file is analysed with the fixed-n intervals. */
static void test_fixed(void)
{
	struct cb_results *r = write_run(cells, 5, 48, NULL, derive);
	struct cb_analysis *a = r ? cb_analysis_build(r, NULL, NULL, NULL, 0) : NULL;

	ok(a && a->summary->cells[0].mbs.median_ci.method == NULL &&
	       a->derived[0].ratio.ci.method == NULL && a->derived[0].ratio.ci.rank_lo == 17,
	   "without a stop rule: the exact fixed-n intervals (ranks 17 and 32 of 48)");
	cb_analysis_free(a);
	cb_results_free(r);
	r = write_run(cells, 5, 48, "{\"until_resolved\":true,\"alpha\":2}", derive);
	char err[256] = "";
	a = r ? cb_analysis_build(r, NULL, NULL, err, sizeof err) : NULL;
	ok(r && !a && strstr(err, "stop"), "a bad stop rule in the header is an error: %s", err);
	cb_analysis_free(a);
	cb_results_free(r);
}

int main(void)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	tap_plan(36);
	gsl_rng_set(rng, 20260804);
	test_ranks();
	test_intervals(rng);
	test_coverage(rng);
	test_rule();
	test_questions();
	test_fixed();
	gsl_rng_free(rng);
	return tap_done();
}
