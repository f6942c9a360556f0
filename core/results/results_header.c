/* results_header.c: the run header's fields, each once, and the skip, look
 * and end lines (results_schema.h). */
#include "config.h"

#include "core/results/build.h"
#include "core/results/results_schema.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "core/algorithms/algorithm.h"
#include "core/engine/engine.h"
#include "core/engine/extern.h"
#include "core/builds/libbuild.h"
#include "core/machine/host.h"
#include "core/algorithms/input.h"
#include "core/algorithms/pk.h"
#include "core/results/results.h"
#include "core/measure/scenario.h"

static json_t *iso_time_now(void)
{
	char buf[32];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return json_string(buf);
}

static json_t *run_id_value(const struct cb_header_record *h)
{
	unsigned char id[8];
	char id_hex[17];

	(void)h;
	if (getrandom(id, sizeof id, 0) != (ssize_t)sizeof id)
		memset(id, 0, sizeof id);
	cb_hex(id, sizeof id, id_hex);
	return json_string(id_hex);
}

static json_t *started_value(const struct cb_header_record *h)
{
	(void)h;
	return iso_time_now();
}

static json_t *tool_value(const struct cb_header_record *h)
{
	return json_pack("{s:s, s:s, s:s, s:s?}", "name", PACKAGE_NAME, "version", PACKAGE_VERSION,
	                 "build", CB_BUILD, "command_line", h->command_line);
}

static json_t *host_value(const struct cb_header_record *h)
{
	json_t *host = cb_host_capture();

	if (h->host_name) /* the name the host is known by (host_id.h) */
		json_object_set_new(host, "name_given", json_string(h->host_name));
	return host;
}

static json_t *scenario_value(const struct cb_header_record *h)
{
	return cb_scenario_to_json(h->plan->scenario);
}

static json_t *engines_value(const struct cb_header_record *h)
{
	const struct cb_scenario *sc = h->plan->scenario;
	json_t *list = json_array();

	for (size_t v = 0; v < sc->n_variants; v++) {
		const struct cb_engine *e = sc->variants[v].engine;
		const char *why = NULL;
		int seen = 0;
		json_t *obj;

		for (size_t u = 0; u < v; u++)
			seen |= sc->variants[u].engine == e;
		if (seen)
			continue;
		obj = json_pack("{s:s, s:s, s:s}", "name", e->name, "kind", e->kind, "version",
		                e->version());
		json_object_set_new(obj, "usable", json_boolean(cb_engine_usable(e, &why)));
		if (why)
			json_object_set_new(obj, "why", json_string(why));
		if (e->virtual_ns)
			json_object_set_new(obj, "clock", json_string("virtual"));
		json_t *library = cb_libbuild_json(e);
		if (library)
			json_object_set_new(obj, "library", library);
		if (e->describe) {
			json_t *features = json_object();

			e->describe(features);
			json_object_set_new(obj, "features", features);
		}
		json_array_append_new(list, obj);
	}
	return list;
}

static json_t *externals_value(const struct cb_header_record *h)
{
	(void)h;
	return cb_extern_any() ? cb_extern_json() : NULL;
}

static json_t *input_value(const struct cb_header_record *h)
{
	const struct cb_scenario *sc = h->plan->scenario;

	return json_pack("{s:s, s:I, s:I, s:I, s:I, s:s, s:s}", "generator", "xorshift32", "seed",
	                 (json_int_t)sc->input_seed, "unit", (json_int_t)CB_INPUT_UNIT, "offset",
	                 (json_int_t)sc->input_offset, "size", (json_int_t)h->input_len, "sha256",
	                 h->input_sha256, "unit_sha256", h->unit_sha256);
}

static json_t *counter_value(const struct cb_header_record *h)
{
	json_t *counter = json_pack("{s:s, s:I, s:s, s:s, s:f}", "wall", "CLOCK_MONOTONIC_RAW",
	                            "wall_resolution_ns", (json_int_t)h->resolution_ns, "cpu",
	                            "CLOCK_THREAD_CPUTIME_ID", "cycles", h->cycles->kind,
	                            "core_hz_start", h->core_hz_start);

	if (h->cycles->fd < 0)
		json_object_set_new(counter, "cycles_why", json_string(h->cycles->why));
	json_object_set_new(counter, "tsc_hz",
	                    cb_tsc_present() ? json_real(cb_tsc_hz()) : json_null());
	return counter;
}

static json_t *order_value(const struct cb_header_record *h)
{
	return json_string(cb_order_name(h->plan->scenario->order));
}

static json_t *order_seed_value(const struct cb_header_record *h)
{
	return json_integer((json_int_t)h->plan->scenario->order_seed);
}

static json_t *rounds_value(const struct cb_header_record *h)
{
	return json_integer(h->plan->scenario->rounds);
}

static json_t *warmup_rounds_value(const struct cb_header_record *h)
{
	return json_integer(h->plan->scenario->warmup_rounds);
}

static json_t *trial_time_value(const struct cb_header_record *h)
{
	return json_integer((json_int_t)h->trial_time_ns);
}

static json_t *cells_value(const struct cb_header_record *h)
{
	return json_integer((json_int_t)h->plan->n_cells);
}

static json_t *run_index_value(const struct cb_header_record *h)
{
	return json_integer(h->run_index);
}

/* The layout this run was given (--runs draws it per run); with layout
 * "trial", the largest payload whose input is placed per trial (in
 * process: a worker's stays at input_offset). */
static json_t *setup_value(const struct cb_header_record *h)
{
	const struct cb_scenario *sc = h->plan->scenario;
	const char *seed = getenv("CRYPTOBENCH_SETUP_SEED");
	const char *pad = getenv("CRYPTOBENCH_ENV_PAD");
	json_t *setup = json_pack(
	    "{s:I, s:I, s:o, s:s, s:I}", "input_offset", (json_int_t)sc->input_offset, "env_pad",
	    (json_int_t)(pad ? strlen(pad) : 0), "seed",
	    seed ? json_integer((json_int_t)strtoull(seed, NULL, 10)) : json_null(), "layout",
	    sc->layout_per_trial ? "trial" : "run", "layout_seed", (json_int_t)h->layout_seed);

	if (setup && sc->layout_per_trial)
		json_object_set_new(setup, "input_per_trial_max", json_integer(CB_STAGE_MAX));
	return setup;
}

static json_t *runs_value(const struct cb_header_record *h)
{
	return json_integer(h->runs ? h->runs : 1);
}

static bool has_pk_cells(const struct cb_plan *plan)
{
	for (size_t i = 0; i < plan->n_cells; i++)
		if (cb_alg_is_pk(plan->cells[i].alg))
			return true;
	return false;
}

/* A plan with public-key cells: schema cryptobench/2 (results.h). */
static json_t *schema_value(const struct cb_header_record *h)
{
	return has_pk_cells(h->plan) ? json_string(CB_SCHEMA_PK) : NULL;
}

/* The keys every engine was given, by SHA-256 of their SubjectPublicKeyInfo
 * and the published vector they come from. */
static json_t *keys_value(const struct cb_header_record *h)
{
	const struct cb_plan *plan = h->plan;
	json_t *keys = json_object();
	char err[256];

	for (size_t i = 0; i < plan->n_cells; i++) {
		const struct cb_algorithm *alg = plan->cells[i].alg;
		const struct cb_pk_key *key, *peer;

		if (!cb_alg_is_pk(alg) || json_object_get(keys, alg->name))
			continue;
		key = cb_pk_fixed_key(alg, false, err, sizeof err);
		peer =
		    alg->kind == CB_KIND_KEX ? cb_pk_fixed_key(alg, true, err, sizeof err) : NULL;
		json_object_set_new(keys, alg->name,
		                    json_pack("{s:s?, s:s?, s:s}", "spki_sha256",
		                              key ? key->spki_sha256 : NULL, "peer_spki_sha256",
		                              peer ? peer->spki_sha256 : NULL, "source",
		                              cb_pk_key_source(alg)));
	}
	if (json_object_size(keys))
		return keys;
	json_decref(keys);
	return NULL;
}

/* Only with profiled trials (run --explain). */
static json_t *explain_value(const struct cb_header_record *h)
{
	return h->explain ? json_incref(h->explain) : NULL;
}

const struct cb_header_field cb_header_fields[] = {
    {"run_id", run_id_value},
    {"started", started_value},
    {"tool", tool_value},
    {"host", host_value},
    {"scenario", scenario_value},
    {"engines", engines_value},
    {"externals", externals_value},
    {"input", input_value},
    {"counter", counter_value},
    {"order", order_value},
    {"order_seed", order_seed_value},
    {"rounds", rounds_value},
    {"warmup_rounds", warmup_rounds_value},
    {"trial_time_ns", trial_time_value},
    {"cells", cells_value},
    {"run_index", run_index_value},
    {"setup", setup_value},
    {"runs", runs_value},
    {"schema", schema_value},
    {"keys", keys_value},
    {"explain", explain_value},
};
const size_t cb_n_header_fields = sizeof cb_header_fields / sizeof cb_header_fields[0];

json_t *cb_results_header_json(const struct cb_header_record *h)
{
	json_t *line = json_object();

	for (size_t i = 0; i < cb_n_header_fields; i++) {
		json_t *v = cb_header_fields[i].value(h);

		if (v)
			json_object_set_new(line, cb_header_fields[i].key, v);
	}
	return line;
}

json_t *cb_results_skip_json(const struct cb_skip *s)
{
	return json_pack("{s:{s:s, s:s, s:s, s:s}, s:s}", "cell", "engine",
	                 s->variant->engine->name, "label", s->variant->label, "algorithm",
	                 s->alg->name, "op", cb_op_name(s->op), "reason", s->reason);
}

json_t *cb_results_look_json(const struct cb_plan *plan, const bool *open, unsigned round,
                             double elapsed_s, json_t *fields, size_t questions_open)
{
	json_t *line = json_pack("{s:i, s:f}", "round", (int)round, "elapsed_s", elapsed_s);
	json_t *measuring = json_array();
	char key[1024];

	if (fields)
		json_object_update(line, fields);
	for (size_t c = 0; c < plan->n_cells; c++)
		if (open[c]) {
			cb_cell_key(&plan->cells[c], key, sizeof key);
			json_array_append_new(measuring, json_string(key));
		}
	json_object_set_new(line, "questions_open", json_integer((json_int_t)questions_open));
	json_object_set_new(line, "measuring", measuring);
	return line;
}

int cb_results_write_skip(struct cb_writer *w, const struct cb_skip *skip)
{
	return cb_writer_line_take(w, "skip", cb_results_skip_json(skip));
}

int cb_results_write_look(struct cb_writer *w, const struct cb_plan *plan, const bool *open,
                          unsigned round, double elapsed_s, json_t *fields, size_t questions_open)
{
	return cb_writer_line_take(
	    w, "look", cb_results_look_json(plan, open, round, elapsed_s, fields, questions_open));
}

static json_t *count_or_null(uint64_t n, bool known)
{
	return known ? json_integer((json_int_t)n) : json_null();
}

static json_t *number_or_null(double x)
{
	return x >= 0 ? json_real(x) : json_null();
}

json_t *cb_results_profile_json(const struct cb_profile_record *p)
{
	const struct cb_trial_result *r = p->result;
	bool ran = r && p->calls;
	double per_call = ran ? (double)r->ns / (double)p->calls : -1;
	bool cpu = ran && (!r->remote || r->remote_cpu);
	json_t *line = json_object();

	json_object_set_new(line, "round", json_integer(p->round));
	json_object_set_new(line, "seq", json_integer((json_int_t)p->seq));
	json_object_set_new(line, "cell", cb_cell_to_json(p->cell));
	json_object_set_new(line, "sampler", json_string(p->sampler));
	json_object_set_new(line, "rate_hz", json_real(p->rate_hz));
	json_object_set_new(line, "calls", json_integer((json_int_t)p->calls));
	json_object_set_new(line, "ns", count_or_null(ran ? r->ns : 0, ran));
	json_object_set_new(line, "cpu_ns", count_or_null(cpu ? r->cpu_ns : 0, cpu));
	json_object_set_new(line, "ns_per_call", number_or_null(per_call));
	json_object_set_new(line, "timed_ns_per_call", number_or_null(p->timed_ns_per_call));
	json_object_set_new(line, "cost",
	                    number_or_null(per_call >= 0 && p->timed_ns_per_call > 0
	                                       ? per_call / p->timed_ns_per_call
	                                       : -1));
	json_object_set_new(line, "valid", json_boolean(ran && r->valid));
	json_object_set_new(line, "error",
	                    !ran        ? json_string("no calls ran")
	                    : !r->valid ? json_string(r->error)
	                                : json_null());
	json_object_set_new(line, "profile", p->profile ? json_incref(p->profile) : json_null());
	json_object_set_new(line, "refused", p->refused ? json_string(p->refused) : json_null());
	return line;
}

int cb_results_write_profile(struct cb_writer *w, const struct cb_profile_record *p)
{
	return cb_writer_line_take(w, "profile", cb_results_profile_json(p));
}

json_t *cb_results_end_json(const struct cb_end_record *e)
{
	json_t *end = json_object();

	json_object_set_new(end, "finished", iso_time_now());
	json_object_set_new(end, "trials", json_integer((json_int_t)e->trials));
	json_object_set_new(end, "invalid", json_integer((json_int_t)e->invalid));
	json_object_set_new(end, "interrupted", json_boolean(e->interrupted));
	json_object_set_new(end, "elapsed_s", json_real(e->elapsed_s));
	if (e->rounds_s >= 0)
		json_object_set_new(end, "rounds_s", json_real(e->rounds_s));
	if (e->core_hz_end >= 0)
		json_object_set_new(end, "core_hz_end", json_real(e->core_hz_end));
	json_object_set_new(end, "host", cb_host_state());
	if (e->outcome)
		json_object_set_new(
		    end, "stop",
		    json_pack("{s:s, s:i, s:i, s:I, s:I, s:f}", "outcome", e->outcome, "looks",
		              (int)e->looks, "rounds", (int)e->measured_rounds, "open_cells",
		              (json_int_t)e->open_cells, "questions_open",
		              (json_int_t)e->questions_open, "elapsed_s", e->stop_elapsed_s));
	return end;
}

long long cb_results_layout_seed(const struct cb_results *r)
{
	json_t *seed = json_object_get(json_object_get(r->header, "setup"), "layout_seed");

	return json_is_integer(seed) && json_integer_value(seed) >= 0
	           ? (long long)json_integer_value(seed)
	           : -1;
}

bool cb_results_last_look(const struct cb_results *r, struct cb_results_look *look)
{
	size_t n = json_array_size(r->looks);
	json_t *last = n ? json_array_get(r->looks, n - 1) : NULL;

	if (!last)
		return false;
	look->n_looks = n;
	look->round = (long long)json_integer_value(json_object_get(last, "round"));
	look->elapsed_s = json_number_value(json_object_get(last, "elapsed_s"));
	look->questions_open = (size_t)json_integer_value(json_object_get(last, "questions_open"));
	look->measuring = json_object_get(last, "measuring");
	return true;
}

bool cb_results_look_measures(const struct cb_results_look *look, const char *key)
{
	for (size_t i = 0; i < json_array_size(look->measuring); i++) {
		const char *k = json_string_value(json_array_get(look->measuring, i));

		if (k && strcmp(k, key) == 0)
			return true;
	}
	return false;
}
