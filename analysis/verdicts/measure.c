/* measure.c: the measure cells are compared on (measure.h). */
#include "analysis/verdicts/measure.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "analysis/verdicts/analysis_data.h"
#include "core/results/results.h"

const char *const cb_measure_names[] = {"MB/s", "MB/s of CPU time", "bytes per cycle"};
const char *const cb_measure_short[] = {"MB/s", "CPU MB/s", "B/cycle"};

/* CELL's MB/s of CPU time per measured round into OUT: NaN where the round
 * has no sample, infinite where its sample has no CPU time. */
static int cpu_rounds(const struct cb_analysis *a, const struct cb_cell_summary *cell, double *out)
{
	const struct cb_results *r = a->results;
	size_t rounds = a->summary->n_rounds;
	uint64_t *seq = calloc(rounds ? rounds : 1, sizeof *seq);

	if (!seq)
		return -1;
	for (size_t i = 0; i < rounds; i++)
		out[i] = NAN;
	for (size_t i = 0; i < r->n_trials; i++) {
		const struct cb_result_trial *t = &r->trials[i];
		size_t k = t->round - a->summary->first_round;

		if (t->cell != cell->index || !t->valid || t->warmup || !(t->ns > 0) ||
		    t->round < a->summary->first_round || k >= rounds || t->bytes == 0)
			continue;
		if (!isnan(out[k]) && t->seq < seq[k])
			continue;
		seq[k] = t->seq;
		out[k] = t->cpu_ns > 0 ? (double)t->bytes / t->cpu_ns * 1e3 : INFINITY;
	}
	free(seq);
	return 0;
}

/* Whether every measured round of CELL with a sample has CPU time. */
static bool has_cpu(const struct cb_analysis *a, const struct cb_cell_summary *cell)
{
	size_t rounds = a->summary->n_rounds;
	double *v = malloc((rounds ? rounds : 1) * sizeof *v);
	bool all = v && cpu_rounds(a, cell, v) == 0;

	for (size_t i = 0; all && i < rounds; i++)
		all = !isinf(v[i]);
	free(v);
	return all;
}

enum cb_measure cb_measure_choose(const struct cb_analysis *a,
                                  const struct cb_cell_summary *const *cells, size_t n)
{
	bool cycles = n > 0, cpu = n > 0;

	for (size_t i = 0; i < n; i++)
		cycles &= cells[i]->have_cycles;
	if (cycles)
		return CB_MEASURE_CYCLES;
	for (size_t i = 0; i < n && cpu; i++)
		cpu = cells[i]->cell->threads == cells[0]->cell->threads && has_cpu(a, cells[i]);
	return cpu ? CB_MEASURE_CPU : CB_MEASURE_WALL;
}

int cb_measure_rounds(const struct cb_analysis *a, const struct cb_cell_summary *cell,
                      enum cb_measure measure, double *out)
{
	if (measure == CB_MEASURE_CPU)
		return cpu_rounds(a, cell, out);
	for (size_t r = 0; r < a->summary->n_rounds; r++)
		out[r] = measure == CB_MEASURE_CYCLES ? cell->round_bpc[r] : cell->round_mbs[r];
	return 0;
}
