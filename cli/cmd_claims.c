/* cmd_claims.c: cryptobench claims — do the data still support what a text
 * says about them? The claims file (core/lua/claims.h) reads data folders
 * through the analysis layer: each run's report and the runs' comparison, as
 * their JSON, so a claim checks exactly what report and compare print: of a
 * --runs auto folder, the runs compare judges (cb_judged_runs). */
#include <errno.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "analysis/verdicts/compare.h"
#include "analysis/report/report.h"
#include "core/base/errbuf.h"
#include "core/lua/claims.h"
#include "core/results/results.h"

static const char claims_help[] =
    "usage: cryptobench claims CLAIMS.lua [--data DIR] [--numbers OUT.tex]\n\n"
    "Check the claims a text makes about measured data. CLAIMS.lua (sandboxed Lua)\n"
    "reads data folders with data \"NAME\" (DIR/NAME: one or more results files of\n"
    "one scenario) and declares:\n\n"
    "  claim { name = N, text = T, check = function() return HOLDS, EVIDENCE end }\n"
    "  number { name = MACRO, value = V, format = \"%.2f\" }\n\n"
    "data \"NAME\" is { name, runs = { one report per run (report --format json),\n"
    "each with its results header as header }, compare = (compare --format json,\n"
    "with two runs or more) }. A folder of 'run --runs auto' (with a plan.log) is\n"
    "read as compare judges it: runs and compare are of its last set of runs (its\n"
    "plan's), the pilot left out, as a line on stderr says. Every claim is printed\n"
    "as held or NOT SUPPORTED with its evidence.\n\n"
    "  --data DIR      the data folders (default: the claims file's folder's data/)\n"
    "  --numbers FILE  write each number as a LaTeX macro, \\newcommand{\\MACRO}{V}\n\n"
    "Exit status: 0 every claim held; 1 some claim is not supported (each named on\n"
    "stderr with its file and line); 2 a bad claims file or data folder (one line).\n";

struct loader {
	const char *dir;
	bool reported; /* the reader printed its own one-line error */
};

static json_t *runs_json(struct cb_analysis *const *as, struct cb_results *const *files, size_t n)
{
	struct cb_report_options ro;
	json_t *runs = json_array();

	cb_report_defaults(&ro);
	for (size_t i = 0; i < n; i++) {
		json_t *j = cb_report_run_json(as[i], &ro);

		json_object_set(j, "header", files[i]->header);
		json_array_append_new(runs, j);
	}
	return runs;
}

/* DIR/NAME as { name, runs, compare }. */
static json_t *load_folder(void *ctx, const char *name, char *err, size_t err_len)
{
	struct loader *l = ctx;
	struct cb_file_list list = {0};
	struct cb_compare *cmp = NULL;
	struct cb_analysis *one = NULL;
	json_t *out = NULL;
	char path[4096];
	struct stat st;
	size_t first, count;

	snprintf(path, sizeof path, "%s/%s", l->dir, name);
	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
		cb_errorf(err, err_len, "no folder %s", path);
		return NULL;
	}
	if (cb_file_list_add(&list, path) != CB_EXIT_OK) {
		l->reported = true;
		cb_errorf(err, err_len, "cannot read %s", path);
		goto done;
	}
	cb_judged_runs("claims", path, list.files, list.n, &first, &count);
	if (count >= 2) {
		struct cb_results *const *judged = list.files + first;

		if (cb_compare_build(judged, count, NULL, &cmp, err, err_len) != 0)
			goto done;
		out = json_pack("{s:s, s:o, s:o}", "name", name, "runs",
		                runs_json(cmp->runs, judged, count), "compare",
		                cb_report_compare_json(cmp));
	} else {
		if (!(one = cb_analysis_build(list.files[0], NULL, NULL, err, err_len)))
			goto done;
		out = json_pack("{s:s, s:o}", "name", name, "runs", runs_json(&one, list.files, 1));
	}
	if (!out)
		cb_errorf(err, err_len, "not enough memory");
done:
	cb_compare_free(cmp);
	cb_analysis_free(one);
	cb_file_list_free(&list);
	return out;
}

/* VALUE with TeX's special characters escaped. */
static void tex_text(FILE *out, const char *value)
{
	for (const char *p = value; *p; p++)
		switch (*p) {
		case '#':
		case '$':
		case '%':
		case '&':
		case '_':
		case '{':
		case '}':
			fprintf(out, "\\%c", *p);
			break;
		case '~':
			fputs("\\textasciitilde{}", out);
			break;
		case '^':
			fputs("\\textasciicircum{}", out);
			break;
		case '\\':
			fputs("\\textbackslash{}", out);
			break;
		default:
			fputc(*p, out);
		}
}

static int write_numbers(const char *path, const char *claims_path, const struct cb_claims *c)
{
	FILE *out = fopen(path, "w");

	if (!out) {
		fprintf(stderr, "%s: cannot write: %s\n", path, strerror(errno));
		return CB_EXIT_USAGE;
	}
	fprintf(out, "%% The numbers of %s, written by cryptobench claims: do not edit.\n",
	        claims_path);
	for (size_t i = 0; i < c->n_numbers; i++) {
		fprintf(out, "\\newcommand{\\%s}{", c->numbers[i].name);
		tex_text(out, c->numbers[i].value);
		fputs("}\n", out);
	}
	if (fclose(out) != 0) {
		fprintf(stderr, "%s: cannot write: %s\n", path, strerror(errno));
		return CB_EXIT_USAGE;
	}
	return CB_EXIT_OK;
}

static void print_claims(const struct cb_claims *c)
{
	size_t held = 0;

	for (size_t i = 0; i < c->n; i++) {
		const struct cb_claim *x = &c->claims[i];

		held += x->held;
		printf("%-14s %s: %s\n", x->held ? "held" : "NOT SUPPORTED", x->name, x->text);
		if (x->evidence[0])
			printf("%-14s %s\n", "", x->evidence);
	}
	printf("%zu claims: %zu held, %zu not supported\n", c->n, held, c->n - held);
	for (size_t i = 0; i < c->n; i++)
		if (!c->claims[i].held)
			fprintf(stderr, "%s: claim '%s' is not supported by the data%s%s\n",
			        c->claims[i].where, c->claims[i].name,
			        c->claims[i].evidence[0] ? ": " : "", c->claims[i].evidence);
}

struct claims_args {
	const char *path, *data, *numbers;
};

static int set_path(void *args, const char *arg)
{
	struct claims_args *a = args;

	if (a->path)
		return cb_usage_error("claims", "one claims file only ('%s' and '%s')", a->path,
		                      arg);
	a->path = arg;
	return CB_EXIT_OK;
}

static const struct cb_cli_option claims_options[] = {
    CB_OPTION_STRING("--data", NULL, struct claims_args, data),
    CB_OPTION_STRING("--numbers", NULL, struct claims_args, numbers),
    CB_OPTION_END,
};

int cb_cmd_claims(int argc, char **argv)
{
	struct claims_args a = {0};
	struct loader loader = {0};
	struct cb_claims_source source = {.load = load_folder, .ctx = &loader};
	struct cb_claims *c;
	char err[2048], *copy = NULL;
	int rc = cb_options_parse("claims", claims_options, argc, argv, &a, set_path);
	const char *path = a.path, *data = a.data, *numbers = a.numbers;

	if (rc == CB_OPTIONS_HELP) {
		fputs(claims_help, stdout);
		return CB_EXIT_OK;
	}
	if (rc != CB_EXIT_OK)
		return rc;
	if (!path)
		return cb_usage_error("claims", "which claims file?");
	if ((data && !data[0]) || (numbers && !numbers[0]))
		return cb_usage_error("claims", "--data and --numbers want a path");
	if (!data) {
		static char dir[4096];

		if (!(copy = strdup(path)))
			return cb_usage_error("claims", "out of memory");
		snprintf(dir, sizeof dir, "%s/data", dirname(copy));
		data = dir;
	}
	loader.dir = data;
	if (!(c = cb_claims_run(path, &source, err, sizeof err))) {
		if (!loader.reported)
			fprintf(stderr, "%s\n", err);
		free(copy);
		return CB_EXIT_USAGE;
	}
	print_claims(c);
	if (numbers)
		rc = write_numbers(numbers, path, c);
	for (size_t i = 0; rc == CB_EXIT_OK && i < c->n; i++)
		if (!c->claims[i].held)
			rc = CB_EXIT_PROBLEM;
	cb_claims_free(c);
	free(copy);
	return cb_stdout_check("claims", rc);
}
