/* results_schema.c: the trial line's fields, each once: how it is written and
 * what the readers keep (results_schema.h). */
#include "core/results/results_schema.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "core/algorithms/algorithm.h"
#include "core/results/results.h"

/* A trial timed on the sim's clock, by a worker, or here. */
static bool on_virtual_clock(const struct cb_trial_record *t)
{
	return t->result->virtual_clock;
}

static bool by_worker(const struct cb_trial_record *t)
{
	return !t->result->virtual_clock && t->result->remote;
}

static bool here(const struct cb_trial_record *t)
{
	return !t->result->virtual_clock && !t->result->remote;
}

static json_t *count(uint64_t n)
{
	return json_integer((json_int_t)n);
}

static json_t *round_value(const struct cb_trial_record *t)
{
	return count(t->round);
}

static json_t *seq_value(const struct cb_trial_record *t)
{
	return count(t->seq);
}

static json_t *cell_value(const struct cb_trial_record *t)
{
	return cb_cell_to_json(t->cell);
}

static json_t *warmup_value(const struct cb_trial_record *t)
{
	return json_boolean(t->warmup);
}

static json_t *calls_value(const struct cb_trial_record *t)
{
	return count(t->calls);
}

/* A public-key cell counts operations; every other cell payload bytes. */
static json_t *ops_value(const struct cb_trial_record *t)
{
	return cb_alg_is_pk(t->cell->alg) ? count(t->calls * t->cell->threads) : NULL;
}

static json_t *bytes_value(const struct cb_trial_record *t)
{
	return cb_alg_is_pk(t->cell->alg) ? NULL
	                                  : count(t->calls * t->cell->size * t->cell->threads);
}

static json_t *valid_value(const struct cb_trial_record *t)
{
	return json_boolean(t->result->valid);
}

static json_t *restarts_value(const struct cb_trial_record *t)
{
	return t->result->remote && t->result->restarts ? json_integer(t->result->restarts) : NULL;
}

static json_t *error_value(const struct cb_trial_record *t)
{
	return t->result->valid ? NULL : json_string(t->result->error);
}

static json_t *ns_value(const struct cb_trial_record *t)
{
	return count(t->result->ns);
}

/* Calibration aims past the trial time; a trial can still fall short (the
 * clock sped up, or the cell's calls were capped). */
static json_t *reached_value(const struct cb_trial_record *t)
{
	return json_boolean(t->result->ns >= t->trial_time_ns);
}

/* A worker's trial: what its calls did with outputs, and what it placed as
 * told (the input's offset; with layout "trial", the outputs and the
 * stack): a runtime that cannot place something leaves it out. */
static json_t *output_mode_value(const struct cb_trial_record *t)
{
	return t->result->remote ? json_string(t->result->output_mode) : NULL;
}

static json_t *input_offset_value(const struct cb_trial_record *t)
{
	return t->result->remote && t->result->placed_input_offset >= 0
	           ? json_integer(t->result->placed_input_offset)
	           : NULL;
}

static json_t *layout_value(const struct cb_trial_record *t)
{
	const struct cb_trial_result *r = t->result;
	json_t *layout;

	if (!t->layout_per_trial)
		return NULL;
	if (!r->remote) {
		layout = json_pack("{s:I, s:I}", "stack", (json_int_t)t->layout.stack, "out",
		                   (json_int_t)t->layout.out);
		if (layout && t->layout.input_placed) /* not past CB_STAGE_MAX */
			json_object_set_new(layout, "input",
			                    json_integer((json_int_t)t->layout.input));
		return layout;
	}
	layout = json_object();
	if (r->placed_stack >= 0)
		json_object_set_new(layout, "stack", json_integer(r->placed_stack));
	if (r->placed_out >= 0)
		json_object_set_new(layout, "out", json_integer(r->placed_out));
	if (json_object_size(layout))
		return layout;
	json_decref(layout);
	return NULL;
}

static json_t *clock_value(const struct cb_trial_record *t)
{
	if (on_virtual_clock(t))
		return json_string("virtual");
	return by_worker(t) ? json_string("worker") : NULL;
}

static json_t *cpu_ns_value(const struct cb_trial_record *t)
{
	if (here(t) || (by_worker(t) && t->result->remote_cpu))
		return count(t->result->cpu_ns);
	return NULL;
}

static json_t *round_trip_value(const struct cb_trial_record *t)
{
	return by_worker(t) ? count(t->result->round_trip_ns) : NULL;
}

static json_t *input_sha256_value(const struct cb_trial_record *t)
{
	return by_worker(t) ? json_string(t->result->input_sha256) : NULL;
}

static json_t *ticks_value(const struct cb_trial_record *t)
{
	return here(t) && t->result->ticks ? count(t->result->ticks) : NULL;
}

/* Whether this trial's cycles are estimated from the core clock around it. */
static bool cycles_estimated(const struct cb_trial_record *t)
{
	return here(t) && !t->cycles_counted && t->result->core_hz_before > 0 &&
	       t->result->core_hz_after > 0;
}

static json_t *hz_before_value(const struct cb_trial_record *t)
{
	return cycles_estimated(t) ? json_real(t->result->core_hz_before) : NULL;
}

static json_t *hz_after_value(const struct cb_trial_record *t)
{
	return cycles_estimated(t) ? json_real(t->result->core_hz_after) : NULL;
}

static json_t *cycles_value(const struct cb_trial_record *t)
{
	const struct cb_trial_result *r = t->result;

	if (on_virtual_clock(t)) /* the engine's virtual cycles: its work */
		return r->cycles ? count(r->cycles) : NULL;
	if (here(t) && t->cycles_counted)
		return count(r->cycles);
	/* Estimated cycles: the threads' CPU time (summed over threads, as the
	 * counter sums its cycles; preempted time left out, as the counter
	 * leaves it out) at the estimated clock. */
	if (cycles_estimated(t)) {
		double hz = (r->core_hz_before + r->core_hz_after) / 2;

		return json_real((double)r->cpu_ns * hz / 1e9);
	}
	return NULL;
}

static json_t *thread_ns_value(const struct cb_trial_record *t)
{
	json_t *each;

	if (t->cell->threads <= 1)
		return NULL;
	each = json_array();
	for (unsigned i = 0; i < t->cell->threads; i++)
		json_array_append_new(each, count(t->result->thread_ns[i]));
	return each;
}

static json_t *output_value(const struct cb_trial_record *t)
{
	return json_string(t->result->output);
}

static json_t *digest_value(const struct cb_trial_record *t)
{
	return t->result->digest[0] ? json_string(t->result->digest) : NULL;
}

static json_t *output_sha256_value(const struct cb_trial_record *t)
{
	return json_string(t->result->output_sha256);
}

#define AT(member)                                                                                 \
	.at = offsetof(struct cb_result_trial, member),                                            \
	.width = sizeof(((struct cb_result_trial *)0)->member)

const struct cb_trial_field cb_trial_fields[] = {
    {"round", round_value, .keep = CB_KEEP_COUNT, .required = true, .max = UINT32_MAX, AT(round)},
    {"seq", seq_value, .keep = CB_KEEP_COUNT, .required = true, .max = INT64_MAX, AT(seq)},
    {"cell", cell_value, .keep = CB_KEEP_CELL},
    {"warmup", warmup_value, .keep = CB_KEEP_FLAG, AT(warmup)},
    {"calls", calls_value, .keep = CB_KEEP_COUNT, .max = INT64_MAX, AT(calls)},
    {"ops", ops_value, .keep = CB_KEEP_OPS, .max = INT64_MAX},
    {"bytes", bytes_value, .keep = CB_KEEP_BYTES, .max = INT64_MAX, AT(bytes)},
    {"valid", valid_value, .keep = CB_KEEP_VALID},
    {"worker_restarts", restarts_value, .keep = CB_KEEP_NOTHING},
    {"error", error_value, .keep = CB_KEEP_ERROR},
    {"ns", ns_value, .valid_only = true, .keep = CB_KEEP_TIME, AT(ns)},
    {"trial_time_reached", reached_value, .valid_only = true, .keep = CB_KEEP_TRISTATE,
     AT(trial_time_reached)},
    {"output_mode", output_mode_value, .valid_only = true},
    {"input_offset", input_offset_value, .valid_only = true},
    {"layout", layout_value, .valid_only = true, .keep = CB_KEEP_LAYOUT},
    {"clock", clock_value, .valid_only = true, .keep = CB_KEEP_CLOCK},
    {"cpu_ns", cpu_ns_value, .valid_only = true, .keep = CB_KEEP_TIME, AT(cpu_ns)},
    {"round_trip_ns", round_trip_value, .valid_only = true},
    {"input_sha256", input_sha256_value, .valid_only = true},
    {"ticks", ticks_value, .valid_only = true},
    {"core_hz_before", hz_before_value, .valid_only = true},
    {"core_hz_after", hz_after_value, .valid_only = true},
    {"cycles", cycles_value, .valid_only = true, .keep = CB_KEEP_TIME, AT(cycles)},
    {"thread_ns", thread_ns_value, .valid_only = true, .keep = CB_KEEP_TIMES},
    {"output", output_value, .valid_only = true},
    {"digest", digest_value, .valid_only = true},
    {"output_sha256", output_sha256_value, .valid_only = true},
};
const size_t cb_n_trial_fields = sizeof cb_trial_fields / sizeof cb_trial_fields[0];

json_t *cb_results_trial_json(const struct cb_trial_record *t)
{
	json_t *line = json_object();

	for (size_t i = 0; i < cb_n_trial_fields; i++) {
		const struct cb_trial_field *f = &cb_trial_fields[i];
		json_t *v;

		if (f->valid_only && !t->result->valid)
			continue;
		if ((v = f->value(t)))
			json_object_set_new(line, f->key, v);
	}
	return line;
}

void cb_trial_field_store(const struct cb_trial_field *f, struct cb_result_trial *t, uint64_t n)
{
	char *at = (char *)t + f->at;

	if (f->width == sizeof(uint32_t)) {
		uint32_t narrow = (uint32_t)n;

		memcpy(at, &narrow, sizeof narrow);
	} else {
		memcpy(at, &n, sizeof n);
	}
}

int cb_results_write_trial(struct cb_writer *w, const struct cb_trial_record *t)
{
	return cb_writer_line_take(w, "trial", cb_results_trial_json(t));
}
