/* report_json.c: the report as JSON (everything, with intervals, methods, n
 * and seeds): a run's identity and options, then its sections' members
 * (report_sections.c). */
#include "analysis/report/report.h"

json_t *cb_report_run_json(const struct cb_analysis *a, const struct cb_report_options *o)
{
	const struct cb_results *r = a->results;
	json_t *j = json_object();

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
	for (size_t s = 0; s < cb_n_report_sections; s++)
		if (cb_report_sections[s].json)
			cb_report_sections[s].json(j, a, o);
	return j;
}
