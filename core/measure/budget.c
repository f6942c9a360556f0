/* budget.c: a run's time budget, parsed and judged in one place. */
#include "core/measure/budget.h"

#include <stdint.h>

#include "core/base/units.h"

int cb_budget_parse(const char *text, double *seconds)
{
	uint64_t ns;

	if (cb_parse_span(text, &ns) != 0)
		return -1;
	*seconds = (double)ns / 1e9;
	return 0;
}

bool cb_budget_spent(double budget_s, double elapsed_s)
{
	return budget_s > 0 && elapsed_s >= budget_s;
}

bool cb_budget_fits(double budget_s, double elapsed_s, double more_s)
{
	return !(budget_s > 0) || elapsed_s + more_s <= budget_s;
}
