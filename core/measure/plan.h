/* plan.h: the cells of a scenario and the order their trials run in. */
#ifndef CB_PLAN_H
#define CB_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "core/measure/scenario.h"

/* One point of the experiment. */
struct cb_cell {
	size_t index; /* position in the plan */
	const struct cb_variant *variant;
	const struct cb_algorithm *alg;
	enum cb_op op;
	size_t size;
	unsigned threads;
};

/* One scheduled trial: which cell, in which round. Warm-up rounds come first
 * and have warmup set; their round numbers are 0 .. warmup_rounds-1 and the
 * measured rounds follow. */
struct cb_slot {
	size_t cell;
	unsigned round;
	int warmup;
};

struct cb_plan {
	const struct cb_scenario *scenario;
	struct cb_cell *cells;
	size_t n_cells;
	/* Combinations the scenario asked for that cannot run, with reasons:
	 * each becomes a "skip" line of the results file. */
	struct cb_skip {
		const struct cb_variant *variant;
		const struct cb_algorithm *alg;
		enum cb_op op;
		char *reason;
	} * skips;
	size_t n_skips;

	struct cb_slot *slots; /* the whole run, in order */
	size_t n_slots;        /* (warmup_rounds + rounds) * n_cells; a sequential
	                        * scenario plans its max rounds (scenario.h), and the
	                        * runner leaves out the slots of cells that stopped */
};

/* Build the plan of SCENARIO: engines x algorithms x ops x sizes x threads,
 * minus what an engine does not support or a size the algorithm cannot take
 * (each recorded as a skip), then the schedule. NULL with ERR on failure
 * (e.g. no cell left, or a sequential scenario in blocked order). */
struct cb_plan *cb_plan_build(const struct cb_scenario *scenario, char *err, size_t err_len);
void cb_plan_free(struct cb_plan *plan);

/* Fill PLAN->slots for the scenario's order. Round-robin: every round runs
 * the cells in plan order. Randomized: each round is a fresh permutation
 * drawn from the scenario's order_seed. Blocked: all rounds of cell 0, then
 * of cell 1, ... (kept to show its bias). */
void cb_plan_schedule(struct cb_plan *plan);

/* CELL's key as the results reader makes it (cb_result_cell.key):
 * "label|algorithm|op|size|threads". */
void cb_cell_key(const struct cb_cell *cell, char *buf, size_t len);

/* JSON of a cell as the results file writes it: engine, label, algorithm,
 * op, size, threads, mode. New reference. */
json_t *cb_cell_to_json(const struct cb_cell *cell);

#endif
