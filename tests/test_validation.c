/* test_validation.c: the statistics measured against known truth.
 *
 * The sim engine runs on a virtual clock with a declared cost and declared
 * noise, so the truth is known and the method can be measured end to end
 * (scenario -> run -> results file -> analysis -> compare):
 *
 *   coverage      95% intervals of the median and of paired ratios cover the
 *                 true value 92-98% of the time
 *   false alarms  repeated runs with nothing changed are called
 *                 non-reproducible in at most 5% of pairs
 *   power         a ratio planted to move from 0.932 to 0.691 between runs is
 *                 caught in at least 99% of pairs; a 5% change over 5 runs x 30
 *                 rounds in at least 80% of sets
 *   flags         a contaminated stretch of rounds and a drift are flagged, a
 *                 clean run is not
 *
 *   tests/test_validation [SEED]     (or CB_VALIDATION_SEED; the seed is printed)
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>

#include "analysis/compare.h"
#include "analysis/derive.h"
#include "core/plan.h"
#include "core/results.h"
#include "core/runner.h"
#include "core/lua/load.h"
#include "core/scenario.h"
#include "analysis/summary.h"
#include "tests/tap.h"

#define DEFAULT_SEED 20260804ul

static unsigned long base_seed;
static unsigned long sim_seeds; /* seeds handed out so far */

static const char *srcdir(void)
{
	const char *d = getenv("top_srcdir");

	return d ? d : ".";
}

/* A fresh seed for a sim engine: distinct for every run of the whole test. */
static unsigned long next_seed(void)
{
	return (base_seed * 7919ul + ++sim_seeds) % 4000000000ul;
}

/* Run tests/scenarios/sim/NAME as run RUN_INDEX with the --set pairs SET[0..n),
 * and read the results back. NULL on failure (reported). */
static struct cb_results *run_sim(const char *name, const struct cb_override *set, size_t n,
                                  unsigned run_index)
{
	char path[1024], out[] = "/tmp/cb-validation-XXXXXX", err[1024];
	struct cb_load_options load = {.overrides = set, .n_overrides = n};
	struct cb_run_options options = {.runs = 1, .run_index = run_index};
	struct cb_scenario *s;
	struct cb_plan *plan = NULL;
	struct cb_run *run = NULL;
	struct cb_writer *w = NULL;
	struct cb_results *r = NULL;
	struct cb_run_totals totals;
	json_t *header, *end;
	int fd = mkstemp(out);

	if (fd < 0) {
		diag("cannot create a file in /tmp");
		return NULL;
	}
	close(fd);
	snprintf(path, sizeof path, "%s/tests/scenarios/sim/%s", srcdir(), name);
	if (!(s = cb_scenario_load(path, &load, err, sizeof err)) ||
	    !(plan = cb_plan_build(s, err, sizeof err)) ||
	    !(run = cb_run_prepare(plan, &options, err, sizeof err))) {
		diag("%s", err);
		goto done;
	}
	header = cb_run_header(run);
	w = cb_writer_create(out, header, err, sizeof err);
	json_decref(header);
	if (!w || cb_run_execute(run, w, &totals, err, sizeof err) != 0) {
		diag("%s", err);
		goto done;
	}
	end = cb_run_end(run, &totals);
	cb_writer_close(w, end);
	w = NULL;
	json_decref(end);
	if (!(r = cb_results_read(out, err, sizeof err)))
		diag("%s", err);
done:
	if (w)
		cb_writer_close(w, NULL);
	cb_run_free(run);
	cb_plan_free(plan);
	cb_scenario_free(s);
	unlink(out);
	return r;
}

/* The median of factor exp(jitter Z) x (spike_factor with probability
 * spike_rate), as the sim draws it: solves (1-p) Phi(z) + p Phi(z - ln f / s)
 * = 1/2 for z by bisection, the median being exp(s z). */
static double true_median_factor(double jitter, double rate, double factor)
{
	double lo = -10, hi = 10;

	for (int i = 0; i < 200; i++) {
		double z = (lo + hi) / 2;
		double cdf = (1 - rate) * gsl_cdf_ugaussian_P(z) +
		             rate * gsl_cdf_ugaussian_P(z - log(factor) / jitter);
		*(cdf < 0.5 ? &lo : &hi) = z;
	}
	return exp(jitter * (lo + hi) / 2);
}

#define METRICS 4      /* independent ratios per run of ratio.lua */
#define RATIO 0.932    /* ratio.lua's declared numerator/denominator throughput */
#define DEN_NS 16384.0 /* a denominator's declared ns per call (16 KiB at 1 ns/B) */

/* K runs of ratio.lua with SHIFT planted in the numerators, run indices 0..k-1. */
static int ratio_runs(struct cb_results **r, size_t k, double shift)
{
	for (size_t i = 0; i < k; i++) {
		char seed[32], sh[32];
		struct cb_override set[] = {{"seed", seed}, {"shift", sh}};

		snprintf(seed, sizeof seed, "%lu", next_seed());
		snprintf(sh, sizeof sh, "%.17g", shift);
		if (!(r[i] = run_sim("ratio.lua", set, 2, (unsigned)i))) {
			while (i--)
				cb_results_free(r[i]);
			return -1;
		}
	}
	return 0;
}

struct tally {
	size_t sets, failed;
	size_t metrics, derived_alarm, contradictory, rules[3];
	size_t cells, cell_alarm;
	size_t ratio_intervals, ratio_covered;   /* run intervals holding RATIO */
	size_t median_intervals, median_covered; /* cell intervals holding the true median */
};

/* The median intervals of run A's cells against the declared cost. */
static void count_median_coverage(const struct cb_run_summary *s, struct tally *t)
{
	double factor = true_median_factor(0.02, 0.02, 3);

	for (size_t c = 0; c < s->n_cells; c++) {
		const struct cb_stats_interval *ci = &s->cells[c].ns.median_ci;
		bool num = strncmp(s->cells[c].cell->label, "num-", 4) == 0;
		double truth = (num ? DEN_NS / RATIO : DEN_NS) * factor;

		t->median_intervals += ci->available;
		t->median_covered += ci->available && ci->lo <= truth && truth <= ci->hi;
	}
}

/* SETS sets of K runs each with SHIFT planted, compared; the verdicts counted. */
static void simulate(size_t sets, size_t k, double shift, struct tally *t)
{
	struct cb_results *r[8];

	memset(t, 0, sizeof *t);
	t->sets = sets;
	for (size_t s = 0; s < sets; s++) {
		struct cb_compare *c = NULL;
		char err[512];

		if (ratio_runs(r, k, shift) != 0) {
			t->failed++;
			continue;
		}
		if (cb_compare_build(r, k, NULL, &c, err, sizeof err) != 0) {
			diag("%s", err);
			t->failed++;
			goto next;
		}
		for (size_t i = 0; i < c->n_rows; i++) {
			const struct cb_compare_row *row = &c->rows[i];
			bool alarm = row->repro.verdict == CB_REPRO_NON_REPRODUCIBLE ||
			             row->repro.verdict == CB_REPRO_CONTRADICTORY;

			if (row->kind == CB_ROW_CELL) {
				t->cells++;
				t->cell_alarm += alarm;
				continue;
			}
			t->metrics++;
			t->derived_alarm += alarm;
			t->contradictory += row->repro.verdict == CB_REPRO_CONTRADICTORY;
			for (int b = 0; b < 3; b++)
				t->rules[b] += (row->repro.rules >> b) & 1;
			for (size_t j = 0; j < k && shift == 0; j++) {
				const struct cb_compare_value *v = &row->runs[j];

				t->ratio_intervals += v->present && !isnan(v->e.lo);
				t->ratio_covered +=
				    v->present && v->e.lo <= RATIO && RATIO <= v->e.hi;
			}
		}
		for (size_t j = 0; j < k && shift == 0; j++)
			count_median_coverage(c->runs[j]->summary, t);
		cb_compare_free(c);
	next:
		for (size_t i = 0; i < k; i++)
			cb_results_free(r[i]);
	}
}

/* Nothing changes between runs: the intervals' coverage and the false alarms. */
static void test_no_change(void)
{
	struct tally t;

	simulate(200, 2, 0, &t);
	double rate = t.metrics ? (double)t.derived_alarm / (double)t.metrics : 1;
	double cells = t.cells ? (double)t.cell_alarm / (double)t.cells : 1;
	double ratio_cover =
	    t.ratio_intervals ? (double)t.ratio_covered / (double)t.ratio_intervals : 0;
	double median_cover =
	    t.median_intervals ? (double)t.median_covered / (double)t.median_intervals : 0;

	is_num(t.failed, 0, "all %zu pairs of runs ran and compared", t.sets);
	is_num(t.metrics, METRICS * t.sets, "%d independent ratios per pair of runs", METRICS);
	diag("coverage of the median's 95%% interval (n = 30 rounds, exact coverage 0.957): "
	     "%zu of %zu = %.3f",
	     t.median_covered, t.median_intervals, median_cover);
	ok(median_cover >= 0.92 && median_cover <= 0.98,
	   "median intervals cover the true median %.1f%% of the time (92-98%%)",
	   median_cover * 100);
	diag("coverage of the paired ratio's 95%% sign-test interval: %zu of %zu = %.3f",
	     t.ratio_covered, t.ratio_intervals, ratio_cover);
	ok(ratio_cover >= 0.92 && ratio_cover <= 0.98,
	   "ratio intervals cover the declared %.3f %.1f%% of the time (92-98%%)", RATIO,
	   ratio_cover * 100);
	diag("no change, %zu pairs of runs x 30 rounds, %zu ratios: non-reproducible %zu = %.2f%% "
	     "(disjoint %zu, spread %zu, heterogeneity %zu); cells %zu of %zu = %.2f%%",
	     t.sets, t.metrics, t.derived_alarm, rate * 100, t.rules[0], t.rules[1], t.rules[2],
	     t.cell_alarm, t.cells, cells * 100);
	ok(rate <= 0.05, "false alarms on derived ratios: %.2f%% <= 5%%", rate * 100);
	ok(cells <= 0.05, "false alarms on cells: %.2f%% <= 5%%", cells * 100);
}

static void test_power(void)
{
	struct tally t;
	double shift = RATIO / 0.691 - 1; /* run 2's numerators slow so the ratio is 0.691 */

	simulate(30, 2, shift, &t);
	double rate = t.metrics ? (double)t.derived_alarm / (double)t.metrics : 0;
	is_num(t.failed, 0, "all %zu planted pairs of runs ran and compared", t.sets);
	diag("ratio 0.932 -> 0.691 between two runs: non-reproducible in %zu of %zu = %.1f%% "
	     "(contradictory %zu)",
	     t.derived_alarm, t.metrics, rate * 100, t.contradictory);
	ok(rate >= 0.99, "0.932 -> 0.691 caught in %.1f%% (>= 99%%)", rate * 100);

	/* 5%: run index i slows the numerators by 1.25% x i, so run 5 is 5% off run 1. */
	simulate(30, 5, 0.0125, &t);
	rate = t.metrics ? (double)t.derived_alarm / (double)t.metrics : 0;
	is_num(t.failed, 0, "all %zu sets of 5 runs ran and compared", t.sets);
	diag("5%% change across 5 runs x 30 rounds: non-reproducible in %zu of %zu = %.1f%% "
	     "(disjoint %zu, spread %zu, heterogeneity %zu)",
	     t.derived_alarm, t.metrics, rate * 100, t.rules[0], t.rules[1], t.rules[2]);
	ok(rate >= 0.80, "a 5%% change caught in %.1f%% (>= 80%%)", rate * 100);
}

/* RUNS runs of flags.lua (eight independent cells each) with SET plus a fresh
 * seed: the share of cells flagged (drift only, or any flag); -1 on failure. */
static double flag_rate(const char *what, struct cb_override *set, size_t n, size_t runs,
                        bool drift_only)
{
	size_t flagged = 0, cells = 0, contaminated = 0, drift = 0, lag = 0;
	char seed[32];

	set[n].key = "seed";
	set[n].value = seed;
	for (size_t i = 0; i < runs; i++) {
		struct cb_results *r;
		struct cb_run_summary *s;

		snprintf(seed, sizeof seed, "%lu", next_seed());
		if (!(r = run_sim("flags.lua", set, n + 1, 0)))
			return -1;
		if (!(s = cb_summary_build(r, NULL, NULL, 0)) || s->n_cells != 8) {
			cb_summary_free(s);
			cb_results_free(r);
			return -1;
		}
		for (size_t k = 0; k < s->n_cells; k++) {
			const struct cb_cell_summary *c = &s->cells[k];

			cells++;
			contaminated += c->ns.contaminated;
			drift += c->ns.drift;
			lag += c->ns.autocorrelated;
			flagged += drift_only ? c->ns.drift : cb_summary_flagged(c);
		}
		cb_summary_free(s);
		cb_results_free(r);
	}
	diag("%s: flagged %zu of %zu cells (contaminated %zu, drift %zu, lag-1 %zu)", what, flagged,
	     cells, contaminated, drift, lag);
	return (double)flagged / (double)cells;
}

/* A stretch of rounds FROM..TO of 40 at 1.5x the time. */
static double stretch_rate(const char *from, const char *to)
{
	struct cb_override set[4] = {{"from", from}, {"to", to}, {"factor", "1.5"}};
	char what[96];

	snprintf(what, sizeof what, "rounds %s-%s of 40 at 1.5x", from, to);
	return flag_rate(what, set, 3, 13, false);
}

static void test_flags(void)
{
	struct cb_override set[2];
	double rate;

	/* Drift and lag-1 each test at 0.01: about 2% of clean cells are flagged. */
	rate = flag_rate("clean, 40 rounds", set, 0, 26, false);
	ok(rate >= 0 && rate <= 0.05, "a clean run is not flagged (%.1f%% of cells flagged)",
	   rate * 100);
	rate = stretch_rate("21", "40");
	ok(rate >= 0.95, "a contaminated second half is flagged (%.0f%% of cells)", rate * 100);
	rate = stretch_rate("11", "30");
	ok(rate >= 0.95, "a contaminated stretch of 20 rounds is flagged (%.0f%% of cells)",
	   rate * 100);
	rate = stretch_rate("11", "25");
	ok(rate >= 0.70, "a stretch of 15 rounds: flagged in %.0f%% of cells (lag-1 alone)",
	   rate * 100);
	set[0] = (struct cb_override){"drift", "0.002"};
	rate = flag_rate("drift 0.2% per round (8% over 40 rounds)", set, 1, 13, true);
	ok(rate >= 0.95, "a drift is flagged as drift (%.0f%% of cells)", rate * 100);
}

int main(int argc, char **argv)
{
	const char *env = getenv("CB_VALIDATION_SEED");

	base_seed = argc > 1 ? strtoul(argv[1], NULL, 0)
	            : env    ? strtoul(env, NULL, 0)
	                     : DEFAULT_SEED;
	diag("seed %lu (tests/test_validation SEED or CB_VALIDATION_SEED=SEED repeats this run)",
	     base_seed);
	test_no_change();
	test_power();
	test_flags();
	return tap_done();
}
