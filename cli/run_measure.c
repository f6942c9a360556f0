/* run_measure.c: one run into one results file: the file opened first (a path
 * that cannot be written is refused before anything runs), its header, the
 * trials, and what the end says. */
#include "cli/run_measure.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/run_output.h"
#include "cli/run_until.h"
#include "core/base/errbuf.h"
#include "core/run/explain.h"
#include "core/machine/host_id.h"
#include "core/base/killpoint.h"
#include "core/results/results.h"
#include "core/run/runner.h"

/* The results file being written. */
struct output {
	char path[4096];
	struct cb_results *old; /* --resume: the file as it was */
	struct cb_writer *w;
};

/* Open the file: the interrupted one to append to, -o, or a new one. */
static int open_output(struct cb_run_args *a, const struct cb_scenario *s,
                       struct cb_run_options *options, struct output *o)
{
	char err[512];

	if (a->resume) {
		if (!(o->old = cb_run_open_resume(a->resume, s, a->only)))
			return CB_EXIT_USAGE;
		options->resume = o->old;
		if (a->host && strcmp(a->host, cb_host_id_name(
		                                   json_object_get(o->old->header, "host"))) != 0) {
			fprintf(stderr,
			        "%s: measured as host %s: --host %s would make its trials two "
			        "hosts'\n",
			        a->resume, cb_host_id_name(json_object_get(o->old->header, "host")),
			        a->host);
			cb_results_free(o->old);
			return CB_EXIT_USAGE;
		}
		options->run_index =
		    (unsigned)json_integer_value(json_object_get(o->old->header, "run_index"));
		snprintf(o->path, sizeof o->path, "%s", a->resume);
	} else if (a->output) {
		snprintf(o->path, sizeof o->path, "%s", a->output);
	} else if (cb_run_default_output(s, ".jsonl", o->path, sizeof o->path) != 0) {
		fprintf(stderr, "%s: cannot create: %s\n", o->path, strerror(errno));
		return CB_EXIT_USAGE;
	}
	if (o->old) {
		if (o->old->torn_line)
			fprintf(stderr,
			        "%s:%zu: the last line was cut short by the interruption; "
			        "dropped (the trial it held runs again)\n",
			        o->path, o->old->torn_line);
		o->w = cb_writer_append(o->path, o->old->complete_bytes, err, sizeof err);
	} else {
		o->w = cb_writer_open(o->path, err, sizeof err);
	}
	if (!o->w) {
		fprintf(stderr, "%s\n", err);
		cb_results_free(o->old);
		return CB_EXIT_USAGE;
	}
	return CB_EXIT_OK;
}

/* A resumed file gets a line saying so; a new one its header and the cells
 * the plan skips. */
static int write_start(const struct cb_run_args *a, struct cb_run *run, struct output *o,
                       const struct cb_until_looks *until, const struct cb_run_place *place)
{
	char err[512];
	json_t *line;
	int rc;

	if (o->old) { /* its process's own placement: the header's was another's */
		line =
		    json_pack("{s:s, s:I, s:o}", "command_line", a->command_line, "trials_before",
		              (json_int_t)o->old->n_trials, "placement", cb_run_place_json(place));
		cb_writer_line(o->w, "resume", line); /* a failure shows at the first trial */
		json_decref(line);
		return CB_EXIT_OK;
	}
	line = cb_run_header(run);
	if (a->only)
		json_object_set_new(line, "only", json_string(a->only));
	if (until) /* the stopping rule, for the analysis and a resume */
		json_object_set_new(line, "stop", cb_until_rule_json(until));
	json_object_set_new(line, "placement", cb_run_place_json(place));
	rc = cb_writer_header(o->w, line, err, sizeof err);
	json_decref(line);
	if (rc != 0 || cb_run_write_skips(run, o->w) != 0) {
		if (rc == 0)
			cb_errorf(err, sizeof err, "%s: cannot write: %s", o->path,
			          strerror(errno));
		fprintf(stderr, "%s (nothing was measured)\n", err);
		return CB_EXIT_USAGE;
	}
	cb_kill_point("header");
	return CB_EXIT_OK;
}

/* A run until resolved: its looks, with the rule of the file it resumes
 * (the same rule to the end) or the scenario's. */
static int until_of(const struct cb_scenario *s, const struct cb_plan *plan, const struct output *o,
                    struct cb_until_looks *u)
{
	char err[512];

	cb_until_init(u, s, plan, o->path);
	u->verbose = 1;
	if (o->old && json_object_get(o->old->header, "stop") &&
	    cb_stop_rule_of(o->old, &u->rule, err, sizeof err) != 0) {
		fprintf(stderr, "%s: %s\n", o->path, err);
		return CB_EXIT_USAGE;
	}
	return CB_EXIT_OK;
}

/* A run that failed: why, and what the file keeps. */
static void say_failure(const struct cb_run_args *a, const struct output *o,
                        const struct cb_run_totals *totals, const char *err)
{
	fprintf(stderr, "%s: %s\n", o->path, err);
	if (totals->write_failed && a->run_index < 0) {
		fprintf(stderr,
		        "%s keeps every trial written before; make room, then continue "
		        "with\n  ",
		        o->path);
		cb_run_resume_hint(stderr, o->path);
	} else if (totals->write_failed) {
		fprintf(stderr, "%s keeps every trial written before\n", o->path);
	}
}

/* A run that ended: what it wrote, and how to go on when interrupted. */
static int say_end(const struct cb_run_args *a, const char *path,
                   const struct cb_run_totals *totals)
{
	fprintf(stderr, "%s: %llu trials written, %llu invalid\n", path,
	        (unsigned long long)totals->trials, (unsigned long long)totals->invalid);
	if (totals->outcome && !totals->interrupted)
		fprintf(stderr,
		        "stopped (%s) after %u measured rounds, %u looks: %zu questions open\n",
		        totals->outcome, totals->measured_rounds, totals->looks,
		        totals->questions_open);
	if (totals->invalid)
		fprintf(stderr, "warning: invalid trials (no timing kept), first: %s\n",
		        totals->first_error);
	if (!totals->interrupted)
		return CB_EXIT_OK;
	if (a->run_index >= 0) { /* run K of --runs: the parent says how to go on */
		fprintf(stderr, "interrupted: %s keeps every finished trial\n", path);
	} else {
		fprintf(stderr, "interrupted: %s keeps every finished trial; continue with\n  ",
		        path);
		cb_run_resume_hint(stderr, path);
	}
	return CB_EXIT_INTERRUPTED;
}

int cb_run_measure(struct cb_run_args *a, const struct cb_scenario *s, const struct cb_plan *plan,
                   const struct cb_run_place *place, volatile sig_atomic_t *stop)
{
	char err[512];
	struct cb_run_options options = {.run_index = a->run_index > 0 ? (unsigned)a->run_index : 0,
	                                 .runs = a->runs,
	                                 .stop = stop,
	                                 .command_line = a->command_line,
	                                 .host_name = a->host};
	struct output o = {0};
	struct cb_until_looks until;
	bool sequential = cb_scenario_sequential(s);
	struct cb_run_totals totals;
	struct cb_run *run;
	json_t *line;
	int rc;

	options.progress = a->progress >= 0 ? a->progress : isatty(STDERR_FILENO);
	if ((rc = open_output(a, s, &options, &o)) != CB_EXIT_OK)
		return rc;
	if (sequential && (rc = until_of(s, plan, &o, &until)) != CB_EXIT_OK) {
		cb_writer_close(o.w, NULL);
		cb_results_free(o.old);
		return rc;
	}
	if (sequential) {
		options.look = cb_until_look;
		options.look_ctx = &until;
	}
	if (!(run = cb_run_prepare(plan, &options, err, sizeof err))) {
		fprintf(stderr, "%s: %s\n", s->file, err);
		if (o.old)
			cb_writer_close(o.w, NULL);
		else
			cb_writer_discard(o.w);
		cb_results_free(o.old);
		return CB_EXIT_PROBLEM;
	}
	if (cb_run_explain(run) && cb_explain_note(cb_run_explain(run), err, sizeof err))
		fprintf(stderr, "%s\n", err);
	if ((rc = write_start(a, run, &o, sequential ? &until : NULL, place)) != CB_EXIT_OK) {
		cb_writer_discard(o.w);
		cb_run_free(run);
		return rc;
	}
	rc = cb_run_execute(run, o.w, &totals, err, sizeof err);
	line = cb_run_end(run, &totals);
	if (cb_writer_close(o.w, line) != 0 && rc == 0) {
		cb_errorf(err, sizeof err, "cannot finish writing: %s", strerror(errno));
		totals.write_failed = true;
		rc = -1;
	}
	if (rc != 0)
		say_failure(a, &o, &totals, err);
	json_decref(line);
	cb_run_free(run);
	cb_results_free(o.old);
	return rc != 0 ? CB_EXIT_PROBLEM : say_end(a, o.path, &totals);
}
