/* plot_files.c: what every chart writer uses to write a chart: its data
 * file, its render script calling its kind's template, the chart's entry in
 * the plot, notes and errors. The writers (plot_charts.c, plot_ratio.c,
 * plot_timeline.c, plot_forest.c) call these; these call no writer. */
#include <errno.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "plots/plot.h"
#include "plots/plot_internal.h"

#include "core/base/errbuf.h"

static const char *const format_names[] = {"png", "pdf", "svg"};

int cb_plot_format_parse(const char *name)
{
	for (int i = 0; i < 3; i++)
		if (strcmp(name, format_names[i]) == 0)
			return i;
	return -1;
}

const char *cb_plot_format_name(enum cb_plot_format f)
{
	return format_names[f];
}

void plot_err(struct plot_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cb_verrorf(c->err, c->err_len, fmt, ap);
	va_end(ap);
}

int plot_note(struct plot_ctx *c, const char *fmt, ...)
{
	struct cb_plot *p = c->plot;
	char buf[1024], **grown;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (!(grown = realloc(p->notes, (p->n_notes + 1) * sizeof *grown)) ||
	    !((p->notes = grown)[p->n_notes] = strdup(buf))) {
		plot_err(c, "out of memory");
		return -1;
	}
	p->n_notes++;
	return 0;
}

int plot_mkdir_p(const char *path, char *err, size_t err_len)
{
	char buf[4096];
	size_t len = strlen(path);

	if (len >= sizeof buf) {
		cb_errorf(err, err_len, "%s: path too long", path);
		return -1;
	}
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
			cb_errorf(err, err_len, "%s: cannot create folder: %s", buf,
			          strerror(errno));
			return -1;
		}
		*p = '/';
	}
	if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
		cb_errorf(err, err_len, "%s: cannot create folder: %s", buf, strerror(errno));
		return -1;
	}
	return 0;
}

/* DIR/SUB/NAME + EXT into BUF. */
static void chart_path(const struct plot_ctx *c, const char *name, const char *ext, char *buf,
                       size_t len)
{
	plot_fmt(buf, len, "%s/%s%s%s", c->plot->dir, c->sub, name, ext);
}

FILE *plot_data_open(struct plot_ctx *c, const char *name, const char *what)
{
	char path[4096], dir[4096];
	FILE *f;

	chart_path(c, name, ".dat", path, sizeof path);
	snprintf(dir, sizeof dir, "%s", path);
	if (plot_mkdir_p(dirname(dir), c->err, c->err_len) != 0)
		return NULL;
	if (!(f = fopen(path, "w"))) {
		plot_err(c, "%s: cannot write: %s", path, strerror(errno));
		return NULL;
	}
	fprintf(f,
	        "# %s\n# from %s\n# gnuplot data: lines starting with # are comments; blocks are\n"
	        "# separated by two blank lines (gnuplot's 'index').\n",
	        what, c->source);
	return f;
}

void plot_fmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

void plot_block(FILE *f, size_t *n, const char *title)
{
	if (*n > 0)
		fputs("\n\n", f);
	fputc('"', f);
	for (const char *s = title; *s; s++)
		fputc(*s == '"' ? '\'' : *s, f);
	fputs("\"\n", f);
	(*n)++;
}

void plot_num(FILE *f, double v)
{
	if (v != v)
		fputs(" NaN", f);
	else
		fprintf(f, " %.6g", v);
}

/* S as a gnuplot single-quoted string (a quote is doubled). */
static void gp_quoted(FILE *f, const char *s)
{
	fputs(" '", f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
	fputc('\'', f);
}

static char *dup_path(const struct plot_ctx *c, const char *name, const char *ext)
{
	char buf[4096];

	chart_path(c, name, ext, buf, sizeof buf);
	return strdup(buf);
}

/* The entry of the kind named KIND in the context's table. */
static const struct cb_plot_kind *kind_named(const struct plot_ctx *c, const char *kind)
{
	for (size_t i = 0; i < c->n_kinds; i++)
		if (strcmp(c->kinds[i].name, kind) == 0)
			return &c->kinds[i];
	return NULL;
}

int plot_chart_add(struct plot_ctx *c, FILE *f, const char *kind_name, const char *name,
                   const char *title, const char *subtitle, const char *const *extra,
                   size_t n_extra, bool flagged)
{
	const struct cb_plot_kind *kind = kind_named(c, kind_name);
	struct cb_plot *p = c->plot;
	/* A page's timelines are small PNGs, whatever the other charts are. */
	bool small = c->opt->small_timelines && strcmp(kind_name, "timeline") == 0;
	const char *format = small ? "png-small" : cb_plot_format_name(c->opt->format);
	const char *ext = small ? "png" : format;
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	char path[4096], up[256] = "", image[512], data[512];
	struct cb_plot_chart *grown, *chart;
	size_t depth = 0;
	FILE *g;

	if (fclose(f) != 0) {
		plot_err(c, "%s%s.dat: cannot write: %s", c->sub, name, strerror(errno));
		return -1;
	}
	if (!kind) {
		plot_err(c, "%s%s: no chart kind '%s'", c->sub, name, kind_name);
		return -1;
	}
	for (const char *s = c->sub; *s; s++)
		depth += *s == '/';
	for (const char *s = name; *s; s++)
		depth += *s == '/';
	for (size_t i = 0; i < depth && strlen(up) + 4 < sizeof up; i++)
		strcat(up, "../");
	chart_path(c, name, ".gp", path, sizeof path);
	if (!(g = fopen(path, "w"))) {
		plot_err(c, "%s: cannot write: %s", path, strerror(errno));
		return -1;
	}
	snprintf(image, sizeof image, "%s.%s", base, ext);
	snprintf(data, sizeof data, "%s.dat", base);
	fprintf(g,
	        "# %s.gp: draws %s from %s with the template %stemplates/%s.\n"
	        "# Run it with plain gnuplot from any folder:  gnuplot %s.gp\n"
	        "# Edit the data or the arguments below (title, format: png, pdf or svg)\n"
	        "# and run it again. Written by cryptobench plot.\n"
	        "here = ARG0\n"
	        "i = strlen(here)\n"
	        "while (i > 0 && here[i:i] ne \"/\") { i = i - 1 }\n"
	        "if (i > 0) { cd here[1:i] }\n"
	        "call '%stemplates/%s'",
	        base, image, data, up, kind->tmpl, base, up, kind->tmpl);
	gp_quoted(g, data);
	gp_quoted(g, image);
	gp_quoted(g, format);
	gp_quoted(g, title);
	gp_quoted(g, subtitle);
	for (size_t i = 0; i < n_extra; i++)
		gp_quoted(g, extra[i]);
	fputc('\n', g);
	if (fclose(g) != 0) {
		plot_err(c, "%s: cannot write: %s", path, strerror(errno));
		return -1;
	}
	if (!(grown = realloc(p->charts, (p->n_charts + 1) * sizeof *grown))) {
		plot_err(c, "out of memory");
		return -1;
	}
	p->charts = grown;
	chart = &p->charts[p->n_charts];
	*chart = (struct cb_plot_chart){.kind = kind->name, .run = c->r, .flagged = flagged};
	snprintf(path, sizeof path, "%s%s", c->sub, name);
	chart->name = strdup(path);
	snprintf(path, sizeof path, ".%s", ext);
	chart->image = dup_path(c, name, path);
	chart->data = dup_path(c, name, ".dat");
	chart->script = dup_path(c, name, ".gp");
	chart->title = strdup(title);
	p->n_charts++;
	if (!chart->name || !chart->image || !chart->data || !chart->script || !chart->title) {
		plot_err(c, "out of memory");
		return -1;
	}
	return 0;
}
