/* test_dependence.c: dependent rounds and the widened median intervals
 * (stats/dependence.h), on series drawn here with a known median.
 *
 * The dependent series is what a pair of engines on their own slow machine
 * state gives a paired log ratio: white noise plus an AR(1) term the pairing
 * does not cancel. Median 0 throughout, so coverage is counted exactly.
 *
 *   tests/test_dependence [SEED]   (the seed is printed)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "analysis/stats/confseq.h"
#include "analysis/stats/dependence.h"
#include "analysis/stats/ratio.h"
#include "analysis/stats/stats.h"
#include "tests/tap.h"

#define N 400
#define SERIES 400

/* White noise of SD 1 plus an AR(1) term of RHO whose stationary SD is AR_SD. */
static void draw(gsl_rng *rng, double rho, double ar_sd, double *v, size_t n)
{
	double e = ar_sd * gsl_ran_gaussian(rng, 1.0);

	for (size_t i = 0; i < n; i++) {
		e = rho * e + ar_sd * sqrt(1 - rho * rho) * gsl_ran_gaussian(rng, 1.0);
		v[i] = gsl_ran_gaussian(rng, 1.0) + e;
	}
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct count {
	size_t dependent, covered_plain, covered_widened;
	double vif;
};

/* SERIES series of RHO and AR_SD: how often shown dependent, and how often
 * the fixed-n interval at 95% covers 0, plain and widened. */
static void count(gsl_rng *rng, double rho, double ar_sd, struct count *c)
{
	double v[N], sorted[N];

	*c = (struct count){0};
	for (size_t s = 0; s < SERIES; s++) {
		struct cb_dependence d;
		struct cb_stats_interval plain, wide;

		draw(rng, rho, ar_sd, v, N);
		cb_dependence_of(v, N, &d);
		for (size_t i = 0; i < N; i++)
			sorted[i] = v[i];
		qsort(sorted, N, sizeof *sorted, by_value);
		cb_stats_median_interval(sorted, N, 0.95, &plain);
		cb_stats_median_interval_widened(sorted, N, 0.95, d.vif, &wide);
		c->dependent += d.dependent;
		c->vif += d.vif / SERIES;
		c->covered_plain += plain.lo <= 0 && 0 <= plain.hi;
		c->covered_widened += wide.available && wide.lo <= 0 && 0 <= wide.hi;
	}
}

static void test_widening(void)
{
	double sorted[100];
	struct cb_stats_interval exact, same, wide;
	size_t lo, hi, wlo, whi;

	for (size_t i = 0; i < 100; i++)
		sorted[i] = (double)i;
	cb_stats_median_interval(sorted, 100, 0.95, &exact);
	cb_stats_median_interval_widened(sorted, 100, 0.95, 1.0, &same);
	cb_stats_median_interval_widened(sorted, 100, 0.95, 4.0, &wide);
	ok(same.rank_lo == exact.rank_lo && same.coverage == exact.coverage,
	   "VIF 1: the exact interval, ranks %zu-%zu", same.rank_lo, same.rank_hi);
	ok(wide.available && 50.0 - (double)wide.rank_lo >= 2 * (50.0 - (double)exact.rank_lo) &&
	       50.0 - (double)wide.rank_lo < 2 * (50.0 - (double)exact.rank_lo) + 1,
	   "VIF 4: the ranks twice as far from the middle (%zu-%zu against %zu-%zu)", wide.rank_lo,
	   wide.rank_hi, exact.rank_lo, exact.rank_hi);
	cb_stats_median_interval_widened(sorted, 100, 0.95, 400.0, &wide);
	ok(!wide.available && isnan(wide.lo), "VIF 400 at 100 rounds: no interval");
	cb_confseq_ranks(100, 0.95, &lo, &hi);
	cb_confseq_ranks_widened(100, 0.95, 1.0, &wlo, &whi);
	ok(lo == wlo && hi == whi, "the sequence's ranks at VIF 1 are its own (%zu-%zu)", lo, hi);
	cb_confseq_ranks_widened(100, 0.95, 2.0, &wlo, &whi);
	ok(wlo < lo && whi == 101 - wlo, "at VIF 2 wider and symmetric (%zu-%zu)", wlo, whi);
}

static void test_flags(gsl_rng *rng)
{
	struct count iid, slow;
	struct cb_dependence d;
	double v[N];

	count(rng, 0, 0, &iid);
	diag("independent rounds: shown dependent in %zu of %d, mean VIF %.2f; covered %zu plain, "
	     "%zu widened",
	     iid.dependent, SERIES, iid.vif, iid.covered_plain, iid.covered_widened);
	ok(iid.dependent <= SERIES * 15 / 100,
	   "independent rounds are shown dependent in at most 15%% of series (%zu of %d)",
	   iid.dependent, SERIES);
	ok(iid.covered_widened >= SERIES * 94 / 100,
	   "... and the interval still covers (%zu of %d)", iid.covered_widened, SERIES);
	/* The case of the sim's own AR(1) 0.95 on each engine: a lag-1 of only
	 * about 0.3 in the paired series, a long-run variance ten times the
	 * per-round one. */
	count(rng, 0.95, 0.7, &slow);
	diag("AR(1) 0.95 under white noise: shown dependent in %zu of %d, mean VIF %.2f; "
	     "covered %zu plain, %zu widened",
	     slow.dependent, SERIES, slow.vif, slow.covered_plain, slow.covered_widened);
	ok(slow.covered_plain < SERIES * 80 / 100,
	   "slow noise the pairing does not cancel: the plain interval covers in %zu of %d "
	   "(< 80%%)",
	   slow.covered_plain, SERIES);
	ok(slow.dependent >= SERIES * 95 / 100 && slow.covered_widened >= SERIES * 90 / 100,
	   "shown dependent in %zu of %d; widened, it covers in %zu (>= 90%%)", slow.dependent,
	   SERIES, slow.covered_widened);
	/* A slow drift: a sinusoid of period 60 rounds. */
	for (size_t i = 0; i < N; i++)
		v[i] = gsl_ran_gaussian(rng, 1.0) + 0.8 * sin(2 * M_PI * (double)i / 60.0);
	cb_dependence_of(v, N, &d);
	ok(d.dependent && d.vif > 2 && d.batch == N / CB_DEP_BATCHES,
	   "a drift of period 60: dependent, VIF %.1f on blocks of %zu", d.vif, d.batch);
	/* Too few rounds to size it. */
	for (size_t i = 0; i < 24; i++)
		v[i] = i < 12 ? 1.0 + 0.01 * (double)i : -1.0 - 0.01 * (double)i;
	cb_dependence_of(v, 24, &d);
	ok(d.dependent && d.hold && d.batches == 0,
	   "24 rounds in two runs of 12: lag-1 %.2f shows it, too few rounds to size it: held",
	   d.lag1);
	for (size_t i = 0; i < 5; i++)
		v[i] = (double)i;
	cb_dependence_of(v, 5, &d);
	ok(!d.judged && !d.dependent && d.vif == 1.0, "5 rounds: not judged, counted independent");
}

/* The margin for each side's own slow noise (cb_dependence_own_noise):
 * taken where the sides share little, of the size the prior gives, none
 * where they share their noise, gone once the rounds show a short memory. */
static void test_own_noise(gsl_rng *rng)
{
	double num[N], den[N], logs[N], z = 1.959963984540054;
	struct cb_dependence d;

	/* Sides of their own: independent noise on each. */
	for (size_t i = 0; i < N; i++) {
		num[i] = exp(0.02 * gsl_ran_gaussian(rng, 1.0));
		den[i] = exp(0.02 * gsl_ran_gaussian(rng, 1.0));
		logs[i] = log(num[i]) - log(den[i]);
	}
	cb_dependence_of(logs, 24, &d);
	cb_dependence_own_noise(num, den, 24, logs, 24, 0.95, &d);
	ok(d.own_judged && d.share < CB_OWN_SHARE_MIN && d.margin > 0 &&
	       fabs(d.margin - z * d.spread) < 1e-12,
	   "24 rounds, sides sharing %.2f: a margin of z x the spread %.4f (%.4f)", d.share,
	   d.spread, d.margin);
	cb_dependence_of(logs, 100, &d);
	cb_dependence_own_noise(num, den, 100, logs, 100, 0.95, &d);
	ok(fabs(d.margin - z * d.spread * sqrt(CB_OWN_PRIOR_VIF / 100.0)) < 1e-12,
	   "100 rounds: the prior's sqrt(39 / n) of it (%.4f)", d.margin);
	/* Sides that share their noise: a load common to both in each round. */
	for (size_t i = 0; i < N; i++) {
		double load = exp(0.10 * gsl_ran_gaussian(rng, 1.0));

		num[i] = load * exp(0.02 * gsl_ran_gaussian(rng, 1.0));
		den[i] = load * exp(0.02 * gsl_ran_gaussian(rng, 1.0));
		logs[i] = log(num[i]) - log(den[i]);
	}
	cb_dependence_of(logs, 24, &d);
	cb_dependence_own_noise(num, den, 24, logs, 24, 0.95, &d);
	ok(d.share >= CB_OWN_SHARE_MIN && d.margin == 0 && !cb_dependence_reported(&d),
	   "sides sharing %.2f: no margin", d.share);
	/* Of their own again, with a memory the batches show short: the
	 * signs alternate, every batch's mean is 1/2. */
	for (size_t i = 0; i < N; i++) {
		num[i] = i % 2 ? 1.01 : 0.99;
		den[i] = 1.0 + 0.0001 * (double)((i * 7919) % 13);
		logs[i] = log(num[i]) - log(den[i]);
	}
	cb_dependence_of(logs, CB_OWN_SIZED_ROUNDS - 8, &d);
	cb_dependence_own_noise(num, den, CB_OWN_SIZED_ROUNDS - 8, logs, CB_OWN_SIZED_ROUNDS - 8,
	                        0.95, &d);
	ok(d.margin > 0 && !d.own_cleared, "a short memory before %d rounds: the margin stays",
	   CB_OWN_SIZED_ROUNDS);
	cb_dependence_of(logs, CB_OWN_SIZED_ROUNDS, &d);
	cb_dependence_own_noise(num, den, CB_OWN_SIZED_ROUNDS, logs, CB_OWN_SIZED_ROUNDS, 0.95, &d);
	ok(d.own_cleared && d.margin == 0,
	   "at %d rounds the batches show it short (VIF %.2f): cleared", CB_OWN_SIZED_ROUNDS,
	   d.batch_vif);
}

/* The batches' medians as units (cb_dependence_batch_interval): where the
 * rounds are so dependent that no rank interval forms, a pair far apart is
 * still told apart; the interval covers the series' centre; and it stands
 * only where the rank interval is missing. */
static void test_batch_units(gsl_rng *rng)
{
	double num[N], den[N], v[N];
	struct cb_ratio r;
	char err[128];
	size_t covered = 0, formed = 0;

	/* At 0.2 of its leader, on slow noise of its own of +-5% that lasts
	 * hundreds of rounds: the signs count 400 rounds as a handful. */
	draw(rng, 0.995, 10.0, v, N);
	for (size_t i = 0; i < N; i++) {
		num[i] = 0.2 * exp(0.005 * v[i]);
		den[i] = 1.0;
	}
	cb_ratio_paired_by(num, den, N, 0.95, CB_RATIO_SEQUENTIAL, &r, err, sizeof err);
	size_t rank_lo, rank_hi;

	ok(r.dependence.dependent &&
	       cb_confseq_ranks_widened(N, 0.95, r.dependence.vif, &rank_lo, &rank_hi) != 0 &&
	       r.ci.available && r.dependence.batch_units &&
	       r.ci.method == cb_dependence_batch_method && r.ci.hi < 1.0 / 1.02 &&
	       r.ci.lo <= r.value && r.value <= r.ci.hi,
	   "0.2 of the leader at VIF %.0f: over the batches' medians [%.3f, %.3f]",
	   r.dependence.vif, r.ci.lo, r.ci.hi);
	/* Coverage of the centre, on the sim's AR(1) 0.95 under white noise. */
	for (size_t s = 0; s < SERIES; s++) {
		struct cb_stats_interval ci;

		draw(rng, 0.95, 0.7, v, N);
		cb_dependence_batch_interval(v, N, 0.95, &ci);
		formed += ci.available;
		covered += ci.available && ci.lo <= 0 && 0 <= ci.hi;
	}
	ok(formed == SERIES && covered >= SERIES * 92 / 100,
	   "AR(1) 0.95 under white noise: the batches' interval covers in %zu of %d", covered,
	   SERIES);
	/* Moderate dependence: the widened ranks form, the batches stand aside. */
	draw(rng, 0.5, 1.0, v, N);
	for (size_t i = 0; i < N; i++) {
		num[i] = exp(0.02 * v[i]);
		den[i] = 1.0;
	}
	cb_ratio_paired_by(num, den, N, 0.95, CB_RATIO_SEQUENTIAL, &r, err, sizeof err);
	ok(r.ci.available && !r.dependence.batch_units && r.ci.method != cb_dependence_batch_method,
	   "AR(1) 0.5 (VIF %.1f): the ranks' interval, not the batches'", r.dependence.vif);
}

int main(int argc, char **argv)
{
	unsigned long seed = argc > 1 ? strtoul(argv[1], NULL, 0) : 20261204ul;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	printf("# seed %lu\n", seed);
	gsl_rng_set(rng, seed);
	tap_plan(20);
	test_widening();
	test_flags(rng);
	test_own_noise(rng);
	test_batch_units(rng);
	gsl_rng_free(rng);
	return tap_done();
}
