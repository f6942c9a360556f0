/* masks_code.c: capability masks joined with the profiles of their cells,
 * the code that ran beside the timing verdict (masks.h, cb_masks_join). */
#include "analysis/verdicts/masks.h"

#include <math.h>
#include <string.h>

#include "analysis/stats/stats.h"
#include "analysis/verdicts/mask_classes.h"

const char *cb_mask_agreement_name(enum cb_mask_agreement a)
{
	switch (a) {
	case CB_MASK_AGREES:
		return "agrees";
	case CB_MASK_DISAGREES:
		return "disagrees";
	case CB_MASK_NOT_JUDGED:
		return "not judged";
	case CB_MASK_NO_PROFILE:
		break;
	}
	return "no profile";
}

static const struct cb_attribution_cell *profiled_cell(const struct cb_attribution *e,
                                                       const char *key)
{
	for (size_t i = 0; i < e->n_cells; i++)
		if (strcmp(e->cells[i].key, key) == 0)
			return &e->cells[i];
	return NULL;
}

/* Into S, the samples of C in functions whose code holds a class of
 * CLASSES. 0; -1 with WHY when C has no profile to tell it. */
static int class_share(const struct cb_attribution_cell *c, const char *label, uint32_t classes,
                       struct cb_attribution_share *s, char *why, size_t len)
{
	*s = (struct cb_attribution_share){.share = NAN, .lo = NAN, .hi = NAN};
	if (!c) {
		snprintf(why, len, "%s has no profile line for this cell", label);
		return -1;
	}
	if (c->trials == 0 || c->samples == 0) {
		snprintf(why, len, "%s: %s", label, c->refused ? c->refused : "no samples");
		return -1;
	}
	if (!c->present_known) {
		snprintf(why, len, "%s: its hot code was not decoded", label);
		return -1;
	}
	s->what = label;
	for (size_t f = 0; f < c->n_functions; f++)
		if (c->functions[f].present & classes)
			s->samples += c->functions[f].part.samples;
	s->share = (double)s->samples / (double)c->samples;
	cb_stats_proportion_interval(s->samples, c->samples, CB_ATTRIBUTION_LEVEL, &s->lo, &s->hi);
	return 0;
}

/* One cell of mask M: the shares, then the agreement with its timing. */
static void join_cell(const struct cb_mask *m, struct cb_mask_cell *c,
                      const struct cb_attribution *e)
{
	struct cb_mask_code *k = &c->code;
	char classes[128], why[200];

	*k = (struct cb_mask_code){.agreement = CB_MASK_NO_PROFILE};
	cb_attribution_classes_text(m->clears, classes, sizeof classes);
	if (class_share(profiled_cell(e, c->reference->cell->key), m->reference, m->clears,
	                &k->reference, why, sizeof why) != 0 ||
	    class_share(profiled_cell(e, c->masked->cell->key), m->label, m->clears, &k->masked,
	                why, sizeof why) != 0) {
		snprintf(k->why, sizeof k->why, "%s", why);
		return;
	}
	if (!m->clears) { /* no share to give: a share of no class would read 0% */
		k->agreement = CB_MASK_NOT_JUDGED;
		k->reference = k->masked = (struct cb_attribution_share){.share = NAN};
		snprintf(k->why, sizeof k->why, "the mask clears no class known here%s%s",
		         m->unknown_variables[0] ? ": " : "", m->unknown_variables);
		return;
	}
	k->moved = k->masked.hi < k->reference.lo ? -1 : k->masked.lo > k->reference.hi ? 1 : 0;
	if (k->moved > 0) {
		k->agreement = CB_MASK_DISAGREES;
		snprintf(k->why, sizeof k->why, "the share of code with %s rose under the mask",
		         classes);
	} else if (c->verdict == CB_MARGIN_NOT_RESOLVED) {
		k->agreement = CB_MASK_NOT_JUDGED;
		snprintf(k->why, sizeof k->why, "no timing verdict to hold the code against");
	} else if (c->verdict == CB_MARGIN_BEYOND && k->moved < 0) {
		k->agreement = CB_MASK_AGREES;
		snprintf(k->why, sizeof k->why, "beyond delta, and code with %s fell", classes);
	} else if (c->verdict == CB_MARGIN_WITHIN && k->moved == 0) {
		k->agreement = CB_MASK_AGREES;
		snprintf(k->why, sizeof k->why, "within delta, and code with %s the same", classes);
	} else {
		k->agreement = CB_MASK_DISAGREES;
		snprintf(k->why, sizeof k->why, "%s",
		         c->verdict == CB_MARGIN_BEYOND ? "mask changes time, not code"
		                                        : "mask changes code, not time");
	}
}

void cb_masks_join(struct cb_masks *ms, const struct cb_attribution *e)
{
	if (!ms || !e || e->lines == 0)
		return;
	ms->joined = true;
	for (size_t i = 0; i < ms->n; i++) {
		struct cb_mask *m = &ms->masks[i];

		m->clears = cb_mask_classes(m->env, &m->clears_known, m->unknown_variables,
		                            sizeof m->unknown_variables);
		for (size_t k = 0; k < m->n_cells; k++) {
			join_cell(m, &m->cells[k], e);
			switch (m->cells[k].code.agreement) {
			case CB_MASK_AGREES:
				m->n_agrees++;
				break;
			case CB_MASK_DISAGREES:
				m->n_disagrees++;
				break;
			case CB_MASK_NOT_JUDGED:
				m->n_not_judged++;
				break;
			case CB_MASK_NO_PROFILE:
				m->n_no_profile++;
				break;
			}
		}
	}
}
