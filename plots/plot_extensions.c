/* plot_extensions.c: which code ran, drawn. Per algorithm, op and size with
 * profiled cells (run --explain), a chart of one horizontal bar per cell,
 * its segments the shares of the cell's samples by the instruction-set
 * class where the time stops (the class of the instruction before each
 * sampled one), in the classes' fixed order, so a class has one place and
 * one colour (extensions.gp) in every chart. The figures are attribution.h's,
 * the ones the report's explain table gives; a run without profile lines
 * gets no chart and no word. */
#include <stdlib.h>
#include <string.h>

#include "analysis/verdicts/attribution.h"
#include "plots/plot_internal.h"

/* Segments this share of a bar or wider carry their percentage (the
 * template's default, written into each script so it can be changed). */
#define SEGMENT_LABELLED "0.07"

/* The host's flags (core/machine/host.c) that offer a notable extension, by the
 * name the classes give it. */
static const struct {
	const char *flag, *class;
} cpu_offers[] = {
    {"sha_ni", "sha-ni"},         {"aes", "aes-ni"},     {"pclmulqdq", "pclmul"}, {"vaes", "vaes"},
    {"vpclmulqdq", "vpclmulqdq"}, {"avx512f", "avx512"}, {"avx2", "avx2"},
};

/* The subtitle: the CPU, what its flags offer of the notable extensions
 * (x86-64 only: the flags' names are x86's), the scenario and the date. */
static void cpu_subtitle(const struct cb_results *r, char *buf, size_t len)
{
	json_t *host = json_object_get(r->header, "host");
	json_t *flags = json_object_get(host, "flags");
	const char *cpu = json_string_value(json_object_get(host, "cpu"));
	const char *virt = json_string_value(json_object_get(host, "virtualization"));
	const char *machine =
	    json_string_value(json_object_get(json_object_get(host, "kernel"), "machine"));
	const char *scenario =
	    json_string_value(json_object_get(json_object_get(r->header, "scenario"), "name"));
	const char *started = json_string_value(json_object_get(r->header, "started"));
	char offers[256] = "";
	size_t used = 0;

	for (size_t i = 0; i < sizeof cpu_offers / sizeof *cpu_offers; i++)
		if (json_is_true(json_object_get(flags, cpu_offers[i].flag)) &&
		    used < sizeof offers)
			used += (size_t)snprintf(offers + used, sizeof offers - used, " %s",
			                         cpu_offers[i].class);
	plot_fmt(buf, len, "%s%s%s%s%s%s · %s%s%.10s", cpu ? cpu : "unknown CPU", virt ? " (" : "",
	         virt ? virt : "", virt ? ")" : "",
	         machine && strcmp(machine, "x86_64") == 0 && json_is_object(flags)
	             ? (used ? " · CPU flags:" : " · CPU flags: none of the notable extensions")
	             : "",
	         machine && strcmp(machine, "x86_64") == 0 ? offers : "", scenario ? scenario : "?",
	         started ? ", " : "", started ? started : "");
}

static bool same_chart(const struct cb_attribution_cell *a, const struct cb_attribution_cell *b)
{
	return strcmp(a->algorithm, b->algorithm) == 0 && strcmp(a->op, b->op) == 0 &&
	       a->size == b->size;
}

/* The bar's label: the variant with its engine's version where the run's
 * cells know it, its threads when several. */
static void bar_label(const struct cb_results *r, const struct cb_attribution_cell *a, char *buf,
                      size_t len)
{
	size_t used;

	plot_fmt(buf, len, "%s", a->label);
	for (size_t i = 0; i < r->n_cells; i++)
		if (strcmp(r->cells[i].key, a->key) == 0) {
			plot_label(r, &r->cells[i], buf, len);
			break;
		}
	used = strlen(buf);
	if (a->threads > 1)
		plot_fmt(buf + used, len - used, " (%u threads)", a->threads);
}

/* A label or note as a gnuplot data string: in double quotes, none inside. */
static void quoted(FILE *f, const char *s)
{
	fputs(" \"", f);
	for (; *s; s++)
		fputc(*s == '"' ? '\'' : *s == '\n' ? ' ' : *s, f);
	fputc('"', f);
}

/* Cell A's row: its place, label, samples, sampler, note, and its share of
 * samples at each class (the classes' order; a class its profiles name that
 * the list lacks counts as "other"). */
static int bar_row(struct plot_ctx *c, FILE *f, const struct cb_attribution_cell *a, size_t row)
{
	size_t n_classes = 0, other = 0;
	double *shares;
	char label[512], note[300];

	while (cb_attribution_classes[n_classes])
		n_classes++;
	for (size_t k = 0; k < n_classes; k++)
		if (strcmp(cb_attribution_classes[k], "other") == 0)
			other = k;
	if (!(shares = calloc(n_classes, sizeof *shares))) {
		plot_err(c, "out of memory");
		return -1;
	}
	bar_label(c->r, a, label, sizeof label);
	if (a->trials == 0)
		plot_fmt(note, sizeof note, "no profile: %s", a->refused ? a->refused : "?");
	else if (a->samples == 0)
		plot_fmt(note, sizeof note, "no samples in %zu profiled trial%s", a->trials,
		         a->trials == 1 ? "" : "s");
	else
		plot_fmt(note, sizeof note, "-"); /* not "": a field to gnuplot all the same */
	fprintf(f, "%zu", row);
	quoted(f, label);
	fprintf(f, " %llu", (unsigned long long)a->samples);
	quoted(f, a->sampler ? a->sampler : "-");
	quoted(f, note);
	for (size_t i = 0; a->samples && i < a->n_before; i++) {
		size_t k = 0;

		while (k < n_classes && strcmp(cb_attribution_classes[k], a->before[i].what) != 0)
			k++;
		shares[k < n_classes ? k : other] +=
		    (double)a->before[i].samples / (double)a->samples;
	}
	for (size_t k = 0; k < n_classes; k++)
		plot_num(f, shares[k]);
	fputc('\n', f);
	free(shares);
	return 0;
}

/* The chart of the group of cell G of E. */
static int extensions_chart(struct plot_ctx *c, const struct cb_attribution *e, size_t g)
{
	const struct cb_attribution_cell *first = &e->cells[g];
	char size[32], slug[32], alg[128], op[64], name[300], title[512], subtitle[1024], what[512];
	char classes[512] = "";
	size_t rows = 0, profiled = 0, used = 0;
	FILE *f;

	for (size_t i = g; i < e->n_cells; i++)
		if (same_chart(&e->cells[i], first))
			profiled += e->cells[i].trials > 0;
	plot_size((unsigned long long)first->size, true, size, sizeof size);
	if (profiled == 0) /* every profile refused: the report says why, per cell */
		return plot_note(c, "no extensions chart for %s %s %s: no cell has a profile (%s)",
		                 first->algorithm, first->op, size,
		                 first->refused ? first->refused : "?");
	for (size_t k = 0; cb_attribution_classes[k] && used < sizeof classes; k++)
		used += (size_t)snprintf(classes + used, sizeof classes - used, "%s%s",
		                         k ? " " : "", cb_attribution_classes[k]);
	plot_slug(first->algorithm, alg, sizeof alg);
	plot_slug(first->op, op, sizeof op);
	plot_size((unsigned long long)first->size, false, slug, sizeof slug);
	plot_fmt(name, sizeof name, "extensions-%s-%s-%s", alg, op, slug);
	plot_fmt(title, sizeof title, "%s %s %s: where the time stops, by instruction-set class",
	         first->algorithm, first->op, size);
	plot_fmt(what, sizeof what,
	         "which code ran in %s %s %s (run --explain's profiled trials): per cell, the "
	         "share of its samples by the class of the instruction where the time stops",
	         first->algorithm, first->op, size);
	cpu_subtitle(c->r, subtitle, sizeof subtitle);
	if (!(f = plot_data_open(c, name, what)))
		return -1;
	fprintf(f,
	        "# columns: row  label  samples  sampler  note  then one per class, in this\n"
	        "#   order: %s\n"
	        "#   each the share (0 to 1) of the cell's samples whose time stops at that\n"
	        "#   class (the class of the instruction before the sampled one); a class a\n"
	        "#   profile names that this list lacks counts as other. Row 0 is drawn on\n"
	        "#   top; a cell without a profile has 0 samples and the reason in note\n"
	        "#   (else -).\n",
	        classes);
	for (size_t i = g; i < e->n_cells; i++)
		if (same_chart(&e->cells[i], first) && bar_row(c, f, &e->cells[i], rows++) != 0) {
			fclose(f);
			return -1;
		}
	const char *extra[] = {classes, SEGMENT_LABELLED};
	return plot_chart_add(c, f, "extensions", name, title, subtitle, extra, 2, false);
}

int cb_plot_extensions_charts(struct plot_ctx *c)
{
	const struct cb_attribution *e = c->a ? c->a->attribution : NULL;

	for (size_t g = 0; e && g < e->n_cells; g++) {
		bool seen = false;

		for (size_t i = 0; i < g && !seen; i++)
			seen = same_chart(&e->cells[i], &e->cells[g]);
		if (!seen && extensions_chart(c, e, g) != 0)
			return -1;
	}
	return 0;
}
