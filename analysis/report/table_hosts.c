/* table_hosts.c: a host against the baseline host, one row per host and
 * common cell: each host's runs pooled, their reproducibility, the speed
 * ratio and its verdict (table_baseline.h). Source: struct cb_hosts_view. */
#include "analysis/report/report.h"
#include "analysis/report/table_baseline.h"
#include "analysis/verdicts/hosts.h"

static const struct cb_hosts_view *view_of(const struct cb_row *r)
{
	return r->source;
}

static const struct cb_host *host_of(const struct cb_row *r)
{
	return &view_of(r)->hosts->hosts[view_of(r)->pair->host];
}

static const struct cb_host *base_host(const struct cb_row *r)
{
	return &view_of(r)->hosts->hosts[0];
}

/* The row's index in its comparison. */
static size_t index_of(const struct cb_row *r)
{
	return (size_t)((const struct cb_baseline_row *)r->item - view_of(r)->pair->b->rows);
}

static void rows(const void *source, cb_table_emit *emit, void *arg)
{
	cb_tb_rows(((const struct cb_hosts_view *)source)->pair->b, emit, arg);
}

static bool several_runs(const struct cb_hosts *h)
{
	for (size_t i = 0; i < h->n; i++)
		if (h->hosts[i].k > 1)
			return true;
	return false;
}

static unsigned conditions(const void *source, const struct cb_table_options *o)
{
	const struct cb_hosts_view *hv = source;

	return cb_tb_conditions(hv->pair->b) | (several_runs(hv->hosts) ? CB_IF_RUNS : 0) |
	       (o->details || o->format == CB_FORMAT_MARKDOWN ? CB_IF_INTERVALS : 0);
}

#define HROW(fn, ...) CB_GET(fn, struct cb_baseline_row, row, __VA_ARGS__)
HROW(file, cb_value_text(v, host_of(r)->files[0]->path))
HROW(run, cb_value_int(v, (long long)r->run))
HROW(host, cb_value_text(v, host_of(r)->name))
HROW(baseline_host, cb_value_text(v, base_host(r)->name))
HROW(runs, cb_value_int(v, (long long)row->other_runs))
HROW(baseline_runs, cb_value_int(v, (long long)row->base_runs))
HROW(repro, cb_value_text(v, cb_hosts_repro_name(view_of(r)->pair->other_repro[index_of(r)])))
HROW(base_repro, cb_value_text(v, cb_hosts_repro_name(view_of(r)->pair->base_repro[index_of(r)])))
HROW(baseline_file, cb_value_text(v, base_host(r)->files[0]->path))

static const struct cb_column columns[] = {
    {"file", CB_COL_TEXT, NULL, file, CB_CSV, NULL,
     "the host's first run: in JSON once for the host (its object's runs)", NULL},
    {"run", CB_COL_INT, NULL, run, CB_CSV, NULL,
     "in JSON: the host's place in the array of hosts compared", NULL},
    CB_TB_KEY_COLUMNS,
    {"host", CB_COL_TEXT, NULL, host, CB_CSV, NULL, "in JSON once for the host (its object's host)",
     NULL},
    {"baseline_host", CB_COL_TEXT, NULL, baseline_host, CB_CSV, NULL,
     "in JSON once for the host (its object's baseline_host)", NULL},
    {"runs", CB_COL_INT, NULL, runs, CB_CSV_JSON, "runs", NULL, NULL},
    {"baseline_runs", CB_COL_INT, NULL, baseline_runs, CB_CSV_JSON, "baseline_runs", NULL, NULL},
    {"reproducibility", CB_COL_TEXT, NULL, repro, CB_CSV_JSON, "reproducibility", NULL, NULL},
    {"baseline_reproducibility", CB_COL_TEXT, NULL, base_repro, CB_CSV_JSON,
     "baseline_reproducibility", NULL, NULL},
    {"baseline_file", CB_COL_TEXT, NULL, baseline_file, CB_CSV, NULL,
     "the baseline host's first run: in JSON once (its object's baseline_runs)", NULL},
    CB_TB_ROW_COLUMNS,
};

/* ---- Text: without --details each host's estimate without its interval
 * (the ratio keeps its own), within 100 columns ---- */

/* The reproducibility of a host in the runs column: its runs and a code
 * ("2 ok", "3 NR", "2 C", "2 ?"), "1" for a single run. */
static void runs_code(size_t runs, const struct cb_compare_row *row, char *buf, size_t len)
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
}

static void text_runs(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_baseline_row *row = r->item;
	size_t i = index_of(r);
	char a[32], b[32];

	runs_code(row->base_runs, view_of(r)->pair->base_repro[i], a, sizeof a);
	runs_code(row->other_runs, view_of(r)->pair->other_repro[i], b, sizeof b);
	snprintf(buf, len, "%s/%s", a, b);
}

#define INTERVALS CB_IF_INTERVALS, 0
#define BARE 0, CB_IF_INTERVALS
static const struct cb_text_column text[] = {
    CB_KEY_TEXT(CB_IF_THREADS),
    {"on", 'l', CB_IF_MEASURES, 0, "measure", CB_SHOW_VALUE, NULL, NULL, false},
    {"A [95% CI]", 'r', INTERVALS, "baseline baseline_lo baseline_hi", CB_SHOW_ESTIMATE, NULL, NULL,
     false},
    {"A", 'r', BARE, "baseline", CB_SHOW_VALUE, NULL, NULL, false},
    {"B [95% CI]", 'r', INTERVALS, "estimate estimate_lo estimate_hi", CB_SHOW_ESTIMATE, NULL, NULL,
     false},
    {"B", 'r', BARE, "estimate", CB_SHOW_VALUE, NULL, NULL, false},
    {"runs A/B", 'r', CB_IF_RUNS, 0, NULL, CB_SHOW_VALUE, text_runs,
     "baseline_runs baseline_reproducibility runs reproducibility, in short", false},
    {"B/A: change [95% CI]", 'l', 0, 0, "ratio ratio_lo ratio_hi", CB_SHOW_CHANGE, NULL, NULL,
     false},
    {"verdict", 'l', 0, 0, "verdict", CB_SHOW_VALUE, NULL, NULL, false},
};

const struct cb_table_def cb_table_hosts = {
    .name = "cells",
    .about = "one row per host compared and common cell: each host's runs pooled, their "
             "reproducibility, the speed ratio B/A and its verdict",
    .json_rows = "cells",
    .rows = rows,
    .conditions = conditions,
    .json_order = CB_TB_JSON_ORDER " runs baseline_runs reproducibility baseline_reproducibility",
    .columns = columns,
    .n_columns = CB_N(columns),
    .text = {text, CB_N(text), NULL, false},
};
