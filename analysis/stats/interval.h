/* interval.h: a median's interval, the type stats.h computes at a fixed n
 * and confseq.h at any stopping time; apart from both, so that neither
 * includes the other's module. */
#ifndef CB_INTERVAL_H
#define CB_INTERVAL_H

#include <stdbool.h>
#include <stddef.h>

/* A distribution-free interval for a median: [x(rank_lo), x(rank_hi)] of the
 * sorted sample, ranks 1-based and symmetric (rank_hi = n + 1 - rank_lo). Its
 * coverage P(rank_lo <= B <= rank_hi - 1), B ~ Binomial(n, 1/2), is exact for
 * continuous data and never below the level asked for. */
struct cb_stats_interval {
	bool available; /* false when n is too small for the level (n < 6 at 0.95) */
	double lo, hi;  /* NaN when not available */
	size_t rank_lo; /* 0 when not available */
	size_t rank_hi;
	double level;    /* the level asked for */
	double coverage; /* the exact coverage achieved (>= level), NaN when not available */
	/* NULL: this fixed-n interval; else what the interval is instead (a
	 * confidence sequence's, confseq.h, whose coverage is then its level). */
	const char *method;
};

#endif
