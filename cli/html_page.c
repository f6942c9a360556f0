/* html_page.c: `report` and `compare` as one web page (html_page.h): the
 * page around the report's HTML (format.h's tables, every text escaped), the
 * answer first, the machines and engines below it, and the charts inline. */
#define _XOPEN_SOURCE 700
#include "config.h"

#include "cli/html_page.h"

#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/report/format.h"
#include "cli/cli.h"
#include "core/base/errbuf.h"
#include "core/base/datadir.h"
#include "core/machine/host_id.h"
#include "plots/plot.h"

/* Verdicts read in grey print too: a symbol and a weight or style beside
 * the colour (format.c gives the classes). */
static const char style[] =
    "body{font:15px/1.45 'DejaVu Sans',sans-serif;margin:1.5em auto;max-width:84em;"
    "padding:0 1em;color:#222}\n"
    "h1{font-size:1.5em}h2{font-size:1.25em;border-bottom:1px solid #ccc}"
    "h3{font-size:1em;font-weight:600;margin-top:1.6em}\n"
    "table{border-collapse:collapse;margin:.4em 0 1em;font-size:13px}\n"
    "th,td{padding:2px 8px;border-bottom:1px solid #e4e4e4;text-align:left;"
    "vertical-align:top}\n"
    "th{background:#f2f2f2;border-bottom:2px solid #999}\n"
    ".r{text-align:right;font-variant-numeric:tabular-nums}\n"
    "tbody tr:nth-child(even){background:#fafafa}\n"
    "td.v-good{background:#dff0df;font-weight:700}td.v-good::before{content:'\\2713\\00a0'}\n"
    "td.v-bad{background:#f8dcdc;font-style:italic}td.v-bad::before{content:'\\2717\\00a0'}\n"
    "td.v-open{background:#fff1c4;text-decoration:underline dotted}"
    "td.v-open::before{content:'?\\00a0'}\n"
    ".machine{background:#f6f6f6;border:1px solid #ddd;padding:.5em 1em;margin:.5em 0}\n"
    ".machine p{margin:.2em 0}\n"
    "figure{margin:1em 0}figure img,details img{max-width:100%;height:auto;"
    "border:1px solid #eee}\n"
    "figcaption{font-size:13px;color:#444}\n"
    "details{margin:.2em 0}summary{cursor:pointer}\n"
    ".caption{font-size:13px;color:#444;margin:.2em 0 .8em}\n";

static void escaped_line(FILE *out, const char *what, const char *value)
{
	fputs("<p><b>", out);
	cb_html_escape(out, what);
	fputs("</b> ", out);
	cb_html_escape(out, value ? value : "-");
	fputs("</p>\n", out);
}

static const char *header_string(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static void machine(FILE *out, const struct cb_results *r)
{
	json_t *host = json_object_get(r->header, "host"), *engines, *e;
	json_t *kernel = json_object_get(host, "kernel");
	char line[1024];
	size_t i;

	fputs("<div class=\"machine\">\n<p><b>results</b> ", out);
	cb_html_escape(out, r->path);
	fputs("</p>\n", out);
	escaped_line(out, "scenario", cb_results_header_string(r, "scenario", "name"));
	snprintf(line, sizeof line, "%s, %lld logical cores%s%s",
	         header_string(host, "cpu") ? header_string(host, "cpu") : "-",
	         cb_results_header_int(r, "host", "logical_cores"),
	         header_string(host, "virtualization") ? ", virtualisation " : "",
	         header_string(host, "virtualization") ? header_string(host, "virtualization")
	                                               : "");
	escaped_line(out, "machine", line);
	snprintf(line, sizeof line, "%s %s %s; %s; %s; host %s",
	         header_string(kernel, "sysname") ? header_string(kernel, "sysname") : "-",
	         header_string(kernel, "release") ? header_string(kernel, "release") : "-",
	         header_string(kernel, "machine") ? header_string(kernel, "machine") : "",
	         header_string(host, "compiler") ? header_string(host, "compiler") : "-",
	         header_string(host, "libc") ? header_string(host, "libc") : "-",
	         cb_host_id_name(host)); /* the name given, else the hostname */
	escaped_line(out, "system", line);
	escaped_line(out, "started", cb_results_header_string(r, NULL, "started"));
	fputs("<p><b>engines</b></p>\n<ul>\n", out);
	engines = json_object_get(r->header, "engines");
	json_array_foreach(engines, i, e)
	{
		fputs("<li>", out);
		cb_html_escape(out, header_string(e, "name"));
		fputs(": ", out);
		cb_html_escape(out,
		               header_string(e, "version") ? header_string(e, "version") : "-");
		fputs("</li>\n", out);
	}
	fputs("</ul>\n</div>\n", out);
}

static void page_begin(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>",
	      out);
	cb_html_escape(out, title);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", style);
	cb_html_escape(out, title);
	fputs("</h1>\n", out);
}

static void page_end(FILE *out)
{
	fputs("</body>\n</html>\n", out);
}

/* FILE's bytes as base64 into OUT (the data: URL of an image). -1 when it
 * cannot be read. */
static int base64_file(FILE *out, const char *path)
{
	static const char digits[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	FILE *f = fopen(path, "rb");
	unsigned char in[3];
	size_t got;

	if (!f)
		return -1;
	while ((got = fread(in, 1, 3, f)) > 0) {
		unsigned v = (unsigned)in[0] << 16 | (got > 1 ? (unsigned)in[1] << 8 : 0) |
		             (got > 2 ? in[2] : 0);

		fputc(digits[v >> 18 & 63], out);
		fputc(digits[v >> 12 & 63], out);
		fputc(got > 1 ? digits[v >> 6 & 63] : '=', out);
		fputc(got > 2 ? digits[v & 63] : '=', out);
	}
	fclose(f);
	return 0;
}

/* FILE's bytes as a data: URL's text in a single-quoted attribute: SVG is
 * text, so only what the URL or the attribute would read otherwise is
 * escaped (base64 would add a third), and the line ends, which a URL drops,
 * are spaces, as XML reads them. -1 when it cannot be read. */
static int percent_file(FILE *out, const char *path)
{
	FILE *f = fopen(path, "rb");
	int ch;

	if (!f)
		return -1;
	while ((ch = fgetc(f)) != EOF) {
		if (ch == '&')
			fputs("&amp;", out);
		else if (ch == '%' || ch == '#' || ch == '\'')
			fprintf(out, "%%%02X", (unsigned)ch);
		else
			fputc(ch < ' ' ? ' ' : ch, out);
	}
	fclose(f);
	return 0;
}

/* The chart's image, inline: SVG as text, PNG (a small timeline) in base64. */
static void image(FILE *out, const struct cb_plot_chart *ch)
{
	size_t len = strlen(ch->image);
	bool png = len > 4 && strcmp(ch->image + len - 4, ".png") == 0;

	fputs("<img alt=\"", out);
	cb_html_escape(out, ch->title);
	if (png) {
		fputs("\" src=\"data:image/png;base64,", out);
		base64_file(out, ch->image);
		fputs("\">\n", out);
	} else {
		fputs("\" src='data:image/svg+xml,", out);
		percent_file(out, ch->image);
		fputs("'>\n", out);
	}
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* The charts of the page, drawn into a folder of their own (removed by
 * charts_end). */
struct cb_cli_html_charts {
	char dir[4096];
	struct cb_plot *plot; /* NULL: none drawn (no gnuplot) */
	bool *placed;         /* per chart: a part put it beside its table */
};

static int charts_draw(struct cb_cli_html_charts *pc, struct cb_results *const *files, size_t n,
                       const struct cb_plot_options *opt, char *err, size_t err_len)
{
	struct cb_plot_options o = *opt;
	const char *tmp = getenv("TMPDIR");

	pc->dir[0] = '\0';
	pc->plot = NULL;
	pc->placed = NULL;
	if (!o.gnuplot)
		return 0;
	snprintf(pc->dir, sizeof pc->dir, "%s/cryptobench-html.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(pc->dir)) {
		cb_errorf(err, err_len, "%s: cannot make a folder for the charts", pc->dir);
		pc->dir[0] = '\0';
		return -1;
	}
	o.format = CB_PLOT_SVG;
	o.small_timelines = true; /* a hundred cells' timelines stay a small page */
	if (cb_plot_write(files, n, pc->dir, &o, &pc->plot, err, err_len) != 0)
		return -1;
	if (!(pc->placed = calloc(pc->plot->n_charts + 1, sizeof *pc->placed))) {
		cb_errorf(err, err_len, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < pc->plot->n_notes; i++)
		fprintf(stderr, "note: %s\n", pc->plot->notes[i]);
	return 0;
}

static void charts_end(struct cb_cli_html_charts *pc)
{
	free(pc->placed);
	cb_plot_free(pc->plot);
	if (pc->dir[0])
		nftw(pc->dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* The answer's charts: throughput against size, per algorithm and op. */
static bool answer_chart(const struct cb_plot_chart *ch)
{
	return strcmp(ch->kind, "size-algorithm") == 0;
}

static void figure(FILE *out, const struct cb_plot_chart *ch)
{
	if (!ch->rendered) {
		fputs("<p>Not drawn: ", out);
		cb_html_escape(out, ch->title);
		fputs(" (", out);
		cb_html_escape(out, ch->error ? ch->error : "gnuplot failed");
		fputs(")</p>\n", out);
		return;
	}
	fputs("<figure>\n", out);
	image(out, ch);
	fputs("<figcaption>", out);
	cb_html_escape(out, ch->title);
	fputs("</figcaption>\n</figure>\n", out);
}

/* The charts the page opens on, after the winners. */
static void answer_charts(FILE *out, const struct cb_cli_html_charts *pc)
{
	for (size_t i = 0; pc->plot && i < pc->plot->n_charts; i++)
		if (answer_chart(&pc->plot->charts[i]))
			figure(out, &pc->plot->charts[i]);
}

void cb_cli_html_figures(FILE *out, struct cb_cli_html_charts *pc, const struct cb_results *r,
                         const char *kind)
{
	for (size_t i = 0; pc->plot && pc->placed && i < pc->plot->n_charts; i++) {
		const struct cb_plot_chart *ch = &pc->plot->charts[i];

		if (ch->run == r && strcmp(ch->kind, kind) == 0) {
			figure(out, ch);
			pc->placed[i] = true;
		}
	}
}

static void timeline(FILE *out, const struct cb_plot_chart *ch)
{
	fputs("<details>\n<summary>", out);
	cb_html_escape(out, ch->title);
	fputs(ch->flagged ? " (FLAGGED)</summary>\n" : "</summary>\n", out);
	if (ch->rendered)
		image(out, ch);
	else {
		fputs("<p>Not drawn: ", out);
		cb_html_escape(out, ch->error ? ch->error : "gnuplot failed");
		fputs("</p>\n", out);
	}
	if (ch->caption) {
		fputs("<p class=\"caption\">", out);
		cb_html_escape(out, ch->caption);
		fputs("</p>\n", out);
	}
	fputs("</details>\n", out);
}

/* The other charts (all of them when WITH_ANSWER is false) but those a
 * part placed, then the timelines, each behind a click. */
static void other_charts(FILE *out, const struct cb_cli_html_charts *pc, bool with_answer)
{
	const struct cb_plot *p = pc->plot;
	size_t timelines = 0;

	if (!p) {
		fputs("<h2>Charts</h2>\n<p>No charts: gnuplot was not found (Debian: apt-get "
		      "install gnuplot-nox).</p>\n",
		      out);
		return;
	}
	fputs("<h2>Charts</h2>\n", out);
	for (size_t i = 0; i < p->n_charts; i++) {
		const struct cb_plot_chart *ch = &p->charts[i];

		if (strcmp(ch->kind, "timeline") == 0)
			timelines++;
		else if ((with_answer || !answer_chart(ch)) && !pc->placed[i])
			figure(out, ch);
	}
	if (!timelines)
		return;
	fprintf(out,
	        "<h2>Timelines</h2>\n<p>Time per call in each round, one per cell (%zu): open a "
	        "cell to see it, its flags under it; a flagged cell says why.</p>\n",
	        timelines);
	for (size_t i = 0; i < p->n_charts; i++)
		if (strcmp(p->charts[i].kind, "timeline") == 0)
			timeline(out, &p->charts[i]);
}

int cb_cli_html_page(const char *cmd, const char *path, const char *title,
                     struct cb_results *const *files, size_t n, cb_cli_html_part answer,
                     cb_cli_html_part body, void *arg)
{
	bool to_file = path && strcmp(path, "-") != 0;
	FILE *out = to_file ? fopen(path, "w") : stdout;
	struct cb_plot_options opt;
	struct cb_cli_html_charts pc;
	char templates[4096], gnuplot[4096], err[1024] = "";
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int status = 0;

	if (!out) {
		fprintf(stderr, "cryptobench %s: %s: %s\n", cmd, path, strerror(errno));
		return CB_EXIT_PROBLEM;
	}
	cb_plot_defaults(&opt, cb_datadir(CB_DATA_PLOTS, templates, sizeof templates));
	opt.jobs = cpus > 4 ? 4 : cpus > 1 ? (unsigned)cpus : 1;
	opt.gnuplot = cb_plot_find_gnuplot(getenv("CRYPTOBENCH_GNUPLOT"), GNUPLOT_PATH, gnuplot,
	                                   sizeof gnuplot);
	page_begin(out, title);
	/* The answer first: who is fastest and its charts; then the machines
	 * and the rest. */
	if (charts_draw(&pc, files, n, &opt, err, sizeof err) != 0)
		status = -1;
	if (status >= 0 && answer) {
		status = answer(out, arg, &pc, err, sizeof err);
		answer_charts(out, &pc);
	}
	if (status >= 0) {
		for (size_t i = 0; i < n; i++)
			machine(out, files[i]);
		status = body(out, arg, &pc, err, sizeof err);
	}
	if (status >= 0)
		other_charts(out, &pc, answer == NULL);
	charts_end(&pc);
	page_end(out);
	if (status < 0) {
		fprintf(stderr, "cryptobench %s: %s\n", cmd, err);
		if (to_file)
			fclose(out);
		return CB_EXIT_USAGE;
	}
	if (to_file) {
		if (ferror(out) | (fclose(out) != 0)) {
			fprintf(stderr, "cryptobench %s: %s: cannot write it\n", cmd, path);
			return CB_EXIT_PROBLEM;
		}
		printf("wrote %s\n", path);
	}
	return CB_EXIT_OK;
}
