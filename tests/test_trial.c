/* test_trial.c: where a trial's input is placed (layout "trial").
 *
 * The per-trial draw (cb_trial_layout_draw): over the rounds of a cell the
 * input's offset takes many values, each a multiple of 64 below the page;
 * its distance below the output takes each eighth of the page once in every
 * block of eight rounds, and the stack keeps its own strata. The stage
 * (cb_trial_stage): at every drawn offset the bytes the trial reads are the
 * generator's, placed where the layout says; a payload past the stage, or a
 * worker's (no input given), stays where the run put it. And a trial reads
 * the staged copy and is checked against the cell's own input: a copy gone
 * wrong makes the memcpy engine's trial invalid. The layout seed is printed
 * first and taken back as argv[1]. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/algorithms/algorithm.h"
#include "core/engine/engine.h"
#include "core/algorithms/input.h"
#include "core/measure/scenario.h"
#include "core/measure/trial.h"
#include "tests/tap.h"

#define DEFAULT_SEED 20261203ul
#define ROUNDS 256 /* 32 blocks of eight */
#define CELLS 3
#define LEN (16u * 1024u)   /* a payload the stage takes */
#define OFFSET 1920u        /* the run's input offset, as --runs draws one */
#define STEPS (4096u / 64u) /* the input's possible offsets */

/* Over the rounds of each of CELLS cells: offsets on the 64-byte grid below
 * the page, how many distinct ones a cell saw (the fewest), and whether
 * every block of eight rounds gave the input's distance below the output
 * eight different eighths, and the stack eight different classes. */
static void check_draws(uint64_t seed)
{
	bool on_grid = true, distance_strata = true, stack_strata = true;
	unsigned fewest = STEPS;

	for (size_t cell = 0; cell < CELLS; cell++) {
		bool seen[STEPS] = {false};
		unsigned distinct = 0;

		for (unsigned block = 0; block < ROUNDS / 8; block++) {
			unsigned eighths = 0, classes = 0;

			for (unsigned r = block * 8; r < block * 8 + 8; r++) {
				struct cb_trial_layout l = cb_trial_layout_draw(seed, cell, r);
				size_t below = (l.out + 4096 - l.input) % 4096;

				on_grid &= l.input % 64 == 0 && l.input < 4096;
				if (l.input < 4096 && !seen[l.input / 64]) {
					seen[l.input / 64] = true;
					distinct++;
				}
				eighths |= 1u << (below / 512);
				classes |= 1u << (l.stack / 16 % 8);
			}
			distance_strata &= eighths == 0xff;
			stack_strata &= classes == 0xff;
		}
		if (distinct < fewest)
			fewest = distinct;
	}
	ok(on_grid, "every input offset drawn is a multiple of 64 below 4096");
	/* 256 draws of 64 values leave about one unseen; 48 is far below */
	ok(fewest >= 48, "a cell's inputs cover many offsets (fewest %u of %u)", fewest, STEPS);
	ok(distance_strata, "(out - input) mod 4096 takes each eighth of the page once a block");
	ok(stack_strata, "the stack still takes each class mod 8 once a block");
	ok(cb_trial_layout_draw(seed, 0, 5).input == cb_trial_layout_draw(seed, 0, 5).input,
	   "the same seed, cell and round draw the same input offset");
}

/* At every offset drawn for a cell, the stage holds the generator's bytes
 * where the layout says, past the run's offset as the outputs are. */
static void check_stage(uint64_t seed, const struct cb_input *input, const unsigned char *want)
{
	struct cb_trial_buffers b;
	bool placed = true, bytes = true, where = true;

	ok(cb_trial_buffers_init(&b, 1, LEN + 64, OFFSET) == 0 &&
	       cb_trial_buffers_stage(&b, LEN, OFFSET) == 0,
	   "buffers and a stage of %u bytes", LEN);
	for (unsigned r = 0; r < ROUNDS; r++) {
		cb_trial_place(&b, cb_trial_layout_draw(seed, 1, r));
		cb_trial_stage(&b, input->data, LEN);
		placed &= b.layout.input_placed && b.in == b.stage + b.layout.input;
		bytes &= b.in && memcmp(b.in, want, LEN) == 0;
		where &= b.in && (uintptr_t)b.in % 4096 == (OFFSET + b.layout.input) % 4096;
	}
	ok(placed, "each trial's input is placed at the stage plus its drawn offset");
	ok(bytes, "the staged bytes are the generator's at every drawn offset");
	ok(where, "it starts (offset + input) mod 4096 past a page boundary");

	cb_trial_place(&b, cb_trial_layout_draw(seed, 1, 0));
	ok(!b.layout.input_placed && !b.in, "a new placement holds no input until it is staged");
	cb_trial_stage(&b, input->data, LEN + 1);
	ok(!b.layout.input_placed && !b.in, "a payload past the stage stays where the run put it");
	cb_trial_stage(&b, NULL, LEN);
	ok(!b.layout.input_placed && !b.in, "no input given (a worker's): nothing placed");
	cb_trial_buffers_free(&b);

	ok(cb_trial_buffers_init(&b, 1, 64, 0) == 0 && cb_trial_buffers_stage(&b, 0, 0) == 0,
	   "buffers without a stage");
	cb_trial_place(&b, cb_trial_layout_draw(seed, 1, 0));
	cb_trial_stage(&b, input->data, 64);
	ok(!b.layout.input_placed && !b.in, "without a stage every input stays");
	cb_trial_buffers_free(&b);
}

/* A memcpy trial reads the staged copy and is checked against the cell's
 * own input: right when the copy is right, invalid when it is not. */
static void check_trial(uint64_t seed, const struct cb_input *input)
{
	const struct cb_engine *memcpy_engine = cb_engine_find("memcpy");
	struct cb_variant variant = {.label = "memcpy", .engine = memcpy_engine};
	struct cb_cell cell = {.variant = &variant,
	                       .alg = cb_algorithm_find("sha256"),
	                       .op = CB_OP_HASH,
	                       .size = LEN,
	                       .threads = 1};
	struct cb_cell_state s = {
	    .cell = &cell, .engine = memcpy_engine, .in = input->data, .expect_status = CB_OK};
	struct cb_trial_context tc = {0};
	struct cb_trial_info info = {.calls = 3, .len = LEN};
	struct cb_trial_buffers b;
	struct cb_trial_result r;

	s.setup = (struct cb_cell_setup){
	    .alg = cell.alg, .op = cell.op, .len = LEN, .config = &variant.config};
	if (!ok(memcpy_engine && cb_trial_buffers_init(&b, 1, LEN + CB_OUTPUT_SLACK, OFFSET) == 0 &&
	            cb_trial_buffers_stage(&b, LEN, OFFSET) == 0,
	        "buffers for a memcpy trial")) {
		ok(0, "a trial on the staged input is valid");
		ok(0, "a trial on a wrong copy is invalid");
		return;
	}
	cb_trial_place(&b, cb_trial_layout_draw(seed, 2, 3));
	cb_trial_stage(&b, input->data, LEN);
	cb_trial_run(&s, &tc, &b, &info, &r);
	ok(r.valid, "a trial on the staged input is valid%s%s", r.valid ? "" : ": ", r.error);
	b.stage[b.layout.input + LEN / 2] ^= 1; /* a copy gone wrong */
	cb_trial_run(&s, &tc, &b, &info, &r);
	ok(!r.valid && strstr(r.error, "differs"), "a trial on a wrong copy is invalid (%s)",
	   r.error);
	cb_trial_buffers_free(&b);
}

int main(int argc, char **argv)
{
	uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : DEFAULT_SEED;
	struct cb_input input;
	unsigned char *want = malloc(LEN);

	tap_plan(17);
	diag("seed %llu", (unsigned long long)seed);
	check_draws(seed);
	if (!want || cb_input_create(&input, LEN, CB_INPUT_DEFAULT_SEED, OFFSET) != 0) {
		ok(0, "the input");
		return tap_done();
	}
	cb_input_fill(want, LEN, CB_INPUT_DEFAULT_SEED);
	check_stage(seed, &input, want);
	check_trial(seed, &input);
	cb_input_free(&input);
	free(want);
	return tap_done();
}
