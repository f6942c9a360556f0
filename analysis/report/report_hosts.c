/* report_hosts.c: files from several hosts, printed (hosts.h): each host's
 * runs judged, then host against the baseline host. */
#include "analysis/report/report.h"

#include <math.h>
#include <string.h>

#include "analysis/verdicts/hosts.h"
#include "analysis/report/table_baseline.h"
#include "core/base/units.h"

static bool several_runs(const struct cb_hosts *h)
{
	for (size_t i = 0; i < h->n; i++)
		if (h->hosts[i].k > 1)
			return true;
	return false;
}

/* "alpha-1.jsonl, alpha-2.jsonl" */
static void file_names(const struct cb_host *host, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < host->k && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
		                         host->files[i]->path);
}

/* Host P against the baseline host: its table (table_hosts.c), its notes. */
static void print_table(FILE *out, const struct cb_hosts *h, const struct cb_hosts_pair *p,
                        enum cb_report_format f, bool details)
{
	const struct cb_baseline *b = p->b;
	struct cb_table_options to = {.format = f, .details = details};
	struct cb_hosts_view view = {h, p};
	bool on = cb_tb_conditions(b) & CB_IF_MEASURES;
	bool intervals = details || f == CB_FORMAT_MARKDOWN;
	char title[1024], measure[64];

	cb_report_baseline_measure(b, on, measure, sizeof measure);
	snprintf(title, sizeof title,
	         "B%zu = host %s against A = the baseline host %s (%s, each host's runs pooled%s; "
	         "speed ratio B/A with a %.0f%% interval; verdicts against delta %.3g%%%s)",
	         p->host, h->hosts[p->host].name, h->hosts[0].name, measure,
	         intervals ? "" : ", --details gives their intervals", (1 - b->alpha) * 100,
	         b->n_rows ? b->rows[0].delta * 100 : NAN, on ? " on cycles, more on MB/s" : "");
	cb_report_baseline_table(out, f, title, cb_table_text(&cb_table_hosts, 0, &view, &to), b);
	if (b->only_base || b->only_other) {
		char line[256];

		snprintf(
		    line, sizeof line,
		    "note: %zu cell%s only on the baseline host, %zu only on %s (not compared)",
		    b->only_base, b->only_base == 1 ? "" : "s", b->only_other,
		    h->hosts[p->host].name);
		cb_report_wrapped(out, cb_report_mark(f), line);
	}
}

static void print_csv(FILE *out, const struct cb_hosts *h)
{
	struct cb_table_options to = {.format = CB_FORMAT_CSV};

	cb_table_csv_header(out, &cb_table_hosts);
	for (size_t k = 0; k + 1 < h->n; k++) {
		struct cb_hosts_view view = {h, &h->pairs[k]};

		cb_table_csv_rows(out, &cb_table_hosts, &view, k + 1, &to);
	}
}

static json_t *files_json(const struct cb_host *host)
{
	json_t *a = json_array();

	for (size_t i = 0; i < host->k; i++)
		json_array_append_new(a, json_string(host->files[i]->path));
	return a;
}

static void print_json(FILE *out, const struct cb_hosts *h)
{
	json_t *all = json_array();

	for (size_t k = 0; k + 1 < h->n; k++) {
		const struct cb_hosts_pair *p = &h->pairs[k];
		const struct cb_host *host = &h->hosts[p->host];
		json_t *one = cb_report_baseline_json(p->b);
		struct cb_table_options to = {.format = CB_FORMAT_JSON};
		struct cb_hosts_view view = {h, p};
		char line[1024];

		json_object_set_new(one, "host", json_string(host->name));
		json_object_set_new(one, "baseline_host", json_string(h->hosts[0].name));
		json_object_set_new(one, "host_key", json_string(host->key));
		json_object_set_new(one, "baseline_host_key", json_string(h->hosts[0].key));
		json_object_set_new(one, "runs", files_json(host));
		json_object_set_new(one, "baseline_runs", files_json(&h->hosts[0]));
		cb_report_baseline_summary(p->b, host->name, h->hosts[0].name, line, sizeof line);
		json_object_set_new(one, "summary", json_string(line));
		/* The same cells, with each host's runs and reproducibility. */
		json_object_set_new(one, "cells",
		                    cb_table_json(&cb_table_hosts, &view, k + 1, &to));
		json_array_append_new(all, one);
	}
	json_dumpf(all, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(all);
}

void cb_report_hosts(FILE *out, const struct cb_hosts *h, enum cb_report_format f, bool details)
{
	const char *item = cb_report_mark(f);
	char line[2048], names[1536];

	if (f == CB_FORMAT_CSV) {
		print_csv(out, h);
		return;
	}
	if (f == CB_FORMAT_JSON) {
		print_json(out, h);
		return;
	}
	for (size_t i = 0; i < h->n; i++) {
		if (!h->hosts[i].repro)
			continue;
		fprintf(out, "%shost %s: %zu runs\n\n", f == CB_FORMAT_MARKDOWN ? "# " : "",
		        h->hosts[i].name, h->hosts[i].k);
		cb_report_compare(out, h->hosts[i].repro, f, NULL, details);
		fputc('\n', out);
	}
	fprintf(out, "%scompare: %zu host%s against the baseline host %s\n",
	        f == CB_FORMAT_MARKDOWN ? "## " : "", h->n - 1, h->n == 2 ? "" : "s",
	        h->hosts[0].name);
	for (size_t i = 0; i < h->n; i++) {
		file_names(&h->hosts[i], names, sizeof names);
		if (i)
			snprintf(line, sizeof line, "B%zu: host %s, %zu run%s (%s)", i,
			         h->hosts[i].name, h->hosts[i].k, h->hosts[i].k == 1 ? "" : "s",
			         names);
		else
			snprintf(line, sizeof line, "A: the baseline host %s, %zu run%s (%s)",
			         h->hosts[0].name, h->hosts[0].k, h->hosts[0].k == 1 ? "" : "s",
			         names);
		cb_report_wrapped(out, item, line);
	}
	for (size_t k = 0; k + 1 < h->n; k++)
		print_table(out, h, &h->pairs[k], f, details);
	if (several_runs(h))
		cb_report_wrapped(
		    out, f == CB_FORMAT_MARKDOWN ? "\n" : "",
		    "runs A/B: how many runs each host has of the cell, and whether they "
		    "reproduced "
		    "(ok), differ beyond delta (NR: non-reproducible; C: contradictory) or cannot "
		    "tell (?), as judged above.");
	if (f == CB_FORMAT_MARKDOWN)
		fputs("\n### Summary\n\n", out);
	else
		fputc('\n', out);
	for (size_t k = 0; k + 1 < h->n; k++) {
		cb_report_baseline_summary(h->pairs[k].b, h->hosts[h->pairs[k].host].name,
		                           h->hosts[0].name, line, sizeof line);
		cb_report_wrapped(out, f == CB_FORMAT_MARKDOWN ? "- " : "", line);
	}
	if (f != CB_FORMAT_TEXT)
		return;
	cb_report_baseline_footer(out, h->options.repro.alpha);
	if (several_runs(h))
		cb_report_wrapped(
		    out, "",
		    "A host of several runs: each cell's estimate pools its runs' "
		    "medians (random effects on the log scale, DerSimonian-Laird: the "
		    "interval widens when the runs disagree beyond their own intervals).");
}
