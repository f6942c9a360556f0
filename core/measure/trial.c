/* trial.c: timing one trial and checking what it produced (its buffers
 * and their layout: trial_buffers.c). */
#include "core/measure/trial.h"

#include <inttypes.h>
#include <alloca.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/algorithms/input.h"

/* Held by the threads of a trial until every one of them has started: a
 * thread that cannot start would leave the others waiting at the barrier
 * for ever, so they are let go only when all exist, or sent home. */
struct start_gate {
	pthread_mutex_t lock;
	pthread_cond_t opened;
	int state; /* 0 closed, 1 go, -1 abandoned */
};

/* One thread's share of a trial. */
struct job {
	const struct cb_engine *engine;
	const struct cb_engine_calls *engine_calls; /* the trial's, chosen once */
	struct cb_cell_state *state;
	const struct cb_trial_context *tc;
	void *ctx;
	const unsigned char *in; /* what the calls read: the staged input, or the cell's */
	unsigned char *out;
	uint64_t calls;
	pthread_barrier_t *barrier;
	struct start_gate *gate;
	unsigned index;           /* thread number within the trial */
	size_t stack_shift;       /* cb_trial_layout.stack */
	enum cb_fault_kind fault; /* the test-only fault switch, when it hits this trial */
	int last_bad;             /* a status other than the expected one, or CB_OK */
	uint64_t bad_calls;
	uint64_t start, end, cpu, cycles;
};

/* The test-only fault switch (engine.h) in place of the engine's calls. */
static void faulty_calls(struct job *j)
{
	size_t len = j->state->cell->size;
	struct timespec rest;
	uint64_t start = cb_wall_ns(), slept;

	switch (j->fault) {
	case CB_FAULT_NOTHING: /* success, and not a byte written */
		if (j->state->expect_status != CB_OK) {
			j->last_bad = CB_OK;
			j->bad_calls = j->calls;
		}
		return;
	case CB_FAULT_ERROR:
		j->last_bad = CB_FAILED;
		j->bad_calls = j->calls;
		return;
	case CB_FAULT_HANG:
		for (;;)
			pause(); /* a call that never returns */
	case CB_FAULT_CRASH:
		signal(SIGSEGV, SIG_DFL); /* a plain crash, even under a sanitizer's handler */
		raise(SIGSEGV);
		abort();
	case CB_FAULT_SLOW:
		for (uint64_t i = 0; i < j->calls; i++)
			if (j->engine_calls->call(j->ctx, j->in, len, j->out) !=
			    j->state->expect_status)
				j->bad_calls++;
		slept = 9 * (cb_wall_ns() - start); /* ten times the calls' own time */
		rest.tv_sec = (time_t)(slept / 1000000000u);
		rest.tv_nsec = (long)(slept % 1000000000u);
		nanosleep(&rest, NULL);
		return;
	default:
		return;
	}
}

/* The timed region: the engine's calls and nothing else (in the engine's
 * own loop when it has one: see `loop` in engine.h). */
static void timed_calls(struct job *j)
{
	const struct cb_engine_calls *e = j->engine_calls;
	const unsigned char *in = j->in;
	size_t len = j->state->cell->size;
	int expect = j->state->expect_status;
	struct cb_cycles counter = {.fd = -1};
	uint64_t cpu0, cycles0 = 0;

	if (j->tc->pin && j->tc->n_cpus) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(j->tc->cpus[j->index % j->tc->n_cpus], &set);
		pthread_setaffinity_np(pthread_self(), sizeof set, &set);
	}
	if (j->tc->count_cycles)
		cb_cycles_open(&counter);
	if (j->barrier)
		pthread_barrier_wait(j->barrier);
	if (j->tc->hook && j->index == 0)
		j->tc->hook->before(j->tc->hook->arg, j->engine, j->ctx);
	cpu0 = cb_thread_cpu_ns();
	if (counter.fd >= 0)
		cycles0 = cb_cycles_read(&counter);
	j->start = cb_wall_ns();
	if (j->fault != CB_FAULT_NONE && j->fault != CB_FAULT_WRONG)
		faulty_calls(j);
	else if (e->loop)
		j->bad_calls = e->loop(j->ctx, in, len, j->out, j->calls, expect, &j->last_bad);
	else
		for (uint64_t i = 0; i < j->calls; i++) {
			int rc = e->call(j->ctx, in, len, j->out);

			if (rc != expect) {
				j->last_bad = rc;
				j->bad_calls++;
			}
		}
	j->end = cb_wall_ns();
	if (counter.fd >= 0)
		j->cycles = cb_cycles_read(&counter) - cycles0;
	j->cpu = cb_thread_cpu_ns() - cpu0;
	if (j->tc->hook && j->index == 0)
		j->tc->hook->after(j->tc->hook->arg);
	cb_cycles_close(&counter);
}

static void gate_open(struct start_gate *g, int state)
{
	pthread_mutex_lock(&g->lock);
	g->state = state;
	pthread_cond_broadcast(&g->opened);
	pthread_mutex_unlock(&g->lock);
}

/* timed_calls on a stack moved down by SHIFT bytes (cb_trial_layout):
 * everything the engine's calls put on the stack moves with it. */
static __attribute__((noinline)) void placed_calls(struct job *j, size_t shift)
{
	/* a variable-length pad, outside the timed region: no allocation
	 * happens, the stack pointer moves */
	// cppcheck-suppress allocaCalled
	volatile unsigned char *pad = alloca(shift + 1);

	pad[0] = 0;
	timed_calls(j);
	__asm__ volatile("" : : "r"(pad) : "memory"); /* keeps the pad until the calls end */
}

/* A public-key library may keep tables per thread that it builds over a
 * thread's first operations: wolfSSL's FP_ECC caches a point's
 * multiplication table once it has seen the point twice (verification: the
 * generator and the public key). The one thread of a 1-thread trial has them
 * from its warm-up trial; the threads of an N-thread trial are new, and
 * without this read 0.12 to 0.84 of one thread's rate per core. So each
 * makes a few operations first, before the barrier and outside the timing,
 * and N threads are measured as warm as one. Not keygen: a new key each
 * call, nothing to cache, and RSA's take seconds. */
#define CB_THREAD_WARM_CALLS 4
static void warm_thread(struct job *j)
{
	const struct cb_cell_state *s = j->state;

	if (!cb_alg_is_pk(s->setup.alg) || s->cell->op == CB_OP_KEYGEN || j->engine->remote ||
	    j->fault != CB_FAULT_NONE)
		return;
	for (int i = 0; i < CB_THREAD_WARM_CALLS; i++)
		(void)j->engine_calls->call(j->ctx, j->in, s->cell->size, j->out);
}

static void *thread_main(void *arg)
{
	struct job *j = arg;
	int state;

	pthread_mutex_lock(&j->gate->lock);
	while ((state = j->gate->state) == 0)
		pthread_cond_wait(&j->gate->opened, &j->gate->lock);
	pthread_mutex_unlock(&j->gate->lock);
	if (state > 0) {
		warm_thread(j);
		placed_calls(j, j->stack_shift);
	}
	return NULL;
}

static const struct cb_expected *expected_for(struct cb_cell_state *s, uint64_t calls, char *err,
                                              size_t err_len)
{
	if (s->setup.config->mode != CB_MODE_STREAM)
		return &s->expected;
	if (s->stream_calls != calls) {
		if (cb_reference_stream(s->cell->alg, s->cell->op, s->key, s->iv, s->in,
		                        s->cell->size, calls, &s->stream_expected, err,
		                        err_len) != 0)
			return NULL;
		s->stream_calls = calls;
	}
	return &s->stream_expected;
}

/* Check one thread's output after the timed region. 0 when right; else
 * WHY says what is wrong. Fills the output fields of R from thread 0. */
static int check_output(struct job *j, const struct cb_expected *want, struct cb_trial_result *r,
                        int first, char *why, size_t why_len)
{
	const struct cb_cell *cell = j->state->cell;
	const struct cb_algorithm *alg = cell->alg;
	size_t len = cell->size;
	size_t out_len = cb_output_len(alg, cell->op, len);
	char got_hex[17], want_hex[17], sha[65];

	if (j->bad_calls) {
		bool forged = cell->op == CB_OP_DECRYPT_FORGED || cell->op == CB_OP_VERIFY_FORGED;

		if (forged && j->last_bad == CB_OK)
			snprintf(why, why_len,
			         "FORGED %s ACCEPTED by %s in %" PRIu64 " of %" PRIu64 " calls",
			         cell->op == CB_OP_VERIFY_FORGED ? "SIGNATURE" : "TAG",
			         j->engine->name, j->bad_calls, j->calls);
		else
			snprintf(why, why_len, "%s returned %s in %" PRIu64 " of %" PRIu64 " calls",
			         j->engine->name,
			         j->last_bad != CB_REJECTED ? "a failure"
			         : cell->op == CB_OP_VERIFY ? "a rejected signature"
			                                    : "a rejected tag",
			         j->bad_calls, j->calls);
		return -1;
	}
	if (cell->op == CB_OP_DECRYPT_FORGED)
		out_len = 0; /* a rejected message has no output to check */
	if (first) {
		cb_hex(j->out, out_len < 8 ? out_len : 8, r->output);
		if (cell->op == CB_OP_HASH)
			cb_hex(j->out, out_len, r->digest);
		cb_sha256_hex(j->out, out_len, r->output_sha256);
		strcpy(sha, r->output_sha256);
	} else if (out_len) {
		cb_sha256_hex(j->out, out_len, sha);
	}
	if (cell->op == CB_OP_DECRYPT_FORGED || cell->op == CB_OP_VERIFY ||
	    cell->op == CB_OP_VERIFY_FORGED)
		return 0; /* the status, checked above, is the whole result */
	/* Against the cell's own input, not the staged copy the calls read
	 * (cb_trial_stage): a copy gone wrong cannot pass. */
	if (j->engine->self_check) /* a built-in's output is not the algorithm's */
		return j->engine->self_check(j->ctx, j->state->in, len, j->out, why, why_len);
	if (j->state->pk)
		return cb_pk_check(j->state->pk, alg, cell->op, j->state->in, len, j->out, why,
		                   why_len);
	switch (cell->op) {
	case CB_OP_HASH:
		if (memcmp(j->out, want->digest, alg->digest_len) == 0)
			return 0;
		cb_hex(j->out, 8, got_hex);
		cb_hex(want->digest, 8, want_hex);
		snprintf(why, why_len, "digest mismatch: got %s, expected %s", got_hex, want_hex);
		return -1;
	case CB_OP_ENCRYPT:
		if (strcmp(sha, want->output_sha256) == 0)
			return 0;
		cb_hex(j->out, 8 < out_len ? 8 : out_len, got_hex);
		cb_hex(want->head, want->head_len, want_hex);
		snprintf(why, why_len,
		         "ciphertext mismatch: got %s..., expected %s... (sha256 %.16s vs %.16s)",
		         got_hex, want_hex, sha, want->output_sha256);
		return -1;
	case CB_OP_DECRYPT:
		/* By digest: the plaintext itself need not stay in memory. */
		if (strcmp(sha, want->output_sha256) == 0)
			return 0;
		snprintf(why, why_len, "decryption does not give the plaintext back");
		return -1;
	default:
		return 0;
	}
}

/* Stream mode: the final output after the calls (digest or nothing). */
static int finish_stream(struct job *j, char *why, size_t why_len)
{
	if (j->state->setup.config->mode != CB_MODE_STREAM || !j->engine_calls->finish)
		return 0;
	if (j->engine_calls->finish(j->ctx, j->out) == CB_OK)
		return 0;
	snprintf(why, why_len, "%s failed to finish the stream", j->engine->name);
	return -1;
}

/* Fill OUT with a pattern no other trial uses: whatever an engine leaves
 * unwritten cannot be a right answer carried over from before. */
static void poison(unsigned char *out, size_t len, unsigned thread)
{
	static _Atomic uint64_t trials;
	uint64_t word = (atomic_fetch_add(&trials, 1) + 1) * 0x9e3779b97f4a7c15ull;

	word ^= (uint64_t)thread << 56 | 0xa5;
	word ^= word >> 31;
	for (size_t i = 0; i < len; i += sizeof word)
		memcpy(out + i, &word, len - i < sizeof word ? len - i : sizeof word);
}

static void invalid(struct cb_trial_result *r, const char *why)
{
	r->valid = false;
	snprintf(r->error, sizeof r->error, "%s", why);
}

/* An engine whose calls run and are timed in a worker process: one request
 * for the whole trial. 0, or -1 with R invalid. */
static int remote_calls(struct cb_cell_state *s, struct job *j, unsigned n,
                        const struct cb_trial_info *info, struct cb_trial_result *r)
{
	struct cb_remote_times t = {0};
	char why[256] = "";
	int rc;

	if (n != 1) {
		snprintf(why, sizeof why,
		         "%s runs one thread per trial (its worker times the calls)",
		         j->engine->name);
		invalid(r, why);
		r->setup_failed = true;
		return -1;
	}
	if (j->tc->hook)
		j->tc->hook->before(j->tc->hook->arg, j->engine, j->ctx);
	rc = j->engine->remote(j->ctx, info, j->out, &t, why, sizeof why);
	if (j->tc->hook)
		j->tc->hook->after(j->tc->hook->arg);
	r->remote = true;
	snprintf(r->output_mode, sizeof r->output_mode, "%s", t.output);
	r->placed_input_offset = t.placed_input_offset;
	r->placed_out = t.placed_out;
	r->placed_stack = t.placed_stack;
	r->ns = t.ns;
	r->thread_ns[0] = t.ns;
	r->cpu_ns = t.has_cpu ? t.cpu_ns : 0;
	r->remote_cpu = t.has_cpu;
	r->round_trip_ns = t.round_trip_ns;
	r->restarts = t.restarts;
	snprintf(r->input_sha256, sizeof r->input_sha256, "%s", t.input_sha256);
	if (rc == CB_FAILED) {
		invalid(r, why);
		return -1;
	}
	if (strcmp(t.input_sha256, s->input_sha256) != 0) {
		snprintf(
		    why, sizeof why,
		    "input digest mismatch: the worker read %.16s..., the generator gives %.16s...",
		    t.input_sha256, s->input_sha256);
		invalid(r, why);
		return -1;
	}
	if (rc != s->expect_status) {
		j->last_bad = rc;
		j->bad_calls = info->calls;
	}
	return 0;
}

/* One trial in progress: its threads' jobs and what they share. */
struct trial {
	struct cb_cell_state *s;
	const struct cb_trial_context *tc;
	const struct cb_trial_info *info;
	const struct cb_engine *e;
	struct cb_engine_calls calls; /* e's for this cell's algorithm */
	unsigned n;                   /* threads */
	unsigned opened;              /* jobs whose context was opened (or tried) */
	bool fault;                   /* the test-only fault switch hits this trial */
	struct job jobs[CB_MAX_THREADS];
};

/* How much of each output buffer to poison: what the call writes, plus a
 * margin that catches a write past its end. */
static size_t poison_len(const struct trial *t, const struct cb_trial_buffers *buffers)
{
	const struct cb_cell *c = t->s->cell;
	size_t written = t->e->self_check ? c->size : cb_output_len(c->alg, c->op, c->size);

	return written + CB_OUTPUT_SLACK < buffers->out_len ? written + CB_OUTPUT_SLACK
	                                                    : buffers->out_len;
}

/* One job per thread, its output poisoned and its engine context opened.
 * 0, or -1 with R invalid. */
static int open_jobs(struct trial *t, struct cb_trial_buffers *buffers, struct cb_trial_result *r)
{
	size_t written = poison_len(t, buffers);
	char why[256] = "";

	memset(t->jobs, 0, t->n * sizeof t->jobs[0]);
	for (unsigned k = 0; k < t->n; k++, t->opened++) {
		struct job *j = &t->jobs[k];

		*j = (struct job){.engine = t->e,
		                  .engine_calls = &t->calls,
		                  .state = t->s,
		                  .tc = t->tc,
		                  .in = buffers->in ? buffers->in : t->s->in,
		                  .out = buffers->out[k],
		                  .calls = t->info->calls,
		                  .index = k,
		                  .stack_shift = buffers->layout.stack,
		                  .fault = t->fault ? t->tc->fault.kind : CB_FAULT_NONE,
		                  .last_bad = CB_OK};
		poison(j->out, written, k);
		j->ctx = cb_engine_open(t->e, &t->s->setup, why, sizeof why);
		if (!j->ctx) {
			char msg[300];

			snprintf(msg, sizeof msg, "%s could not open: %s", t->e->name, why);
			invalid(r, msg);
			r->setup_failed = true;
			return -1;
		}
	}
	return 0;
}

/* The calls of every thread, each thread let go only when all have
 * started. 0, or -1 with R invalid. */
static int run_threads(struct trial *t, struct cb_trial_result *r)
{
	struct start_gate gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
	pthread_t tids[CB_MAX_THREADS];
	pthread_barrier_t barrier;
	unsigned started = 0;
	char why[256];

	if (t->n == 1) {
		placed_calls(&t->jobs[0], t->jobs[0].stack_shift);
		return 0;
	}
	pthread_barrier_init(&barrier, NULL, t->n);
	for (unsigned k = 0; k < t->n; k++) {
		t->jobs[k].barrier = &barrier;
		t->jobs[k].gate = &gate;
		if (pthread_create(&tids[k], NULL, thread_main, &t->jobs[k]) != 0)
			break;
		started++;
	}
	gate_open(&gate, started == t->n ? 1 : -1);
	for (unsigned k = 0; k < started; k++)
		pthread_join(tids[k], NULL);
	pthread_barrier_destroy(&barrier);
	pthread_cond_destroy(&gate.opened);
	pthread_mutex_destroy(&gate.lock);
	if (started == t->n)
		return 0;
	snprintf(why, sizeof why, "cannot start thread %u of %u", started + 1, t->n);
	invalid(r, why);
	return -1;
}

/* An engine with a virtual clock: its time for each thread (ten times it
 * under the test-only slow fault, as the wall clock would see it), the
 * trial's the longest; its cycles those of the virtual work. */
static void virtual_times(const struct trial *t, struct cb_trial_result *r)
{
	r->virtual_clock = true;
	r->ns = 0;
	r->cycles = 0; /* the virtual work, not the real calls' */
	for (unsigned k = 0; k < t->n; k++) {
		struct cb_trial_info ti = *t->info;

		ti.thread = k;
		r->thread_ns[k] = t->e->virtual_ns(t->jobs[k].ctx, &ti);
	}
	/* Apart: every thread's time is asked before any thread's cycles. */
	for (unsigned k = 0; k < t->n; k++) {
		struct cb_trial_info ti = *t->info;

		ti.thread = k;
		if (t->fault && t->tc->fault.kind == CB_FAULT_SLOW)
			r->thread_ns[k] *= 10;
		if (r->thread_ns[k] > r->ns)
			r->ns = r->thread_ns[k];
		if (t->e->virtual_cycles)
			r->cycles += t->e->virtual_cycles(t->jobs[k].ctx, &ti);
	}
}

/* The trial's times: from the first thread's start to the last one's end,
 * and each thread's own. */
static void collect_times(const struct trial *t, struct cb_trial_result *r)
{
	uint64_t first_start = t->jobs[0].start, last_end = t->jobs[0].end;

	for (unsigned k = 0; k < t->n; k++) {
		const struct job *j = &t->jobs[k];

		if (j->start < first_start)
			first_start = j->start;
		if (j->end > last_end)
			last_end = j->end;
		r->cpu_ns += j->cpu;
		r->cycles += j->cycles;
		r->thread_ns[k] = j->end - j->start;
	}
	r->ns = last_end - first_start;
	if (t->e->virtual_ns)
		virtual_times(t, r);
}

/* The calls timed locally, with the core's frequency and the TSC around
 * them. 0, or -1 with R invalid. */
static int local_calls(struct trial *t, struct cb_trial_result *r)
{
	bool core_hz = t->tc->estimate_core_hz && !t->e->virtual_ns;
	uint64_t ticks0 = 0;

	if (core_hz)
		r->core_hz_before = cb_core_hz_estimate(500000);
	if (cb_tsc_present())
		ticks0 = cb_tsc_read();
	if (run_threads(t, r) != 0)
		return -1;
	if (cb_tsc_present())
		r->ticks = cb_tsc_read() - ticks0;
	if (core_hz)
		r->core_hz_after = cb_core_hz_estimate(500000);
	collect_times(t, r);
	return 0;
}

/* Verification, outside the timed region: each thread's output against
 * what the cell expects. R invalid at the first one wrong. */
static void verify_outputs(struct trial *t, struct cb_trial_result *r)
{
	char why[256] = "";

	for (unsigned k = 0; k < t->n && r->valid; k++) {
		const struct cb_expected *want;

		if (finish_stream(&t->jobs[k], why, sizeof why) != 0) {
			invalid(r, why);
			break;
		}
		/* test-only: a wrong output must be caught. keygen's bit 4:
		 * X25519 clears a private key's low three bits, so a key pair
		 * with bit 0 flipped is still a valid one. */
		if (t->fault && t->tc->fault.kind == CB_FAULT_WRONG)
			t->jobs[k].out[0] ^= t->s->cell->op == CB_OP_KEYGEN ? 0x10 : 1;
		want = expected_for(t->s, t->info->calls, why, sizeof why);
		if (!want) {
			invalid(r, why);
			break;
		}
		if (check_output(&t->jobs[k], want, r, k == 0, why, sizeof why) != 0) {
			char msg[300];

			if (t->n > 1) {
				snprintf(msg, sizeof msg, "thread %u: %s", k, why);
				invalid(r, msg);
			} else {
				invalid(r, why);
			}
		}
	}
}

void cb_trial_run(struct cb_cell_state *s, const struct cb_trial_context *tc,
                  struct cb_trial_buffers *buffers, const struct cb_trial_info *info,
                  struct cb_trial_result *r)
{
	struct trial t = {.s = s, .tc = tc, .info = info, .n = s->cell->threads};
	struct cb_trial_info placed = *info; /* a worker places its own buffers as told */

	placed.stack = buffers->layout.stack;
	placed.out = buffers->layout.out;

	t.e = s->engine ? s->engine : s->cell->variant->engine;
	t.calls = cb_engine_calls_for(t.e, s->setup.alg);
	t.fault = cb_fault_hits(&tc->fault, t.e, info->round);
	memset(r, 0, sizeof *r);
	r->valid = true;
	if (open_jobs(&t, buffers, r) == 0 &&
	    (t.e->remote ? remote_calls(s, &t.jobs[0], t.n, &placed, r) : local_calls(&t, r)) == 0)
		verify_outputs(&t, r);
	for (unsigned k = 0; k < t.opened; k++)
		if (t.jobs[k].ctx)
			t.calls.close(t.jobs[k].ctx);
}
