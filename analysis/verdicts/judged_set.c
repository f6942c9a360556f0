/* judged_set.c: the set of runs a --runs auto folder is judged by
 * (judged_set.h). */
#include "analysis/verdicts/judged_set.h"

#include "analysis/verdicts/plan_runs.h"

bool cb_judged_set(struct cb_results *const *files, size_t k, struct cb_judged_set *out)
{
	size_t end = k, set = 0, rounds = 0;

	*out = (struct cb_judged_set){0, k, 0};
	if (k < 3)
		return false;
	/* the latest group of two or more runs of equal rounds */
	while (end >= 2) {
		set = cb_plan_current_set(files, end, &rounds);
		if (set >= 2)
			break;
		end -= set ? set : 1;
	}
	if (set < 2 || set == k)
		return false;
	*out = (struct cb_judged_set){end - set, end, rounds};
	return true;
}
