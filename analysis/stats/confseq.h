/* confseq.h: confidence sequences for a median, valid at any stopping time.
 *
 * A run that stops when its answer is known (verdicts/stopping.h) looks at
 * its data after every block of rounds and stops on what it sees. The fixed-n
 * interval of stats.h, re-checked at every look, then covers far less than
 * its level: each look is another chance to stop on a lucky stretch. A
 * confidence sequence holds at every round at once, so it holds at whatever
 * round the run stopped at.
 *
 * Method (Howard, Ramdas, McAuliffe & Sekhon 2021, "Time-uniform,
 * nonparametric, nonasymptotic confidence sequences"; applied to quantiles as
 * in Howard & Ramdas 2022, "Sequential estimation of quantiles"). Let m be
 * the median of Y_1, Y_2, ... in the sense that every observation's
 * conditional distribution given the past has m as a median (weaker than
 * i.i.d.: the spread may change from round to round). Then, with a fair coin
 * to split the ties at m (used in the proof only), Z_i with
 * 1{Y_i < m} <= Z_i <= 1{Y_i <= m} and P(Z_i = 1 | past) = 1/2 exactly, and
 * S_t = sum (Z_i - 1/2) is a martingale with increments in [-1/2, 1/2]:
 * sub-Gaussian with variance proxy 1/4 each (Hoeffding), V_t = t/4. The
 * two-sided normal mixture (mixing exp(lambda S - lambda^2 V / 2) over
 * lambda ~ N(0, 1/rho)) gives, by Ville's inequality,
 *
 *   P(exists t: |S_t| >= b(t)) <= alpha,
 *   b(t) = sqrt((V_t + rho) log((V_t + rho) / (rho alpha^2)))
 *
 * Inverted over m: at time t, m lies in [Y_(k), Y_(t+1-k)] of the sorted
 * first t observations, k = floor(t/2 - b(t)) + 1 (none while b(t) > t/2).
 * The reported interval at t is the running intersection over every
 * t' <= t (valid, since on the event above all of them hold at once).
 *
 * rho sets where the boundary is tightest: the value of Howard et al. for
 * intrinsic time v* = t* / 4, rho = v* / (2 log(1/alpha) + log(1 +
 * 2 log(1/alpha))), with t* = CB_CONFSEQ_TARGET_ROUNDS. */
#ifndef CB_CONFSEQ_H
#define CB_CONFSEQ_H

#include <stddef.h>

#include "analysis/stats/interval.h"

/* The number of observations the boundary is tightest at: between the
 * 40 rounds of a typical fixed run and the 100 a hard question needs. */
#define CB_CONFSEQ_TARGET_ROUNDS 64

/* What an interval of this module says it is (cb_stats_interval.method). */
extern const char cb_confseq_method[];

/* rho tuned for T_OPT observations at error rate ALPHA (0 < ALPHA < 1). */
double cb_confseq_rho(double t_opt, double alpha);

/* b(t) for T observations at ALPHA with RHO: the bound on |S_t|. */
double cb_confseq_boundary(size_t t, double alpha, double rho);

/* The ranks of the interval at T observations alone (no intersection) at
 * LEVEL (0 < LEVEL < 1), rho from cb_confseq_rho(CB_CONFSEQ_TARGET_ROUNDS,
 * 1 - LEVEL): RANK_HI = T + 1 - RANK_LO. -1 (ranks 0) while the boundary
 * exceeds t/2: too few observations for LEVEL. */
int cb_confseq_ranks(size_t t, double level, size_t *rank_lo, size_t *rank_hi);
/* The same for dependent observations (dependence.h): the boundary b(t)
 * times sqrt(VIF), the variance proxy VIF t/4. VIF >= 1; 1 is the above. */
int cb_confseq_ranks_widened(size_t t, double level, double vif, size_t *rank_lo, size_t *rank_hi);

/* The confidence sequence's interval after the N VALUES (in the order they
 * were observed; not modified) at LEVEL: the running intersection of the
 * intervals after 1, 2, ..., N of them. OUT->method is cb_confseq_method,
 * OUT->coverage the level (a lower bound that holds at every N), the ranks
 * those of the interval at N alone. Should the intersection come out empty
 * at some prefix (which the guarantee allows with probability at most
 * 1 - LEVEL), it starts again from that prefix's interval: what happens on
 * that event does not touch the coverage. Unavailable (not an error) when no prefix
 * reaches an interval; -1 only for a bad LEVEL or when memory runs out. */
int cb_confseq_median(const double *values, size_t n, double level, struct cb_stats_interval *out);
/* The same with every prefix's interval widened for dependent observations
 * (cb_confseq_ranks_widened); -1 also for VIF < 1. */
int cb_confseq_median_widened(const double *values, size_t n, double level, double vif,
                              struct cb_stats_interval *out);

/* The interval a report gives beside the sample MEDIAN of the N SORTED
 * values: CI, the sequence's running intersection (cb_confseq_median), when
 * it holds MEDIAN; else the sequence's interval at N alone. The intersection
 * is valid only while every observation has one median; when the median
 * moved during the run (a SHA-512 cell whose speed changed with what the
 * other vCPU ran gave [855, 861] MB/s beside a median of 818) it can exclude
 * the run's own median, and an estimate outside its interval is refused by
 * every comparison downstream. The interval at N alone holds the median by
 * construction, and it covers whenever the intersection would (both hold m
 * on the event the guarantee is about), so the coverage is the same. */
void cb_confseq_hold(struct cb_stats_interval *ci, const double *sorted, size_t n, double median);
/* The same for an interval widened by VIF (cb_confseq_median_widened). */
void cb_confseq_hold_widened(struct cb_stats_interval *ci, const double *sorted, size_t n,
                             double median, double vif);

#endif
