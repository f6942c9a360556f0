/* cli.c: helpers the subcommands share. */
#include "cli/cli.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/report/format.h"
#include "analysis/stats/summary.h"
#include "analysis/verdicts/judged_set.h"
#include "analysis/verdicts/plan_runs.h"
#include "core/measure/budget.h"
#include "core/base/datadir.h"
#include "core/engine/engine.h"
#include "core/base/errbuf.h"
#include "core/engine/extern.h"
#include "core/builds/libbuild.h"
#include "core/results/results.h"
#include "core/base/units.h"

int cb_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "cryptobench %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see 'cryptobench %s --help')\n", cmd);
	return CB_EXIT_USAGE;
}

int cb_fault_env_check(const char *cmd)
{
	struct cb_fault fault;
	char err[512];

	if (cb_fault_from_env(&fault, err, sizeof err) == 0)
		return CB_EXIT_OK;
	fprintf(stderr, "cryptobench %s: %s\n", cmd, err);
	return CB_EXIT_USAGE;
}

const char *cb_statistic_choices(const char *sep, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < CB_N_STATISTICS && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? sep : "",
		                         cb_statistics[i].name);
	return buf;
}

void cb_print_statistics(FILE *out, const char *indent)
{
	for (int i = 0; i < CB_N_STATISTICS; i++)
		fprintf(out, "%s%-8s %s\n", indent, cb_statistics[i].name, cb_statistics[i].chart);
}

int cb_choice_option(const char *cmd, const char *what, const char *v, const char *const *names,
                     int *out)
{
	char choices[256];

	for (int i = 0; names[i]; i++)
		if (strcmp(v, names[i]) == 0) {
			*out = i;
			return CB_EXIT_OK;
		}
	return cb_usage_error(cmd, "unknown %s '%s' (%s)", what, v,
	                      cb_table_choices(names, choices, sizeof choices));
}

int cb_report_format_option(const char *cmd, const char *v, int *out)
{
	static const char *const names[] = {"text", "markdown", "csv", "json", "html", NULL};
	int f = cb_format_parse(v);

	if (f < 0)
		return cb_choice_option(cmd, "format", v, names, out);
	*out = f;
	return CB_EXIT_OK;
}

int cb_statistic_option(const char *cmd, const char *v, int *out)
{
	char stats[128];
	int s = cb_statistic_parse(v);

	if (s < 0)
		return cb_usage_error(cmd, "unknown statistic '%s' (%s)", v,
		                      cb_statistic_choices(", ", stats, sizeof stats));
	*out = s;
	return CB_EXIT_OK;
}

int cb_stdout_check(const char *cmd, int rc)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	fprintf(stderr, "cryptobench %s: cannot write the output: %s\n", cmd,
	        errno ? strerror(errno) : "write error");
	return CB_EXIT_PROBLEM;
}

const char *cb_table_choices(const char *const *tables, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; tables[i] && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", tables[i]);
	return buf;
}

int cb_is_help(const char *arg)
{
	return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

static int add_file(struct cb_file_list *l, const char *path)
{
	char err[1024];
	struct cb_results *r;

	if (l->n == l->cap) {
		size_t more = l->cap ? 2 * l->cap : 8;
		struct cb_results **grown = realloc(l->files, more * sizeof *grown);

		if (!grown) {
			fprintf(stderr, "%s: out of memory\n", path);
			return CB_EXIT_USAGE;
		}
		l->files = grown;
		l->cap = more;
	}
	if (!(r = cb_results_read(path, err, sizeof err))) {
		fprintf(stderr, "%s\n", err);
		return CB_EXIT_USAGE;
	}
	if (r->torn_line)
		fprintf(stderr,
		        "%s:%zu: warning: the last line is cut short (the run was killed while "
		        "writing it); skipped\n",
		        path, r->torn_line);
	l->files[l->n++] = r;
	return CB_EXIT_OK;
}

static int jsonl_only(const struct dirent *d)
{
	return cb_results_file_name(d->d_name);
}

static int not_hidden(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

struct paths {
	char **v;
	long n;
	size_t cap;
};

/* DIR's results files, in version order, appended to P. Their count, -1
 * when DIR cannot be read or memory runs out (errno says which). */
static long append_results(struct paths *p, const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, jsonl_only, versionsort);
	long added = 0;

	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		char **grown = p->v;
		char *path = NULL;

		if ((size_t)p->n == p->cap &&
		    (grown = realloc(p->v, (p->cap * 2 + 8) * sizeof *grown)) != NULL) {
			p->v = grown;
			p->cap = p->cap * 2 + 8;
		}
		if (!grown || asprintf(&path, "%s/%s", dir, names[i]->d_name) < 0) {
			added = -1;
			errno = ENOMEM;
		} else if (added >= 0) {
			p->v[p->n++] = path;
			added++;
		} else {
			free(path);
		}
		free(names[i]);
	}
	free(names);
	return added;
}

void cb_folder_paths_free(char **paths, long n)
{
	for (long i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

long cb_folder_results(const char *dir, char ***out, char *err, size_t err_len)
{
	struct paths p = {0};
	struct dirent **subs;
	long n = append_results(&p, dir);
	int k;

	*out = NULL;
	if (n < 0) {
		cb_folder_paths_free(p.v, p.n);
		return cb_errorf(err, err_len, "%s: cannot read folder: %s", dir, strerror(errno));
	}
	/* None of its own: one folder of them per host (a fleet's --runs
	 * layout, DIR/HOST/run-N.jsonl); subfolders without any (logs/) are
	 * passed over. */
	if (n == 0 && (k = scandir(dir, &subs, not_hidden, versionsort)) >= 0) {
		for (int i = 0; i < k; i++) {
			struct stat st;
			char *sub = NULL;

			if (n >= 0 && asprintf(&sub, "%s/%s", dir, subs[i]->d_name) >= 0 &&
			    stat(sub, &st) == 0 && S_ISDIR(st.st_mode)) {
				long m = append_results(&p, sub);

				n = m < 0 ? m : n + m;
			}
			free(sub);
			free(subs[i]);
		}
		free(subs);
		if (n < 0) {
			cb_folder_paths_free(p.v, p.n);
			return cb_errorf(err, err_len, "%s: cannot read its folders: %s", dir,
			                 strerror(errno));
		}
	}
	if (n == 0) {
		cb_folder_paths_free(p.v, p.n);
		return cb_errorf(err, err_len,
		                 "%s: no results files (" CB_RESULTS_FILE_NAMES
		                 ") in this folder or in its folders",
		                 dir);
	}
	*out = p.v;
	return p.n;
}

static int add_folder(struct cb_file_list *l, const char *dir)
{
	char **paths, err[1024];
	long n = cb_folder_results(dir, &paths, err, sizeof err);
	int rc = CB_EXIT_OK;

	if (n < 0) {
		fprintf(stderr, "%s\n", err);
		return CB_EXIT_USAGE;
	}
	for (long i = 0; i < n && rc == CB_EXIT_OK; i++)
		rc = add_file(l, paths[i]);
	cb_folder_paths_free(paths, n);
	return rc;
}

int cb_file_list_add(struct cb_file_list *l, const char *path)
{
	struct stat st;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return add_folder(l, path);
	return add_file(l, path);
}

void cb_file_list_free(struct cb_file_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		cb_results_free(l->files[i]);
	free(l->files);
	l->files = NULL;
	l->n = l->cap = 0;
}

/* File R's measured rounds. */
static size_t rounds_of(struct cb_results *r)
{
	size_t rounds = 0;

	cb_plan_current_set(&r, 1, &rounds);
	return rounds;
}

bool cb_judged_runs(const char *cmd, const char *folder, struct cb_results *const *files, size_t n,
                    size_t *first, size_t *count)
{
	struct cb_judged_set set;
	char log[4200];

	*first = 0, *count = n;
	if (!folder || snprintf(log, sizeof log, "%s/plan.log", folder) >= (int)sizeof log ||
	    access(log, F_OK) != 0 || !cb_judged_set(files, n, &set))
		return false;
	*first = set.first, *count = set.end - set.first;
	fprintf(stderr,
	        "%s: %s is a --runs auto folder (plan.log): judging its %s %zu runs of %zu "
	        "rounds (runs %zu to %zu)",
	        cmd, folder, set.end == n ? "last" : "latest complete set of", *count, set.rounds,
	        set.first + 1, set.end);
	if (set.first)
		fprintf(stderr, "; runs 1 to %zu before them were the pilot%s", set.first,
		        set.first > 2 ? " and sets of other rounds" : "");
	if (set.end < n)
		fprintf(stderr,
		        "; left out after them: %zu run(s) of %zu rounds, a set that was not "
		        "completed",
		        n - set.end, rounds_of(files[n - 1]));
	fprintf(stderr, "\n");
	return true;
}

void cb_shell_word(FILE *out, const char *arg)
{
	if (*arg && strspn(arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	                        "._-,=/:+@%") == strlen(arg)) {
		fputs(arg, out);
		return;
	}
	fputc('\'', out);
	for (const char *p = arg; *p; p++)
		if (*p == '\'')
			fputs("'\\''", out);
		else
			fputc(*p, out);
	fputc('\'', out);
}

int cb_budget_option(const char *cmd, const char *value, double *seconds)
{
	double parsed;

	if (cb_budget_parse(value, &parsed) != 0 || parsed < CB_BUDGET_MIN_S)
		return cb_usage_error(cmd,
		                      "--budget wants a duration of at least 1s like 3m, 90s or "
		                      "1h30m (units: %s), not '%s'",
		                      CB_SPAN_UNITS, value);
	*seconds = parsed;
	return CB_EXIT_OK;
}

int cb_lib_option(const char *cmd, const char *value, const char **build)
{
	const char *eq = strchr(value, '=');
	const struct cb_engine *base, *e;
	char engine[64], name[4200], vectors[4096], err[4200];

	if (!eq || eq == value || (size_t)(eq - value) >= sizeof engine || !eq[1])
		return cb_usage_error(cmd, "--lib %s: expected ENGINE=FILE", value);
	snprintf(engine, sizeof engine, "%.*s", (int)(eq - value), value);
	if (!(base = cb_engine_find(engine)))
		return cb_usage_error(cmd, "--lib %s: no engine '%s'", value, engine);
	snprintf(name, sizeof name, "%s@%s", engine, eq + 1);
	e = cb_libbuild_open(base, eq + 1, NULL, name,
	                     cb_datadir(CB_DATA_VECTORS, vectors, sizeof vectors), err, sizeof err);
	if (!e)
		return cb_usage_error(cmd, "--lib %s", err);
	if (build)
		*build = e->name;
	return CB_EXIT_OK;
}

int cb_allow_external_option(const char *cmd, const char *value)
{
	char err[4200];

	if (cb_extern_allow(value, err, sizeof err) != 0)
		return cb_usage_error(cmd, "%s", err);
	return CB_EXIT_OK;
}
