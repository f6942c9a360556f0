/* explain.c: profiled trials after the timed ones, one profile line each
 * (explain.h). */
#include "core/run/explain.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/base/errbuf.h"
#include "core/engine/process.h"
#include "core/profile/profile.h"
#include "core/profile/sampler.h"
#include "core/profile/tracer.h"
#include "core/results/results_schema.h"
#include "core/base/units.h"

/* Room for samples beyond those asked for: a trial sized on an estimate
 * may take more; the ones past the buffer are counted as lost. */
#define CAPACITY_SLACK 4096

/* One cell's timed trials, as ns per call. */
struct per_call {
	double *ns;
	size_t n, cap;
};

struct cb_explain {
	unsigned samples;
	double rate_hz;
	bool twins;
	char timer_refusal[512], ptrace_refusal[512]; /* "" when the sampler can be used */
	json_t *header;
	struct per_call *timed; /* one per cell */
	size_t n_cells;
};

/* The sampling of one profiled trial, driven by the trial's hook. */
struct sampling {
	const struct cb_explain *ex;
	size_t capacity;
	struct cb_sampler *timer;
	struct cb_tracer *tracer;
	pid_t pid;
	struct cb_profile profile;
	bool built;
	char refused[512]; /* "" when samples were taken */
};

/* ---- probing the samplers ------------------------------------------------ */

static void probe_timer(struct cb_explain *ex)
{
	struct cb_samples s;
	struct cb_sampler *t =
	    cb_sampler_start(ex->rate_hz, 16, ex->timer_refusal, sizeof ex->timer_refusal);
	char err[256];

	if (!t)
		return;
	ex->timer_refusal[0] = '\0';
	cb_sampler_stop(t, &s, err, sizeof err);
	cb_samples_free(&s);
}

/* Trace a child of this process, as workers are: a refusal here is the one
 * a worker would get. */
static void probe_ptrace(struct cb_explain *ex)
{
	struct cb_samples s;
	struct cb_tracer *t;
	pid_t child = fork();

	if (child == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			pause();
	}
	if (child < 0) {
		cb_errorf(ex->ptrace_refusal, sizeof ex->ptrace_refusal,
		          "no process to probe ptrace on (fork: %s)", strerror(errno));
		return;
	}
	t = cb_tracer_start(child, ex->rate_hz, 16, ex->ptrace_refusal, sizeof ex->ptrace_refusal);
	if (t) {
		ex->ptrace_refusal[0] = '\0';
		cb_tracer_stop(t, &s);
		cb_samples_free(&s);
	}
	kill(child, SIGKILL);
	while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
		;
}

static json_t *refusal_json(const char *why)
{
	return why[0] ? json_string(why) : json_null();
}

struct cb_explain *cb_explain_new(const struct cb_explain_settings *settings, size_t n_cells)
{
	struct cb_explain *ex = calloc(1, sizeof *ex);

	if (!ex || !(ex->timed = calloc(n_cells ? n_cells : 1, sizeof *ex->timed))) {
		free(ex);
		return NULL;
	}
	ex->n_cells = n_cells;
	ex->samples = settings->samples;
	ex->rate_hz = settings->rate_hz > 0 ? settings->rate_hz : CB_EXPLAIN_RATE_HZ;
	ex->twins = settings->twins;
	probe_timer(ex);
	probe_ptrace(ex);
	ex->header = json_pack("{s:i, s:f, s:o, s:o}", "samples", (int)ex->samples, "rate_hz",
	                       ex->rate_hz, "timer", refusal_json(ex->timer_refusal), "ptrace",
	                       refusal_json(ex->ptrace_refusal));
	if (ex->header && ex->twins)
		json_object_set_new(ex->header, "twins", json_true());
	if (!ex->header) {
		cb_explain_free(ex);
		return NULL;
	}
	return ex;
}

void cb_explain_free(struct cb_explain *ex)
{
	if (!ex)
		return;
	for (size_t i = 0; i < ex->n_cells; i++)
		free(ex->timed[i].ns);
	free(ex->timed);
	json_decref(ex->header);
	free(ex);
}

json_t *cb_explain_header(const struct cb_explain *ex)
{
	return ex->header;
}

bool cb_explain_note(const struct cb_explain *ex, char *buf, size_t len)
{
	int n = 0;

	buf[0] = '\0';
	if (ex->timer_refusal[0])
		n = snprintf(buf, len, "explain: no in-process profiles (%s)", ex->timer_refusal);
	if (ex->ptrace_refusal[0] && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "%sno profiles of workers (%s)",
		         n ? "; " : "explain: ", ex->ptrace_refusal);
	if (buf[0] && strlen(buf) + 1 < len)
		snprintf(buf + strlen(buf), len - strlen(buf), "; the run still measures");
	return buf[0] != '\0';
}

/* ---- the timed trials' time per call ------------------------------------ */

void cb_explain_timed(struct cb_explain *ex, size_t cell, double ns, uint64_t calls)
{
	struct per_call *t;

	if (!ex || cell >= ex->n_cells || !calls)
		return;
	t = &ex->timed[cell];
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		double *grown = realloc(t->ns, cap * sizeof *grown);

		if (!grown)
			return; /* the median of those kept */
		t->ns = grown;
		t->cap = cap;
	}
	t->ns[t->n++] = ns / (double)calls;
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of CELL's timed ns per call, or -1 when it has none. */
static double timed_median(struct cb_explain *ex, size_t cell)
{
	struct per_call *t = &ex->timed[cell];

	if (!t->n)
		return -1;
	qsort(t->ns, t->n, sizeof *t->ns, compare_double);
	return t->n % 2 ? t->ns[t->n / 2] : (t->ns[t->n / 2 - 1] + t->ns[t->n / 2]) / 2;
}

/* ---- the hook around a profiled trial's calls ---------------------------- */

static void refuse(struct sampling *s, const char *why)
{
	snprintf(s->refused, sizeof s->refused, "%s", why);
}

static void before_calls(void *arg, const struct cb_engine *engine, void *ctx)
{
	struct sampling *s = arg;
	const struct cb_explain *ex = s->ex;
	char err[512];

	if (!engine->remote) {
		if (ex->timer_refusal[0])
			refuse(s, ex->timer_refusal);
		else if (!(s->timer = cb_sampler_start(ex->rate_hz, s->capacity, err, sizeof err)))
			refuse(s, err);
		return;
	}
	if (engine->remote != cb_process_remote)
		refuse(s, "a command engine starts a process per call, which ends before its "
		          "code could be read: not sampled");
	else if (ex->ptrace_refusal[0])
		snprintf(s->refused, sizeof s->refused, "%.400s (probed at the start, on a child)",
		         ex->ptrace_refusal);
	else if ((s->pid = cb_process_pid(ctx)) <= 0)
		refuse(s, "the worker is not running");
	else if (!(s->tracer = cb_tracer_start(s->pid, ex->rate_hz, s->capacity, err, sizeof err)))
		refuse(s, err);
}

/* The profile is built at once: a worker's mappings and code are read
 * while it still runs. */
static void after_calls(void *arg)
{
	struct sampling *s = arg;
	struct cb_samples samples;
	char err[256] = "";

	if (s->timer) {
		if (cb_sampler_stop(s->timer, &samples, err, sizeof err) != 0)
			cb_samples_note(&samples, err);
	} else if (s->tracer) {
		cb_tracer_stop(s->tracer, &samples);
	} else {
		return;
	}
	s->timer = NULL;
	s->tracer = NULL;
	if (cb_profile_build(s->pid, &samples, &s->profile, err, sizeof err) != 0)
		refuse(s, err);
	else
		s->built = true;
	cb_samples_free(&samples);
}

/* ---- one cell ------------------------------------------------------------ */

/* Append WHY to P's degraded text. */
static void degrade(struct cb_profile *p, const char *why)
{
	size_t used = strlen(p->degraded);

	snprintf(p->degraded + used, sizeof p->degraded - used, "%s%s", used ? "; " : "", why);
}

/* The calls of the next profiled trial: enough, at the rate samples came so
 * far, for the samples still wanted, within the CPU time left. */
static uint64_t next_calls(uint64_t calls, uint64_t trial_cpu_ns, uint64_t trial_samples,
                           double rate_hz, uint64_t wanted, uint64_t cpu_left_ns)
{
	double per_ns = trial_samples && trial_cpu_ns ? (double)trial_samples / (double)trial_cpu_ns
	                                              : rate_hz / 1e9;
	/* 1.2 times those wanted, and at least 32: a few samples short of the
	 * goal take one more trial, not many small ones */
	double need_ns = 1.2 * (double)(wanted > 32 ? wanted : 32) / per_ns;
	double per_call = trial_cpu_ns ? (double)trial_cpu_ns / (double)calls : 0;
	double next;

	if (need_ns > (double)cpu_left_ns)
		need_ns = (double)cpu_left_ns;
	next = per_call > 0 ? need_ns / per_call + 1 : (double)calls * 10;
	if (next > (double)calls * 100)
		next = (double)calls * 100;
	if (next > (double)(1ull << 40))
		next = (double)(1ull << 40);
	return next < 1 ? 1 : (uint64_t)next;
}

/* A trial's CPU time: its threads', or the worker's; else its wall time. */
static uint64_t cpu_of(const struct cb_trial_result *r)
{
	if ((!r->remote || r->remote_cpu) && r->cpu_ns)
		return r->cpu_ns;
	return r->ns;
}

static void show_progress(const struct cb_explain_pass *pass, size_t cell)
{
	const struct cb_cell *c = pass->states[cell].cell;
	char size[32];

	fprintf(stderr, "\r\033[Kexplain cell %zu/%zu %s %s %s %s x%u", cell + 1, pass->n_cells,
	        c->variant->label, c->alg->name, cb_op_name(c->op), cb_format_size(c->size, size),
	        c->threads);
}

/* One trial of CELL's CALLS outside the timed rounds, as slot SEQ, with
 * HOOK around its calls (NULL: none), into R. */
static void run_trial(const struct cb_explain_pass *pass, size_t cell, uint64_t calls, uint64_t seq,
                      const struct cb_trial_hook *hook, struct cb_trial_result *r)
{
	struct cb_cell_state *state = &pass->states[cell];
	struct cb_trial_context tc = *pass->tc;
	struct cb_trial_info info = {.run = pass->run_index,
	                             .round = pass->round,
	                             .seq = seq,
	                             .calls = calls,
	                             .len = state->cell->size};

	tc.hook = hook;
	tc.estimate_core_hz = false;
	cb_trial_run(state, &tc, pass->buffers, &info, r);
}

/* The twin of a profiled trial (explain = { twins = true }): a trial of
 * the same CALLS with no sampler, right before or after it, written as a
 * profile line without a profile. The pair measures what sampling costs
 * those calls, at their count and their moment (tests/bench/explain-overhead.sh);
 * a timed trial would differ in both. 0, or -1 when the write failed. */
static int write_twin(struct cb_explain *ex, const struct cb_explain_pass *pass, size_t cell,
                      uint64_t calls, double timed, bool after, uint64_t *seq, struct cb_writer *w)
{
	struct cb_cell_state *state = &pass->states[cell];
	struct cb_trial_result r;

	run_trial(pass, cell, calls, *seq, NULL, &r);
	struct cb_profile_record rec = {
	    .cell = state->cell,
	    .round = pass->round,
	    .seq = (*seq)++,
	    .sampler = state->engine->remote ? "ptrace" : "timer",
	    .rate_hz = ex->rate_hz,
	    .calls = calls,
	    .result = &r,
	    .timed_ns_per_call = timed,
	    .refused = after
	                   ? "a twin: the profiled trial's calls, unsampled, right after it"
	                   : "a twin: the next profiled trial's calls, unsampled, right before it"};
	return cb_results_write_profile(w, &rec);
}

/* The profiled trials of CELL. 0, 1 stopped, -1 a write failed. */
static int explain_cell(struct cb_explain *ex, const struct cb_explain_pass *pass, size_t cell,
                        uint64_t *seq, struct cb_writer *w)
{
	struct cb_cell_state *state = &pass->states[cell];
	double timed = timed_median(ex, cell);
	uint64_t calls = state->calls ? state->calls : 1, total = 0, cpu_used = 0;

	for (unsigned trial = 0;; trial++) {
		struct sampling s = {.ex = ex, .capacity = ex->samples + CAPACITY_SLACK};
		struct cb_trial_hook hook = {before_calls, after_calls, &s};
		struct cb_trial_result r;
		uint64_t cpu, got;
		bool last;
		json_t *profile = NULL;
		int rc;

		if (pass->stop && *pass->stop)
			return 1;
		/* twins alternate sides, so that neither is always the later */
		if (ex->twins && trial % 2 == 1 &&
		    write_twin(ex, pass, cell, calls, timed, false, seq, w) != 0)
			return -1;
		run_trial(pass, cell, calls, *seq, &hook, &r);
		cpu = cpu_of(&r);
		got = s.built ? s.profile.samples : 0;
		cpu_used += cpu;
		total += got;
		last = s.refused[0] || !r.valid || total >= ex->samples ||
		       cpu_used >= CB_EXPLAIN_CAP_NS || trial + 1 >= CB_EXPLAIN_MAX_TRIALS;
		if (last && s.built && total < ex->samples) {
			char why[200];

			snprintf(why, sizeof why,
			         "the cell's profiled trials stopped at %llu of %u samples (%s)",
			         (unsigned long long)total, ex->samples,
			         cpu_used >= CB_EXPLAIN_CAP_NS ? "their cap of 2 s of CPU time"
			         : !r.valid                    ? "a trial failed"
			                                       : "their cap of trials");
			degrade(&s.profile, why);
		}
		if (s.built)
			profile = cb_profile_json(&s.profile);
		if (!s.refused[0] && !profile)
			refuse(&s, s.built ? "out of memory for the profile"
			                   : "no samples: the trial failed before its calls ran");
		struct cb_profile_record rec = {.cell = state->cell,
		                                .round = pass->round,
		                                .seq = (*seq)++,
		                                .sampler =
		                                    state->engine->remote ? "ptrace" : "timer",
		                                .rate_hz = ex->rate_hz,
		                                .calls = calls,
		                                .result = &r,
		                                .timed_ns_per_call = timed,
		                                .profile = s.refused[0] ? NULL : profile,
		                                .refused = s.refused[0] ? s.refused : NULL};
		rc = cb_results_write_profile(w, &rec);
		json_decref(profile);
		if (s.built)
			cb_profile_free(&s.profile);
		if (rc != 0 || (ex->twins && trial % 2 == 0 &&
		                write_twin(ex, pass, cell, calls, timed, true, seq, w)))
			return -1;
		if (last)
			return 0;
		calls = next_calls(calls, cpu, got, ex->rate_hz, ex->samples - total,
		                   CB_EXPLAIN_CAP_NS - cpu_used);
	}
}

int cb_explain_run(struct cb_explain *ex, const struct cb_explain_pass *pass, struct cb_writer *w,
                   char *err, size_t err_len)
{
	uint64_t seq = pass->seq;
	int rc = 0;

	/* the cell's own input, where the run put it */
	cb_trial_place(pass->buffers, (struct cb_trial_layout){0});
	for (size_t c = 0; c < pass->n_cells && rc == 0; c++) {
		if (pass->states[c].broken[0])
			continue; /* its engine could not open: no calls to profile */
		if (pass->progress)
			show_progress(pass, c);
		rc = explain_cell(ex, pass, c, &seq, w);
	}
	if (pass->progress)
		fprintf(stderr, "\r\033[K");
	if (rc < 0)
		return cb_errorf(err, err_len, "cannot write a profile line: %s", strerror(errno));
	return rc;
}
