/* confseq.c: the median's confidence sequence (confseq.h). */
#include "analysis/stats/confseq.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

const char cb_confseq_method[] = "confidence sequence (normal mixture)";

double cb_confseq_rho(double t_opt, double alpha)
{
	double l = 2.0 * log(1.0 / alpha);

	return t_opt / 4.0 / (l + log(1.0 + l));
}

double cb_confseq_boundary(size_t t, double alpha, double rho)
{
	double v = (double)t / 4.0 + rho;

	return sqrt(v * log(v / (rho * alpha * alpha)));
}

int cb_confseq_ranks(size_t t, double level, size_t *rank_lo, size_t *rank_hi)
{
	return cb_confseq_ranks_widened(t, level, 1.0, rank_lo, rank_hi);
}

int cb_confseq_ranks_widened(size_t t, double level, double vif, size_t *rank_lo, size_t *rank_hi)
{
	double alpha = 1.0 - level, below;

	*rank_lo = *rank_hi = 0;
	if (!(level > 0.0 && level < 1.0) || t == 0 || !(vif >= 1.0))
		return -1;
	/* The count of observations at or below m exceeds t/2 - b: the lower end
	 * is the first order statistic past that, floor(t/2 - b) + 1. The small
	 * margin rounds a boundary that lands on an integer outwards, so that
	 * rounding can only widen the interval. Dependent rounds: the variance
	 * proxy is VIF t/4 (and rho VIF with it), which multiplies b by
	 * sqrt(VIF). */
	below = (double)t / 2.0 -
	        sqrt(vif) *
	            cb_confseq_boundary(t, alpha, cb_confseq_rho(CB_CONFSEQ_TARGET_ROUNDS, alpha));
	below -= 1e-9 * (double)t;
	if (below < 0.0)
		return -1;
	*rank_lo = (size_t)floor(below) + 1;
	*rank_hi = t + 1 - *rank_lo;
	return 0;
}

/* Order statistics of a growing prefix: a Fenwick tree over the positions
 * of the values in sorted order, so each prefix's k-th smallest is found in
 * O(log n) without sorting it again. */
struct prefix_order {
	size_t n, top; /* top: the largest power of two <= n */
	size_t *tree;  /* 1-based counts */
	size_t *rank;  /* rank[i]: position (1-based) of value i in sorted order */
	double *sorted;
};

struct indexed {
	double value;
	size_t index;
};

static int by_value(const void *a, const void *b)
{
	const struct indexed *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	/* ties in order of arrival: any order gives the same order statistics */
	return x->index < y->index ? -1 : x->index > y->index;
}

static int prefix_order_init(struct prefix_order *p, const double *values, size_t n)
{
	struct indexed *order = malloc(n * sizeof *order);

	p->n = n;
	p->tree = calloc(n + 1, sizeof *p->tree);
	p->rank = malloc(n * sizeof *p->rank);
	p->sorted = malloc(n * sizeof *p->sorted);
	if (!order || !p->tree || !p->rank || !p->sorted) {
		free(order);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = (struct indexed){values[i], i};
	qsort(order, n, sizeof *order, by_value);
	for (size_t k = 0; k < n; k++) {
		p->rank[order[k].index] = k + 1;
		p->sorted[k] = order[k].value;
	}
	free(order);
	for (p->top = 1; p->top * 2 <= n; p->top *= 2)
		;
	return 0;
}

static void prefix_order_free(struct prefix_order *p)
{
	free(p->tree);
	free(p->rank);
	free(p->sorted);
}

static void prefix_order_add(struct prefix_order *p, size_t i)
{
	for (size_t k = p->rank[i]; k <= p->n; k += k & (~k + 1))
		p->tree[k]++;
}

/* The K-th smallest (1-based) of the values added so far. */
static double prefix_order_kth(const struct prefix_order *p, size_t k)
{
	size_t at = 0;

	for (size_t step = p->top; step; step /= 2)
		if (at + step <= p->n && p->tree[at + step] < k) {
			at += step;
			k -= p->tree[at];
		}
	return p->sorted[at]; /* position at + 1, 1-based */
}

int cb_confseq_median(const double *values, size_t n, double level, struct cb_stats_interval *out)
{
	return cb_confseq_median_widened(values, n, level, 1.0, out);
}

int cb_confseq_median_widened(const double *values, size_t n, double level, double vif,
                              struct cb_stats_interval *out)
{
	struct prefix_order p = {0};
	double lo = NAN, hi = NAN;
	bool any = false;

	out->available = false;
	out->lo = out->hi = NAN;
	out->rank_lo = out->rank_hi = 0;
	out->level = level;
	out->coverage = NAN;
	out->method = cb_confseq_method;
	if (!(level > 0.0 && level < 1.0) || !(vif >= 1.0))
		return -1;
	if (n == 0)
		return 0;
	if (prefix_order_init(&p, values, n) != 0) {
		prefix_order_free(&p);
		return -1;
	}
	for (size_t t = 1; t <= n; t++) {
		size_t rl, rh;
		double l, h;

		prefix_order_add(&p, t - 1);
		if (cb_confseq_ranks_widened(t, level, vif, &rl, &rh) != 0)
			continue;
		l = prefix_order_kth(&p, rl);
		h = prefix_order_kth(&p, rh);
		if (any && fmax(lo, l) <= fmin(hi, h)) {
			lo = fmax(lo, l);
			hi = fmin(hi, h);
		} else { /* the first interval, or an empty intersection: start again */
			lo = l;
			hi = h;
		}
		any = true;
		out->rank_lo = rl;
		out->rank_hi = rh;
	}
	prefix_order_free(&p);
	if (any) {
		out->available = true;
		out->lo = lo;
		out->hi = hi;
		out->coverage = level;
	}
	return 0;
}

void cb_confseq_hold(struct cb_stats_interval *ci, const double *sorted, size_t n, double median)
{
	cb_confseq_hold_widened(ci, sorted, n, median, 1.0);
}

void cb_confseq_hold_widened(struct cb_stats_interval *ci, const double *sorted, size_t n,
                             double median, double vif)
{
	size_t rl, rh;

	if (!ci->available || (ci->lo <= median && median <= ci->hi) ||
	    cb_confseq_ranks_widened(n, ci->level, vif, &rl, &rh) != 0)
		return;
	ci->lo = sorted[rl - 1];
	ci->hi = sorted[rh - 1];
	ci->rank_lo = rl;
	ci->rank_hi = rh;
}
