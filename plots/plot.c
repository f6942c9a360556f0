/* plot.c: the output folder, the render scripts, and which charts each run
 * gets: the writers of the chart kinds' table (plot_kinds.c), in its order. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "plots/plot.h"
#include "plots/plot_internal.h"

#include "core/base/errbuf.h"

void cb_plot_defaults(struct cb_plot_options *opt, const char *templates_dir)
{
	*opt = (struct cb_plot_options){
	    .format = CB_PLOT_PNG,
	    .statistic = CB_STAT_AUTO,
	    .timelines = CB_PLOT_TIMELINES_ALL,
	    .templates = templates_dir,
	    .gnuplot = NULL,
	    .jobs = 2,
	};
	cb_compare_defaults(&opt->analysis);
}

int cb_plot_timelines_parse(const char *name)
{
	static const char *const names[] = {"all", "flagged", "none"};

	for (int i = 0; i < 3; i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

static int copy_file(const char *from, const char *to, char *err, size_t err_len)
{
	FILE *in = fopen(from, "r"), *out;
	char buf[8192];
	size_t n;
	int rc = 0;

	if (!in) {
		cb_errorf(err, err_len, "%s: cannot read the template: %s", from, strerror(errno));
		return -1;
	}
	if (!(out = fopen(to, "w"))) {
		cb_errorf(err, err_len, "%s: cannot write: %s", to, strerror(errno));
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
		cb_errorf(err, err_len, "%s: cannot copy the template to %s", from, to);
	return rc;
}

static int copy_templates(const char *from, const char *dir, char *err, size_t err_len)
{
	char a[4096], b[4096];

	snprintf(b, sizeof b, "%s/templates", dir);
	if (plot_mkdir_p(b, err, err_len) != 0)
		return -1;
	for (size_t i = 0; i < cb_plot_n_kinds; i++) {
		const char *tmpl = cb_plot_kinds[i].tmpl;
		size_t j = 0;

		while (j < i && strcmp(cb_plot_kinds[j].tmpl, tmpl) != 0)
			j++;
		if (j < i) /* kinds may share a template: copied once */
			continue;
		snprintf(a, sizeof a, "%s/%s", from, tmpl);
		snprintf(b, sizeof b, "%s/templates/%s", dir, tmpl);
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
		cb_errorf(err, err_len, "%s: cannot write: %s", path, strerror(errno));
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
		cb_errorf(err, err_len, "%s: cannot write: %s", path, strerror(errno));
		return -1;
	}
	chmod(path, 0755);
	return (p->render_all = strdup(path)) ? 0 : -1;
}

static int draw_run(struct plot_ctx *c)
{
	plot_where(c->r, true, c->where, sizeof c->where);
	for (size_t i = 0; i < cb_plot_n_kinds; i++)
		if (cb_plot_kinds[i].draw_run && cb_plot_kinds[i].draw_run(c) != 0)
			return -1;
	return 0;
}

static int draw_across(struct plot_ctx *c, const struct cb_compare *cmp)
{
	for (size_t i = 0; i < cb_plot_n_kinds; i++)
		if (cb_plot_kinds[i].draw_across && cb_plot_kinds[i].draw_across(c, cmp) != 0)
			return -1;
	return 0;
}

/* NAME without its results-file suffix (.jsonl, .jsonl.gz, .jsonl.zst). */
static void drop_suffix(char *name)
{
	static const char *const suffixes[] = {".jsonl", ".jsonl.gz", ".jsonl.zst"};
	size_t n = strlen(name);

	for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
		size_t m = strlen(suffixes[i]);

		if (n > m && strcmp(name + n - m, suffixes[i]) == 0) {
			name[n - m] = '\0';
			return;
		}
	}
}

/* A folder name per file: its name without .jsonl (or .jsonl.gz,
 * .jsonl.zst), made unique. */
static void stem_of(struct cb_results *const *files, size_t r, char *buf, size_t len)
{
	char base[512], slug[512];
	const char *slash = strrchr(files[r]->path, '/');
	size_t same = 0;

	snprintf(base, sizeof base, "%s", slash ? slash + 1 : files[r]->path);
	drop_suffix(base);
	plot_slug(base, slug, sizeof slug);
	for (size_t i = 0; i < r; i++) {
		char other[512], os[512];
		const char *s2 = strrchr(files[i]->path, '/');

		snprintf(other, sizeof other, "%s", s2 ? s2 + 1 : files[i]->path);
		drop_suffix(other);
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
		cb_errorf(err, err_len, "%s", cerr);
		return -1;
	}
	for (size_t r = 0; r < k; r++) {
		struct cb_analysis *own = NULL;
		char sub[600];
		struct plot_ctx c = {.opt = opt,
		                     .kinds = cb_plot_kinds,
		                     .n_kinds = cb_plot_n_kinds,
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
		                     .kinds = cb_plot_kinds,
		                     .n_kinds = cb_plot_n_kinds,
		                     .plot = p,
		                     .sub = "",
		                     .source = runs,
		                     .err = err,
		                     .err_len = err_len};

		for (size_t r = 0; r < k && strlen(runs) + 4 < sizeof runs; r++)
			plot_fmt(runs + strlen(runs), sizeof runs - strlen(runs), "%s%s",
			         r ? ", " : "", files[r]->path);
		rc = draw_across(&c, cmp);
		cb_compare_free(cmp);
		return rc;
	}
	struct plot_ctx c = {.opt = opt,
	                     .kinds = cb_plot_kinds,
	                     .n_kinds = cb_plot_n_kinds,
	                     .plot = p,
	                     .err = err,
	                     .err_len = err_len};
	return plot_note(&c, "no forest plot: %s", cerr);
}

/* "host-SLUG/" of host I of H into BUF, numbered when an earlier host's
 * name gives the same slug. */
static void host_folder(const struct cb_hosts *h, size_t i, char *buf, size_t len)
{
	char slug[512], other[512];
	size_t same = 0;

	plot_slug(h->hosts[i].name, slug, sizeof slug);
	for (size_t j = 0; j < i; j++) {
		plot_slug(h->hosts[j].name, other, sizeof other);
		same += strcmp(slug, other) == 0;
	}
	if (same)
		plot_fmt(buf, len, "host-%s-%zu/", slug[0] ? slug : "unnamed", same + 1);
	else
		plot_fmt(buf, len, "host-%s/", slug[0] ? slug : "unnamed");
}

/* Files from several hosts: per host, in DIR/host-HOST/, the forest plots of
 * its runs (when several) and each run's charts in DIR/host-HOST/STEM/; the
 * hosts charts in DIR. */
static int draw_hosts(struct cb_plot *p, struct cb_results *const *files, size_t k,
                      const struct cb_plot_options *opt, char *err, size_t err_len)
{
	struct cb_hosts *h = NULL;
	int rc = cb_hosts_build(files, k, NULL, &opt->analysis, &h, err, err_len);
	struct plot_ctx c = {.opt = opt,
	                     .kinds = cb_plot_kinds,
	                     .n_kinds = cb_plot_n_kinds,
	                     .plot = p,
	                     .err = err,
	                     .err_len = err_len};
	char folder[600], sub[1200], stem[600], source[2048];

	if (rc != 0)
		return -1;
	for (size_t i = 0; i < h->n && rc == 0; i++) {
		const struct cb_host *host = &h->hosts[i];

		host_folder(h, i, folder, sizeof folder);
		for (size_t r = 0; r < host->k && rc == 0; r++) {
			stem_of(host->files, r, stem, sizeof stem);
			plot_fmt(sub, sizeof sub, "%s%s", folder, stem);
			c.sub = sub;
			c.r = host->files[r];
			c.a = host->runs[r];
			c.source = host->files[r]->path;
			rc = draw_run(&c);
		}
		if (rc != 0 || !host->repro)
			continue;
		source[0] = '\0';
		for (size_t r = 0; r < host->k && strlen(source) + 4 < sizeof source; r++)
			plot_fmt(source + strlen(source), sizeof source - strlen(source), "%s%s",
			         r ? ", " : "", host->files[r]->path);
		c.sub = folder;
		c.r = NULL;
		c.a = NULL;
		c.source = source;
		rc = draw_across(&c, host->repro);
	}
	source[0] = '\0';
	for (size_t r = 0; r < k && strlen(source) + 4 < sizeof source; r++)
		plot_fmt(source + strlen(source), sizeof source - strlen(source), "%s%s",
		         r ? ", " : "", files[r]->path);
	c.sub = "";
	c.r = NULL;
	c.a = NULL;
	c.source = source;
	for (size_t i = 0; i < cb_plot_n_kinds && rc == 0; i++)
		if (cb_plot_kinds[i].draw_hosts)
			rc = cb_plot_kinds[i].draw_hosts(&c, h);
	cb_hosts_free(h);
	return rc;
}

int cb_plot_write(struct cb_results *const *files, size_t k, const char *dir,
                  const struct cb_plot_options *opt, struct cb_plot **out, char *err,
                  size_t err_len)
{
	struct cb_plot *p = calloc(1, sizeof *p);
	int rc;

	*out = NULL;
	if (!p || !(p->dir = strdup(dir))) {
		cb_errorf(err, err_len, "out of memory");
		free(p);
		return -1;
	}
	if (k == 0) {
		cb_errorf(err, err_len, "no results file to plot");
		goto fail;
	}
	if (plot_mkdir_p(dir, err, err_len) != 0 ||
	    copy_templates(opt->templates, dir, err, err_len) != 0)
		goto fail;
	if (k == 1) {
		struct plot_ctx c = {.opt = opt,
		                     .kinds = cb_plot_kinds,
		                     .n_kinds = cb_plot_n_kinds,
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
	} else if (cb_hosts_count(files, k) > 1) {
		rc = draw_hosts(p, files, k, opt, err, err_len);
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
		free(c->caption);
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
