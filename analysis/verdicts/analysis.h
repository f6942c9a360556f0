/* analysis.h: one run's analysis, the module every verdict and printer reads.
 *
 * Built once per results file: the cells' summaries (stats/summary.h), the
 * declared derived metrics, slopes and crossovers (derive.h), the winners
 * (winners.h) and the capability masks (masks.h), each with the options in
 * force; beside them, what the profiled trials say of which code ran
 * (attribution.h), which none of those verdicts reads: the masks' code join
 * (masks.h) sets it beside each mask's timing verdict. Printers (report/) only
 * read it; nothing in it prints. */
#ifndef CB_ANALYSIS_H
#define CB_ANALYSIS_H

#include <stddef.h>

#include "analysis/stats/summary.h"
#include "analysis/verdicts/analysis_data.h" /* struct cb_analysis */
#include "analysis/verdicts/derive.h"
#include "analysis/verdicts/attribution.h"
#include "analysis/verdicts/masks.h"
#include "analysis/verdicts/winners.h"
#include "core/results/results.h"

/* Summarise R (SOPT, NULL: defaults) and derive its metrics, winners and
 * masks (DOPT, NULL: defaults; masks are judged at DOPT's delta with error
 * rate 1 - DOPT's level). When R's header carries a stopping rule that is
 * until_resolved (stopping.h), every median interval is a confidence
 * sequence's (SOPT's sequential is set), whatever SOPT says. R must outlive
 * the analysis. NULL with ERR when memory runs out, an option is out of
 * range, a declaration is malformed, or the header's "stop" is bad. */
struct cb_analysis *cb_analysis_build(const struct cb_results *r,
                                      const struct cb_summary_options *sopt,
                                      const struct cb_derive_options *dopt, char *err,
                                      size_t err_len);
void cb_analysis_free(struct cb_analysis *a);
/* Whether A's run has public-key cells (their trials count operations). */
bool cb_analysis_has_pk(const struct cb_analysis *a);

#endif
