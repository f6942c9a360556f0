/* plan_runs_predict.h: the prediction a plan for runs rests on, apart from
 * the search for the cheapest plan (plan_runs.c).
 *
 * cb_plan_predict is the Monte Carlo judged by compare's own
 * rule; cb_plan_predict_range is the analytic range model that prunes the
 * search. Both take the worst of the quantiles of what the pilot leaves
 * unknown about the components (plan_runs.h, "The pilot's uncertainty"): a
 * plan taken at the point estimates of a three-run pilot under-plans. */
#ifndef CB_PLAN_RUNS_PREDICT_H
#define CB_PLAN_RUNS_PREDICT_H

#include <stddef.h>

/* What the prediction of one row rests on (all on the log scale). */
struct cb_plan_model {
	double between;      /* sigma_b^2 */
	double within;       /* sigma_w^2 (Kalibera and Jones's; used for n*) */
	double scale;        /* robust within-run sd (cb_components_robust_within):
	                      * the rounds' spread the simulated runs are drawn
	                      * with; NaN: the one se_pilot implies */
	double se_pilot;     /* a pilot run's standard error, as compare reads it:
	                      * the root mean square over the pilot's runs */
	double pilot_rounds; /* the rounds se_pilot was read at (harmonic mean) */
	double level;        /* of the runs' intervals: 0.95, or Bonferroni-wider */
	double delta, alpha; /* the row's margin and compare's error rate */
	size_t family;       /* F (plan_runs.h): rows judged together (1: alone) */
	/* How well the pilot knows the components (plan_runs.h); pilot_runs 0:
	 * take between and scale as known. */
	size_t pilot_runs;   /* k: runs the spread of medians was read from */
	double median_var;   /* their medians' sample variance (k - 1 df) */
	double median_noise; /* the medians' own noise in it, at scale */
	double scale_df;     /* degrees of freedom of scale (plan_runs.h) */
};

/* The run's standard error at ROUNDS rounds under M (NaN below 6 rounds at
 * 95%: no interval). */
double cb_plan_se(const struct cb_plan_model *m, size_t rounds);

/* P(reproduced) and P(non-reproducible) of a fresh set of RUNS runs of
 * ROUNDS rounds under M; their sum is P(resolved). 0, or -1 when an argument
 * is out of range (both NaN). */
int cb_plan_predict(const struct cb_plan_model *m, size_t runs, size_t rounds, double *p_reproduced,
                    double *p_beyond);

/* P(reproduced) and P(non-reproducible) under the range model (plan_runs.h)
 * at the worst of the quantiles of sigma_b^2's sampling distribution. The
 * range's distribution for K > 2 is tabulated once per K (plan_runs_predict.c).
 * 0, or -1 (both NaN) when an argument is out of range. */
int cb_plan_predict_range(const struct cb_plan_model *m, size_t runs, size_t rounds,
                          double *p_reproduced, double *p_beyond);

/* P(resolved) under the range model averaged over sigma_b^2's sampling
 * distribution (ten equally weighted quantiles), the rounds' variance at its
 * estimate: the expected share of such plans that resolve the row. NaN when
 * an argument is out of range. */
double cb_plan_predict_expected(const struct cb_plan_model *m, size_t runs, size_t rounds);

/* cb_plan_predict's draws, stopped early (after 100, then every 50) once
 * they tell by three standard errors which side of TARGET P(resolved) lies
 * on: the search asks only that. */
int cb_plan_predict_against(const struct cb_plan_model *m, size_t runs, size_t rounds,
                            double target, double *p_reproduced, double *p_beyond);

#endif
