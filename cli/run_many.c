/* run_many.c: --runs N, each run a fresh process of this program, so nothing a
 * run leaves behind (caches, allocator state, library initialisation) carries
 * into the next. */
#include "cli/run_many.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/run_auto.h"
#include "cli/run_output.h"
#include "core/base/killpoint.h"
#include "core/results/results.h"

/* One --runs folder being filled. */
struct folder {
	struct cb_run_args *a;
	const struct cb_scenario *s;
	int argc;
	char **argv;
	char dir[4096];
	char first[4200];   /* its run 1, for runs not begun of a resumed folder */
	char runs_text[16]; /* --runs N, recorded in each run's header */
	uint64_t seed;      /* the layout seed */
	int user_offset;    /* the input offset is the user's, not drawn */
};

/* splitmix64: one draw per run from the setup seed. */
static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* The state of one run's file in a --runs folder: 0 missing, 1 interrupted,
 * 2 complete; -1 unreadable (reported). */
static int run_state(const char *file)
{
	char err[512];
	struct cb_results *r;
	int state;

	if (access(file, F_OK) != 0)
		return 0;
	if (!(r = cb_results_read(file, err, sizeof err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	state = r->interrupted ? 1 : 2;
	cb_results_free(r);
	return state;
}

/* The layout seed and the number of runs a --runs folder was made with, from
 * its first run's header, so that resumed and missing runs get the layouts
 * they were drawn. */
static int folder_setup(const char *dir, uint64_t *seed, unsigned *runs)
{
	char file[4200], err[512];
	struct cb_results *r;
	json_t *value;

	snprintf(file, sizeof file, "%s/run-1.jsonl", dir);
	if (!(r = cb_results_read(file, err, sizeof err))) {
		fprintf(stderr, "%s: not a --runs folder (%s)\n", dir, err);
		return -1;
	}
	value = json_object_get(json_object_get(r->header, "setup"), "seed");
	if (json_is_integer(value))
		*seed = (uint64_t)json_integer_value(value);
	value = json_object_get(r->header, "runs");
	if (*runs <= 1 && json_is_integer(value))
		*runs = (unsigned)json_integer_value(value);
	cb_results_free(r);
	return 0;
}

/* Whether the input offset is the user's (a --set, or in a resumed folder
 * one run 1 recorded other than the one drawn for it): then it is every
 * run's, and none is drawn. */
static int user_offset(const struct folder *f)
{
	const struct cb_run_args *a = f->a;
	const struct cb_scenario *s = f->s;
	char drawn[32];
	int user = 0;

	for (size_t i = 0; i < a->n_overrides; i++)
		user |= strcmp(a->overrides[i].key, "input_offset") == 0;
	if (user || !a->resume_folder)
		return user;
	/* The scenario as run 1 recorded it. */
	snprintf(drawn, sizeof drawn, "%u", (unsigned)(mix64(f->seed) % 64) * 64);
	for (size_t i = 0; i < s->n_params; i++)
		user |= strcmp(s->params[i].name, "input_offset") == 0 &&
		        s->params[i].from_command_line && strcmp(s->params[i].value, drawn) != 0;
	return user;
}

/* Layout alone can bias a measurement, so each run gets its own input
 * offset within a page and its own environment size (which moves the
 * stack), drawn from a seed that every run records. */
static int draw_layout(struct folder *f)
{
	if (getrandom(&f->seed, sizeof f->seed, 0) != (ssize_t)sizeof f->seed)
		f->seed = (uint64_t)time(NULL);
	f->seed &= 0xffffffffffffull;
	if (f->a->resume_folder && folder_setup(f->a->resume, &f->seed, &f->a->runs) != 0)
		return CB_EXIT_USAGE;
	f->user_offset = user_offset(f);
	return CB_EXIT_OK;
}

/* The folder: the one resumed, -o, or a new one under results/. */
static int make_folder(struct folder *f)
{
	const struct cb_run_args *a = f->a;

	if (a->resume_folder)
		snprintf(f->dir, sizeof f->dir, "%s", a->resume);
	else if (a->output)
		snprintf(f->dir, sizeof f->dir, "%s", a->output);
	else if (cb_run_default_output(f->s, "", f->dir, sizeof f->dir) != 0) {
		fprintf(stderr, "%s: cannot create folder: %s\n", f->dir, strerror(errno));
		return CB_EXIT_USAGE;
	}
	if (cb_make_dirs(f->dir) != 0) {
		fprintf(stderr, "%s: cannot create folder: %s\n", f->dir, strerror(errno));
		return CB_EXIT_USAGE;
	}
	snprintf(f->first, sizeof f->first, "%s/run-1.jsonl", a->resume_folder ? a->resume : "");
	snprintf(f->runs_text, sizeof f->runs_text, "%u", a->runs);
	return CB_EXIT_OK;
}

/* Whether ARG is an option of the parent's that each run gets its own of (or,
 * the budget of --runs auto, none of: the folder's, carried as a value to
 * run_auto.h). */
static int own_option(const char *arg, bool runs_auto, int *with_value)
{
	static const struct {
		const char *name;
		bool runs_auto_only;
	} names[] = {{"-o", false},       {"--output", false},      {"--runs", false},
	             {"--resume", false}, {"--scenario-of", false}, {"--budget", true}};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		const char *name = names[i].name;
		size_t len = strlen(name);

		if (names[i].runs_auto_only && !runs_auto)
			continue;
		if (strcmp(arg, name) == 0) {
			*with_value = 1;
			return 1;
		}
		if (name[1] == '-' && strncmp(arg, name, len) == 0 && arg[len] == '=') {
			*with_value = 0;
			return 1;
		}
	}
	return 0;
}

/* The argv of run K (its file FILE, resumed when RESUME; ROUNDS measured
 * rounds when not 0: --runs auto's plan), the strings it points to in
 * TEXT; NULL when memory runs out. */
static char **run_argv(const struct folder *f, unsigned k, const char *file, int resume,
                       unsigned rounds, char text[3][64])
{
	char **child = calloc((size_t)f->argc + 16, sizeof *child);
	int n = 0, with_value;

	if (!child)
		return NULL;
	snprintf(text[0], sizeof text[0], "%u", k);
	snprintf(text[1], sizeof text[1], "input_offset=%u",
	         (unsigned)(mix64(f->seed + k) % 64) * 64);
	child[n++] = "cryptobench";
	child[n++] = "run";
	for (int i = 1; i < f->argc; i++)
		if (own_option(f->argv[i], f->a->runs_auto, &with_value))
			i += with_value;
		else
			child[n++] = f->argv[i];
	if (!resume && f->a->resume_folder && !f->a->scenario &&
	    !cb_oneline_given(&f->a->oneline)) {
		/* a run not begun, of a folder resumed without its scenario */
		child[n++] = "--scenario-of";
		child[n++] = (char *)f->first;
	}
	child[n++] = resume ? "--resume" : "-o";
	child[n++] = (char *)file;
	child[n++] = "--run-index";
	child[n++] = text[0];
	child[n++] = "--runs"; /* recorded in its header: a folder knows its size */
	child[n++] = (char *)f->runs_text;
	if (!f->user_offset) {
		child[n++] = "--set";
		child[n++] = text[1];
	}
	if (rounds && !resume) {
		snprintf(text[2], sizeof text[2], "rounds=%u", rounds);
		child[n++] = "--set";
		child[n++] = text[2];
	}
	if (f->a->runs_auto && !resume && cb_scenario_sequential(f->s)) {
		/* --runs auto plans runs of fixed rounds, the pilot's too */
		child[n++] = "--set";
		child[n++] = "until=rounds";
	}
	return child;
}

/* Run K into FILE in a process of its own, and wait for it: its exit
 * status, or -1 when it was killed (said, with how to go on). */
static int run_one(const struct folder *f, unsigned k, const char *file, int resume,
                   unsigned rounds, volatile sig_atomic_t *stop)
{
	uint64_t draw = mix64(f->seed + k);
	char text[3][64], seed_text[32], pad[4200];
	char **child = run_argv(f, k, file, resume, rounds, text);
	int wstatus = 0;
	pid_t pid;

	if (!child)
		return CB_EXIT_PROBLEM;
	snprintf(seed_text, sizeof seed_text, "%llu", (unsigned long long)f->seed);
	memset(pad, 'x', sizeof pad);
	pad[(draw >> 8) % 4096] = '\0';
	if (f->a->runs_auto)
		fprintf(stderr, "run %u (--runs auto, at most %u) -> %s\n", k + 1, f->a->runs,
		        file);
	else
		fprintf(stderr, "run %u of %u -> %s\n", k + 1, f->a->runs, file);
	pid = fork();
	if (pid == 0) {
		setenv("CRYPTOBENCH_SETUP_SEED", seed_text, 1);
		setenv("CRYPTOBENCH_ENV_PAD", pad, 1);
		execv("/proc/self/exe", child);
		_exit(127);
	}
	free(child);
	/* A signal to this process reaches the run too (a terminal's Ctrl-C
	 * reaches both already; a second SIGINT does no harm). */
	while (pid > 0 && waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
		if (*stop)
			kill(pid, SIGINT);
	if (pid > 0 && WIFSIGNALED(wstatus) && !*stop) {
		fprintf(stderr,
		        "run %u: its process was killed (%s); %s keeps every finished "
		        "trial; continue with\n  ",
		        k + 1, strsignal(WTERMSIG(wstatus)), file);
		cb_run_resume_hint(stderr, f->dir);
		return -1;
	}
	if (pid < 0 || !WIFEXITED(wstatus))
		return CB_EXIT_PROBLEM;
	return WEXITSTATUS(wstatus);
}

/* After run K+1 of --runs auto: 1 make run K+2 (of *ROUNDS rounds), 0 the
 * folder is done, -1 an error (said). A run that already exists (a resumed
 * folder) was decided before. */
static int auto_next(const struct folder *f, struct cb_runs_auto *au, unsigned k, unsigned *rounds)
{
	char next[4200], err[1024];
	int rc;

	snprintf(next, sizeof next, "%s/run-%u.jsonl", f->dir, k + 2);
	if (f->a->resume_folder && access(next, F_OK) == 0) {
		*rounds = 0; /* its header has its rounds */
		return 1;
	}
	if ((rc = cb_runs_auto_next(au, k + 1, rounds, err, sizeof err)) < 0)
		fprintf(stderr, "%s\n", err);
	return rc;
}

int cb_run_many(struct cb_run_args *a, const struct cb_scenario *s, int argc, char **argv,
                volatile sig_atomic_t *stop)
{
	struct folder f = {.a = a, .s = s, .argc = argc, .argv = argv};
	struct cb_runs_auto au = {0};
	int status = CB_EXIT_OK;
	unsigned rounds = 0; /* --runs auto: the next run's, 0 the scenario's */
	char err[1024];

	if ((status = draw_layout(&f)) != CB_EXIT_OK || (status = make_folder(&f)) != CB_EXIT_OK)
		return status;
	if (a->resume_folder && !a->runs_auto) {
		/* A folder of --runs auto knows it by its plan.log. */
		char log[4200];

		snprintf(log, sizeof log, "%s/plan.log", f.dir);
		a->runs_auto = access(log, F_OK) == 0;
	}
	if (a->runs_auto && cb_runs_auto_open(&au, f.dir, a->budget_s, err, sizeof err) != 0) {
		fprintf(stderr, "%s\n", err);
		return CB_EXIT_USAGE;
	}
	for (unsigned k = 0; k < a->runs && !*stop; k++) {
		char file[4200];
		int state = 0;

		snprintf(file, sizeof file, "%s/run-%u.jsonl", f.dir, k + 1);
		if (a->resume_folder && (state = run_state(file)) < 0) {
			status = CB_EXIT_USAGE;
			break;
		}
		if (state != 2) { /* not complete yet */
			struct timespec t0, t1;

			clock_gettime(CLOCK_MONOTONIC, &t0);
			status = run_one(&f, k, file, state == 1, rounds, stop);
			clock_gettime(CLOCK_MONOTONIC, &t1);
			if (a->runs_auto && state == 0) /* a resumed run's time is in two parts */
				cb_runs_auto_ran(&au, k + 1,
				                 (double)(t1.tv_sec - t0.tv_sec) +
				                     (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
			if (status < 0) {
				cb_runs_auto_close(&au);
				return CB_EXIT_PROBLEM;
			}
			if (status != CB_EXIT_OK)
				break;
			cb_kill_point("run");
		}
		if (a->runs_auto && !*stop) {
			int go_on = auto_next(&f, &au, k, &rounds);

			if (go_on <= 0) {
				status = go_on < 0 ? CB_EXIT_PROBLEM : CB_EXIT_OK;
				break;
			}
		}
	}
	cb_runs_auto_close(&au);
	if (*stop || status == CB_EXIT_INTERRUPTED) {
		fprintf(stderr, "interrupted: %s keeps every finished trial; continue with\n  ",
		        f.dir);
		cb_run_resume_hint(stderr, f.dir);
		return CB_EXIT_INTERRUPTED;
	}
	fprintf(stderr, "runs in %s\n", f.dir);
	return status;
}
