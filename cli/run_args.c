/* run_args.c: the options of cryptobench run, one row each. */
#include "cli/run_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "cli/run_auto.h"
#include "core/measure/scenario.h"
#include "core/base/units.h"

static const char run_help[] =
    "usage: cryptobench run SCENARIO.lua [options]\n"
    "       cryptobench run --engines E,... --algorithms A,... --sizes S,... [options]\n\n"
    "Run every trial of a scenario and write them to a results file (JSON Lines).\n\n"
    "  -o, --output FILE     results file (default results/NAME-TIME.jsonl); with\n"
    "                        --runs N, a folder that gets run-1.jsonl .. run-N.jsonl\n"
    "      --runs N          N independent runs, each a fresh process (default 1)\n"
    "      --runs auto       runs until compare resolves the table: after each run the\n"
    "                        runs so far are planned again (runs, rounds; plan.log)\n"
    "      --until resolved  rounds in blocks of 8 until every question the scenario\n"
    "                        asks is answered (winners, derived metrics, masks); its\n"
    "                        rounds are the first block(s); --until rounds: fixed\n"
    "      --budget D        wall time for the run until resolved, or for all the\n"
    "                        runs of --runs auto (like 3m, 90s, 1h30m)\n"
    "      --explain[=N]     after the timed trials, profiled trials of each cell until\n"
    "                        N samples of its program counter (default 2000): which\n"
    "                        code ran and its instruction-set extensions (profile\n"
    "                        lines, never timings; doc/explain.md)\n"
    "      --set KEY=VALUE   override a scenario field (rounds, sizes, trial_time, ...)\n"
    "                        or a cb.param(); may repeat\n"
    "      --quick           a preview: few rounds, short trials, sizes up to 1 MiB\n"
    "      --dry-run         print the plan (cells, trials, estimated duration) and stop\n"
    "      --only KEY=VALUE[,VALUE][,KEY=VALUE]...\n"
    "                        run only the matching cells (keys: engine, label,\n"
    "                        algorithm, op, size, threads)\n"
    "      --host NAME       the name this machine is known by, recorded in the\n"
    "                        header (host.name_given) instead of its hostname: what\n"
    "                        compare and report group and label hosts by\n"
    "      --kernel-place    measure the linked libraries where the kernel loaded\n"
    "                        them; by default a process whose library's code lies\n"
    "                        across a 16 MiB boundary (a few percent slower on some\n"
    "                        CPUs) starts again, up to 6 times, for another place\n\n"
    "      --allow-external PATH[,PATH...]\n"
    "                        let the scenario start these worker programs or load\n"
    "                        these plug-ins (compared after realpath); without it a\n"
    "                        scenario naming one is refused (--dry-run lists them)\n\n"
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

static int set_runs(void *args, const char *value)
{
	struct cb_run_args *a = args;
	char *end;
	long n = strtol(value, &end, 10);

	if (strcmp(value, "auto") == 0) {
		a->runs_auto = 1;
		a->runs = CB_RUNS_AUTO_MAX;
		return CB_EXIT_OK;
	}
	a->runs_auto = 0;
	if (*end || n < 1 || n > 1000)
		return cb_usage_error("run", "--runs wants a number from 1 to 1000, not '%s'",
		                      value);
	a->runs = (unsigned)n;
	return CB_EXIT_OK;
}

static int set_override(void *args, const char *value)
{
	struct cb_run_args *a = args;
	char *key;

	if (!strchr(value, '=') || value[0] == '=')
		return cb_usage_error("run", "--set wants KEY=VALUE, not '%s'", value);
	if (a->n_overrides == CB_RUN_MAX_OVERRIDES)
		return cb_usage_error("run", "more than %d --set", CB_RUN_MAX_OVERRIDES);
	/* A copy: argv stays intact for the command line and --runs. */
	if (!(key = strdup(value)))
		return cb_usage_error("run", "out of memory");
	*strchr(key, '=') = '\0';
	a->overrides[a->n_overrides].key = key;
	a->overrides[a->n_overrides++].value = key + strlen(key) + 1;
	return CB_EXIT_OK;
}

/* --until resolved|rounds: the scenario field until (scenario.h). */
static int set_until(void *args, const char *value)
{
	char set[64];

	if (strcmp(value, "resolved") != 0 && strcmp(value, "rounds") != 0)
		return cb_usage_error("run", "--until wants resolved or rounds, not '%s'", value);
	snprintf(set, sizeof set, "until=%s", value);
	return set_override(args, set);
}

static int set_budget(void *args, const char *value)
{
	struct cb_run_args *a = args;

	a->budget = value;
	return cb_budget_option("run", value, &a->budget_s);
}

/* A name to print and to name files by: printable, no blanks or slashes. */
static int set_host(void *args, const char *value)
{
	size_t n = strlen(value);

	((struct cb_run_args *)args)->host = value;
	for (size_t i = 0; i < n; i++)
		if (value[i] <= ' ' || value[i] == '/' || value[i] == 0x7f)
			n = 0;
	if (n == 0 || n > 64)
		return cb_usage_error("run",
		                      "--host wants a name of 1 to 64 printable characters, "
		                      "without blanks or '/', not '%s'",
		                      value);
	return CB_EXIT_OK;
}

/* --explain[=SAMPLES]: profiled trials after the timed ones (the scenario
 * field explain, scenario.h). */
static int set_explain(void *args, const char *value)
{
	char set[64];
	char *end = NULL;
	long n = value ? strtol(value, &end, 10) : CB_EXPLAIN_SAMPLES;

	if (value && (*end || end == value || n < 1 || n > 1000000))
		return cb_usage_error("run",
		                      "--explain wants samples per cell from 1 to 1000000, "
		                      "not '%s'",
		                      value);
	snprintf(set, sizeof set, "explain_samples=%ld", n);
	return set_override(args, set);
}

static int set_allow_external(void *args, const char *value)
{
	(void)args;
	return cb_allow_external_option("run", value);
}

static int set_run_index(void *args, const char *value)
{
	((struct cb_run_args *)args)->run_index = atoi(value);
	return CB_EXIT_OK;
}

#define STRING(name, alias, field) CB_OPTION_STRING(name, alias, struct cb_run_args, field)
#define FLAG(name, field, value) CB_OPTION_FLAG(name, NULL, struct cb_run_args, field, value)

static const struct cb_cli_option run_options[] = {
    STRING("--output", "-o", output),
    CB_OPTION_CALL("--runs", NULL, set_runs),
    CB_OPTION_CALL("--set", NULL, set_override),
    CB_OPTION_CALL("--until", NULL, set_until),
    CB_OPTION_CALL("--budget", NULL, set_budget),
    CB_OPTION_CALL_OPTIONAL("--explain", set_explain),
    FLAG("--quick", quick, 1),
    STRING("--resume", NULL, resume),
    FLAG("--progress", progress, 1),
    FLAG("--no-progress", progress, 0),
    FLAG("--force", force, 1),
    FLAG("--dry-run", dry_run, 1),
    STRING("--engines", NULL, oneline.engines),
    STRING("--algorithms", NULL, oneline.algorithms),
    STRING("--sizes", NULL, oneline.sizes),
    STRING("--ops", NULL, oneline.ops),
    STRING("--rounds", NULL, oneline.rounds),
    STRING("--trial-time", NULL, oneline.trial_time),
    STRING("--only", NULL, only),
    CB_OPTION_CALL("--host", NULL, set_host),
    FLAG("--kernel-place", kernel_place, 1),
    CB_OPTION_CALL("--allow-external", NULL, set_allow_external),
    /* Between a --runs parent and its runs. */
    {"--run-index", NULL, CB_OPT_CALL, 0, 0, set_run_index, true},
    {"--scenario-of", NULL, CB_OPT_STRING, offsetof(struct cb_run_args, scenario_of), 0, NULL,
     true},
    CB_OPTION_END,
};

static int add_operand(void *args, const char *arg)
{
	struct cb_run_args *a = args;

	if (a->n_operands == 0)
		a->scenario = arg;
	else if (a->n_operands == 1)
		a->extra = arg;
	a->n_operands++;
	return CB_EXIT_OK;
}

/* What the options say together: one scenario, from a file, the one-line
 * flags or a results file; --runs with --resume only for a folder. */
static int check_args(struct cb_run_args *a)
{
	int oneline = cb_oneline_given(&a->oneline);

	if (!a->scenario && !oneline && !a->resume && !a->scenario_of)
		return cb_usage_error("run", "which scenario? e.g. cryptobench run "
		                             "scenarios/quickstart.lua, or --engines openssl "
		                             "--algorithms sha256 --sizes 64B,1MiB");
	if (a->scenario && oneline)
		return cb_usage_error("run", "a scenario file or --engines/--algorithms/--sizes, "
		                             "not both (use --set with a file)");
	if (a->extra)
		return cb_usage_error("run", "one scenario at a time ('%s' is extra)", a->extra);
	if (a->runs_auto) {
		for (size_t i = 0; i < a->n_overrides; i++)
			if (strcmp(a->overrides[i].key, "until") == 0 &&
			    strcmp(a->overrides[i].value, "resolved") == 0)
				return cb_usage_error("run",
				                      "--runs auto plans runs of a fixed number "
				                      "of rounds: not with --until resolved");
	}
	if (a->resume) {
		struct stat st;

		a->resume_folder = stat(a->resume, &st) == 0 && S_ISDIR(st.st_mode);
		if (a->runs > 1 && !a->resume_folder && a->run_index < 0)
			return cb_usage_error("run", "--resume FILE continues one file; --runs "
			                             "goes with --resume DIR");
	}
	return CB_EXIT_OK;
}

static void record_command_line(struct cb_run_args *a, int argc, char **argv)
{
	size_t used = 0;

	for (int i = 0; i < argc && used < sizeof a->command_line; i++)
		used += (size_t)snprintf(a->command_line + used, sizeof a->command_line - used,
		                         "%s%s", i ? " " : "cryptobench ", argv[i]);
}

int cb_run_args_parse(int argc, char **argv, struct cb_run_args *a)
{
	int rc;

	memset(a, 0, sizeof *a);
	a->runs = 1;
	a->run_index = -1;
	a->progress = -1;
	rc = cb_options_parse("run", run_options, argc, argv, a, add_operand);
	if (rc == CB_OPTIONS_HELP) {
		fputs(run_help, stdout);
		return -1;
	}
	if (rc == CB_EXIT_OK)
		rc = check_args(a);
	if (rc == CB_EXIT_OK)
		record_command_line(a, argc, argv);
	return rc;
}

void cb_run_args_free(struct cb_run_args *a)
{
	for (size_t i = 0; i < a->n_overrides; i++)
		free((char *)a->overrides[i].key);
	a->n_overrides = 0;
}
