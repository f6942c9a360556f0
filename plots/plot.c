/* plot.c: the output folder, the render scripts, and which charts each run gets. */
#include <errno.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plots/plot_internal.h"

/* The chart kinds' templates: copied into DIR/templates/ so the folder renders alone. */
static const char *const templates[] = {
    "throughput-size.gp", "ratio.gp",    "encrypt-decrypt.gp",
    "threads.gp",         "timeline.gp", "forest.gp",
};

void cb_plot_defaults(struct cb_plot_options *opt, const char *templates_dir)
{
	*opt = (struct cb_plot_options){
	    .format = CB_PLOT_PNG,
	    .statistic = CB_STAT_MEDIAN,
	    .timelines = CB_PLOT_TIMELINES_ALL,
	    .templates = templates_dir,
	    .gnuplot = NULL,
	    .jobs = 2,
	};
	cb_compare_defaults(&opt->analysis);
}

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

int cb_plot_timelines_parse(const char *name)
{
	static const char *const names[] = {"all", "flagged", "none"};

	for (int i = 0; i < 3; i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

void plot_err(struct plot_ctx *c, const char *fmt, ...)
{
	va_list ap;

	if (!c->err || !c->err_len)
		return;
	va_start(ap, fmt);
	vsnprintf(c->err, c->err_len, fmt, ap);
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

static int mkdir_p(const char *path, char *err, size_t err_len)
{
	char buf[4096];
	size_t len = strlen(path);

	if (len >= sizeof buf) {
		snprintf(err, err_len, "%s: path too long", path);
		return -1;
	}
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
			snprintf(err, err_len, "%s: cannot create folder: %s", buf,
			         strerror(errno));
			return -1;
		}
		*p = '/';
	}
	if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
		snprintf(err, err_len, "%s: cannot create folder: %s", buf, strerror(errno));
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
	if (mkdir_p(dirname(dir), c->err, c->err_len) != 0)
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

int plot_chart_add(struct plot_ctx *c, FILE *f, const char *kind, const char *name,
                   const char *tmpl, const char *title, const char *subtitle,
                   const char *const *extra, size_t n_extra, bool flagged)
{
	struct cb_plot *p = c->plot;
	const char *ext = cb_plot_format_name(c->opt->format);
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	char path[4096], up[256] = "", image[512], data[512];
	struct cb_plot_chart *grown, *chart;
	size_t depth = 0;
	FILE *g;

	if (fclose(f) != 0) {
		plot_err(c, "%s%s.dat: cannot write: %s", c->sub, name, strerror(errno));
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
	        base, image, data, up, tmpl, base, up, tmpl);
	gp_quoted(g, data);
	gp_quoted(g, image);
	gp_quoted(g, ext);
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
	*chart = (struct cb_plot_chart){.kind = kind, .flagged = flagged};
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

static int copy_file(const char *from, const char *to, char *err, size_t err_len)
{
	FILE *in = fopen(from, "r"), *out;
	char buf[8192];
	size_t n;
	int rc = 0;

	if (!in) {
		snprintf(err, err_len, "%s: cannot read the template: %s", from, strerror(errno));
		return -1;
	}
	if (!(out = fopen(to, "w"))) {
		snprintf(err, err_len, "%s: cannot write: %s", to, strerror(errno));
		fclose(in);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			rc = -1;
	if (ferror(in))
		rc = -1;
	fclose(in);
	if (fclose(out) != 0)
		rc = -1;
	if (rc)
		snprintf(err, err_len, "%s: cannot copy the template to %s", from, to);
	return rc;
}

static int copy_templates(const char *from, const char *dir, char *err, size_t err_len)
{
	char a[4096], b[4096];

	snprintf(b, sizeof b, "%s/templates", dir);
	if (mkdir_p(b, err, err_len) != 0)
		return -1;
	for (size_t i = 0; i < sizeof templates / sizeof templates[0]; i++) {
		snprintf(a, sizeof a, "%s/%s", from, templates[i]);
		snprintf(b, sizeof b, "%s/templates/%s", dir, templates[i]);
		if (copy_file(a, b, err, err_len) != 0)
			return -1;
	}
	return 0;
}

static int write_render_all(struct cb_plot *p, char *err, size_t err_len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof path, "%s/render.sh", p->dir);
	if (!(f = fopen(path, "w"))) {
		snprintf(err, err_len, "%s: cannot write: %s", path, strerror(errno));
		return -1;
	}
	fputs("#!/bin/sh\n"
	      "# render.sh: draws every chart of this folder again from its data (NAME.dat)\n"
	      "# with its script (NAME.gp) and the templates in templates/. Needs gnuplot 5.4\n"
	      "# or later (Debian: apt-get install gnuplot-nox).  Usage: sh render.sh\n"
	      "cd \"$(dirname \"$0\")\" || exit 1\n"
	      "GNUPLOT=${GNUPLOT:-gnuplot}\n"
	      "command -v \"$GNUPLOT\" >/dev/null 2>&1 ||\n"
	      "\t{ echo \"render.sh: $GNUPLOT not found (install gnuplot, or set GNUPLOT)\" >&2; "
	      "exit 1; }\n"
	      "status=0\n"
	      "for s in \\\n",
	      f);
	for (size_t i = 0; i < p->n_charts; i++)
		fprintf(f, "\t'%s.gp' \\\n", p->charts[i].name);
	fputs("\t; do\n"
	      "\t\"$GNUPLOT\" \"$s\" || { echo \"render.sh: $s failed\" >&2; status=1; }\n"
	      "done\n"
	      "exit $status\n",
	      f);
	if (fclose(f) != 0) {
		snprintf(err, err_len, "%s: cannot write: %s", path, strerror(errno));
		return -1;
	}
	chmod(path, 0755);
	return (p->render_all = strdup(path)) ? 0 : -1;
}

static int draw_run(struct plot_ctx *c)
{
	plot_where(c->r, true, c->where, sizeof c->where);
	if (cb_plot_run_charts(c) != 0 || cb_plot_ratio_charts(c) != 0 || cb_plot_timelines(c) != 0)
		return -1;
	return 0;
}

/* A folder name per file: its name without .jsonl, made unique. */
static void stem_of(struct cb_results *const *files, size_t r, char *buf, size_t len)
{
	char base[512], slug[512];
	const char *slash = strrchr(files[r]->path, '/');
	size_t same = 0;

	snprintf(base, sizeof base, "%s", slash ? slash + 1 : files[r]->path);
	if (strlen(base) > 6 && strcmp(base + strlen(base) - 6, ".jsonl") == 0)
		base[strlen(base) - 6] = '\0';
	plot_slug(base, slug, sizeof slug);
	for (size_t i = 0; i < r; i++) {
		char other[512], os[512];
		const char *s2 = strrchr(files[i]->path, '/');

		snprintf(other, sizeof other, "%s", s2 ? s2 + 1 : files[i]->path);
		if (strlen(other) > 6 && strcmp(other + strlen(other) - 6, ".jsonl") == 0)
			other[strlen(other) - 6] = '\0';
		plot_slug(other, os, sizeof os);
		same += strcmp(os, slug) == 0;
	}
	if (same)
		snprintf(buf, len, "%s-%zu/", slug[0] ? slug : "run", same + 1);
	else
		snprintf(buf, len, "%s/", slug[0] ? slug : "run");
}

static int draw_runs(struct cb_plot *p, struct cb_results *const *files, size_t k,
                     const struct cb_plot_options *opt, char *err, size_t err_len)
{
	struct cb_compare *cmp = NULL;
	char cerr[1024] = "";
	int rc = cb_compare_build(files, k, &opt->analysis, &cmp, cerr, sizeof cerr);

	if (rc == -1) {
		snprintf(err, err_len, "%s", cerr);
		return -1;
	}
	for (size_t r = 0; r < k; r++) {
		struct cb_analysis *own = NULL;
		char sub[600];
		struct plot_ctx c = {.opt = opt,
		                     .plot = p,
		                     .sub = sub,
		                     .r = files[r],
		                     .source = files[r]->path,
		                     .err = err,
		                     .err_len = err_len};

		stem_of(files, r, sub, sizeof sub);
		if (cmp)
			c.a = cmp->runs[r];
		else if (!(c.a = own = cb_analysis_build(files[r], &opt->analysis.summary,
		                                         &opt->analysis.derive, err, err_len))) {
			cb_compare_free(cmp);
			return -1;
		}
		rc = draw_run(&c);
		cb_analysis_free(own);
		if (rc != 0) {
			cb_compare_free(cmp);
			return -1;
		}
	}
	if (cmp) {
		char runs[2048] = "";
		struct plot_ctx c = {.opt = opt,
		                     .plot = p,
		                     .sub = "",
		                     .source = runs,
		                     .err = err,
		                     .err_len = err_len};

		for (size_t r = 0; r < k && strlen(runs) + 4 < sizeof runs; r++)
			plot_fmt(runs + strlen(runs), sizeof runs - strlen(runs), "%s%s",
			         r ? ", " : "", files[r]->path);
		rc = cb_plot_forests(&c, cmp);
		cb_compare_free(cmp);
		return rc;
	}
	struct plot_ctx c = {.opt = opt, .plot = p, .err = err, .err_len = err_len};
	return plot_note(&c, "no forest plot: %s", cerr);
}

int cb_plot_write(struct cb_results *const *files, size_t k, const char *dir,
                  const struct cb_plot_options *opt, struct cb_plot **out, char *err,
                  size_t err_len)
{
	struct cb_plot *p = calloc(1, sizeof *p);
	int rc;

	*out = NULL;
	if (!p || !(p->dir = strdup(dir))) {
		snprintf(err, err_len, "out of memory");
		free(p);
		return -1;
	}
	if (k == 0) {
		snprintf(err, err_len, "no results file to plot");
		goto fail;
	}
	if (mkdir_p(dir, err, err_len) != 0 ||
	    copy_templates(opt->templates, dir, err, err_len) != 0)
		goto fail;
	if (k == 1) {
		struct plot_ctx c = {.opt = opt,
		                     .plot = p,
		                     .sub = "",
		                     .r = files[0],
		                     .source = files[0]->path,
		                     .err = err,
		                     .err_len = err_len};

		if (!(c.a = cb_analysis_build(files[0], &opt->analysis.summary,
		                              &opt->analysis.derive, err, err_len)))
			goto fail;
		rc = draw_run(&c);
		cb_analysis_free((struct cb_analysis *)c.a);
	} else {
		rc = draw_runs(p, files, k, opt, err, err_len);
	}
	if (rc != 0 || write_render_all(p, err, err_len) != 0)
		goto fail;
	if (opt->gnuplot) {
		cb_plot_render(p, opt->gnuplot, opt->jobs ? opt->jobs : 1);
		p->gnuplot_ran = true;
	}
	*out = p;
	return 0;
fail:
	cb_plot_free(p);
	return -1;
}

void cb_plot_free(struct cb_plot *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_charts; i++) {
		struct cb_plot_chart *c = &p->charts[i];

		free(c->name);
		free(c->image);
		free(c->data);
		free(c->script);
		free(c->title);
		free(c->error);
	}
	for (size_t i = 0; i < p->n_notes; i++)
		free(p->notes[i]);
	free(p->notes);
	free(p->charts);
	free(p->render_all);
	free(p->dir);
	free(p);
}
