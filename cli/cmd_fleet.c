/* cmd_fleet.c: cryptobench fleet — run one scenario on many machines through
 * Slurm (cli/fleet_slurm.c) or GNU parallel over SSH (here). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/fleet.h"
#include "cli/options.h"

static const char fleet_help[] =
    "usage: cryptobench fleet slurm SCENARIO.lua --nodes N|NODE,... -o DIR [--wait]\n"
    "                         [--partition P] [--time T] [--sbatch OPT]... [--dry-run]\n"
    "                         [run options]\n"
    "       cryptobench fleet parallel SCENARIO.lua --sshlogin LOGIN,... -o DIR\n"
    "                         [--dry-run] [run options]\n"
    "       cryptobench fleet wait DIR\n\n"
    "Run one scenario on many machines, each alone, each writing its own results\n"
    "file DIR/HOST.jsonl (HOST: the machine's short name, which each run also\n"
    "records as its --host), or the folder DIR/HOST with --runs N. Then 'cryptobench report DIR' "
    "or 'cryptobench export DIR'\n"
    "(DIR/HOST for --runs).\n\n"
    "slurm     writes DIR/fleet.sbatch, a job array of one task per node, each\n"
    "          with the whole node (--exclusive), and submits it with sbatch.\n"
    "          --nodes N: N tasks wherever Slurm puts them; --nodes a,b: one task\n"
    "          pinned to each node named. Should two tasks meet on one node, the\n"
    "          later writes HOST.task-K.jsonl beside the first. Each task's\n"
    "          output is DIR/logs/task-K.log.\n"
    "  --wait          wait for every task, then say which failed (exit 1 if any)\n"
    "  --partition P, --time T\n"
    "                  the partition and time limit of each task\n"
    "  --sbatch OPT    one more #SBATCH line (e.g. --sbatch=--account=lab); may\n"
    "                  repeat\n"
    "parallel  runs GNU parallel --nonall over SSH: one run on each login\n"
    "          (':' is this machine, as in parallel), all at once, and says which\n"
    "          failed (exit 1 if any). Each machine needs cryptobench and SSH\n"
    "          access without a password.\n"
    "  --sshlogin L    logins (host, user@host), comma-separated; may repeat\n"
    "wait      waits for the Slurm job of DIR and says which tasks failed.\n\n"
    "  -o DIR          the fleet's folder: new or empty\n"
    "  --dry-run       print the batch script (slurm) or the command (parallel)\n"
    "                  and stop\n"
    "  --cryptobench PATH\n"
    "                  the program the machines run (default: this one)\n\n"
    "Every other option goes to 'cryptobench run' (--set, --quick, --only, --runs,\n"
    "or --engines/--algorithms/--sizes for a one-line run); they are checked here\n"
    "first, with the plan built as on this machine. DIR, the scenario and the\n"
    "program must be at the same paths on every machine (a shared folder).\n"
    "Exit status: 0, 1 a task or host failed, 2 bad input.\n";

/* The options of `cryptobench run` that take a value, and those that do not. */
static const char *const run_with_value[] = {
    "--set",   "--runs", "--only",   "--engines",    "--algorithms",
    "--sizes", "--ops",  "--rounds", "--trial-time",
};
static const char *const run_flags[] = {"--quick"};
/* Those the fleet sets itself. */
static const char *const refused[] = {"-o",         "--output",      "--resume",    "--force",
                                      "--progress", "--no-progress", "--run-index", "--host"};

/* The value of option NAME at argv[*i] ("--name V" or "--name=V", moving *i
 * past V; "" when V is missing), or NULL when argv[*i] is another argument.
 * Fleet reads its own options so, whole names only, and passes every other
 * to run (which cb_options_parse reads). */
static const char *option_value(int argc, char **argv, int *i, const char *name)
{
	size_t len = strlen(name);

	if (strncmp(argv[*i], name, len) != 0)
		return NULL;
	if (argv[*i][len] == '=')
		return argv[*i] + len + 1;
	if (argv[*i][len] != '\0')
		return NULL;
	return *i + 1 < argc ? argv[++*i] : "";
}

/* Every option fleet takes, for a did-you-mean. */
static const char *const fleet_names[] = {
    "--output",  "--cryptobench", "--dry-run",  "--wait", "--nodes",  "--partition",
    "--time",    "--sbatch",      "--sshlogin", "--set",  "--runs",   "--only",
    "--engines", "--algorithms",  "--sizes",    "--ops",  "--rounds", "--trial-time",
    "--quick",   "--help",        NULL};

/* Whether ARG is NAME or NAME=...; *WITH_VALUE says which. */
static int is_option(const char *arg, const char *name, int *inline_value)
{
	size_t len = strlen(name);

	if (strncmp(arg, name, len) != 0 || (arg[len] && arg[len] != '='))
		return 0;
	*inline_value = arg[len] == '=';
	return 1;
}

/* A path the batch script can name without quoting (Slurm reads #SBATCH
 * lines itself, and expands % in them). */
static int plain_path(const char *p)
{
	return strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	                 "._-/+,:@=") == strlen(p);
}

static int take_run_option(struct fleet_args *a, int argc, char **argv, int *i)
{
	const char *arg = argv[*i];
	int inline_value;

	for (size_t k = 0; k < sizeof refused / sizeof *refused; k++)
		if (is_option(arg, refused[k], &inline_value))
			return cb_usage_error("fleet",
			                      "%s is the fleet's to set (each host writes "
			                      "into -o DIR, named by its own name)",
			                      refused[k]);
	if (a->n_run + 2 > FLEET_MAX_ARGS)
		return cb_usage_error("fleet", "too many options");
	for (size_t k = 0; k < sizeof run_flags / sizeof *run_flags; k++)
		if (strcmp(arg, run_flags[k]) == 0) {
			a->run[a->n_run++] = arg;
			return 0;
		}
	for (size_t k = 0; k < sizeof run_with_value / sizeof *run_with_value; k++) {
		const char *value;

		if (!is_option(arg, run_with_value[k], &inline_value))
			continue;
		if (inline_value) {
			value = strchr(arg, '=') + 1;
			a->run[a->n_run++] = arg;
		} else {
			if (*i + 1 >= argc)
				return cb_usage_error("fleet", "%s wants a value", arg);
			value = argv[++*i];
			a->run[a->n_run++] = arg;
			a->run[a->n_run++] = value;
		}
		if (strcmp(run_with_value[k], "--runs") == 0) {
			char *end;
			long n = strtol(value, &end, 10);

			if (*end || end == value || n < 1 || n > 1000)
				return cb_usage_error(
				    "fleet", "--runs wants a number from 1 to 1000, not '%s'",
				    value);
			a->runs = (unsigned)n;
		}
		return 0;
	}
	return cb_unknown_option("fleet", arg, fleet_names);
}

static int take_fleet_option(struct fleet_args *a, int argc, char **argv, int *i, int *taken)
{
	const char *v;

	*taken = 1;
	if ((v = option_value(argc, argv, i, "-o")) ||
	    (v = option_value(argc, argv, i, "--output"))) {
		if (!*v)
			return cb_usage_error("fleet", "-o wants a folder");
		snprintf(a->dir, sizeof a->dir, "%s", v);
	} else if ((v = option_value(argc, argv, i, "--cryptobench"))) {
		if (!realpath(v, a->program) || access(a->program, X_OK) != 0)
			return cb_usage_error("fleet", "--cryptobench %s: not a program here", v);
	} else if (strcmp(argv[*i], "--dry-run") == 0) {
		a->dry_run = 1;
	} else if (strcmp(a->engine, "slurm") == 0 && strcmp(argv[*i], "--wait") == 0) {
		a->wait = 1;
	} else if (strcmp(a->engine, "slurm") == 0 &&
	           (v = option_value(argc, argv, i, "--nodes"))) {
		a->nodes = v;
	} else if (strcmp(a->engine, "slurm") == 0 &&
	           (v = option_value(argc, argv, i, "--partition"))) {
		a->partition = v;
	} else if (strcmp(a->engine, "slurm") == 0 && (v = option_value(argc, argv, i, "--time"))) {
		a->time_limit = v;
	} else if (strcmp(a->engine, "slurm") == 0 &&
	           (v = option_value(argc, argv, i, "--sbatch"))) {
		if (a->n_sbatch == (int)(sizeof a->sbatch / sizeof *a->sbatch) || *v != '-' ||
		    strchr(v, '\n'))
			return cb_usage_error("fleet", "--sbatch wants one option such as "
			                               "--account=lab (at most 16)");
		a->sbatch[a->n_sbatch++] = v;
	} else if (strcmp(a->engine, "parallel") == 0 &&
	           (v = option_value(argc, argv, i, "--sshlogin"))) {
		size_t used = strlen(a->sshlogin);

		if (!*v || strchr(v, '\n') ||
		    (size_t)snprintf(a->sshlogin + used, sizeof a->sshlogin - used, "%s%s",
		                     used ? "," : "", v) >= sizeof a->sshlogin - used)
			return cb_usage_error("fleet", "--sshlogin wants logins such as "
			                               "host1,user@host2 (or : for this machine)");
	} else {
		*taken = 0;
	}
	return 0;
}

static int parse(struct fleet_args *a, int argc, char **argv)
{
	const char *scenario = NULL;

	a->runs = 1;
	for (int i = 2; i < argc; i++) {
		int taken, rc;

		if (cb_is_help(argv[i])) {
			fputs(fleet_help, stdout);
			return -1;
		}
		if ((rc = take_fleet_option(a, argc, argv, &i, &taken)) != 0)
			return rc;
		if (taken)
			continue;
		if (argv[i][0] == '-' && argv[i][1]) {
			if ((rc = take_run_option(a, argc, argv, &i)) != 0)
				return rc;
			continue;
		}
		if (scenario)
			return cb_usage_error("fleet", "one scenario at a time ('%s' is extra)",
			                      argv[i]);
		scenario = argv[i];
		/* Every machine reads it at the same path: make it absolute. */
		if (!realpath(scenario, a->scenario))
			snprintf(a->scenario, sizeof a->scenario, "%s", scenario);
		if (a->n_run + 1 > FLEET_MAX_ARGS)
			return cb_usage_error("fleet", "too many options");
		a->run[a->n_run++] = a->scenario;
	}
	if (!*a->dir)
		return cb_usage_error("fleet", "-o DIR is required: the folder every host "
		                               "writes its results file into");
	if (strcmp(a->engine, "slurm") == 0 && !a->nodes)
		return cb_usage_error("fleet", "--nodes N or --nodes NODE,... is required");
	if (strcmp(a->engine, "parallel") == 0 && !*a->sshlogin)
		return cb_usage_error("fleet", "--sshlogin LOGIN,... is required (':' is "
		                               "this machine)");
	return 0;
}

/* The fleet's folder: made absolute, and new or empty. */
static int check_dir(struct fleet_args *a)
{
	char abs[4096];
	struct stat st;
	DIR *d;
	struct dirent *e;
	int used = 0;

	if (a->dir[0] != '/') {
		char cwd[2048];

		if (!getcwd(cwd, sizeof cwd))
			return cb_usage_error("fleet", "cannot tell the current folder");
		if (strlen(cwd) + strlen(a->dir) + 2 > sizeof abs)
			return cb_usage_error("fleet", "-o %s: the path is too long", a->dir);
		memcpy(abs, a->dir, strlen(a->dir) + 1);
		snprintf(a->dir, sizeof a->dir, "%s/", cwd);
		strncat(a->dir, abs, sizeof a->dir - strlen(a->dir) - 1);
	}
	while (strlen(a->dir) > 1 && a->dir[strlen(a->dir) - 1] == '/')
		a->dir[strlen(a->dir) - 1] = '\0';
	if (!plain_path(a->dir))
		return cb_usage_error("fleet",
		                      "-o %s: use a path of letters, digits and ._-/+,:@= (the "
		                      "batch script names it unquoted)",
		                      a->dir);
	if (stat(a->dir, &st) != 0)
		return 0;
	if (!S_ISDIR(st.st_mode))
		return cb_usage_error("fleet", "%s is a file; -o wants a folder", a->dir);
	if ((d = opendir(a->dir))) {
		while (!used && (e = readdir(d)))
			used = strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
		closedir(d);
	}
	if (used)
		return cb_usage_error("fleet",
		                      "%s is not empty: give a new folder (nothing measured is "
		                      "replaced)",
		                      a->dir);
	return 0;
}

static int make_dir(const struct fleet_args *a)
{
	char logs[4200];

	snprintf(logs, sizeof logs, "%s/logs", a->dir);
	if ((mkdir(a->dir, 0777) != 0 && errno != EEXIST) ||
	    (mkdir(logs, 0777) != 0 && errno != EEXIST)) {
		fprintf(stderr, "%s: cannot create folder: %s\n", a->dir, strerror(errno));
		return CB_EXIT_USAGE;
	}
	return 0;
}

/* Check the run's arguments the way `cryptobench run --dry-run` does, here:
 * a bad flag or scenario is refused before anything is submitted. Its notes
 * (engines left out on this machine) are not the fleet's: shown only when it
 * fails. */
static int check_run_args(const struct fleet_args *a)
{
	const char *argv[FLEET_MAX_ARGS + 4];
	char errfile[] = "/tmp/cryptobench-fleet-XXXXXX", line[1024];
	int n = 0, status = 0, fd = mkstemp(errfile);
	pid_t pid;
	FILE *f;

	if (fd < 0)
		return 0; /* cannot check here: the hosts will say */
	unlink(errfile);
	argv[n++] = "cryptobench";
	argv[n++] = "run";
	for (int i = 0; i < a->n_run; i++)
		argv[n++] = a->run[i];
	argv[n++] = "--dry-run";
	argv[n] = NULL;
	if ((pid = fork()) == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		execv("/proc/self/exe", (char **)argv);
		_exit(127);
	}
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		close(fd);
		return 0;
	}
	lseek(fd, 0, SEEK_SET);
	if ((f = fdopen(fd, "r"))) {
		while (fgets(line, sizeof line, f))
			if (strncmp(line, "note: ", 6) != 0)
				fputs(line, stderr);
		fclose(f);
	} else {
		close(fd);
	}
	return CB_EXIT_USAGE;
}

/* ---- GNU parallel over SSH ---- */

static void print_parallel_command(FILE *out, const struct fleet_args *a, const char *joblog)
{
	char *inner = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&inner, &len);
	char target[4300];

	snprintf(target, sizeof target, "%s/\"$h\"%s", a->dir, a->runs > 1 ? "" : ".jsonl");
	fputs("h=$(hostname -s); ", mem);
	cb_fleet_print_run(mem, a, target, "\"$h\"");
	fclose(mem);
	snprintf(target, sizeof target, "%s/logs", a->dir);
	fputs("mkdir -p ", out);
	cb_shell_word(out, target);
	fputs(" && parallel --will-cite --nonall --tag --sshlogin ", out);
	cb_shell_word(out, a->sshlogin);
	fputs(" --joblog ", out);
	cb_shell_word(out, joblog);
	fputc(' ', out);
	cb_shell_word(out, inner);
	fputc('\n', out);
	free(inner);
}

/* The hosts whose run failed, from parallel's job log (tab-separated: Seq
 * Host Starttime JobRuntime Send Receive Exitval Signal Command). */
static int parallel_report(const char *joblog)
{
	FILE *f = fopen(joblog, "r");
	char line[8192];
	int failed = 0, hosts = 0;

	if (!f) {
		fprintf(stderr, "%s: cannot read parallel's job log: %s\n", joblog,
		        strerror(errno));
		return CB_EXIT_PROBLEM;
	}
	while (fgets(line, sizeof line, f)) {
		char *field[9], *p = line;
		int n = 0;

		if (strncmp(line, "Seq\t", 4) == 0)
			continue;
		while (n < 9 && (field[n++] = strsep(&p, "\t")))
			;
		if (n < 9 || !field[8])
			continue;
		hosts++;
		if (atoi(field[6]) != 0 || atoi(field[7]) != 0) {
			failed++;
			fprintf(stderr, "%s: failed (%s %s)\n", field[1],
			        atoi(field[7]) ? "signal" : "exit",
			        atoi(field[7]) ? field[7] : field[6]);
		}
	}
	fclose(f);
	fprintf(stderr, "%d of %d hosts failed\n", failed, hosts);
	return failed || !hosts ? CB_EXIT_PROBLEM : CB_EXIT_OK;
}

static int fleet_parallel(const struct fleet_args *a)
{
	char joblog[4300], *cmd = NULL;
	size_t len = 0;
	FILE *mem;
	int status;

	snprintf(joblog, sizeof joblog, "%s/logs/parallel.joblog", a->dir);
	if (a->dry_run) {
		print_parallel_command(stdout, a, joblog);
		return CB_EXIT_OK;
	}
	mem = open_memstream(&cmd, &len);
	print_parallel_command(mem, a, joblog);
	fclose(mem);
	fprintf(stderr, "%s", cmd);
	status = system(cmd);
	free(cmd);
	if (status == -1 || (WIFEXITED(status) && WEXITSTATUS(status) == 127)) {
		fprintf(stderr, "cryptobench fleet: cannot run GNU parallel (Debian package "
		                "parallel)\n");
		return CB_EXIT_PROBLEM;
	}
	status = parallel_report(joblog);
	if (status == CB_EXIT_OK)
		fprintf(stderr,
		        "results in %s%s: cryptobench report %s; cryptobench compare %s sets "
		        "the hosts against each other\n",
		        a->dir, a->runs > 1 ? "/HOST (one folder per host)" : "", a->dir, a->dir);
	return status;
}

int cb_cmd_fleet(int argc, char **argv)
{
	struct fleet_args a;
	int rc;

	memset(&a, 0, sizeof a);
	if (argc < 2 || cb_is_help(argv[1])) {
		fputs(fleet_help, argc < 2 ? stderr : stdout);
		return argc < 2 ? CB_EXIT_USAGE : CB_EXIT_OK;
	}
	if (strcmp(argv[1], "wait") == 0) {
		if (argc == 3 && cb_is_help(argv[2])) {
			fputs(fleet_help, stdout);
			return CB_EXIT_OK;
		}
		if (argc != 3 || argv[2][0] == '-')
			return cb_usage_error("fleet", "wait wants one folder: cryptobench fleet "
			                               "wait DIR");
		return cb_fleet_slurm_wait(argv[2]);
	}
	if (strcmp(argv[1], "slurm") != 0 && strcmp(argv[1], "parallel") != 0)
		return cb_usage_error("fleet", "unknown engine '%s' (slurm, parallel, wait)",
		                      argv[1]);
	a.engine = argv[1];
	if ((rc = parse(&a, argc, argv)) != 0)
		return rc < 0 ? CB_EXIT_OK : rc;
	if (!*a.program && !realpath("/proc/self/exe", a.program))
		return cb_usage_error("fleet", "cannot tell where this program is: give "
		                               "--cryptobench PATH");
	{
		size_t used = 0;

		for (int i = 0; i < argc && used < sizeof a.command_line; i++)
			used +=
			    (size_t)snprintf(a.command_line + used, sizeof a.command_line - used,
			                     "%s%s", i ? " " : "cryptobench ", argv[i]);
	}
	if (strcmp(a.engine, "slurm") == 0 && (rc = cb_fleet_slurm_check(&a)) != 0)
		return rc;
	if ((rc = check_dir(&a)) != 0 || (rc = check_run_args(&a)) != 0)
		return rc;
	if (!a.dry_run && (rc = make_dir(&a)) != 0)
		return rc;
	if (strcmp(a.engine, "parallel") == 0)
		return fleet_parallel(&a);
	return cb_fleet_slurm(&a);
}
