/* plot_render.c: find gnuplot and run the render scripts, a few at a time.
 *
 * Each chart is drawn by its own gnuplot process running the chart's script
 * in the chart's folder: exactly what a user re-running it does, and an error
 * in one chart (gnuplot stops at the first) cannot take the others down. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "plots/plot.h"
#include "plots/plot_internal.h"

static bool executable(const char *path)
{
	struct stat st;

	return path && *path && stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	       access(path, X_OK) == 0;
}

/* PATH as an absolute name in BUF: gnuplot runs in the charts' folders. */
static const char *absolute(const char *path, char *buf, size_t len)
{
	char real[PATH_MAX];

	snprintf(buf, len, "%s", realpath(path, real) ? real : path);
	return buf;
}

const char *cb_plot_find_gnuplot(const char *env_value, const char *configured, char *buf,
                                 size_t len)
{
	const char *path = getenv("PATH");

	if (env_value)
		return executable(env_value) ? absolute(env_value, buf, len) : NULL;
	if (executable(configured)) {
		snprintf(buf, len, "%s", configured);
		return buf;
	}
	while (path && *path) {
		size_t n = strcspn(path, ":");
		char cand[4096];

		snprintf(cand, sizeof cand, "%.*s/gnuplot", (int)(n ? n : 1), n ? path : ".");
		if (executable(cand))
			return absolute(cand, buf, len);
		path += n + (path[n] == ':');
	}
	return NULL;
}

struct job {
	pid_t pid;
	size_t chart;
	FILE *log; /* the process's stderr */
};

static bool start(struct job *j, const char *gnuplot, struct cb_plot_chart *chart)
{
	char dir[4096], file[4096];

	snprintf(dir, sizeof dir, "%s", chart->script);
	snprintf(file, sizeof file, "%s", chart->script);
	if (!(j->log = tmpfile()))
		return false;
	fflush(NULL);
	j->pid = fork();
	if (j->pid < 0) {
		fclose(j->log);
		return false;
	}
	if (j->pid == 0) {
		if (chdir(dirname(dir)) != 0)
			_exit(126);
		int devnull = open("/dev/null", O_RDWR);

		if (devnull >= 0) {
			dup2(devnull, STDIN_FILENO);
			dup2(devnull, STDOUT_FILENO);
		}
		dup2(fileno(j->log), STDERR_FILENO);
		execl(gnuplot, "gnuplot", basename(file), (char *)NULL);
		fprintf(stderr, "cannot run %s: %s\n", gnuplot, strerror(errno));
		_exit(127);
	}
	return true;
}

/* Gnuplot's complaint: the line naming the file and line, with the message
 * (it echoes the command and a caret first), else the exit status. */
static char *failure(FILE *log, int status)
{
	char line[512], first[512] = "", msg[600];

	rewind(log);
	while (fgets(line, sizeof line, log)) {
		line[strcspn(line, "\n")] = '\0';
		if (strstr(line, "\" line ") ||
		    strncmp(line + strspn(line, " \t"), "line ", 5) == 0) {
			snprintf(first, sizeof first, "%s", line + strspn(line, " \t"));
			break;
		}
		if (!first[0] && line[strspn(line, " \t^")] != '\0')
			snprintf(first, sizeof first, "%s", line + strspn(line, " \t"));
	}
	if (first[0])
		snprintf(msg, sizeof msg, "%s", first);
	else if (WIFEXITED(status))
		snprintf(msg, sizeof msg, "gnuplot exited with status %d", WEXITSTATUS(status));
	else
		snprintf(msg, sizeof msg, "gnuplot was killed by signal %d", WTERMSIG(status));
	return strdup(msg);
}

static void finish(struct cb_plot *p, struct job *j, int status)
{
	struct cb_plot_chart *chart = &p->charts[j->chart];
	struct stat st;

	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && stat(chart->image, &st) == 0 &&
	    st.st_size > 0)
		chart->rendered = true;
	else {
		chart->error = failure(j->log, status);
		p->failed++;
	}
	fclose(j->log);
	j->pid = 0;
}

void cb_plot_render(struct cb_plot *p, const char *gnuplot, unsigned jobs)
{
	struct job *run = calloc(jobs, sizeof *run);
	size_t next = 0, busy = 0;

	if (!run) {
		p->failed = p->n_charts;
		return;
	}
	while (next < p->n_charts || busy > 0) {
		while (busy < jobs && next < p->n_charts) {
			struct job *j = NULL;

			for (unsigned i = 0; i < jobs && !j; i++)
				if (run[i].pid == 0)
					j = &run[i];
			j->chart = next;
			/* An image left from an earlier run must not pass for this one. */
			unlink(p->charts[next].image);
			if (start(j, gnuplot, &p->charts[next]))
				busy++;
			else {
				p->charts[next].error = strdup("cannot start gnuplot");
				p->failed++;
				j->pid = 0;
			}
			next++;
		}
		if (busy == 0)
			continue;
		/* Only our own children: the caller may have others. */
		bool reaped = false;

		for (unsigned i = 0; i < jobs; i++) {
			int status;

			if (run[i].pid <= 0)
				continue;
			pid_t pid = waitpid(run[i].pid, &status, WNOHANG);

			if (pid == run[i].pid || (pid < 0 && errno != EINTR)) {
				finish(p, &run[i], pid < 0 ? 127 << 8 : status);
				busy--;
				reaped = true;
			}
		}
		if (!reaped)
			nanosleep(&(struct timespec){0, 5000000}, NULL);
	}
	free(run);
}
