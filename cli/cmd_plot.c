/* cmd_plot.c: cryptobench plot — charts of results files, drawn by gnuplot. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "core/base/datadir.h"
#include "plots/plot.h"
#include "core/results/results.h"

#ifndef GNUPLOT_PATH
#define GNUPLOT_PATH ""
#endif

static const char plot_help[] =
    "usage: cryptobench plot FILE|FOLDER... -o DIR [--format png|pdf|svg]\n"
    "                        [--statistic S] [--timelines all|flagged|none]\n\n"
    "Draw the charts of results files with gnuplot. For each chart DIR gets\n"
    "NAME.dat (the numbers, from the same analysis as 'report' and 'compare'),\n"
    "NAME.gp (its render script: 'gnuplot NAME.gp' draws it again) and the image;\n"
    "the templates are copied to DIR/templates/ and DIR/render.sh redraws all.\n\n"
    "Charts of each run:\n"
    "  size-algorithm-ALG-OP    throughput against payload size, a line per engine\n"
    "  size-engine-ENGINE       the same per engine, a line per algorithm\n"
    "  ratio-NAME               a derived ratio per engine, its expectation drawn\n"
    "  encrypt-decrypt-ENGINE   encrypt against decrypt throughput\n"
    "  threads-ALG-OP-SIZE      speedup with threads, against the ideal line\n"
    "  extensions-ALG-OP-SIZE   which code ran (files of run --explain): a bar per\n"
    "                           engine, the share of its samples by the instruction-\n"
    "                           set class where the time stops\n"
    "  timeline/CELL            time per call in each round: drift, contamination\n"
    "Across runs (several files of one scenario, or a folder of runs):\n"
    "  forest-NAME, forest-cells-ALG-OP\n"
    "                           each run's estimate and interval, and the across-\n"
    "                           run value with the reproducibility verdict\n"
    "Across hosts (files whose headers name several hosts; the first file's host\n"
    "is the baseline):\n"
    "  hosts-ENGINE             per algorithm, op and size each host's speed\n"
    "                           relative to the baseline host, with intervals, the\n"
    "                           delta band and the verdicts, as 'compare' gives them\n"
    "                           (each host's runs pooled); a host's forest plots\n"
    "                           and runs' charts go to DIR/host-HOST/\n"
    "With several files each run's charts go to DIR/RUN/; with several thread\n"
    "counts names get a -1thread, -2threads suffix.\n\n"
    "  -o DIR            the output folder (created)\n"
    "  --format F        png (default), pdf, svg\n"
    "  --statistic S     the throughput drawn (default auto: the report's headline,\n"
    "                    a cell where it is the minimum time marked), one of:\n"
    "%s"
    "  --timelines T     timelines of all cells (default), flagged cells, or none\n\n"
    "gnuplot is CRYPTOBENCH_GNUPLOT when set, else the one configure found, else\n"
    "the one on PATH. Without it the data and scripts are still written, and the\n"
    "output says how to draw them. Exit status: 0, 1 when gnuplot failed on some\n"
    "chart, 2 bad input (flags, files).\n";

/* The usage, with the statistics of cb_statistics[]. */
static void plot_usage(void)
{
	char *lines = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&lines, &len);

	if (m) {
		cb_print_statistics(m, "                      ");
		fclose(m);
	}
	printf(plot_help, lines ? lines : "");
	free(lines);
}

/* Flagged timelines are named when few; else a grep finds them. */
#define FLAGGED_LISTED 8

/* One line per folder of KIND's charts: DIR/timeline/\*.png (N). */
static void list_folders(const struct cb_plot *p, const char *kind, const char *ext)
{
	for (size_t i = 0; i < p->n_charts; i++) {
		const struct cb_plot_chart *c = &p->charts[i];
		const char *slash = strrchr(c->image, '/');
		int dir_len = slash ? (int)(slash - c->image) : 0;
		size_t n = 0;
		bool seen = false;

		if (strcmp(c->kind, kind) != 0)
			continue;
		for (size_t j = 0; j < p->n_charts; j++) {
			const struct cb_plot_chart *d = &p->charts[j];
			bool same = strcmp(d->kind, kind) == 0 &&
			            strncmp(d->image, c->image, (size_t)dir_len + 1) == 0 &&
			            !strchr(d->image + dir_len + 1, '/');

			seen |= same && j < i;
			n += same;
		}
		if (!seen)
			printf("  %.*s/*%s (%zu)\n", dir_len, c->image, ext, n);
	}
}

/* The charts of KIND: each by name, or (one per cell) by folder with the
 * flagged ones, which are named when few. A per-cell kind's charts are in a
 * folder named after it (timeline/). */
static void list_kind(const struct cb_plot *p, const struct cb_plot_kind *kind, const char *ext)
{
	size_t n = 0, flagged = 0;

	for (size_t i = 0; i < p->n_charts; i++)
		if (strcmp(p->charts[i].kind, kind->name) == 0) {
			n++;
			flagged += p->charts[i].flagged;
		}
	if (n == 0)
		return;
	if (!kind->per_cell) {
		printf("%s (%zu):\n", kind->what, n);
		for (size_t i = 0; i < p->n_charts; i++)
			if (strcmp(p->charts[i].kind, kind->name) == 0)
				printf("  %s\n",
				       p->gnuplot_ran ? p->charts[i].image : p->charts[i].script);
		return;
	}
	printf("%s (%zu, %zu flagged for contamination, drift or lag-1):\n", kind->what, n,
	       flagged);
	list_folders(p, kind->name, ext);
	for (size_t i = 0; flagged <= FLAGGED_LISTED && i < p->n_charts; i++)
		if (p->charts[i].flagged && strcmp(p->charts[i].kind, kind->name) == 0)
			printf("  flagged: %s\n",
			       p->gnuplot_ran ? p->charts[i].image : p->charts[i].script);
	if (flagged > FLAGGED_LISTED) {
		size_t len = strlen(kind->name);
		const char *first = p->charts[0].name;
		bool in_runs = strchr(first, '/') &&
		               !(strncmp(first, kind->name, len) == 0 && first[len] == '/');

		printf("  flagged: grep -l FLAGGED %s/%s%s/*.gp\n", p->dir, in_runs ? "*/" : "",
		       kind->name);
	}
}

/* The kinds with one chart per cell first: the charts that sum a run up
 * should end the output. Then the others in the table's order. */
static void list_charts(const struct cb_plot *p)
{
	const char *ext = p->gnuplot_ran && p->n_charts ? strrchr(p->charts[0].image, '.') : ".gp";

	for (int per_cell = 1; per_cell >= 0; per_cell--)
		for (size_t k = 0; k < cb_plot_n_kinds; k++)
			if (cb_plot_kinds[k].per_cell == per_cell)
				list_kind(p, &cb_plot_kinds[k], ext);
}

struct plot_args {
	struct cb_plot_options options;
	struct cb_file_list list;
	const char *dir;
};

static int set_dir(void *args, const char *v)
{
	((struct plot_args *)args)->dir = v;
	return *v ? CB_EXIT_OK : cb_usage_error("plot", "-o wants a folder");
}

static int set_format(void *args, const char *v)
{
	static const char *const names[] = {"png", "pdf", "svg", NULL};
	struct plot_args *a = args;
	int f = cb_plot_format_parse(v), unused;

	a->options.format = (enum cb_plot_format)f;
	return f < 0 ? cb_choice_option("plot", "format", v, names, &unused) : CB_EXIT_OK;
}

static int set_statistic(void *args, const char *v)
{
	struct plot_args *a = args;
	int s;
	int rc = cb_statistic_option("plot", v, &s);

	a->options.statistic = (enum cb_statistic)s;
	return rc;
}

static int set_timelines(void *args, const char *v)
{
	struct plot_args *a = args;
	int t = cb_plot_timelines_parse(v);

	a->options.timelines = (enum cb_plot_timelines)t;
	if (t < 0)
		return cb_usage_error("plot", "--timelines takes all, flagged or none, not '%s'",
		                      v);
	return CB_EXIT_OK;
}

static int add_file(void *args, const char *path)
{
	return cb_file_list_add(&((struct plot_args *)args)->list, path);
}

static const struct cb_cli_option plot_options[] = {
    CB_OPTION_CALL("--output", "-o", set_dir),
    CB_OPTION_CALL("--format", NULL, set_format),
    CB_OPTION_CALL("--statistic", NULL, set_statistic),
    CB_OPTION_CALL("--timelines", NULL, set_timelines),
    CB_OPTION_END,
};

/* What was drawn (or written for drawing later), and how to draw it again. */
static int say_charts(const struct cb_plot *plot, const struct plot_args *a, const char *env)
{
	const char *dir = a->dir;
	int rc = CB_EXIT_OK;

	for (size_t i = 0; i < plot->n_notes; i++)
		fprintf(stderr, "note: %s\n", plot->notes[i]);
	if (plot->n_charts == 0) {
		printf("no chart to draw: the files have no cell with a valid measured trial\n");
		return CB_EXIT_OK;
	}
	if (plot->gnuplot_ran)
		printf("%zu charts in %s/ (%s, drawn by %s):\n", plot->n_charts - plot->failed, dir,
		       cb_plot_format_name(a->options.format), a->options.gnuplot);
	else
		printf(
		    "gnuplot not found%s%s%s: wrote the data and render scripts of %zu charts in "
		    "%s/\n",
		    env ? " (CRYPTOBENCH_GNUPLOT=" : "", env ? env : "", env ? ")" : "",
		    plot->n_charts, dir);
	list_charts(plot);
	for (size_t i = 0; i < plot->n_charts; i++)
		if (plot->charts[i].error)
			fprintf(stderr, "%s: gnuplot failed: %s\n", plot->charts[i].script,
			        plot->charts[i].error);
	if (!plot->gnuplot_ran)
		printf("To draw them, install gnuplot 5.4 or later (Debian: apt-get install "
		       "gnuplot-nox),\n"
		       "then run:  sh %s\n"
		       "or draw one chart:  gnuplot %s\n",
		       plot->render_all, plot->charts[0].script);
	else
		printf(
		    "Redraw after editing a .dat or .gp: sh %s (all), or gnuplot NAME.gp (one).\n",
		    plot->render_all);
	if (plot->failed) {
		fprintf(stderr, "cryptobench plot: gnuplot failed on %zu of %zu charts\n",
		        plot->failed, plot->n_charts);
		rc = CB_EXIT_PROBLEM;
	}
	return rc;
}

int cb_cmd_plot(int argc, char **argv)
{
	struct plot_args a = {0};
	struct cb_plot *plot = NULL;
	const char *env = getenv("CRYPTOBENCH_GNUPLOT");
	char templates[4096], gnuplot[4096], err[1024];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int rc;

	cb_plot_defaults(&a.options, cb_datadir(CB_DATA_PLOTS, templates, sizeof templates));
	a.options.jobs = cpus > 4 ? 4 : cpus > 1 ? (unsigned)cpus : 1;
	rc = cb_options_parse("plot", plot_options, argc, argv, &a, add_file);
	if (rc == CB_OPTIONS_HELP) {
		plot_usage();
		rc = CB_EXIT_OK;
		goto done;
	}
	if (rc != CB_EXIT_OK)
		goto done;
	if (a.list.n == 0) {
		rc =
		    cb_usage_error("plot", "no results file given (see 'cryptobench plot --help')");
		goto done;
	}
	if (!a.dir) {
		rc = cb_usage_error("plot", "-o DIR is required: the folder for the charts");
		goto done;
	}
	a.options.gnuplot = cb_plot_find_gnuplot(env, GNUPLOT_PATH, gnuplot, sizeof gnuplot);
	if (cb_plot_write(a.list.files, a.list.n, a.dir, &a.options, &plot, err, sizeof err) != 0) {
		fprintf(stderr, "cryptobench plot: %s\n", err);
		rc = CB_EXIT_USAGE;
		goto done;
	}
	rc = cb_stdout_check("plot", say_charts(plot, &a, env));
done:
	cb_plot_free(plot);
	cb_file_list_free(&a.list);
	return rc;
}
