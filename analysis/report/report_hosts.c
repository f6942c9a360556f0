/* report_hosts.c: files from several hosts, printed (hosts.h): each host's
 * runs judged, then host against the baseline host. */
#include "analysis/report/report.h"

#include <math.h>
#include <string.h>

#include "analysis/verdicts/hosts.h"
#include "core/units.h"

/* The reproducibility of ROW's host in the text's runs column: its runs and a
 * code ("2 ok", "3 NR", "2 C", "2 ?"), "1" for a single run. */
static const char *runs_code(size_t runs, const struct cb_compare_row *row, char *buf, size_t len)
{
	static const char *const codes[] = {
	    [CB_REPRO_NOT_RESOLVED] = "?",
	    [CB_REPRO_REPRODUCED] = "ok",
	    [CB_REPRO_NON_REPRODUCIBLE] = "NR",
	    [CB_REPRO_CONTRADICTORY] = "C",
	};

	if (row)
		snprintf(buf, len, "%zu %s", runs, codes[row->repro.verdict]);
	else
		snprintf(buf, len, "%zu", runs);
	return buf;
}

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

/* Text without DETAILS keeps within 100 columns: each host's estimate
 * without its interval (the ratio keeps its own). */
static void print_table(FILE *out, const struct cb_hosts *h, const struct cb_hosts_pair *p,
                        enum cb_report_format f, bool details)
{
	const struct cb_baseline *b = p->b;
	bool thr = false, on = false, runs = several_runs(h);
	bool intervals = details || f == CB_FORMAT_MARKDOWN;
	const char *all[] = {"engine",
	                     "algorithm",
	                     "op",
	                     "size",
	                     "thr",
	                     "on",
	                     intervals ? "A [95% CI]" : "A",
	                     intervals ? "B [95% CI]" : "B",
	                     "runs A/B",
	                     "B/A: change [95% CI]",
	                     "verdict"};
	const char *hd[11];
	char align[12], title[1024], measure[64];
	size_t n = 0;

	for (size_t i = 1; i < b->n_rows; i++) {
		thr |= b->rows[i].base->cell->threads != b->rows[0].base->cell->threads;
		on |= b->rows[i].measure != b->rows[0].measure;
	}
	for (size_t i = 0; i < 11; i++) {
		if ((i == 4 && !thr) || (i == 5 && !on) || (i == 8 && !runs))
			continue;
		align[n] = i == 3 || i == 4 || i == 6 || i == 7 || i == 8 ? 'r' : 'l';
		hd[n++] = all[i];
	}
	align[n] = '\0';
	struct cb_table *t = cb_table_new(hd, n, align);
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct cb_baseline_row *row = &b->rows[i];
		const struct cb_result_cell *c = row->base->cell;
		char x[2][96], y[80], ra[32], rb[32];

		cb_report_cell_key(t, c, thr);
		if (on)
			cb_table_cell(t, "%s", cb_compare_measure_name(row->measure));
		if (intervals) {
			cb_fmt_estimate(row->base_e.value, row->base_e.lo, row->base_e.hi, x[0]);
			cb_fmt_estimate(row->other_e.value, row->other_e.lo, row->other_e.hi, x[1]);
		} else {
			cb_fmt_num(row->base_e.value, x[0]);
			cb_fmt_num(row->other_e.value, x[1]);
		}
		cb_table_cell(t, "%s", x[0]);
		cb_table_cell(t, "%s", x[1]);
		if (runs)
			cb_table_cell(t, "%s/%s",
			              runs_code(row->base_runs, p->base_repro[i], ra, sizeof ra),
			              runs_code(row->other_runs, p->other_repro[i], rb, sizeof rb));
		cb_table_cell(t, "%s",
		              cb_fmt_change(row->margin.ratio, row->margin.lo, row->margin.hi, y));
		cb_table_cell(t, "%s", cb_report_baseline_verdict(row));
	}
	if (on || !b->n_rows)
		snprintf(measure, sizeof measure, "the measure of column 'on'");
	else
		snprintf(measure, sizeof measure, "median %s",
		         b->rows[0].measure == CB_MEASURE_MBS ? "MB/s" : "cycles per byte");
	snprintf(title, sizeof title,
	         "B%zu = host %s against A = the baseline host %s (%s, each host's runs pooled%s; "
	         "speed ratio B/A with a %.0f%% interval; verdicts against delta %.3g%%%s)",
	         p->host, h->hosts[p->host].name, h->hosts[0].name, measure,
	         intervals ? "" : ", --details gives their intervals", (1 - b->alpha) * 100,
	         b->n_rows ? b->rows[0].delta * 100 : NAN, on ? " on cycles, more on MB/s" : "");
	cb_report_baseline_table(out, f, title, t, b);
	if (b->only_base || b->only_other) {
		char line[256];

		snprintf(
		    line, sizeof line,
		    "note: %zu cell%s only on the baseline host, %zu only on %s (not compared)",
		    b->only_base, b->only_base == 1 ? "" : "s", b->only_other,
		    h->hosts[p->host].name);
		cb_report_wrapped(out, f == CB_FORMAT_MARKDOWN ? "- " : "  ", line);
	}
}

static void print_csv(FILE *out, const struct cb_hosts *h)
{
	fputs(CB_CSV_KEYS ",host,baseline_host,runs,baseline_runs,reproducibility,"
	                  "baseline_reproducibility,baseline_file,measure,baseline,baseline_lo,"
	                  "baseline_hi,estimate,estimate_lo,estimate_hi,baseline_mb_per_s_median,"
	                  "mb_per_s_median,ratio,ratio_lo,ratio_hi,delta,verdict,p_beyond,"
	                  "p_within,p_adjusted\n",
	      out);
	for (size_t k = 0; k + 1 < h->n; k++) {
		const struct cb_hosts_pair *p = &h->pairs[k];
		const struct cb_host *host = &h->hosts[p->host];

		for (size_t i = 0; i < p->b->n_rows; i++) {
			const struct cb_baseline_row *row = &p->b->rows[i];

			cb_csv_cell_keys(out, host->files[0]->path, k + 1, row->other->cell);
			cb_csv_text(out, host->name);
			cb_csv_text(out, h->hosts[0].name);
			fprintf(out, ",%zu,%zu", row->other_runs, row->base_runs);
			cb_csv_text(out, cb_hosts_repro_name(p->other_repro[i]));
			cb_csv_text(out, cb_hosts_repro_name(p->base_repro[i]));
			cb_csv_text(out, h->hosts[0].files[0]->path);
			cb_csv_baseline_row(out, row);
			fputc('\n', out);
		}
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
		json_t *cells = json_object_get(one, "cells");
		char line[1024];

		json_object_set_new(one, "host", json_string(host->name));
		json_object_set_new(one, "baseline_host", json_string(h->hosts[0].name));
		json_object_set_new(one, "runs", files_json(host));
		json_object_set_new(one, "baseline_runs", files_json(&h->hosts[0]));
		cb_report_baseline_summary(p->b, host->name, h->hosts[0].name, line, sizeof line);
		json_object_set_new(one, "summary", json_string(line));
		for (size_t i = 0; i < p->b->n_rows; i++) {
			json_t *cell = json_array_get(cells, i);
			const struct cb_baseline_row *row = &p->b->rows[i];

			json_object_set_new(cell, "runs",
			                    json_integer((json_int_t)row->other_runs));
			json_object_set_new(cell, "baseline_runs",
			                    json_integer((json_int_t)row->base_runs));
			json_object_set_new(cell, "reproducibility",
			                    json_string(cb_hosts_repro_name(p->other_repro[i])));
			json_object_set_new(cell, "baseline_reproducibility",
			                    json_string(cb_hosts_repro_name(p->base_repro[i])));
		}
		json_array_append_new(all, one);
	}
	json_dumpf(all, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(all);
}

void cb_report_hosts(FILE *out, const struct cb_hosts *h, enum cb_report_format f, bool details)
{
	const char *item = f == CB_FORMAT_MARKDOWN ? "- " : "  ";
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
