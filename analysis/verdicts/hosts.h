/* hosts.h: results files from several hosts, host against host.
 *
 * A results file says which machine it was measured on: its header's host
 * object, whose identity (core/machine/host_id.h: name, CPU model and numbers,
 * cores, memory, kernel) tells two machines of one hostname apart. Files
 * of several hosts are grouped by host, in the order their hosts first
 * come, the baseline host first. A host is labelled by its name, or where
 * two hosts share a name by the name and its CPU model ("vm (AMD EPYC)"; a
 * "#2" after it if that still collides). Then:
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

#define CB_HOST_LABEL_LEN 320
#define CB_HOST_KEY_LEN 512

struct cb_host {
	const char *name; /* its label (points into label) */
	char label[CB_HOST_LABEL_LEN];
	char key[CB_HOST_KEY_LEN]; /* its identity as text (cb_host_id_key) */
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

/* The host name of a results file: the name given with run --host, else
 * its hostname ("?" when its header has neither). */
const char *cb_results_host(const struct cb_results *r);

/* Whether results files A and B were measured on one host (host_id.h). */
bool cb_results_same_host(const struct cb_results *a, const struct cb_results *b);

/* How many distinct hosts the N FILES come from. */
size_t cb_hosts_count(struct cb_results *const *files, size_t n);

/* The N FILES grouped by host and labelled as above, nothing analysed (the
 * report's grouping): *N_HOSTS hosts in *OUT, each with its files and k.
 * 0, or -1 when memory runs out. Free with cb_hosts_group_free. */
int cb_hosts_group(struct cb_results *const *files, size_t n, struct cb_host **out,
                   size_t *n_hosts);
void cb_hosts_group_free(struct cb_host *hosts, size_t n);

#define CB_HOSTS_NO_BASE (-3)
#define CB_HOSTS_AMBIGUOUS (-4)

/* Group the N FILES (which must outlive the result) by host and compare
 * them as above with OPT (NULL: compare's defaults); BASE_HOST names the
 * baseline host by its label or, when only one host has it, its name (NULL:
 * the first file's). 0 with *OUT; CB_HOSTS_NO_BASE when no file is of
 * BASE_HOST; CB_HOSTS_AMBIGUOUS with ERR when it names several hosts;
 * CB_COMPARE_MISMATCH with ERR when a host's runs
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
