/* cmd_run.c: cryptobench run — measure a scenario into a results file. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/cli/cli.h"
#include "core/cli/run_oneline.h"
#include "core/cli/run_plan.h"
#include "core/cli/run_recorded.h"
#include "core/errbuf.h"
#include "core/killpoint.h"
#include "core/plan.h"
#include "core/results.h"
#include "core/runner.h"
#include "core/lua/load.h"
#include "core/scenario.h"

#define MAX_OVERRIDES 64
#define LONG_RUN_S 600 /* a run longer than this prints its estimate first */

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static const char run_help[] =
    "usage: cryptobench run SCENARIO.lua [options]\n"
    "       cryptobench run --engines E,... --algorithms A,... --sizes S,... [options]\n\n"
    "Run every trial of a scenario and write them to a results file (JSON Lines).\n\n"
    "  -o, --output FILE     results file (default results/NAME-TIME.jsonl); with\n"
    "                        --runs N, a folder that gets run-1.jsonl .. run-N.jsonl\n"
    "      --runs N          N independent runs, each a fresh process (default 1)\n"
    "      --set KEY=VALUE   override a scenario field (rounds, sizes, trial_time, ...)\n"
    "                        or a cb.param(); may repeat\n"
    "      --quick           a preview: few rounds, short trials, sizes up to 1 MiB\n"
    "      --dry-run         print the plan (cells, trials, estimated duration) and stop\n"
    "      --only KEY=VALUE[,VALUE][,KEY=VALUE]...\n"
    "                        run only the matching cells (keys: engine, label,\n"
    "                        algorithm, op, size, threads)\n\n"
    "A one-line run, without a scenario file:\n"
    "  cryptobench run --engines openssl,gcrypt --algorithms sha256 --sizes 64B,1MiB\n"
    "                  [--ops hash] [--rounds N] [--trial-time 20ms] [options]\n"
    "The scenario these flags describe is recorded in the results file.\n\n"
    "      --force           replace an existing -o file, or write into a non-empty\n"
    "                        --runs folder (without it, both are refused)\n"
    "      --resume FILE     continue an interrupted results file (its header holds\n"
    "                        the scenario and its --set values: no need to repeat\n"
    "                        them; a scenario given must be the recorded one)\n"
    "      --resume DIR      finish an interrupted --runs folder\n"
    "      --progress, --no-progress\n"
    "                        progress on stderr (default: when stderr is a terminal)\n\n"
    "Ctrl-C finishes the current trial, closes the file marked interrupted, and\n"
    "exits 130; --resume completes it later.\n";

struct run_args {
	const char *scenario;
	const char *output;
	const char *resume;
	unsigned runs;
	int run_index; /* internal: this process is run K of --runs */
	int progress;  /* -1: decide from the terminal */
	struct cb_override overrides[MAX_OVERRIDES];
	size_t n_overrides;
	int quick;
	int force; /* -o may replace an existing file or fill a non-empty folder */
	int dry_run;
	int resume_folder;         /* --resume DIR: finish a --runs folder */
	struct cb_oneline oneline; /* a scenario from flags instead of a file */
	const char *only;          /* --only KEY=VALUE,...: a subset of the cells */
	const char *scenario_of;   /* internal: the scenario a results file records */
	char command_line[1024];
};

static int parse_args(int argc, char **argv, struct run_args *a)
{
	static const struct option longopts[] = {
	    {"output", required_argument, NULL, 'o'},
	    {"runs", required_argument, NULL, 'r'},
	    {"set", required_argument, NULL, 's'},
	    {"quick", no_argument, NULL, 'q'},
	    {"resume", required_argument, NULL, 'R'},
	    {"progress", no_argument, NULL, 'p'},
	    {"no-progress", no_argument, NULL, 'P'},
	    {"run-index", required_argument, NULL, 'I'},
	    {"force", no_argument, NULL, 'f'},
	    {"dry-run", no_argument, NULL, 'n'},
	    {"engines", required_argument, NULL, 'E'},
	    {"algorithms", required_argument, NULL, 'A'},
	    {"sizes", required_argument, NULL, 'S'},
	    {"ops", required_argument, NULL, 'O'},
	    {"rounds", required_argument, NULL, 'N'},
	    {"trial-time", required_argument, NULL, 'T'},
	    {"only", required_argument, NULL, 'W'},
	    {"scenario-of", required_argument, NULL, 'F'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	int opt;

	memset(a, 0, sizeof *a);
	a->runs = 1;
	a->run_index = -1;
	a->progress = -1;
	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		char *end;
		long n;

		switch (opt) {
		case 'o':
			a->output = optarg;
			break;
		case 'r':
			n = strtol(optarg, &end, 10);
			if (*end || n < 1 || n > 1000)
				return cb_usage_error(
				    "run", "--runs wants a number from 1 to 1000, not '%s'",
				    optarg);
			a->runs = (unsigned)n;
			break;
		case 's':
			if (!strchr(optarg, '=') || optarg[0] == '=')
				return cb_usage_error("run", "--set wants KEY=VALUE, not '%s'",
				                      optarg);
			if (a->n_overrides == MAX_OVERRIDES)
				return cb_usage_error("run", "more than %d --set", MAX_OVERRIDES);
			{
				/* A copy: argv stays intact for the command line and --runs. */
				char *key = strdup(optarg);

				if (!key)
					return cb_usage_error("run", "out of memory");
				*strchr(key, '=') = '\0';
				a->overrides[a->n_overrides].key = key;
				a->overrides[a->n_overrides++].value = key + strlen(key) + 1;
			}
			break;
		case 'q':
			a->quick = 1;
			break;
		case 'f':
			a->force = 1;
			break;
		case 'n':
			a->dry_run = 1;
			break;
		case 'E':
			a->oneline.engines = optarg;
			break;
		case 'A':
			a->oneline.algorithms = optarg;
			break;
		case 'S':
			a->oneline.sizes = optarg;
			break;
		case 'O':
			a->oneline.ops = optarg;
			break;
		case 'N':
			a->oneline.rounds = optarg;
			break;
		case 'T':
			a->oneline.trial_time = optarg;
			break;
		case 'W':
			a->only = optarg;
			break;
		case 'R':
			a->resume = optarg;
			break;
		case 'F':
			a->scenario_of = optarg;
			break;
		case 'p':
			a->progress = 1;
			break;
		case 'P':
			a->progress = 0;
			break;
		case 'I':
			a->run_index = atoi(optarg);
			break;
		case 'h':
			fputs(run_help, stdout);
			return -1;
		default:
			return cb_usage_error("run", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc && !cb_oneline_given(&a->oneline) && !a->resume && !a->scenario_of)
		return cb_usage_error("run", "which scenario? e.g. cryptobench run "
		                             "scenarios/quickstart.lua, or --engines openssl "
		                             "--algorithms sha256 --sizes 64B,1MiB");
	if (optind < argc && cb_oneline_given(&a->oneline))
		return cb_usage_error("run", "a scenario file or --engines/--algorithms/--sizes, "
		                             "not both (use --set with a file)");
	if (optind + 1 < argc)
		return cb_usage_error("run", "one scenario at a time ('%s' is extra)",
		                      argv[optind + 1]);
	a->scenario = optind < argc ? argv[optind] : NULL;
	if (a->resume) {
		struct stat st;

		a->resume_folder = stat(a->resume, &st) == 0 && S_ISDIR(st.st_mode);
		if (a->runs > 1 && !a->resume_folder && a->run_index < 0)
			return cb_usage_error("run", "--resume FILE continues one file; --runs "
			                             "goes with --resume DIR");
	}
	return 0;
}

/* The --set copies (each KEY=VALUE is one allocation, split in place). */
static void free_overrides(struct run_args *a)
{
	for (size_t i = 0; i < a->n_overrides; i++)
		free((char *)a->overrides[i].key);
	a->n_overrides = 0;
}

static void record_command_line(struct run_args *a, int argc, char **argv)
{
	size_t used = 0;

	for (int i = 0; i < argc && used < sizeof a->command_line; i++)
		used += (size_t)snprintf(a->command_line + used, sizeof a->command_line - used,
		                         "%s%s", i ? " " : "cryptobench ", argv[i]);
}

static int make_dirs(const char *path)
{
	char buf[4096];

	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(buf, 0777) != 0 && errno != EEXIST)
				return -1;
			*p = '/';
		}
	return mkdir(buf, 0777) == 0 || errno == EEXIST ? 0 : -1;
}

/* Whether PATH names something -o must not replace: an existing file, or a
 * folder with anything in it. */
static int occupied(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	int used = 0;

	if (stat(path, &st) != 0)
		return 0;
	if (!S_ISDIR(st.st_mode))
		return 1;
	if (!(d = opendir(path)))
		return 1;
	while (!used && (e = readdir(d)))
		used = strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return used;
}

/* Refuse an -o that would replace what is there, unless --force. */
static int check_output(const struct run_args *a, const char *path, int folder)
{
	struct stat st;

	if (!path || !occupied(path))
		return 0;
	if (stat(path, &st) == 0 && !folder != !S_ISDIR(st.st_mode))
		return cb_usage_error("run",
		                      folder ? "%s is a file; with --runs, -o wants a folder"
		                             : "%s is a folder; -o wants a file (or use --runs N)",
		                      path);
	if (a->force)
		return 0;
	return cb_usage_error("run",
	                      folder ? "%s is not empty: give a new folder, or --force to "
	                               "write over its runs"
	                             : "%s exists: give another -o, or --force to replace it",
	                      path);
}

/* results/NAME-YYYYmmdd-HHMMSS plus SUFFIX, made unique with -2, -3, ...
 * and reserved by creating it (a file when SUFFIX is set, else a folder), so
 * two runs started in the same second never share a name. */
static int default_output(const struct cb_scenario *s, const char *suffix, char *buf, size_t len)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	if (make_dirs("results") != 0)
		return -1;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	for (unsigned k = 1; k < 10000; k++) {
		char tail[16] = "";
		int fd;

		if (k > 1)
			snprintf(tail, sizeof tail, "-%u", k);
		snprintf(buf, len, "results/%s-%s%s%s", s->name, stamp, tail, suffix);
		if (!*suffix) {
			if (mkdir(buf, 0777) == 0)
				return 0;
		} else if ((fd = open(buf, O_WRONLY | O_CREAT | O_EXCL, 0666)) >= 0) {
			close(fd);
			return 0;
		}
		if (errno != EEXIST)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

/* splitmix64: one draw per run from the setup seed. */
static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* The command that continues PATH: the file (or each file of a --runs
 * folder) records the scenario, its --set values, --quick and --only. */
static void print_resume_hint(FILE *out, const char *path)
{
	fputs("cryptobench run --resume ", out);
	cb_shell_word(out, path);
	fputc('\n', out);
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

/* --runs N: each run is a fresh process of this program, so nothing a run
 * leaves behind (caches, allocator state, library initialisation) carries
 * into the next. */
static int run_many(struct run_args *a, const struct cb_scenario *s, int argc, char **argv)
{
	char dir[4096], file[4200], first[4200], index[16], offset[64], seed_text[32],
	    runs_text[16];
	int status = CB_EXIT_OK;
	uint64_t setup_seed;
	int user_offset = 0;

	/* Layout alone can bias a measurement, so each run gets its own input
	 * offset within a page and its own environment size (which moves the
	 * stack), drawn from a seed that every run records. */
	if (getrandom(&setup_seed, sizeof setup_seed, 0) != (ssize_t)sizeof setup_seed)
		setup_seed = (uint64_t)time(NULL);
	setup_seed &= 0xffffffffffffull;
	if (a->resume_folder && folder_setup(a->resume, &setup_seed, &a->runs) != 0)
		return CB_EXIT_USAGE;
	for (size_t i = 0; i < a->n_overrides; i++)
		user_offset |= strcmp(a->overrides[i].key, "input_offset") == 0;
	if (a->resume_folder && !user_offset) {
		/* The scenario as run 1 recorded it: an offset other than the one
		 * drawn for run 1 was the user's, for every run. */
		char drawn[32];

		snprintf(drawn, sizeof drawn, "%u", (unsigned)(mix64(setup_seed) % 64) * 64);
		for (size_t i = 0; i < s->n_params; i++)
			user_offset |= strcmp(s->params[i].name, "input_offset") == 0 &&
			               s->params[i].from_command_line &&
			               strcmp(s->params[i].value, drawn) != 0;
	}
	snprintf(first, sizeof first, "%s/run-1.jsonl", a->resume_folder ? a->resume : "");
	snprintf(runs_text, sizeof runs_text, "%u", a->runs);

	if (a->resume_folder)
		snprintf(dir, sizeof dir, "%s", a->resume);
	else if (a->output)
		snprintf(dir, sizeof dir, "%s", a->output);
	else if (default_output(s, "", dir, sizeof dir) != 0) {
		fprintf(stderr, "%s: cannot create folder: %s\n", dir, strerror(errno));
		return CB_EXIT_USAGE;
	}
	if (make_dirs(dir) != 0) {
		fprintf(stderr, "%s: cannot create folder: %s\n", dir, strerror(errno));
		return CB_EXIT_USAGE;
	}
	for (unsigned k = 0; k < a->runs && !stop_requested; k++) {
		char **child;
		int n = 0, wstatus = 0;
		pid_t pid;

		uint64_t draw = mix64(setup_seed + k);
		char pad[4200];

		snprintf(file, sizeof file, "%s/run-%u.jsonl", dir, k + 1);
		int resume_this = 0;
		if (a->resume_folder) {
			int state = run_state(file);

			if (state < 0) {
				status = CB_EXIT_USAGE;
				break;
			}
			if (state == 2)
				continue; /* complete */
			resume_this = state == 1;
		}
		/* Made once the run is known to be needed: a complete one is skipped. */
		if (!(child = calloc((size_t)argc + 10, sizeof *child))) {
			status = CB_EXIT_PROBLEM;
			break;
		}
		snprintf(index, sizeof index, "%u", k);
		snprintf(offset, sizeof offset, "input_offset=%u", (unsigned)(draw % 64) * 64);
		snprintf(seed_text, sizeof seed_text, "%llu", (unsigned long long)setup_seed);
		memset(pad, 'x', sizeof pad);
		pad[(draw >> 8) % 4096] = '\0';
		child[n++] = "cryptobench";
		child[n++] = "run";
		for (int i = 1; i < argc; i++) {
			if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0 ||
			    strcmp(argv[i], "--runs") == 0 || strcmp(argv[i], "--resume") == 0 ||
			    strcmp(argv[i], "--scenario-of") == 0) {
				i++;
				continue;
			}
			if (strncmp(argv[i], "--runs=", 7) == 0 ||
			    strncmp(argv[i], "--output=", 9) == 0 ||
			    strncmp(argv[i], "--resume=", 9) == 0 ||
			    strncmp(argv[i], "--scenario-of=", 14) == 0)
				continue;
			child[n++] = argv[i];
		}
		if (!resume_this && a->resume_folder && !a->scenario &&
		    !cb_oneline_given(&a->oneline)) {
			/* a run not begun, of a folder resumed without its scenario */
			child[n++] = "--scenario-of";
			child[n++] = first;
		}
		child[n++] = resume_this ? "--resume" : "-o";
		child[n++] = file;
		child[n++] = "--run-index";
		child[n++] = index;
		child[n++] = "--runs"; /* recorded in its header: a folder knows its size */
		child[n++] = runs_text;
		if (!user_offset) {
			child[n++] = "--set";
			child[n++] = offset;
		}
		fprintf(stderr, "run %u of %u -> %s\n", k + 1, a->runs, file);
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
			if (stop_requested)
				kill(pid, SIGINT);
		if (pid > 0 && WIFSIGNALED(wstatus) && !stop_requested) {
			fprintf(stderr,
			        "run %u: its process was killed (%s); %s keeps every finished "
			        "trial; continue with\n  ",
			        k + 1, strsignal(WTERMSIG(wstatus)), file);
			print_resume_hint(stderr, dir);
			return CB_EXIT_PROBLEM;
		}
		if (pid < 0 || !WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
			status =
			    pid > 0 && WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : CB_EXIT_PROBLEM;
			break;
		}
		cb_kill_point("run");
	}
	if (stop_requested || status == CB_EXIT_INTERRUPTED) {
		fprintf(stderr, "interrupted: %s keeps every finished trial; continue with\n  ",
		        dir);
		print_resume_hint(stderr, dir);
		return CB_EXIT_INTERRUPTED;
	}
	fprintf(stderr, "runs in %s\n", dir);
	return status;
}

/* Append " KEY: THEN (this run: NOW)" to OUT for each setting that differs,
 * one level into objects such as params ("params.rounds"). */
static void describe_difference(const char *prefix, json_t *then, json_t *now, char *out,
                                size_t len)
{
	const char *key;
	json_t *value;
	void *tmp;

	if (json_is_object(then) && json_is_object(now) && !*prefix) {
		json_object_foreach_safe(then, tmp, key, value)
		{
			json_t *other = json_object_get(now, key);

			if (!other || !json_equal(value, other))
				describe_difference(key, value, other ? other : json_null(), out,
				                    len);
		}
		json_object_foreach_safe(now, tmp, key, value) if (!json_object_get(then, key))
		    describe_difference(key, json_null(), value, out, len);
		return;
	}
	if (json_is_object(then) && json_is_object(now)) {
		json_object_foreach_safe(then, tmp, key, value)
		{
			json_t *other = json_object_get(now, key);
			char name[128];

			snprintf(name, sizeof name, "%s.%s", prefix, key);
			if (!other || !json_equal(value, other))
				describe_difference(name, value, other ? other : json_null(), out,
				                    len);
		}
		json_object_foreach_safe(now, tmp, key, value) if (!json_object_get(then, key))
		{
			char name[128];

			snprintf(name, sizeof name, "%s.%s", prefix, key);
			describe_difference(name, json_null(), value, out, len);
		}
		return;
	}
	{
		char *a = json_dumps(then, JSON_COMPACT | JSON_ENCODE_ANY);
		char *b = json_dumps(now, JSON_COMPACT | JSON_ENCODE_ANY);
		size_t used = strlen(out);

		snprintf(out + used, len - used, "%s %s %.60s (this run: %.60s)", used ? ";" : "",
		         prefix, a ? a : "?", b ? b : "?");
		free(a);
		free(b);
	}
}

/* Check that FILE is an interrupted run of this very scenario. */
static struct cb_results *open_resume(const char *path, const struct cb_scenario *s,
                                      const char *only)
{
	char err[512];
	struct cb_results *old = cb_results_read(path, err, sizeof err);
	json_t *scenario;
	const char *sha;

	if (!old) {
		fprintf(stderr, "%s\n", err);
		return NULL;
	}
	if (old->compression) {
		fprintf(stderr,
		        "%s: a %s-compressed results file cannot be resumed: decompress it first\n",
		        path, old->compression);
		cb_results_free(old);
		return NULL;
	}
	scenario = json_object_get(old->header, "scenario");
	sha = json_string_value(json_object_get(scenario, "sha256"));
	if (!sha || strcmp(sha, s->sha256) != 0) {
		fprintf(stderr,
		        "%s: not a run of %s (the scenario's text differs: sha256 %.12s vs %.12s); "
		        "give no scenario to resume the recorded one\n",
		        path, s->file, sha ? sha : "?", s->sha256);
	} else if (!old->interrupted) {
		fprintf(stderr, "%s: this run is complete; nothing to resume\n", path);
	} else {
		/* Same text, same overrides, same effective settings: the plan and
		 * its schedule are then the same, slot for slot. The path may differ. */
		json_t *now = cb_scenario_to_json(s), *then = json_deep_copy(scenario);
		const char *then_only = json_string_value(json_object_get(old->header, "only"));
		char diff[2048] = "";

		json_object_del(now, "file");
		json_object_del(then, "file");
		if (!json_equal(now, then))
			describe_difference("", then, now, diff, sizeof diff);
		else if (strcmp(then_only ? then_only : "", only ? only : "") != 0)
			snprintf(diff, sizeof diff, " only \"%s\" (this run: \"%s\")",
			         then_only ? then_only : "", only ? only : "");
		json_decref(now);
		json_decref(then);
		if (!*diff)
			return old;
		fprintf(stderr,
		        "%s: the interrupted run used other settings:%s; give the same ones "
		        "(--set, --quick, --only, flags)\n",
		        path, diff);
	}
	cb_results_free(old);
	return NULL;
}

static int measure(struct run_args *a, const struct cb_scenario *s, const struct cb_plan *plan)
{
	char err[512], path[4096];
	struct cb_run_options options = {.run_index = a->run_index > 0 ? (unsigned)a->run_index : 0,
	                                 .runs = a->runs,
	                                 .stop = &stop_requested,
	                                 .command_line = a->command_line};
	struct cb_results *old = NULL;
	struct cb_writer *w = NULL;
	struct cb_run_totals totals;
	struct cb_run *run;
	json_t *line;
	int rc;

	options.progress = a->progress >= 0 ? a->progress : isatty(STDERR_FILENO);
	if (a->resume) {
		if (!(old = open_resume(a->resume, s, a->only)))
			return CB_EXIT_USAGE;
		options.resume = old;
		options.run_index =
		    (unsigned)json_integer_value(json_object_get(old->header, "run_index"));
		snprintf(path, sizeof path, "%s", a->resume);
	} else if (a->output) {
		snprintf(path, sizeof path, "%s", a->output);
	} else if (default_output(s, ".jsonl", path, sizeof path) != 0) {
		fprintf(stderr, "%s: cannot create: %s\n", path, strerror(errno));
		return CB_EXIT_USAGE;
	}
	/* The output first: a path that cannot be written is refused before
	 * anything runs. */
	if (old) {
		if (old->torn_line)
			fprintf(stderr,
			        "%s:%zu: the last line was cut short by the interruption; "
			        "dropped (the trial it held runs again)\n",
			        path, old->torn_line);
		w = cb_writer_append(path, old->complete_bytes, err, sizeof err);
	} else {
		w = cb_writer_open(path, err, sizeof err);
	}
	if (!w) {
		fprintf(stderr, "%s\n", err);
		cb_results_free(old);
		return CB_EXIT_USAGE;
	}
	run = cb_run_prepare(plan, &options, err, sizeof err);
	if (!run) {
		fprintf(stderr, "%s: %s\n", s->file, err);
		if (old)
			cb_writer_close(w, NULL);
		else
			cb_writer_discard(w);
		cb_results_free(old);
		return CB_EXIT_PROBLEM;
	}
	if (old) {
		line = json_pack("{s:s, s:I}", "command_line", a->command_line, "trials_before",
		                 (json_int_t)old->n_trials);
		cb_writer_line(w, "resume", line); /* a failure shows at the first trial */
		json_decref(line);
	} else {
		line = cb_run_header(run);
		if (a->only)
			json_object_set_new(line, "only", json_string(a->only));
		rc = cb_writer_header(w, line, err, sizeof err);
		json_decref(line);
		if (rc != 0 || cb_run_write_skips(run, w) != 0) {
			if (rc == 0)
				cb_errorf(err, sizeof err, "%s: cannot write: %s", path,
				          strerror(errno));
			fprintf(stderr, "%s (nothing was measured)\n", err);
			cb_writer_discard(w);
			cb_run_free(run);
			return CB_EXIT_USAGE;
		}
		cb_kill_point("header");
	}
	rc = cb_run_execute(run, w, &totals, err, sizeof err);
	line = cb_run_end(run, &totals);
	if (cb_writer_close(w, line) != 0 && rc == 0) {
		cb_errorf(err, sizeof err, "cannot finish writing: %s", strerror(errno));
		totals.write_failed = true;
		rc = -1;
	}
	if (rc != 0) {
		fprintf(stderr, "%s: %s\n", path, err);
		if (totals.write_failed && a->run_index < 0) {
			fprintf(stderr,
			        "%s keeps every trial written before; make room, then continue "
			        "with\n  ",
			        path);
			print_resume_hint(stderr, path);
		} else if (totals.write_failed) {
			fprintf(stderr, "%s keeps every trial written before\n", path);
		}
	}
	json_decref(line);
	cb_run_free(run);
	cb_results_free(old);
	if (rc != 0)
		return CB_EXIT_PROBLEM;
	fprintf(stderr, "%s: %llu trials written, %llu invalid\n", path,
	        (unsigned long long)totals.trials, (unsigned long long)totals.invalid);
	if (totals.invalid)
		fprintf(stderr, "warning: invalid trials (no timing kept), first: %s\n",
		        totals.first_error);
	if (totals.interrupted) {
		if (a->run_index >= 0) /* run K of --runs: the parent says how to go on */
			fprintf(stderr, "interrupted: %s keeps every finished trial\n", path);
		else {
			fprintf(stderr,
			        "interrupted: %s keeps every finished trial; continue with\n  ",
			        path);
			print_resume_hint(stderr, path);
		}
		return CB_EXIT_INTERRUPTED;
	}
	return CB_EXIT_OK;
}

/* The scenario file, the one the one-line flags describe (read from a
 * temporary file, whose name errors then do not show), or the one REC (a
 * results file) records. */
static struct cb_scenario *load_scenario(const struct run_args *a,
                                         const struct cb_load_options *load,
                                         const struct cb_recorded *rec, char *err, size_t err_len)
{
	struct cb_scenario *s;
	char path[4096];
	char *at;

	if (rec)
		return cb_recorded_load(rec, load->overrides, load->n_overrides, load->quick, err,
		                        err_len);
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
static int read_recorded(const struct run_args *a, struct cb_recorded *rec)
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
static int same_scenario(const struct run_args *a, const struct cb_scenario *s)
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

int cb_cmd_run(int argc, char **argv)
{
	struct run_args a;
	struct cb_load_options load;
	struct cb_scenario *s;
	struct cb_plan *plan;
	struct cb_recorded rec = {0};
	struct sigaction sa;
	char err[1024];
	int rc = parse_args(argc, argv, &a);

	if (rc != 0) {
		free_overrides(&a);
		return rc < 0 ? CB_EXIT_OK : rc;
	}
	if ((rc = cb_fault_env_check("run")) != CB_EXIT_OK) {
		free_overrides(&a);
		return rc;
	}
	record_command_line(&a, argc, argv);
	load = (struct cb_load_options){
	    .overrides = a.overrides, .n_overrides = a.n_overrides, .quick = a.quick};
	if ((rc = read_recorded(&a, &rec)) != CB_EXIT_OK) {
		free_overrides(&a);
		return rc;
	}
	if (rec.path && !a.only)
		a.only = rec.only; /* the --only the run had, unless given again */
	cb_watchdog_start(CB_LOAD_WATCHDOG_SECONDS, a.scenario ? a.scenario
	                                            : rec.path ? rec.file
	                                                       : "(command line)");
	s = load_scenario(&a, &load, rec.path ? &rec : NULL, err, sizeof err);
	cb_watchdog_stop();
	if (!s) {
		fprintf(stderr, "%s\n", err);
		cb_recorded_free(&rec);
		free_overrides(&a);
		return CB_EXIT_USAGE;
	}
	if (a.resume_folder && !rec.path && (rc = same_scenario(&a, s)) != CB_EXIT_OK) {
		cb_scenario_free(s);
		free_overrides(&a);
		return rc;
	}
	for (size_t i = 0; i < s->n_dropped && a.run_index < 0; i++) /* once, not per run */
		fprintf(stderr, "note: %s left out: %s\n", s->dropped[i].name,
		        s->dropped[i].reason);
	plan = cb_plan_build(s, err, sizeof err);
	if (plan && a.only && cb_plan_only(plan, a.only, err, sizeof err) != 0) {
		cb_plan_free(plan);
		plan = NULL;
	}
	if (!plan) {
		fprintf(stderr, "%s\n", err);
		cb_scenario_free(s);
		cb_recorded_free(&rec);
		free_overrides(&a);
		return CB_EXIT_USAGE;
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (a.dry_run) {
		cb_run_plan_print(stdout, plan, a.runs);
		rc = CB_EXIT_OK;
		goto done;
	}
	if (!a.resume)
		rc = check_output(&a, a.output, a.runs > 1 && a.run_index < 0);
	if (rc == 0 && a.run_index < 0) {
		/* A long run says so before it starts, terminal or not. */
		double total = cb_run_estimate(plan).total_s * a.runs;
		char text[32];

		if (total > LONG_RUN_S)
			fprintf(
			    stderr,
			    "estimated duration: %s (%zu trials%s); see the plan with --dry-run\n",
			    cb_format_duration(total, text), plan->n_slots * a.runs,
			    a.runs > 1 ? " over all runs" : "");
	}
	if (rc != 0)
		;
	else if ((a.runs > 1 || a.resume_folder) && a.run_index < 0)
		rc = run_many(&a, s, argc, argv);
	else
		rc = measure(&a, s, plan);
done:
	cb_plan_free(plan);
	cb_scenario_free(s);
	cb_recorded_free(&rec);
	free_overrides(&a);
	return rc;
}
