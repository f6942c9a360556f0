/* sim.c: a synthetic engine on a virtual clock: the ground truth the
 * statistics are tested against.
 *
 * A trial of `calls` messages of `len` bytes does this much work, in virtual
 * core cycles (one cycle per nanosecond at the nominal 1 GHz clock):
 *
 *   cycles = calls * (overhead_ns + ns_per_byte * len)
 *          * exp(jitter * N(0,1))                  per-trial noise
 *          * spike_factor       with probability spike_rate
 *          * (1 + drift_per_round * round)
 *          * contaminate_factor for rounds in [contaminate_from, contaminate_to]
 *          * (1 + run_shift * run)                 a planted change between runs
 *          * exp(run_noise * N(0,1))               the run's own work: a
 *                                                 between-run spread that cycles
 *                                                 see (drawn from seed and run)
 *          * stack_factor      when the calls' stack sat at an odd 16-byte step
 *                              (bit 4 of its address set): a placement effect
 *                              like Mbed TLS AES-GCM's (core/measure/trial.h)
 *
 * and takes this long, in virtual nanoseconds: the machine moves time, not
 * cycles (a clock that changes speed, load that takes the CPU away):
 *
 *   ns = cycles
 *      * exp(round_load * N(0,1))                 a load shared by the round
 *      * exp(run_load * N(0,1))                   the run's clock (shared)
 *      / (1 + freq_drift * sin(2 pi (round / freq_period + phase)))
 *                                                 slow drift of the frequency,
 *                                                 its phase drawn per run
 *      * exp(e_round), e = AR(1): e_r = ar1 e_(r-1) + ar1_sigma N(0,1)
 *      * (1 + burst_factor * U(0,1)) in a preemption burst: a round is one
 *                                                 with probability burst_rate
 *      * slow_factor        in runs from slow_runs_from on (run index, from
 *                           0; -1 never), rounds after the first: a machine
 *                           that got slower after calibrating, so a run
 *                           takes longer than its pilot said (the time
 *                           only: cycles, and the verdicts on them, stay)
 *
 * The shared terms are drawn from (shared_seed, run, round): every sim engine
 * of a scenario with the same shared_seed sees the same load, clock and
 * bursts (only the burst's size is drawn per trial), which is what pairing by
 * round cancels. The own terms are drawn from (seed, run, round, thread), so
 * neither depends on how many trials calibration ran; the cells of one engine
 * share them, unless cell_noise = 1 draws the cell (algorithm, op, payload
 * size) in too, giving each cell its own noise. Real time is spent only
 * on touching the output.
 *
 * cycles_from_time = 1 writes, as the cycle count, the time in nominal
 * cycles (one per virtual ns): what a VM without performance counters
 * gives, a cycle count estimated from time, which carries every term of the
 * machine. The verdicts judged on cycles then see the machine's noise, as
 * they do on such a VM. */
#include "core/engine/engine.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/errbuf.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

struct sim {
	double overhead_ns;
	double ns_per_byte;
	double jitter;
	double spike_rate;
	double spike_factor;
	double drift_per_round;
	double contaminate_from;
	double contaminate_to;
	double contaminate_factor;
	double run_shift;
	double run_noise;
	double round_load, run_load, freq_drift, freq_period, ar1, ar1_sigma;
	double burst_rate, burst_factor;
	double stack_factor;
	double slow_runs_from, slow_factor;
	double cycles_from_time;
	bool stack_odd; /* the last call's stack: bit 4 of a local's address */
	uint64_t seed, shared_seed;
	uint64_t cell_seed; /* cell_noise: the cell's own part of the seed (else 0) */
	bool forged;        /* decrypt-forged: reject, as a real engine must */
	gsl_rng *rng;
};

static const char *const sim_options[] = {
    "overhead_ns",
    "ns_per_byte",
    "jitter",
    "spike_rate",
    "spike_factor",
    "drift_per_round",
    "contaminate_from",
    "contaminate_to",
    "contaminate_factor",
    "run_shift",
    "run_noise",
    "seed",
    "shared_seed",
    "round_load",
    "run_load",
    "freq_drift",
    "freq_period",
    "ar1",
    "ar1_sigma",
    "burst_rate",
    "burst_factor",
    "cell_noise",
    "stack_factor",
    "slow_runs_from",
    "slow_factor",
    "cycles_from_time", /* 1: the time as the cycle count */
    NULL,
};

/* The numeric options, their fields and their defaults. */
static const struct {
	const char *name;
	size_t offset;
	double fallback;
} sim_numbers[] = {
    {"overhead_ns", offsetof(struct sim, overhead_ns), 100},
    {"ns_per_byte", offsetof(struct sim, ns_per_byte), 1.0},
    {"jitter", offsetof(struct sim, jitter), 0},
    {"spike_rate", offsetof(struct sim, spike_rate), 0},
    {"spike_factor", offsetof(struct sim, spike_factor), 3},
    {"drift_per_round", offsetof(struct sim, drift_per_round), 0},
    {"contaminate_from", offsetof(struct sim, contaminate_from), -1},
    {"contaminate_to", offsetof(struct sim, contaminate_to), -1},
    {"contaminate_factor", offsetof(struct sim, contaminate_factor), 1.5},
    {"run_shift", offsetof(struct sim, run_shift), 0},
    {"run_noise", offsetof(struct sim, run_noise), 0},
    {"round_load", offsetof(struct sim, round_load), 0},
    {"run_load", offsetof(struct sim, run_load), 0},
    {"freq_drift", offsetof(struct sim, freq_drift), 0},
    {"freq_period", offsetof(struct sim, freq_period), 60},
    {"ar1", offsetof(struct sim, ar1), 0},
    {"ar1_sigma", offsetof(struct sim, ar1_sigma), 0},
    {"burst_rate", offsetof(struct sim, burst_rate), 0},
    {"burst_factor", offsetof(struct sim, burst_factor), 1},
    {"stack_factor", offsetof(struct sim, stack_factor), 1},
    {"slow_runs_from", offsetof(struct sim, slow_runs_from), -1},
    {"slow_factor", offsetof(struct sim, slow_factor), 1},
    {"cycles_from_time", offsetof(struct sim, cycles_from_time), 0},
};

static const char *sim_version(void)
{
	return "builtin (virtual clock)";
}

static int sim_probe(char *why, size_t why_len)
{
	(void)why;
	(void)why_len;
	return 0;
}

static bool sim_supports(const struct cb_algorithm *alg, enum cb_op op, enum cb_mode mode)
{
	(void)mode;
	return cb_op_applies(alg, op);
}

/* splitmix64's finaliser: spreads (seed, run, round, thread) over 64 bits. */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static void *sim_open(const struct cb_cell_setup *cell, const struct cb_engine_setup *setup,
                      char *err, size_t err_len)
{
	const struct cb_engine_config *c = cell->config;
	struct sim *s = calloc(1, sizeof *s);

	(void)setup;

	if (!s || !(s->rng = gsl_rng_alloc(gsl_rng_mt19937))) {
		free(s);
		cb_errorf(err, err_len, "sim: out of memory");
		return NULL;
	}
	for (size_t i = 0; i < sizeof sim_numbers / sizeof sim_numbers[0]; i++)
		/* each offset is that of a double member of struct sim (offsetof) */
		// cppcheck-suppress invalidPointerCast
		*(double *)((char *)s + sim_numbers[i].offset) =
		    cb_option_number(c, sim_numbers[i].name, sim_numbers[i].fallback);
	s->seed = (uint64_t)cb_option_number(c, "seed", 1);
	s->shared_seed = (uint64_t)cb_option_number(c, "shared_seed", 0);
	s->forged = cell->op == CB_OP_DECRYPT_FORGED || cell->op == CB_OP_VERIFY_FORGED;
	if (cb_option_number(c, "cell_noise", 0) != 0) {
		uint64_t h = 1469598103934665603ull; /* FNV-1a of the algorithm's name */

		for (const char *p = cell->alg->name; *p; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211ull;
		s->cell_seed = mix(h ^ mix(((uint64_t)cell->op << 48) ^ (uint64_t)cell->len));
	}
	if (s->overhead_ns < 0 || s->ns_per_byte < 0 || s->jitter < 0 || s->spike_rate < 0 ||
	    s->spike_rate > 1 || s->spike_factor <= 0 || s->contaminate_factor <= 0 ||
	    s->round_load < 0 || s->run_load < 0 || s->run_noise < 0 || s->freq_drift < 0 ||
	    s->freq_drift >= 1 || s->freq_period <= 0 || s->ar1 < 0 || s->ar1 >= 1 ||
	    s->ar1_sigma < 0 || s->burst_rate < 0 || s->burst_rate > 1 || s->burst_factor < 0 ||
	    s->stack_factor <= 0 || s->slow_factor <= 0) {
		cb_errorf(err, err_len,
		          "sim: costs and noise must be non-negative (spike_rate, burst_rate <= 1; "
		          "freq_drift, ar1 < 1; stack_factor, slow_factor > 0)");
		gsl_rng_free(s->rng);
		free(s);
		return NULL;
	}
	return s;
}

static int sim_call(void *ctx, const unsigned char *in, size_t len, unsigned char *out)
{
	struct sim *s = ctx;
	volatile unsigned char here = 0; /* on the calls' stack */

	s->stack_odd = ((uintptr_t)&here >> 4) & 1;

	if (s->forged)
		return CB_REJECTED;
	memcpy(out, in, 8 < len ? 8 : len);
	return CB_OK;
}

static int sim_finish(void *ctx, unsigned char *out)
{
	(void)ctx;
	(void)out;
	return CB_OK;
}

static void sim_close(void *ctx)
{
	struct sim *s = ctx;

	gsl_rng_free(s->rng);
	free(s);
}

/* The trial's work in cycles per nominal ns, and the factor time adds. */
static void sim_factors(struct sim *s, const struct cb_trial_info *t, double *work, double *time)
{
	double factor = 1.0, slow = 1.0;

	gsl_rng_set(s->rng,
	            mix(s->seed ^ s->cell_seed ^
	                mix(((uint64_t)t->run << 40) ^ ((uint64_t)t->round << 8) ^ t->thread)));
	if (s->jitter > 0)
		factor *= exp(s->jitter * gsl_ran_gaussian(s->rng, 1.0));
	if (s->spike_rate > 0 && gsl_rng_uniform(s->rng) < s->spike_rate)
		factor *= s->spike_factor;
	factor *= 1.0 + s->drift_per_round * t->round;
	if ((double)t->round >= s->contaminate_from && (double)t->round <= s->contaminate_to)
		factor *= s->contaminate_factor;
	factor *= 1.0 + s->run_shift * t->run;
	if (s->stack_odd)
		factor *= s->stack_factor;
	double own_burst = gsl_rng_uniform(s->rng); /* this trial's share of a burst */
	if (s->run_noise > 0) { /* one draw per (seed, run): every round of the run */
		gsl_rng_set(s->rng, mix(s->seed ^ mix(((uint64_t)t->run << 40) ^ 0x2E5D)));
		factor *= exp(s->run_noise * gsl_ran_gaussian(s->rng, 1.0));
	}

	/* What the whole machine does: one stream per run (the clock's phase, the
	 * run's load, the AR(1) path), one per round (load, burst). */
	uint64_t run_key = mix(s->shared_seed ^ mix(((uint64_t)t->run << 40) ^ 0xC10C));
	gsl_rng_set(s->rng, run_key);
	double phase = gsl_rng_uniform(s->rng);
	slow *= exp(s->run_load * gsl_ran_gaussian(s->rng, 1.0));
	if (s->ar1_sigma > 0) {
		double e =
		    s->ar1_sigma / sqrt(1.0 - s->ar1 * s->ar1) * gsl_ran_gaussian(s->rng, 1.0);
		for (unsigned r = 1; r <= t->round; r++)
			e = s->ar1 * e + s->ar1_sigma * gsl_ran_gaussian(s->rng, 1.0);
		slow *= exp(e);
	}
	slow /= 1.0 + s->freq_drift * sin(2.0 * M_PI * ((double)t->round / s->freq_period + phase));
	gsl_rng_set(s->rng, mix(run_key ^ mix((uint64_t)t->round + 1)));
	slow *= exp(s->round_load * gsl_ran_gaussian(s->rng, 1.0));
	if (s->burst_rate > 0 && gsl_rng_uniform(s->rng) < s->burst_rate)
		slow *= 1.0 + s->burst_factor * own_burst;
	if (s->slow_runs_from >= 0 && (double)t->run >= s->slow_runs_from && t->round >= 1)
		slow *= s->slow_factor;
	*work = factor;
	*time = slow;
}

/* The trial's cycles (WITH_TIME false) or virtual ns (true). */
static uint64_t sim_virtual(struct sim *s, const struct cb_trial_info *t, bool with_time)
{
	double per_call = s->overhead_ns + s->ns_per_byte * (double)t->len, work, time;

	sim_factors(s, t, &work, &time);
	return (uint64_t)llround((double)t->calls * per_call * work * (with_time ? time : 1.0));
}

static uint64_t sim_virtual_ns(void *ctx, const struct cb_trial_info *t)
{
	return sim_virtual(ctx, t, true);
}

static uint64_t sim_virtual_cycles(void *ctx, const struct cb_trial_info *t)
{
	const struct sim *s = ctx;

	return sim_virtual(ctx, t, s->cycles_from_time != 0);
}

static int sim_self_check(void *ctx, const unsigned char *in, size_t len, const unsigned char *out,
                          char *why, size_t why_len)
{
	(void)ctx;
	if (memcmp(in, out, 8 < len ? 8 : len) == 0)
		return 0;
	snprintf(why, why_len, "sim output is not the input's first bytes");
	return -1;
}

/* The timed loop: direct calls (engine.h). */
static uint64_t sim_loop(void *ctx, const unsigned char *in, size_t len, unsigned char *out,
                         uint64_t calls, int expect, int *last)
{
	return cb_engine_loop(sim_call, ctx, in, len, out, calls, expect, last);
}

const struct cb_engine cb_engine_sim = {
    .name = "sim",
    .kind = "builtin",
    .version = sim_version,
    .probe = sim_probe,
    .supports = sim_supports,
    .open = sim_open,
    .call = sim_call,
    .loop = sim_loop,
    .finish = sim_finish,
    .close = sim_close,
    .options = sim_options,
    .virtual_ns = sim_virtual_ns,
    .virtual_cycles = sim_virtual_cycles,
    .self_check = sim_self_check,
};
