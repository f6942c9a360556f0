/* cmd_run.c: cryptobench run — measure a scenario into a results file.
 *
 * This file loads the scenario and plans it; run_args.c parses the options,
 * run_output.c chooses the output and checks a --resume, run_many.c runs
 * --runs N as N processes, run_place.c chooses where the linked libraries
 * of the process that measures lie, run_measure.c measures one run into
 * one file. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/run_args.h"
#include "cli/run_many.h"
#include "cli/run_measure.h"
#include "cli/run_oneline.h"
#include "cli/run_output.h"
#include "cli/run_place.h"
#include "cli/run_plan.h"
#include "cli/run_recorded.h"
#include "core/engine/extern.h"
#include "core/measure/plan.h"
#include "core/run/runner.h"
#include "core/lua/load.h"
#include "core/measure/scenario.h"

#define LONG_RUN_S 600 /* a run longer than this prints its estimate first */

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* The scenario file, the one the one-line flags describe (read from a
 * temporary file, whose name errors then do not show), or the one REC (a
 * results file) records. */
static struct cb_scenario *load_scenario(const struct cb_run_args *a,
                                         const struct cb_load_options *load,
                                         const struct cb_recorded *rec, char *err, size_t err_len)
{
	struct cb_scenario *s;
	char path[4096];
	char *at;

	if (rec)
		return cb_recorded_load(rec, load, err, err_len);
	if (a->scenario)
		return cb_scenario_load(a->scenario, load, err, err_len);
	if (cb_oneline_write(&a->oneline, path, sizeof path, err, err_len) != 0)
		return NULL;
	s = cb_scenario_load(path, load, err, err_len);
	unlink(path);
	if (s) {
		char *name = strdup("(command line)");

		if (name) {
			free(s->file);
			s->file = name;
		}
	}
	if (!s && (at = strstr(err, path)) != NULL) {
		static const char name[] = "(command line)";
		size_t len = strlen(path);

		memmove(at + sizeof name - 1, at + len, strlen(at + len) + 1);
		memcpy(at, name, sizeof name - 1);
	}
	return s;
}

/* With --resume and no scenario (no file, no one-line flags), or
 * --scenario-of: what the results file (run 1 of a folder) records. */
static int read_recorded(const struct cb_run_args *a, struct cb_recorded *rec)
{
	char path[4200], err[1024];
	const char *from = a->scenario_of;

	if (!from && a->resume && !a->scenario && !cb_oneline_given(&a->oneline)) {
		snprintf(path, sizeof path, "%s/run-1.jsonl", a->resume);
		from = a->resume_folder ? path : a->resume;
	}
	if (!from)
		return CB_EXIT_OK;
	if (cb_recorded_read(from, rec, err, sizeof err) != 0) {
		fprintf(stderr, "%s\n", err);
		return CB_EXIT_USAGE;
	}
	return CB_EXIT_OK;
}

/* --resume DIR with a scenario: the one the folder's runs were made of. */
static int same_scenario(const struct cb_run_args *a, const struct cb_scenario *s)
{
	char path[4200], err[1024];
	struct cb_recorded then;

	snprintf(path, sizeof path, "%s/run-1.jsonl", a->resume);
	if (cb_recorded_read(path, &then, err, sizeof err) != 0) {
		fprintf(stderr, "%s\n", err);
		return CB_EXIT_USAGE;
	}
	int same = strcmp(then.sha256, s->sha256) == 0;
	if (!same)
		fprintf(stderr,
		        "%s: not a run of %s (the scenario's text differs: sha256 %.12s vs "
		        "%.12s); give no scenario to resume the recorded one\n",
		        path, s->file, then.sha256, s->sha256);
	cb_recorded_free(&then);
	return same ? CB_EXIT_OK : CB_EXIT_USAGE;
}

/* The scenario A names (or the one its --resume records, into REC), with
 * the cells it leaves out said once; NULL with the reason printed. */
static struct cb_scenario *scenario_of_args(struct cb_run_args *a, struct cb_recorded *rec, int *rc)
{
	/* --budget of --runs auto is the folder's (run_auto.h), else this run's. */
	struct cb_load_options load = {.overrides = a->overrides,
	                               .n_overrides = a->n_overrides,
	                               .quick = a->quick,
	                               .budget_s = a->runs_auto ? 0 : a->budget_s,
	                               .budget_text = a->budget};
	struct cb_scenario *s;
	char err[1024];

	if ((*rc = read_recorded(a, rec)) != CB_EXIT_OK)
		return NULL;
	cb_extern_set_dry_run(a->dry_run);
	if (rec->path && !a->only)
		a->only = rec->only; /* the --only the run had, unless given again */
	cb_watchdog_start(CB_LOAD_WATCHDOG_SECONDS, a->scenario ? a->scenario
	                                            : rec->path ? rec->file
	                                                        : "(command line)");
	s = load_scenario(a, &load, rec->path ? rec : NULL, err, sizeof err);
	cb_watchdog_stop();
	*rc = CB_EXIT_USAGE;
	if (!s) {
		fprintf(stderr, "%s\n", err);
		return NULL;
	}
	if (a->resume_folder && !rec->path && (*rc = same_scenario(a, s)) != CB_EXIT_OK) {
		cb_scenario_free(s);
		return NULL;
	}
	/* Once, not per run of --runs nor per start (run_place.h). */
	for (size_t i = 0; i < s->n_dropped && a->run_index < 0 && cb_run_place_try() == 1; i++)
		fprintf(stderr, "note: %s left out: %s\n", s->dropped[i].name,
		        s->dropped[i].reason);
	*rc = CB_EXIT_OK;
	return s;
}

/* The plan of S, cut to --only; NULL with the reason printed. */
static struct cb_plan *plan_of(const struct cb_run_args *a, const struct cb_scenario *s)
{
	char err[1024];
	struct cb_plan *plan = cb_plan_build(s, err, sizeof err);

	if (plan && a->only && cb_plan_only(plan, a->only, err, sizeof err) != 0) {
		cb_plan_free(plan);
		plan = NULL;
	}
	if (!plan)
		fprintf(stderr, "%s\n", err);
	return plan;
}

static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* A long run says so before it starts, terminal or not. A run until
 * resolved plans its max rounds: its budget, when it has one, bounds it. */
static void say_long_run(const struct cb_run_args *a, const struct cb_scenario *s,
                         const struct cb_plan *plan)
{
	double total = cb_run_estimate(plan).total_s * a->runs;
	double budget = a->runs_auto ? a->budget_s : s->stop.budget_s;
	bool open_ended = a->runs_auto || cb_scenario_sequential(s);
	char text[32];

	if (open_ended && budget > 0 && budget < total)
		fprintf(stderr, "budget: %s (%s)\n", cb_format_duration(budget, text),
		        a->runs_auto ? "runs until compare resolves the table"
		                     : "rounds until every question is answered");
	else if (total > LONG_RUN_S)
		fprintf(stderr,
		        "estimated duration: %s%s (%zu trials%s); see the plan with --dry-run\n",
		        open_ended ? "at most " : "", cb_format_duration(total, text),
		        plan->n_slots * a->runs, a->runs > 1 ? " over all runs" : "");
}

/* The plan printed (--dry-run), or run: once, or N times (or a --runs
 * folder finished) from this process as the parent of each run. */
static int go(struct cb_run_args *a, const struct cb_scenario *s, const struct cb_plan *plan,
              int argc, char **argv)
{
	struct cb_run_place place;
	int rc = CB_EXIT_OK;

	if (a->dry_run) {
		cb_run_plan_print(stdout, plan, a->runs);
		cb_extern_print(stdout);
		return CB_EXIT_OK;
	}
	if (!a->resume)
		rc = cb_run_check_output(a, a->output, a->runs > 1 && a->run_index < 0);
	if (rc != CB_EXIT_OK)
		return rc;
	if ((a->runs > 1 || a->resume_folder) && a->run_index < 0) {
		say_long_run(a, s, plan);
		return cb_run_many(a, s, argc, argv, &stop_requested);
	}
	/* This process measures: the place of the libraries it linked is
	 * chosen first, by starting it again, before it says or writes
	 * anything. */
	cb_run_place_defaults(plan, a->kernel_place, argc, argv, &stop_requested, &place);
	if (a->run_index < 0)
		say_long_run(a, s, plan);
	return cb_run_measure(a, s, plan, &place, &stop_requested);
}

int cb_cmd_run(int argc, char **argv)
{
	struct cb_run_args a;
	struct cb_scenario *s = NULL;
	struct cb_plan *plan = NULL;
	struct cb_recorded rec = {0};
	int rc = cb_run_args_parse(argc, argv, &a);

	if (rc != 0) {
		cb_run_args_free(&a);
		return rc < 0 ? CB_EXIT_OK : rc;
	}
	if ((rc = cb_fault_env_check("run")) == CB_EXIT_OK &&
	    (s = scenario_of_args(&a, &rec, &rc)) != NULL) {
		if ((plan = plan_of(&a, s)) == NULL)
			rc = CB_EXIT_USAGE;
	}
	if (plan) {
		catch_signals();
		rc = go(&a, s, plan, argc, argv);
	}
	cb_plan_free(plan);
	cb_scenario_free(s);
	cb_recorded_free(&rec);
	cb_run_args_free(&a);
	return rc;
}
