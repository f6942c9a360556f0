/* run_auto.c: after each run of `run --runs auto`, plan again. */
#include "config.h"

#include "cli/run_auto.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "analysis/verdicts/plan_runs.h"
#include "core/base/errbuf.h"
#include "core/results/results.h"

int cb_runs_auto_open(struct cb_runs_auto *a, const char *dir, double budget_s, char *err,
                      size_t err_len)
{
	char path[4200];

	memset(a, 0, sizeof *a);
	a->dir = dir;
	a->budget_s = budget_s;
	a->next_run_s = NAN;
	for (size_t i = 0; i < sizeof a->run_s / sizeof a->run_s[0]; i++)
		a->run_s[i] = NAN;
	snprintf(path, sizeof path, "%s/plan.log", dir);
	if ((a->log = fopen(path, "r"))) {
		/* A resumed folder keeps the budget its last decision was made in,
		 * and the plan it is carrying out. */
		char line[4096];
		json_t *last = NULL;

		while (fgets(line, sizeof line, a->log)) {
			json_decref(last);
			last = json_loads(line, 0, NULL);
			a->plan_s += json_number_value(json_object_get(last, "plan_s"));
			json_int_t k = json_integer_value(json_object_get(last, "after_runs"));
			json_t *run_s = json_object_get(last, "run_s");
			if (k >= 1 && k <= CB_RUNS_AUTO_MAX && json_is_number(run_s))
				a->run_s[k] = json_number_value(run_s);
			json_t *next = json_object_get(last, "next_run_s");
			a->next_run_s = json_is_number(next) ? json_number_value(next) : NAN;
		}
		if (budget_s == 0)
			a->budget_s = json_number_value(json_object_get(last, "budget_s"));
		if (last && strcmp(json_string_value(json_object_get(last, "decision")) ?: "",
		                   "continue") == 0) {
			a->planned_runs =
			    (size_t)json_integer_value(json_object_get(last, "runs_planned"));
			a->planned_rounds =
			    (size_t)json_integer_value(json_object_get(last, "rounds"));
		}
		json_decref(last);
		fclose(a->log);
	}
	if (!(a->log = fopen(path, "a")))
		return cb_errorf(err, err_len, "%s: cannot write: %s", path, strerror(errno));
	return 0;
}

void cb_runs_auto_close(struct cb_runs_auto *a)
{
	if (a->log)
		fclose(a->log);
	a->log = NULL;
}

void cb_runs_auto_ran(struct cb_runs_auto *a, unsigned k, double seconds)
{
	if (k >= 1 && k <= CB_RUNS_AUTO_MAX)
		a->run_s[k] = seconds;
}

/* The time run R (the K-th, from 1) took (run_auto.h); *VIRTUAL set when it
 * is the sim's virtual time. */
static double run_seconds(const struct cb_runs_auto *a, unsigned k, const struct cb_results *r,
                          bool *virtual_clock)
{
	double virtual_s = 0;

	for (size_t i = 0; i < r->n_trials; i++) {
		const char *clock = cb_results_trial_clock(r, &r->trials[i]);

		if (!clock || strcmp(clock, "virtual") != 0) {
			if (k <= CB_RUNS_AUTO_MAX && a->run_s[k] > 0.0)
				return a->run_s[k];
			return json_number_value(json_object_get(r->end, "elapsed_s"));
		}
		virtual_s += r->trials[i].valid ? r->trials[i].ns / 1e9 : 0;
	}
	*virtual_clock = true;
	return virtual_s;
}

/* The measured rounds of file R. */
static size_t rounds_of(const struct cb_results *r)
{
	size_t rounds = 0;

	cb_plan_current_set((struct cb_results *const *)&r, 1, &rounds);
	return rounds;
}

/* What the runs since the pilot cost against the pilot's model (run_auto.h):
 * their actual seconds ACTUAL[i] over the model's, 1 when there are none.
 * *PILOT the pilot's runs, *MODEL the pilot's costs. */
static double cost_factor(struct cb_results *const *files, unsigned k, const double *actual,
                          size_t *pilot, struct cb_plan_costs *model)
{
	double made = 0.0, predicted = 0.0;

	*pilot = cb_plan_pilot_runs(files, k);
	if (cb_plan_costs_of(files, *pilot, model) != 0)
		return 1.0;
	for (unsigned i = (unsigned)*pilot; i < k; i++) {
		double p = cb_plan_run_seconds(model, rounds_of(files[i]));

		if (actual[i] > 0.0 && p > 0.0)
			made += actual[i], predicted += p;
	}
	return predicted > 0.0 ? made / predicted : 1.0;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* X as JSON: null when it is not a number (no plan: no time left). */
static json_t *number_json(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

/* What the last run cost against its prediction, and what the next is
 * predicted to cost (run_auto.h). */
struct run_costs {
	double run_s, predicted_s, factor, next_run_s;
};

static void log_step(struct cb_runs_auto *a, unsigned k, const struct cb_plan_step *step,
                     double plan_s, const struct run_costs *c)
{
	json_t *line = json_pack(
	    "{s:i, s:s, s:I, s:I, s:I, s:I, s:I, s:o, s:f, s:f, s:f, s:o, s:o, s:o, s:o, s:s}",
	    "after_runs", (int)k, "decision", cb_plan_decision_name(step->decision), "rounds",
	    (json_int_t)step->rounds, "runs_planned", (json_int_t)step->runs_planned, "runs_in_set",
	    (json_int_t)step->runs_in_set, "unresolved", (json_int_t)step->unresolved, "cannot",
	    (json_int_t)step->cannot, "seconds_left", number_json(step->seconds_left), "elapsed_s",
	    a->elapsed_s, "plan_s", plan_s, "budget_s", a->budget_s, "run_s", number_json(c->run_s),
	    "predicted_s", number_json(c->predicted_s), "cost_factor", number_json(c->factor),
	    "next_run_s", number_json(c->next_run_s), "why", step->why);
	char *text = line ? json_dumps(line, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;

	if (text) {
		fprintf(a->log, "%s\n", text);
		fflush(a->log);
	}
	free(text);
	json_decref(line);
	if (isfinite(c->predicted_s))
		fprintf(stderr, "run %u took %.0f s, %.0f s predicted (cost factor now %.2f)\n", k,
		        c->run_s, c->predicted_s, c->factor);
	fprintf(stderr, "after run %u: %s", k, cb_plan_decision_name(step->decision));
	if (step->decision == CB_PLAN_CONTINUE)
		fprintf(stderr, " with %zu rounds", step->rounds);
	fprintf(stderr, " (%zu rows not resolved; %.0fs of %.0fs used): %s\n", step->unresolved,
	        a->elapsed_s, a->budget_s, step->why);
}

int cb_runs_auto_next(struct cb_runs_auto *a, unsigned k, unsigned *rounds, char *err,
                      size_t err_len)
{
	struct cb_results **files = calloc(k ? k : 1, sizeof *files);
	struct cb_plan_step step;
	char path[4200];
	int rc = -1;

	if (!files)
		return cb_errorf(err, err_len, "out of memory");
	bool virtual_clock = false;
	double t0 = now_s();

	double actual[CB_RUNS_AUTO_MAX + 1] = {0};
	a->elapsed_s = 0;
	for (unsigned i = 0; i < k; i++) {
		snprintf(path, sizeof path, "%s/run-%u.jsonl", a->dir, i + 1);
		if (!(files[i] = cb_results_read(path, err, err_len)))
			goto done;
		double s = run_seconds(a, i + 1, files[i], &virtual_clock);
		if (i <= CB_RUNS_AUTO_MAX)
			actual[i] = s;
		a->elapsed_s += s;
	}
	if (!virtual_clock)
		a->elapsed_s += a->plan_s; /* the decisions so far */
	struct cb_plan_commitment plan = {a->planned_runs, a->planned_rounds};
	struct cb_plan_options popt;
	struct cb_plan_costs model;
	struct run_costs costs = {actual[k - 1], a->next_run_s, NAN, NAN};

	cb_plan_defaults(&popt);
	costs.factor = popt.cost_factor = cost_factor(files, k, actual, &popt.cost_files, &model);
	if (cb_plan_runs_decide(files, k, NULL, &popt, &plan, a->budget_s, a->elapsed_s, &step, err,
	                        err_len) != 0)
		goto done;
	/* The planner's own cap on runs holds here too. */
	if (step.decision == CB_PLAN_CONTINUE && k >= CB_RUNS_AUTO_MAX) {
		step.decision = CB_PLAN_STOP_CANNOT;
		snprintf(step.why, sizeof step.why, "%d runs made, the most --runs auto makes",
		         CB_RUNS_AUTO_MAX);
	}
	double plan_s = virtual_clock ? 0.0 : now_s() - t0;
	a->plan_s += plan_s;
	if (step.decision == CB_PLAN_CONTINUE)
		costs.next_run_s = costs.factor * cb_plan_run_seconds(&model, step.rounds);
	a->next_run_s = costs.next_run_s;
	log_step(a, k, &step, plan_s, &costs);
	a->planned_runs = step.decision == CB_PLAN_CONTINUE ? step.runs_planned : 0;
	a->planned_rounds = step.decision == CB_PLAN_CONTINUE ? step.rounds : 0;
	*rounds = (unsigned)step.rounds;
	rc = step.decision == CB_PLAN_CONTINUE;
done:
	for (unsigned i = 0; i < k; i++)
		cb_results_free(files[i]);
	free(files);
	return rc;
}
