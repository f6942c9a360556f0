/* winners.h: which engine is fastest, per algorithm, op, size and threads.
 *
 * Within one run, the engines measured for one algorithm, op, size and
 * thread count form a group (the null and memcpy built-ins are references,
 * not contenders). The leader is the engine with the highest median
 * per-round throughput: bytes per cycle when every cell of the group counted
 * cycles (frequency-free), else MB/s. Every other engine's throughput is
 * then divided by the leader's, paired by round (ratio.h: exact sign-test
 * interval, Bonferroni over the group's m - 1 comparisons), and judged
 * against the practical margin delta:
 *
 *   tied          equivalent within delta: one of the fastest
 *   slower        slower by more than delta, with confidence
 *   not resolved  otherwise: the data cannot tell (too few rounds, or a
 *                 difference near delta); never counted as a win or a loss
 *
 * The next engine is the fastest of the slower ones: how far behind the
 * leader's group the field starts.
 *
 * Same conventions as stats.h: a pointer on success, NULL with a one-line
 * ERR. */
#ifndef CB_WINNERS_H
#define CB_WINNERS_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/stats/ratio.h"
#include "analysis/stats/summary.h"

enum cb_winner_standing {
	CB_WINNER_LEADER,
	CB_WINNER_TIED,
	CB_WINNER_NOT_RESOLVED,
	CB_WINNER_SLOWER,
};

struct cb_winner_member {
	const struct cb_cell_summary *cell;
	double score;          /* median per-round throughput on the group's measure */
	double mbs;            /* the cell's median MB/s */
	struct cb_ratio ratio; /* its throughput over the leader's, paired by round
	                        * (the leader's own: n 0, value NaN) */
	bool ratio_ok;
	enum cb_winner_standing standing;
};

struct cb_winner_group {
	struct cb_winner_member *members; /* in the run's cell order */
	size_t n_members;
	size_t best;    /* index of the leader in members */
	size_t next;    /* index of the fastest slower engine; n_members when none */
	bool on_cycles; /* judged on bytes per cycle */
	double level;   /* of the ratio intervals, after Bonferroni */
};

struct cb_winners {
	struct cb_winner_group *groups; /* in order of first appearance */
	size_t n_groups;
	double delta, level;
	bool several_threads; /* the run has more than one thread count */
};

/* The groups of summary S (cells with samples), judged at LEVEL (before
 * Bonferroni) with margin DELTA. NULL with ERR when memory runs out or an
 * argument is out of range. */
struct cb_winners *cb_winners_build(const struct cb_run_summary *s, double level, double delta,
                                    char *err, size_t err_len);
void cb_winners_free(struct cb_winners *w);

/* The labels of G's members with standing WHICH, joined by ", " into BUF
 * ("" when none). */
const char *cb_winners_names(const struct cb_winner_group *g, enum cb_winner_standing which,
                             char *buf, size_t len);

/* Whether CELL is a reference built-in (null, memcpy), not a contender. */
bool cb_winners_is_reference(const struct cb_result_cell *cell);

#endif
