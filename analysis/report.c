/* report.c: per-cell tables from results files. */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "units.h"

struct cell_summary {
	size_t n, invalid, warmup;
	double min_ns_call, median_ns_call, max_ns_call;     /* per call */
	double best_mbs, median_mbs, worst_mbs;              /* payload MB/s (10^6) */
	const char *first_error;
};

static void summarise(const struct cb_results *r, size_t cell, struct cell_summary *s)
{
	double *per_call = malloc((r->n_trials + 1) * sizeof *per_call);
	double *mbs = malloc((r->n_trials + 1) * sizeof *mbs);

	memset(s, 0, sizeof *s);
	for (size_t i = 0; i < r->n_trials; i++) {
		const struct cb_result_trial *t = &r->trials[i];

		if (t->cell != cell)
			continue;
		if (!t->valid) {
			s->invalid++;
			if (!s->first_error)
				s->first_error = t->error;
			continue;
		}
		if (t->warmup) {
			s->warmup++;
			continue;
		}
		if (t->ns <= 0 || !t->calls)
			continue;
		per_call[s->n] = t->ns / (double)t->calls;
		mbs[s->n] = (double)t->bytes / t->ns * 1e3;
		s->n++;
	}
	if (s->n) {
		gsl_sort(per_call, 1, s->n);
		gsl_sort(mbs, 1, s->n);
		s->min_ns_call = per_call[0];
		s->max_ns_call = per_call[s->n - 1];
		s->median_ns_call = gsl_stats_median_from_sorted_data(per_call, 1, s->n);
		s->worst_mbs = mbs[0];
		s->best_mbs = mbs[s->n - 1];
		s->median_mbs = gsl_stats_median_from_sorted_data(mbs, 1, s->n);
	}
	free(per_call);
	free(mbs);
}

int cb_report_parse_format(const char *name)
{
	static const char *const names[] = {"text", "markdown", "csv", "json"};

	for (int i = 0; i < 4; i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

static const char *header_string(const struct cb_results *r, const char *obj, const char *key)
{
	json_t *o = obj ? json_object_get(r->header, obj) : r->header;
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "?";
}

static void print_title(FILE *out, const struct cb_results *r, enum cb_report_format f)
{
	const char *mark = f == CB_FORMAT_MARKDOWN ? "## " : "";

	fprintf(out, "%s%s: scenario %s, run %s, started %s%s\n", mark, r->path,
		header_string(r, "scenario", "name"), header_string(r, NULL, "run_id"),
		header_string(r, NULL, "started"), r->interrupted ? " (INTERRUPTED: partial)" : "");
	fprintf(out, "host: %s, %lld logical cores; input %s seed %lld (sha256 %.16s...)\n\n",
		header_string(r, "host", "cpu"),
		(long long)json_integer_value(json_object_get(json_object_get(r->header, "host"), "logical_cores")),
		header_string(r, "input", "generator"),
		(long long)json_integer_value(json_object_get(json_object_get(r->header, "input"), "seed")),
		header_string(r, "input", "sha256"));
}

static int print_cells(FILE *out, const struct cb_results *r, enum cb_report_format f, json_t *json)
{
	int problems = 0;
	char size[32];

	if (f == CB_FORMAT_TEXT)
		fprintf(out, "%-16s %-17s %-14s %8s %3s %4s | %10s %10s %10s | %12s\n", "engine",
			"algorithm", "op", "size", "thr", "n", "best MB/s", "median", "worst",
			"median ns/call");
	else if (f == CB_FORMAT_MARKDOWN)
		fprintf(out, "| engine | algorithm | op | size | threads | n | best MB/s | median MB/s | worst MB/s | median ns/call |\n"
			     "|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
	for (size_t c = 0; c < r->n_cells; c++) {
		const struct cb_result_cell *cell = &r->cells[c];
		struct cell_summary s;

		summarise(r, c, &s);
		problems |= s.invalid > 0;
		cb_format_size(cell->size, size);
		switch (f) {
		case CB_FORMAT_TEXT:
			fprintf(out, "%-16s %-17s %-14s %8s %3u %4zu | %10.1f %10.1f %10.1f | %12.1f\n",
				cell->label, cell->algorithm, cell->op, size, cell->threads, s.n,
				s.best_mbs, s.median_mbs, s.worst_mbs, s.median_ns_call);
			break;
		case CB_FORMAT_MARKDOWN:
			fprintf(out, "| %s | %s | %s | %s | %u | %zu | %.1f | %.1f | %.1f | %.1f |\n",
				cell->label, cell->algorithm, cell->op, size, cell->threads, s.n,
				s.best_mbs, s.median_mbs, s.worst_mbs, s.median_ns_call);
			break;
		case CB_FORMAT_CSV:
			fprintf(out, "%s,%s,%s,%s,%llu,%u,%zu,%zu,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g\n", r->path,
				cell->label, cell->algorithm, cell->op, (unsigned long long)cell->size,
				cell->threads, s.n, s.invalid, s.best_mbs, s.median_mbs, s.worst_mbs,
				s.min_ns_call, s.median_ns_call, s.max_ns_call);
			break;
		case CB_FORMAT_JSON:
			json_array_append_new(
				json, json_pack("{s:s, s:O, s:I, s:I, s:{s:f, s:f, s:f}, s:{s:f, s:f, s:f}, s:s?}",
						"file", r->path, "cell", cell->json, "n", (json_int_t)s.n,
						"invalid", (json_int_t)s.invalid, "mb_per_s", "max", s.best_mbs,
						"median", s.median_mbs, "min", s.worst_mbs, "ns_per_call", "min",
						s.min_ns_call, "median", s.median_ns_call, "max", s.max_ns_call,
						"first_error", s.first_error));
			break;
		}
		if (s.invalid && (f == CB_FORMAT_TEXT || f == CB_FORMAT_MARKDOWN))
			fprintf(out, "%s  ^ %zu invalid trial%s, no timing kept: %s\n",
				f == CB_FORMAT_MARKDOWN ? "\n>" : "", s.invalid, s.invalid == 1 ? "" : "s",
				s.first_error ? s.first_error : "?");
	}
	return problems;
}

static void print_skips(FILE *out, const struct cb_results *r, enum cb_report_format f)
{
	size_t i;
	json_t *skip;

	if (f != CB_FORMAT_TEXT && f != CB_FORMAT_MARKDOWN)
		return;
	if (json_array_size(r->skips))
		fprintf(out, "\nskipped:\n");
	json_array_foreach(r->skips, i, skip)
		fprintf(out, "  %s\n", json_string_value(json_object_get(skip, "reason")));
}

int cb_report_print(FILE *out, struct cb_results *const *files, size_t n,
		    const struct cb_report_options *options)
{
	enum cb_report_format f = options->format;
	json_t *json = f == CB_FORMAT_JSON ? json_array() : NULL;
	int problems = 0;

	if (f == CB_FORMAT_CSV)
		fprintf(out, "file,label,algorithm,op,size,threads,n,invalid,mb_per_s_max,mb_per_s_median,"
			     "mb_per_s_min,ns_per_call_min,ns_per_call_median,ns_per_call_max\n");
	for (size_t i = 0; i < n; i++) {
		if (f == CB_FORMAT_TEXT || f == CB_FORMAT_MARKDOWN)
			print_title(out, files[i], f);
		problems |= print_cells(out, files[i], f, json);
		print_skips(out, files[i], f);
		if ((f == CB_FORMAT_TEXT || f == CB_FORMAT_MARKDOWN) && i + 1 < n)
			fprintf(out, "\n");
	}
	if (f == CB_FORMAT_TEXT)
		fprintf(out, "\nMB/s = 10^6 bytes per second of payload; best/median/worst over the valid,\n"
			     "non-warm-up trials of each cell (n). ns/call = trial time / calls.\n");
	if (json) {
		json_dumpf(json, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fprintf(out, "\n");
		json_decref(json);
	}
	return problems;
}
