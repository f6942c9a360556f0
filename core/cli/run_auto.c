/* run_auto.c: after each run of `run --runs auto`, plan again. */
#include "config.h"

#include "core/cli/run_auto.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "analysis/verdicts/plan_runs.h"
#include "core/errbuf.h"
#include "core/results.h"

int cb_runs_auto_open(struct cb_runs_auto *a, const char *dir, double budget_s, char *err,
                      size_t err_len)
{
	char path[4200];

	memset(a, 0, sizeof *a);
	a->dir = dir;
	a->budget_s = budget_s;
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

/* The time run R took, as the run counted it (run_auto.h); *VIRTUAL set
 * when it is the sim's virtual time. */
static double run_seconds(const struct cb_results *r, bool *virtual_clock)
{
	double virtual_s = 0;

	for (size_t i = 0; i < r->n_trials; i++) {
		const char *clock = cb_results_trial_clock(r, &r->trials[i]);

		if (!clock || strcmp(clock, "virtual") != 0)
			return json_number_value(json_object_get(r->end, "elapsed_s"));
		virtual_s += r->trials[i].valid ? r->trials[i].ns / 1e9 : 0;
	}
	*virtual_clock = true;
	return virtual_s;
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

static void log_step(struct cb_runs_auto *a, unsigned k, const struct cb_plan_step *step,
                     double plan_s)
{
	json_t *line = json_pack(
	    "{s:i, s:s, s:I, s:I, s:I, s:I, s:I, s:o, s:f, s:f, s:f, s:s}", "after_runs", (int)k,
	    "decision", cb_plan_decision_name(step->decision), "rounds", (json_int_t)step->rounds,
	    "runs_planned", (json_int_t)step->runs_planned, "runs_in_set",
	    (json_int_t)step->runs_in_set, "unresolved", (json_int_t)step->unresolved, "cannot",
	    (json_int_t)step->cannot, "seconds_left", number_json(step->seconds_left), "elapsed_s",
	    a->elapsed_s, "plan_s", plan_s, "budget_s", a->budget_s, "why", step->why);
	char *text = line ? json_dumps(line, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;

	if (text) {
		fprintf(a->log, "%s\n", text);
		fflush(a->log);
	}
	free(text);
	json_decref(line);
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

	a->elapsed_s = 0;
	for (unsigned i = 0; i < k; i++) {
		snprintf(path, sizeof path, "%s/run-%u.jsonl", a->dir, i + 1);
		if (!(files[i] = cb_results_read(path, err, err_len)))
			goto done;
		a->elapsed_s += run_seconds(files[i], &virtual_clock);
	}
	if (!virtual_clock)
		a->elapsed_s += a->plan_s; /* the decisions so far */
	struct cb_plan_commitment plan = {a->planned_runs, a->planned_rounds};
	if (cb_plan_runs_decide(files, k, NULL, NULL, &plan, a->budget_s, a->elapsed_s, &step, err,
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
	log_step(a, k, &step, plan_s);
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
