/* fleet_slurm.c: cryptobench fleet slurm — a job array of one task per node.
 *
 * The batch script DIR/fleet.sbatch is complete in itself (sbatch it again to
 * repeat the fleet). Each task records "STATUS HOST FILE" in
 * DIR/logs/task-K.status when its run ends; a task without one was killed,
 * cancelled or never started. DIR/fleet.job holds the job's id and its
 * number of tasks, for `cryptobench fleet wait DIR`. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/fleet.h"

/* The nodes of --nodes: a count N, or a list (names[] set). */
struct node_list {
	unsigned n;
	char *names[1024];
	char *buf;
};

static int parse_nodes(const char *spec, struct node_list *l)
{
	char *end, *p;
	long n = strtol(spec, &end, 10);

	memset(l, 0, sizeof *l);
	if (*spec >= '0' && *spec <= '9' && !*end) {
		if (n < 1 || n > 1024)
			return cb_usage_error("fleet", "--nodes wants 1 to 1024 nodes, not %s",
			                      spec);
		l->n = (unsigned)n;
		return 0;
	}
	if (!(l->buf = strdup(spec)))
		return cb_usage_error("fleet", "out of memory");
	for (p = strtok(l->buf, ","); p; p = strtok(NULL, ",")) {
		if (strspn(p,
		           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") !=
		        strlen(p) ||
		    l->n == 1024) {
			free(l->buf);
			l->buf = NULL;
			return cb_usage_error("fleet",
			                      "--nodes wants a count or node names such as "
			                      "node1,node2, not '%s'",
			                      spec);
		}
		l->names[l->n++] = p;
	}
	if (l->n == 0) {
		free(l->buf);
		l->buf = NULL;
		return cb_usage_error("fleet", "--nodes wants a count or node names");
	}
	return 0;
}

static void write_script(FILE *out, const struct fleet_args *a, const struct node_list *l)
{
	fprintf(out,
	        "#!/bin/sh\n"
	        "# cryptobench fleet: one task of this job array per node, each alone on\n"
	        "# its node, running the scenario into %s/HOST%s.\n"
	        "# Made by: %s\n",
	        a->dir, a->runs > 1 ? " (a --runs folder)" : ".jsonl", a->command_line);
	if (l->names[0]) {
		fputs("# Task K is pinned to node K of:", out);
		for (unsigned i = 0; i < l->n; i++)
			fprintf(out, " %s", l->names[i]);
		fputs(" (at submission).\n", out);
	}
	fprintf(out,
	        "#SBATCH --job-name=cryptobench-fleet\n"
	        "#SBATCH --array=0-%u\n"
	        "#SBATCH --nodes=1\n"
	        "#SBATCH --ntasks=1\n"
	        "#SBATCH --exclusive\n"
	        "#SBATCH --output=%s/logs/task-%%a.log\n",
	        l->n - 1, a->dir);
	if (a->partition)
		fprintf(out, "#SBATCH --partition=%s\n", a->partition);
	if (a->time_limit)
		fprintf(out, "#SBATCH --time=%s\n", a->time_limit);
	for (int i = 0; i < a->n_sbatch; i++)
		fprintf(out, "#SBATCH %s\n", a->sbatch[i]);
	fprintf(out,
	        "dir=%s\n"
	        "task=${SLURM_ARRAY_TASK_ID:-0}\n"
	        "host=${SLURMD_NODENAME:-$(hostname -s)}\n"
	        "out=$dir/$host%s\n"
	        "# Slurm may start two tasks on one node (fewer nodes free than tasks):\n"
	        "# the later one writes beside the first.\n"
	        "[ -e \"$out\" ] && out=$dir/$host.task-$task%s\n"
	        "echo \"task $task on $host: $out\"\n",
	        a->dir, a->runs > 1 ? "" : ".jsonl", a->runs > 1 ? "" : ".jsonl");
	cb_fleet_print_run(out, a, "\"$out\"", "\"$host\"");
	fputs("\nstatus=$?\n"
	      "echo \"$status $host $out\" >\"$dir/logs/task-$task.status\"\n"
	      "exit $status\n",
	      out);
}

/* Run ARGV (a NULL-terminated command) and read the first line it prints
 * into LINE. Its exit status, or -1 when it cannot run. */
static int run_capture(char *const argv[], char *line, size_t len, int quiet)
{
	int fds[2], status = 0;
	pid_t pid;
	FILE *f;

	if (pipe(fds) != 0)
		return -1;
	if ((pid = fork()) == 0) {
		dup2(fds[1], STDOUT_FILENO);
		int null = quiet ? open("/dev/null", O_WRONLY) : -1;

		if (null >= 0)
			dup2(null, STDERR_FILENO);
		close(fds[0]);
		close(fds[1]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	*line = '\0';
	if ((f = fdopen(fds[0], "r"))) {
		char rest[256];

		if (fgets(line, (int)len, f))
			line[strcspn(line, "\n")] = '\0';
		while (fgets(rest, sizeof rest, f))
			;
		fclose(f);
	} else {
		close(fds[0]);
	}
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status) == 127)
		return -1;
	return WEXITSTATUS(status);
}

/* Pin task K of JOB to node K: the array was submitted held; each pending
 * task updated alone becomes its own job record with its own node. */
static int pin_tasks(const char *job, const struct node_list *l)
{
	char id[128], nodes[256], line[512];
	int rc = 0;

	for (unsigned i = 0; i < l->n && rc == 0; i++) {
		char *update[] = {"scontrol", "update", id, nodes, NULL};

		snprintf(id, sizeof id, "JobId=%s_%u", job, i);
		snprintf(nodes, sizeof nodes, "ReqNodeList=%s", l->names[i]);
		if (run_capture(update, line, sizeof line, 0) != 0) {
			fprintf(stderr, "cryptobench fleet: scontrol update %s %s failed\n", id,
			        nodes);
			rc = -1;
		}
	}
	{
		char *release[] = {"scontrol", "release", (char *)job, NULL};

		if (run_capture(release, line, sizeof line, 0) != 0) {
			fprintf(stderr, "cryptobench fleet: scontrol release %s failed\n", job);
			rc = -1;
		}
	}
	return rc;
}

int cb_fleet_slurm_check(const struct fleet_args *a)
{
	struct node_list l;
	int rc = parse_nodes(a->nodes, &l);

	free(l.buf);
	if (rc != 0)
		return rc;
	if ((a->partition && (!*a->partition || strpbrk(a->partition, "\n \t"))) ||
	    (a->time_limit && (!*a->time_limit || strpbrk(a->time_limit, "\n \t"))))
		return cb_usage_error("fleet", "--partition and --time want one word each");
	return 0;
}

int cb_fleet_slurm(const struct fleet_args *a)
{
	char script[4300], jobfile[4300], job[256] = "";
	struct node_list l;
	FILE *f;
	int rc;

	if ((rc = parse_nodes(a->nodes, &l)) != 0)
		return rc;
	if (a->dry_run) {
		write_script(stdout, a, &l);
		free(l.buf);
		return CB_EXIT_OK;
	}
	snprintf(script, sizeof script, "%s/fleet.sbatch", a->dir);
	if (!(f = fopen(script, "w"))) {
		fprintf(stderr, "%s: cannot create: %s\n", script, strerror(errno));
		free(l.buf);
		return CB_EXIT_USAGE;
	}
	write_script(f, a, &l);
	if (fclose(f) != 0) {
		fprintf(stderr, "%s: cannot write: %s\n", script, strerror(errno));
		free(l.buf);
		return CB_EXIT_USAGE;
	}
	{
		char *submit[] = {"sbatch", "--parsable", l.names[0] ? "--hold" : script,
		                  l.names[0] ? script : NULL, NULL};

		rc = run_capture(submit, job, sizeof job, 0);
	}
	job[strcspn(job, ";")] = '\0'; /* "JOBID;CLUSTER" on a federation */
	if (rc != 0 || !*job) {
		fprintf(stderr, "cryptobench fleet: sbatch %s failed%s\n", script,
		        rc < 0 ? ": no sbatch here (Slurm's client)" : "");
		free(l.buf);
		return CB_EXIT_PROBLEM;
	}
	if (l.names[0] && pin_tasks(job, &l) != 0) {
		fprintf(stderr, "cryptobench fleet: job %s is held; scancel %s to drop it\n", job,
		        job);
		free(l.buf);
		return CB_EXIT_PROBLEM;
	}
	snprintf(jobfile, sizeof jobfile, "%s/fleet.job", a->dir);
	if ((f = fopen(jobfile, "w"))) {
		fprintf(f, "%s %u\n", job, l.n);
		fclose(f);
	}
	fprintf(stderr,
	        "submitted job %s: %u task%s, one per node, into %s/HOST%s (logs in "
	        "%s/logs)\n",
	        job, l.n, l.n > 1 ? "s" : "", a->dir, a->runs > 1 ? "" : ".jsonl", a->dir);
	free(l.buf);
	if (a->wait)
		return cb_fleet_slurm_wait(a->dir);
	fprintf(stderr,
	        "wait, then see which tasks failed: cryptobench fleet wait %s\n"
	        "(or watch it: squeue -j %s)\n",
	        a->dir, job);
	return CB_EXIT_OK;
}

/* Whether the job has tasks pending or running; -1 when squeue cannot run.
 * squeue refuses an id it has forgotten (a while after the job's end): asked
 * three times in a row, that is an end, not a controller's hiccup. */
static int job_active(const char *job, unsigned *refusals)
{
	char line[256];
	char *argv[] = {"squeue", "--noheader", "--jobs", (char *)job, "--format=%i", NULL};
	int rc = run_capture(argv, line, sizeof line, 1);

	if (rc < 0)
		return -1;
	if (rc > 0)
		return ++*refusals < 3;
	*refusals = 0;
	return *line != '\0';
}

int cb_fleet_slurm_wait(const char *dir)
{
	char path[4300], job[128];
	unsigned tasks = 0, failed = 0;
	const char *poll = getenv("CRYPTOBENCH_FLEET_POLL");
	unsigned seconds = poll && atoi(poll) > 0 ? (unsigned)atoi(poll) : 5;
	unsigned refusals = 0;
	int active;
	FILE *f;

	snprintf(path, sizeof path, "%s/fleet.job", dir);
	if (!(f = fopen(path, "r")) || fscanf(f, "%127s %u", job, &tasks) != 2 || !tasks) {
		fprintf(stderr, "%s: not a submitted fleet folder (no job in fleet.job)\n", dir);
		if (f)
			fclose(f);
		return CB_EXIT_USAGE;
	}
	fclose(f);
	while ((active = job_active(job, &refusals)) != 0) {
		if (active < 0) {
			fprintf(stderr, "cryptobench fleet: squeue cannot be run here\n");
			return CB_EXIT_PROBLEM;
		}
		sleep(seconds);
	}
	for (unsigned k = 0; k < tasks; k++) {
		char host[256] = "?", file[4300] = "?";
		int status = -1;

		snprintf(path, sizeof path, "%s/logs/task-%u.status", dir, k);
		if ((f = fopen(path, "r"))) {
			if (fscanf(f, "%d %255s %4299s", &status, host, file) < 1)
				status = -1;
			fclose(f);
		}
		if (status == 0) {
			printf("task %u on %s: %s\n", k, host, file);
			continue;
		}
		failed++;
		if (status < 0)
			printf("task %u: FAILED: killed, cancelled or never started (see "
			       "%s/logs/task-%u.log)\n",
			       k, dir, k);
		else
			printf(
			    "task %u on %s: FAILED with exit status %d (see %s/logs/task-%u.log)\n",
			    k, host, status, dir, k);
	}
	printf("job %s: %u of %u tasks failed", job, failed, tasks);
	if (failed < tasks) /* a --runs fleet's folders per host are read through DIR */
		printf("; cryptobench report %s (compare %s: host against host)", dir, dir);
	putchar('\n');
	return failed ? CB_EXIT_PROBLEM : CB_EXIT_OK;
}
