/* runner.c: running a prepared run (run_prepare.c): calibrating cells,
 * every trial in the plan's order, the looks and stops of a sequential run,
 * the profiled trials after the timed ones, and the end line's figures. The
 * lines it writes are made by the results module (results_schema.h). */
#include "config.h"

#include "core/run/runner.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/errbuf.h"
#include "core/base/killpoint.h"
#include "core/base/units.h"
#include "core/machine/clock.h"
#include "core/measure/budget.h"
#include "core/measure/trial.h"
#include "core/results/results_schema.h"
#include "core/run/explain.h"
#include "core/run/run_state.h"

/* Grow calls until one trial lasts at least the trial time. The trials it
 * runs are not recorded: they only size the real ones. */
static void calibrate(struct cb_run *run, struct cb_cell_state *s, const struct cb_slot *slot,
                      uint64_t seq)
{
	struct cb_trial_info info = {.run = run->options->run_index,
	                             .round = slot->round,
	                             .seq = seq,
	                             .calls = 1,
	                             .len = s->cell->size};
	struct cb_trial_result r;
	const uint64_t max_calls = 1ull << 40;
	int failures = 0;

	for (int step = 0; step < 40; step++) {
		struct cb_trial_context quiet = run->tc;

		quiet.estimate_core_hz = false;
		cb_trial_run(s, &quiet, &run->buffers, &info, &r);
		if (step == 0)
			cb_kill_point("calibrate");
		if (r.setup_failed) {
			snprintf(s->broken, sizeof s->broken, "%s", r.error);
			return;
		}
		if (!r.valid && r.remote) {
			/* A worker that failed gave no time to grow on: try again
			 * (it is started anew), and give up after three. */
			if (++failures < 3)
				continue;
			snprintf(s->broken, sizeof s->broken, "%s", r.error);
			return;
		}
		if (r.ns >= run->trial_time_ns || info.calls >= max_calls)
			break;
		/* Aim 10% past the target, but never grow more than 100x in one step:
		 * a first call can be slow (cold caches, lazy initialisation). */
		double want =
		    r.ns ? (double)info.calls * 1.1 * (double)run->trial_time_ns / (double)r.ns
		         : (double)info.calls * 100;
		uint64_t next =
		    want > (double)info.calls * 100 ? info.calls * 100 : (uint64_t)want + 1;

		info.calls = next > info.calls ? next : info.calls * 2;
	}
	s->calls = info.calls;
}

static void show_progress(const struct cb_run *run, size_t done, size_t total,
                          const struct cb_slot *slot)
{
	const struct cb_scenario *sc = run->plan->scenario;
	const struct cb_cell *c = &run->plan->cells[slot->cell];
	double elapsed = (double)(cb_wall_ns() - run->started_ns) / 1e9;
	double eta = done ? elapsed / (double)done * (double)(total - done) : 0;
	char size[32];

	fprintf(stderr,
	        "\r\033[K%s round %u/%u  cell %zu/%zu %s %s %s %s x%u  %.0fs elapsed, ETA %.0fs",
	        slot->warmup ? "warm-up" : "", slot->round + 1, sc->warmup_rounds + sc->rounds,
	        slot->cell + 1, run->plan->n_cells, c->variant->label, c->alg->name,
	        cb_op_name(c->op), cb_format_size(c->size, size), c->threads, elapsed, eta);
}

/* Slots an interrupted file already holds, and the calls its cells used. */
static unsigned char *slots_done(struct cb_run *run)
{
	const struct cb_results *old = run->options->resume;
	const struct cb_plan *plan = run->plan;
	unsigned char *done = calloc(plan->n_slots ? plan->n_slots : 1, 1);

	if (!done || !old)
		return done;
	for (size_t i = 0; i < old->n_trials; i++) {
		const struct cb_result_trial *t = &old->trials[i];

		if (t->seq < plan->n_slots)
			done[t->seq] = 1;
		if (t->seq < plan->n_slots && t->valid && !t->warmup)
			cb_explain_timed(run->explain, plan->slots[t->seq].cell, t->ns, t->calls);
		if (t->seq < plan->n_slots && t->calls) {
			struct cb_cell_state *s = &run->states[plan->slots[t->seq].cell];

			if (!s->calls)
				s->calls = t->calls;
		}
	}
	return done;
}

/* The run's time so far, against its budget: the wall clock, or the
 * trials' virtual time on a plan of virtual clocks only (cb_run_execute). */
static double elapsed_s(const struct cb_run *run)
{
	if (!run->real_clock)
		return run->virtual_s;
	return run->elapsed_before + (double)(cb_wall_ns() - run->started_ns) / 1e9;
}

static bool decide(const struct cb_run *run, bool last, struct cb_run_totals *totals);

/* A resumed sequential file: the cells its last look left open, the rounds
 * it had looked at, and the time it had counted (the last look's, plus the
 * trials after it). True when the run was over at that look. */
static bool resume_looks(struct cb_run *run, struct cb_run_totals *totals)
{
	const struct cb_results *old = run->options->resume;
	struct cb_results_look last;
	long long last_round = -1;
	bool looked, after_last = false;

	if (!old)
		return false;
	looked = cb_results_last_look(old, &last);
	if (looked) {
		unsigned warmup = run->plan->scenario->warmup_rounds;
		char cell_key[1024];

		last_round = last.round;
		run->looked = last_round >= warmup ? (unsigned)(last_round - warmup + 1) : 0;
		run->elapsed_before = last.elapsed_s;
		for (size_t c = 0; c < run->plan->n_cells; c++) {
			cb_cell_key(&run->plan->cells[c], cell_key, sizeof cell_key);
			run->open[c] = cb_results_look_measures(&last, cell_key);
			totals->open_cells += run->open[c];
		}
		totals->looks = (unsigned)last.n_looks;
		totals->measured_rounds = run->looked;
		totals->questions_open = last.questions_open;
	}
	for (size_t t = 0; t < old->n_trials; t++) {
		const struct cb_result_trial *trial = &old->trials[t];
		double ns = trial->valid ? trial->ns : 0;

		run->virtual_s += ns / 1e9;
		if ((long long)trial->round > last_round) {
			run->elapsed_before += ns / 1e9;
			after_last = true;
		}
	}
	run->trials_total = old->n_trials;
	/* Killed after a look and before the next trial: what that look
	 * decided is decided again, from the same numbers. */
	return looked && !after_last &&
	       decide(run, run->looked >= cb_scenario_planned_rounds(run->plan->scenario), totals);
}

/* One look: the hook says which cells stay open; the look line records it.
 * 0, or -1 with ERR. */
static int look(struct cb_run *run, struct cb_writer *w, const struct cb_slot *slot,
                unsigned measured, struct cb_run_totals *totals, char *err, size_t err_len)
{
	struct cb_run_look lk = {.round = slot->round,
	                         .measured = measured,
	                         .elapsed_s = elapsed_s(run),
	                         .open = run->open};
	size_t n_open = 0;
	int rc;

	if (run->options->look(run->options->look_ctx, &lk, err, err_len) != 0) {
		json_decref(lk.fields);
		return -1;
	}
	for (size_t c = 0; c < run->plan->n_cells; c++)
		n_open += run->open[c];
	rc = cb_results_write_look(w, run->plan, run->open, slot->round, lk.elapsed_s, lk.fields,
	                           lk.questions_open);
	json_decref(lk.fields);
	if (rc != 0 || cb_writer_sync(w) != 0) {
		totals->write_failed = true;
		return cb_errorf(err, err_len, "cannot write the look after round %u: %s",
		                 slot->round, strerror(errno));
	}
	cb_kill_point("look");
	run->looked = measured;
	totals->looks++; /* of the file, those before a resume too */
	totals->measured_rounds = measured;
	totals->open_cells = n_open;
	totals->questions_open = lk.questions_open;
	return 0;
}

/* Whether the next block, at the time per trial so far, ends within the
 * budget. */
static bool next_block_fits(const struct cb_run *run, size_t open_cells)
{
	const struct cb_stop_settings *stop = &run->plan->scenario->stop;
	double now = elapsed_s(run);
	double per_trial = run->trials_total ? now / (double)run->trials_total : 0;

	return cb_budget_fits(stop->budget_s, now, per_trial * (double)(open_cells * stop->block));
}

/* After a look (LAST: at the last planned round): whether the run is over,
 * and why (totals->outcome). */
static bool decide(const struct cb_run *run, bool last, struct cb_run_totals *totals)
{
	const struct cb_stop_settings *stop = &run->plan->scenario->stop;

	if (totals->questions_open == 0)
		totals->outcome = CB_STOP_RESOLVED;
	else if (totals->open_cells == 0)
		totals->outcome = cb_budget_spent(stop->budget_s, elapsed_s(run))
		                      ? CB_STOP_BUDGET
		                      : CB_STOP_MAX_ROUNDS;
	else if (last)
		totals->outcome = CB_STOP_MAX_ROUNDS;
	else if (!next_block_fits(run, totals->open_cells))
		totals->outcome = CB_STOP_BUDGET;
	return totals->outcome != NULL;
}

/* After the last slot of a round (LAST: of the plan): sync, and in a
 * sequential run the look at a block's end and whether the run goes on.
 * 0 go on, 1 the run is over (totals->outcome says why), -1 a failed look
 * or write (ERR). */
static int after_round(struct cb_run *run, struct cb_writer *w, const struct cb_slot *slot,
                       bool last, struct cb_run_totals *totals, char *err, size_t err_len)
{
	const struct cb_scenario *sc = run->plan->scenario;
	unsigned measured;

	cb_writer_sync(w);
	if (!run->sequential || slot->warmup)
		return 0;
	measured = slot->round - sc->warmup_rounds + 1;
	if (measured <= run->looked)
		return 0; /* looked at before the file was resumed */
	if (!last && (measured < run->first_look || (measured - run->first_look) % sc->stop.block))
		return 0;
	if (look(run, w, slot, measured, totals, err, err_len) != 0)
		return -1;
	return decide(run, last, totals) ? 1 : 0;
}

/* After the last timed round: the profiled trials of every cell (explain.h).
 * 0, or -1 with ERR when the file cannot take a line. */
static int explain(struct cb_run *run, struct cb_writer *w, struct cb_run_totals *totals, char *err,
                   size_t err_len)
{
	const struct cb_plan *plan = run->plan;
	const struct cb_explain_pass pass = {
	    .states = run->states,
	    .n_cells = plan->n_cells,
	    .tc = &run->tc,
	    .buffers = &run->buffers,
	    .run_index = run->options->run_index,
	    .round = plan->n_slots ? plan->slots[plan->n_slots - 1].round + 1 : 0,
	    .seq = plan->n_slots,
	    .stop = run->options->stop,
	    .progress = run->options->progress};
	int rc = cb_explain_run(run->explain, &pass, w, err, err_len);

	if (rc < 0)
		totals->write_failed = true;
	if (rc > 0)
		totals->interrupted = true;
	cb_writer_sync(w);
	return rc < 0 ? -1 : 0;
}

int cb_run_execute(struct cb_run *run, struct cb_writer *w, struct cb_run_totals *totals, char *err,
                   size_t err_len)
{
	const struct cb_plan *plan = run->plan;
	unsigned char *done = slots_done(run);
	size_t to_do = 0, finished = 0;
	int rc = 0;

	memset(totals, 0, sizeof *totals);
	if (!done) {
		cb_errorf(err, err_len, "out of memory");
		return -1;
	}
	if (run->sequential && resume_looks(run, totals))
		rc = 1; /* nothing left to measure */
	for (size_t k = 0; k < plan->n_slots; k++)
		to_do += !done[k];
	for (size_t k = 0; k < plan->n_slots && rc == 0; k++) {
		const struct cb_slot *slot = &plan->slots[k];
		struct cb_cell_state *s = &run->states[slot->cell];
		struct cb_trial_info info = {.run = run->options->run_index,
		                             .round = slot->round,
		                             .seq = k,
		                             .len = s->cell->size};
		struct cb_trial_result r;
		bool round_ends = k + 1 == plan->n_slots || plan->slots[k + 1].round != slot->round;

		/* A cell that left the rotation keeps its slots empty. */
		if (done[k] || (run->sequential && !slot->warmup && !run->open[slot->cell])) {
			if (round_ends && (rc = after_round(run, w, slot, k + 1 == plan->n_slots,
			                                    totals, err, err_len)) != 0)
				break;
			continue;
		}
		if (run->options->stop && *run->options->stop) {
			totals->interrupted = true;
			break;
		}
		if (run->options->progress)
			show_progress(run, finished, to_do, slot);
		cb_trial_place(&run->buffers,
		               run->plan->scenario->layout_per_trial
		                   ? cb_trial_layout_draw(run->layout_seed, slot->cell,
		                                          slot->round + run->stratum_pad)
		                   : (struct cb_trial_layout){0});
		/* A worker places its own input, at the run's offset. */
		if (run->plan->scenario->layout_per_trial)
			cb_trial_stage(&run->buffers, s->engine->remote ? NULL : s->in,
			               s->cell->size);
		if (!slot->warmup && !run->measured_from_ns)
			run->measured_from_ns = cb_wall_ns();
		if (!s->calls && !s->broken[0])
			calibrate(run, s, slot, k);
		if (s->broken[0]) {
			r = (struct cb_trial_result){.valid = false};
			snprintf(r.error, sizeof r.error, "%s", s->broken);
			info.calls = 0;
		} else {
			info.calls = s->calls;
			cb_trial_run(s, &run->tc, &run->buffers, &info, &r);
		}
		const struct cb_trial_record record = {.cell = s->cell,
		                                       .round = slot->round,
		                                       .seq = k,
		                                       .warmup = slot->warmup,
		                                       .calls = info.calls,
		                                       .result = &r,
		                                       .trial_time_ns = run->trial_time_ns,
		                                       .layout_per_trial =
		                                           run->plan->scenario->layout_per_trial,
		                                       .layout = run->buffers.layout,
		                                       .cycles_counted = run->tc.count_cycles};

		if (cb_results_write_trial(w, &record) != 0) {
			cb_errorf(err, err_len, "cannot write trial %zu: %s", k, strerror(errno));
			totals->write_failed = true;
			rc = -1;
			break;
		}
		cb_kill_point("trial");
		totals->trials++;
		run->trials_total++;
		if (r.valid)
			run->virtual_s += (double)r.ns / 1e9;
		if (r.valid && !slot->warmup)
			cb_explain_timed(run->explain, slot->cell, (double)r.ns, info.calls);
		finished++;
		if (!r.valid) {
			totals->invalid++;
			if (!totals->first_error[0])
				snprintf(totals->first_error, sizeof totals->first_error,
				         "%.40s %s %s: %.180s", s->cell->variant->label,
				         s->cell->alg->name, cb_op_name(s->cell->op), r.error);
		}
		/* A round ends when the next slot starts another (or the run ends). */
		if (round_ends)
			rc =
			    after_round(run, w, slot, k + 1 == plan->n_slots, totals, err, err_len);
	}
	if (rc >= 0 && !totals->interrupted && run->explain)
		rc = explain(run, w, totals, err, err_len);
	if (rc < 0 && run->sequential)
		totals->interrupted = true; /* a failed look: the file resumes from its last one */
	if (totals->interrupted)
		totals->outcome = CB_STOP_INTERRUPTED;
	if (run->options->progress)
		fprintf(stderr, "\r\033[K");
	free(done);
	return rc < 0 ? -1 : 0;
}

const struct cb_explain *cb_run_explain(const struct cb_run *run)
{
	return run->explain;
}

json_t *cb_run_end(const struct cb_run *run, const struct cb_run_totals *totals)
{
	uint64_t now = cb_wall_ns();
	struct cb_end_record e = {.trials = totals->trials,
	                          .invalid = totals->invalid,
	                          .interrupted = totals->interrupted,
	                          .elapsed_s = (double)(now - run->started_ns) / 1e9,
	                          .rounds_s = -1,
	                          .core_hz_end =
	                              run->real_clock ? cb_core_hz_estimate(20000000) : -1,
	                          .outcome = !run->sequential  ? NULL
	                                     : totals->outcome ? totals->outcome
	                                                       : CB_STOP_INTERRUPTED,
	                          .looks = totals->looks,
	                          .measured_rounds = totals->measured_rounds,
	                          .open_cells = totals->open_cells,
	                          .questions_open = totals->questions_open,
	                          .stop_elapsed_s = elapsed_s(run)};

	/* The measured rounds' wall time, the harness's time between trials
	 * included: what a run of more rounds costs per round (plan_runs.h).
	 * Not after a resume: this process measured only part of them. */
	if (run->real_clock && run->measured_from_ns && !run->options->resume)
		e.rounds_s = (double)(now - run->measured_from_ns) / 1e9;
	return cb_results_end_json(&e);
}
