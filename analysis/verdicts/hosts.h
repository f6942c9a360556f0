/* hosts.h: results files from several hosts, host against host.
 *
 * A results file names the machine it was measured on (its header's
 * host.hostname). Files of several hosts are grouped by host, in the order
 * their hosts first come, the baseline host first. Then:
 *
 *   1. the runs of each host that has more than one are judged against each
 *      other as runs of one machine (compare.h): per cell the host's
 *      reproducibility verdict (reproduced, non-reproducible, contradictory,
 *      not resolved);
 *   2. each other host is set against the baseline host cell by cell
 *      (baseline.h, cb_baseline_build_runs): each host's estimate pools its
 *      runs (random effects on the log scale: the interval widens with the
 *      spread between runs), and the speed ratio gets a verdict (faster,
 *      slower, equivalent within delta, not resolved).
 *
 * The printers (report_hosts.c) and the hosts chart (plots/) read this. */
#ifndef CB_HOSTS_H
#define CB_HOSTS_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/verdicts/baseline.h"
#include "analysis/verdicts/compare.h"

struct cb_host {
	const char *name;          /* the header's host name (the results own it) */
	struct cb_results **files; /* its runs, in the order given */
	size_t k;
	struct cb_analysis **runs; /* their analyses (the compare's when k > 1) */
	struct cb_compare *repro;  /* its runs against each other; NULL when k == 1 */
};

/* Host HOST against the baseline host: the comparison, and per row of it the
 * row of each host's reproducibility (NULL where that host has one run). */
struct cb_hosts_pair {
	size_t host; /* index into cb_hosts.hosts (>= 1) */
	struct cb_baseline *b;
	const struct cb_compare_row **base_repro, **other_repro;
};

struct cb_hosts {
	struct cb_host *hosts; /* the baseline host first */
	size_t n;
	struct cb_hosts_pair *pairs; /* n - 1 */
	struct cb_compare_options options;
};

/* The host name of a results file ("?" when its header has none). */
const char *cb_results_host(const struct cb_results *r);

/* How many distinct hosts the N FILES come from. */
size_t cb_hosts_count(struct cb_results *const *files, size_t n);

#define CB_HOSTS_NO_BASE (-3)

/* Group the N FILES (which must outlive the result) by host and compare
 * them as above with OPT (NULL: compare's defaults); BASE_HOST names the
 * baseline host (NULL: the first file's). 0 with *OUT; CB_HOSTS_NO_BASE when
 * no file is of BASE_HOST; CB_COMPARE_MISMATCH with ERR when a host's runs
 * cannot be compared with each other (other scenarios, one run twice); -1
 * with ERR when memory runs out. */
int cb_hosts_build(struct cb_results *const *files, size_t n, const char *base_host,
                   const struct cb_compare_options *opt, struct cb_hosts **out, char *err,
                   size_t err_len);
void cb_hosts_free(struct cb_hosts *h);

/* Whether some host's runs are non-reproducible or contradictory somewhere. */
bool cb_hosts_any_unreproduced(const struct cb_hosts *h);

/* The reproducibility of a row's host in words: the verdict of ROW, or
 * "single run" when ROW is NULL. */
const char *cb_hosts_repro_name(const struct cb_compare_row *row);

#endif
