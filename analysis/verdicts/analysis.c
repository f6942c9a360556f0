/* analysis.c: one run's analysis, built once (analysis.h). */
#include "analysis/verdicts/analysis.h"

#include <stdlib.h>

#include "analysis/verdicts/stopping.h"
#include "core/base/errbuf.h"

struct cb_analysis *cb_analysis_build(const struct cb_results *r,
                                      const struct cb_summary_options *sopt,
                                      const struct cb_derive_options *dopt, char *err,
                                      size_t err_len)
{
	struct cb_analysis *a = calloc(1, sizeof *a);
	struct cb_summary_options seq;
	struct cb_stop_rule rule;

	if (!a) {
		cb_errorf(err, err_len, "out of memory");
		return NULL;
	}
	a->results = r;
	if (dopt)
		a->options = *dopt;
	else
		cb_derive_defaults(&a->options);
	if (!(a->options.level > 0 && a->options.level < 1) || !(a->options.delta > 0)) {
		cb_errorf(err, err_len, "derive options out of range (level in (0, 1), delta > 0)");
		goto fail;
	}
	/* A run that stopped on its data is judged with the intervals its
	 * stopping used: confidence sequences, valid at that stopping time. */
	if (cb_stop_rule_of(r, &rule, err, err_len) != 0)
		goto fail;
	if (rule.until_resolved) {
		if (sopt)
			seq = *sopt;
		else
			cb_summary_defaults(&seq);
		seq.sequential = true;
		sopt = &seq;
	}
	if (!(a->summary = cb_summary_build(r, sopt, err, err_len)))
		goto fail;
	if (cb_derive_build(a, err, err_len) != 0)
		goto fail;
	if (!(a->winners =
	          cb_winners_build(a->summary, a->options.level, a->options.delta, err, err_len)))
		goto fail;
	if (!(a->masks = cb_masks_build(a, a->options.delta, 1 - a->options.level, err, err_len)))
		goto fail;
	if (!(a->attribution = cb_attribution_build(r, err, err_len)))
		goto fail;
	cb_masks_join(a->masks, a->attribution); /* beside the masks' verdicts, never in them */
	return a;
fail:
	cb_analysis_free(a);
	return NULL;
}

bool cb_analysis_has_pk(const struct cb_analysis *a)
{
	for (size_t i = 0; i < a->summary->n_cells; i++)
		if (a->summary->cells[i].cell->ops)
			return true;
	return false;
}

void cb_analysis_free(struct cb_analysis *a)
{
	if (!a)
		return;
	cb_derive_free(a);
	cb_masks_free(a->masks);
	cb_attribution_free(a->attribution);
	cb_winners_free(a->winners);
	cb_summary_free(a->summary);
	free(a);
}
