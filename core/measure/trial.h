/* trial.h: one timed trial of one cell, with its verification.
 *
 * The timed region holds nothing but the engine's calls: contexts are opened
 * before it, outputs checked after it. With T threads, each thread owns its
 * context and output buffer, shares the read-only input, and starts at a
 * barrier; the trial's wall time runs from the earliest start to the last
 * thread's end, and each thread's own time is kept. */
#ifndef CB_TRIAL_H
#define CB_TRIAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/machine/clock.h"
#include "core/algorithms/input.h"
#include "core/measure/plan.h"
#include "core/algorithms/reference.h"

#define CB_MAX_THREADS 256

/* Everything a cell needs to run, prepared once (keys, the input or
 * ciphertext it reads, what its output must be). */
struct cb_cell_state {
	const struct cb_cell *cell;
	const struct cb_engine *engine; /* what runs it: the variant's, or cb_engine_in_worker */
	struct cb_cell_setup setup;
	unsigned char key[CB_MAX_KEY], iv[CB_MAX_IV], tag[CB_MAX_TAG];
	const unsigned char *in;     /* what each call reads: plaintext or ciphertext */
	struct cb_expected expected; /* message mode (decrypt: the plaintext's SHA-256) */
	struct cb_expected stream_expected;
	uint64_t stream_calls;     /* calls stream_expected was computed for (0: none) */
	struct cb_pk_expected *pk; /* public-key cells: keys and expected outputs (pk.h) */
	int expect_status;         /* CB_OK, or CB_REJECTED for decrypt-forged and verify-forged */
	uint64_t calls;            /* calibrated calls per trial (0: not yet) */
	char input_sha256[65];     /* engines with `remote`: the input their calls must read */
	char broken[512];          /* non-empty: the engine failed; no more trials */
};

/* A trial's placement in memory (cb_trial_place). Some code runs at one of
 * several speeds depending on where its stack temporaries fall against its
 * buffers modulo the page (4K aliasing of loads and stores); a process's
 * stack start is randomised below the page, so such a cell's speed would be
 * fixed per process, a difference between runs that no run's interval
 * shows. Drawing the placement per trial turns it into spread within the
 * run. */
#define CB_LAYOUT_SPAN 4096 /* the placements cover one page */
struct cb_trial_layout {
	size_t stack;      /* bytes the calls' stack is moved down by: 0 .. 4080, steps of 16 */
	size_t out;        /* bytes the outputs are moved up by: 0 .. 4032, steps of 64 */
	size_t input;      /* bytes the input is moved up by, as out: 0 .. 4032, steps of 64 */
	bool input_placed; /* the input was copied there for this trial (cb_trial_stage) */
};

/* The largest payload whose input is placed per trial: copying it before
 * every trial costs little next to the trial; a larger one (up to 128 MiB)
 * stays where the run put it. */
#define CB_STAGE_MAX CB_INPUT_UNIT

/* Buffers shared by the trials of a run: one output per thread, each with a
 * page of room to be placed in (cb_trial_place), and the room the input is
 * copied into per trial (cb_trial_stage). */
struct cb_trial_buffers {
	unsigned char *out[CB_MAX_THREADS];  /* this trial's: base + layout.out */
	unsigned char *base[CB_MAX_THREADS]; /* out_len + CB_LAYOUT_SPAN bytes */
	void *allocation[CB_MAX_THREADS];
	size_t out_len;
	unsigned n;
	struct cb_trial_layout layout; /* the placement of the next trial */
	const unsigned char *in;       /* this trial's input: stage + layout.input, or NULL
	                                * (the cell's own, where the run put it) */
	unsigned char *stage;          /* stage_len + CB_LAYOUT_SPAN bytes, placed as base[] */
	void *stage_allocation;
	size_t stage_len; /* the largest payload the stage takes (0: none) */
};

struct cb_trial_result {
	uint64_t ns;           /* wall time: barrier to last thread's end (or virtual) */
	uint64_t cpu_ns;       /* CPU time, summed over threads */
	uint64_t ticks;        /* TSC ticks over the trial (0 when absent) */
	uint64_t cycles;       /* perf core cycles summed over threads (0 when not counted) */
	double core_hz_before; /* core clock estimates around the trial (0 when not made) */
	double core_hz_after;
	uint64_t thread_ns[CB_MAX_THREADS];
	bool virtual_clock;
	bool remote;            /* timed by a worker process: see the fields below */
	bool remote_cpu;        /* the worker reported CPU time (in cpu_ns) */
	uint64_t round_trip_ns; /* request to answer, seen from here (never the trial's time) */
	unsigned restarts;      /* times the worker had to be started again so far */
	char input_sha256[65];  /* what the worker says its calls read */
	char output_mode[8];    /* the worker's output mode timed: "reuse" or "fresh" */
	int placed_input_offset, placed_out, placed_stack; /* as the worker placed them (-1: not) */
	bool valid;
	bool setup_failed; /* the engine could not even open: no point trying again */
	char error[512];
	char output[17];                    /* first 8 output bytes, hex */
	char digest[2 * CB_MAX_DIGEST + 1]; /* a hash's whole digest, hex (else empty) */
	char output_sha256[65];
};

/* Around the calls of a profiled trial (core/run/explain.h); never set for a
 * timed one. BEFORE runs on the thread that makes thread 0's calls, just
 * before they start and outside the trial's time, with the engine and its
 * context; AFTER on the same thread just after they end. For an engine
 * whose calls run in a worker, they surround its request. */
struct cb_trial_hook {
	void (*before)(void *arg, const struct cb_engine *engine, void *ctx);
	void (*after)(void *arg);
	void *arg;
};

struct cb_trial_context {
	unsigned run;
	const struct cb_trial_hook *hook; /* a profiled trial's, or NULL */
	bool estimate_core_hz; /* no perf counter: estimate the core clock around trials */
	bool count_cycles;     /* perf counters work */
	struct cb_fault fault; /* the test-only fault switch of engine.h */
	bool pin;              /* pin thread t to cpus[t % n_cpus] before it starts */
	int cpus[CB_MAX_THREADS];
	unsigned n_cpus;
};

/* Allocate and pre-fault N output buffers of LEN bytes (page faults must not
 * land in timed regions). 0 or -1. */
int cb_trial_buffers_init(struct cb_trial_buffers *b, unsigned n, size_t len, size_t offset);
void cb_trial_buffers_free(struct cb_trial_buffers *b);

/* Allocate and pre-fault B's stage for payloads of up to LEN bytes (0: no
 * stage, every input stays where the run put it), starting OFFSET bytes
 * past a page boundary as the outputs' base does: an input placed at
 * layout.input sits (layout.out - layout.input) mod CB_LAYOUT_SPAN bytes
 * below the outputs, and keeps the run's alignment within a cache line.
 * 0 or -1 when memory is short. */
int cb_trial_buffers_stage(struct cb_trial_buffers *b, size_t len, size_t offset);

/* The placement of the next trials: outputs LAYOUT.out bytes up (a multiple
 * of 64 below CB_LAYOUT_SPAN: cache-line alignment stays the input's), the
 * calls' stack LAYOUT.stack bytes down (a multiple of 16 below the span).
 * The input stays the cell's own until cb_trial_stage places it at
 * LAYOUT.input. Only placement: the input's bytes and what each output
 * must be stay. */
void cb_trial_place(struct cb_trial_buffers *b, struct cb_trial_layout layout);

/* Copy the LEN bytes of IN to stage + layout.input, so that the next
 * trials read them there (b->in, layout.input_placed). Not when IN is NULL
 * (a worker places its own input) or LEN is past the stage: then the
 * trials read IN where it is. Outside any timed region. */
void cb_trial_stage(struct cb_trial_buffers *b, const unsigned char *in, size_t len);

/* The placement of CELL's trial in ROUND, in a run whose layout seed is SEED.
 * The stack's 16-byte step is stratified: its class mod 8 (the offset mod
 * 128 bytes) takes each of its eight values once in every block of eight
 * rounds, in an order drawn per cell and block, and the rest of the step is
 * drawn per trial; the output's 64-byte step is drawn per trial. So each
 * placement is uniform over the page, and every run of 8m rounds gives a
 * cell as many trials with its stack 32-byte aligned as not (any 16-, 32-,
 * 64- or 128-byte class in equal shares): the share of a placement class
 * does not vary from run to run, and the random order within blocks does
 * not make a placement effect look like dependence between rounds.
 * The input's 64-byte step is stratified the same way through its distance
 * below the output, (out - input) mod 4096, which is what 4K aliasing of
 * loads and stores depends on: its eighth of the page takes each of its
 * eight values once in every block, the step within it drawn per trial.
 * The input is then uniform over the page too, and the share of trials
 * whose output lies within 512 bytes past the input is the same in every
 * run of 8m rounds. */
struct cb_trial_layout cb_trial_layout_draw(uint64_t seed, size_t cell, unsigned round);

/* Run CALLS calls of STATE's cell on every thread and check every thread's
 * output. Each thread's output is first poisoned with a pattern new to this
 * trial (outside the timed region), so an engine that writes nothing can
 * never pass on what an earlier trial or another cell left there. Fills
 * RESULT; never fails as a whole: an engine that cannot open or gives a
 * wrong output makes an invalid result with the reason. */
void cb_trial_run(struct cb_cell_state *state, const struct cb_trial_context *tc,
                  struct cb_trial_buffers *buffers, const struct cb_trial_info *info,
                  struct cb_trial_result *result);

#endif
