/* report_json.c: the report as JSON (everything, with intervals, methods, n
 * and seeds). */
#include "analysis/report/report.h"

#include "analysis/report/tables.h"
#include "analysis/verdicts/masks.h"

#include <math.h>
#include <string.h>

#define NUM cb_report_json_number

/* ---- One run ---- */

json_t *cb_report_run_json(const struct cb_analysis *a, const struct cb_report_options *o)
{
	const struct cb_results *r = a->results;
	struct cb_table_options to = {
	    .format = o->format, .statistic = o->statistic, .details = o->details};
	json_t *j = json_object(), *notes = json_array(), *masks;

	json_object_set_new(j, "file", json_string(r->path));
	json_object_set_new(j, "run_id", json_string(cb_results_header_string(r, NULL, "run_id")));
	json_object_set_new(j, "scenario",
	                    json_string(cb_results_header_string(r, "scenario", "name")));
	json_object_set_new(j, "run_index",
	                    json_integer(cb_results_header_int(r, NULL, "run_index")));
	json_object_set_new(j, "interrupted", json_boolean(r->interrupted));
	json_object_set_new(
	    j, "seeds",
	    json_pack("{s:I, s:I, s:O?}", "order",
	              (json_int_t)cb_results_header_int(r, NULL, "order_seed"), "input",
	              (json_int_t)cb_results_header_int(r, "input", "seed"), "params",
	              json_object_get(json_object_get(r->header, "scenario"), "params")));
	json_object_set_new(j, "rounds", json_integer((json_int_t)a->summary->n_rounds));
	json_object_set_new(j, "cycles_counter",
	                    a->summary->counter ? json_string(a->summary->counter) : json_null());
	json_object_set_new(j, "virtual_clock", json_boolean(a->summary->virtual_clock));
	json_object_set_new(j, "options",
	                    json_pack("{s:f, s:f, s:f, s:f, s:f, s:s}", "level", o->summary.level,
	                              "contamination_max", o->summary.contamination_max,
	                              "drift_alpha", o->summary.drift_alpha, "preempt_ratio",
	                              o->summary.preempt_ratio, "delta", a->options.delta,
	                              "statistic", cb_statistics[o->statistic].name));
	for (size_t i = 0; i < a->n_notes; i++)
		json_array_append_new(notes, json_string(a->notes[i]));
	json_object_set_new(
	    j, "winners",
	    json_pack("{s:s, s:o, s:o}", "method",
	              a->summary->options.sequential
	                  ? "median per-round throughput; others over the fastest paired by "
	                    "round, confidence sequence (normal mixture), Bonferroni; tied: "
	                    "equivalent within delta"
	                  : "median per-round throughput; others over the fastest paired by "
	                    "round, exact sign-test interval, Bonferroni; tied: equivalent "
	                    "within delta",
	              "delta", NUM(a->winners ? a->winners->delta : NAN), "groups",
	              cb_table_json(&cb_table_winners, a, 1, &to)));
	json_object_set_new(j, "cells", cb_table_json(&cb_table_cells, a, 1, &to));
	if (cb_analysis_has_pk(a)) { /* only for a run with public-key cells */
		json_object_set_new(j, "pk_winners",
		                    cb_table_json(&cb_table_pk_winners, a, 1, &to));
		json_object_set_new(j, "pk_cells", cb_table_json(&cb_table_pk_cells, a, 1, &to));
	}
	json_object_set_new(j, "derived", cb_table_json(&cb_table_derived, a, 1, &to));
	json_object_set_new(j, "slopes", cb_table_json(&cb_table_slopes, a, 1, &to));
	json_object_set_new(j, "crossovers", cb_table_json(&cb_table_crossovers, a, 1, &to));
	json_object_set_new(j, "skips", json_copy(r->skips));
	json_object_set_new(j, "notes", notes);
	if ((masks = cb_masks_json(a, &to)))
		json_object_set_new(j, "masks", masks); /* only for a run with masked variants */
	/* Only for a run with profiled trials. */
	if (a->attribution->lines)
		json_object_set_new(j, "explain", cb_report_explain_json(a, &to));
	return j;
}
