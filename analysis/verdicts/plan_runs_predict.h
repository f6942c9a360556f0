/* plan_runs_predict.h: the prediction a plan for runs rests on, apart from
 * the search for the cheapest plan (plan_runs.c).
 *
 * cb_plan_predict (plan_runs.h) is the Monte Carlo judged by compare's own
 * rule; cb_plan_predict_range is the analytic range model that prunes the
 * search. Both take the worst of the quantiles of what the pilot leaves
 * unknown about the components (plan_runs.h, "The pilot's uncertainty"): a
 * plan taken at the point estimates of a three-run pilot under-plans. */
#ifndef CB_PLAN_RUNS_PREDICT_H
#define CB_PLAN_RUNS_PREDICT_H

#include <stddef.h>

#include "analysis/verdicts/plan_runs.h"

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
