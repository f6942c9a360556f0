/* scenario.c: a scenario as C data: freeing it and writing it for the
 * results header. Loading it from Lua is core/lua/load.c. */
#include "core/measure/scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cb_order_name(enum cb_order order)
{
	static const char *const names[] = {
	    [CB_ORDER_ROUND_ROBIN] = "round-robin",
	    [CB_ORDER_RANDOMIZED] = "randomized",
	    [CB_ORDER_BLOCKED] = "blocked",
	};

	return (unsigned)order < sizeof names / sizeof names[0] ? names[order] : "?";
}

bool cb_scenario_sequential(const struct cb_scenario *sc)
{
	return sc->stop.until == CB_UNTIL_RESOLVED ||
	       (sc->stop.until == CB_UNTIL_DEFAULT && sc->stop.given);
}

unsigned cb_scenario_first_look(const struct cb_scenario *sc)
{
	unsigned block = sc->stop.block ? sc->stop.block : 8;

	return (sc->rounds + block - 1) / block * block;
}

unsigned cb_scenario_planned_rounds(const struct cb_scenario *sc)
{
	unsigned first = cb_scenario_first_look(sc);

	if (!cb_scenario_sequential(sc))
		return sc->rounds;
	return sc->stop.max_rounds > first ? sc->stop.max_rounds : first;
}

/* The stop settings as the scenario records them: only when some were
 * given, so that a scenario without them records what it always did. */
static json_t *stop_json(const struct cb_scenario *sc)
{
	static const char *const until[] = {"default", "resolved", "rounds"};
	json_t *o = json_object();

	json_object_set_new(o, "until", json_string(until[sc->stop.until]));
	json_object_set_new(o, "sequential", json_boolean(cb_scenario_sequential(sc)));
	json_object_set_new(o, "budget_s", json_real(sc->stop.budget_s));
	json_object_set_new(o, "max_rounds", json_integer(sc->stop.max_rounds));
	json_object_set_new(o, "precision", json_real(sc->stop.precision));
	json_object_set_new(o, "block", json_integer(sc->stop.block));
	return o;
}

void cb_scenario_free(struct cb_scenario *sc)
{
	if (sc == NULL)
		return;
	for (size_t i = 0; i < sc->n_variants; i++) {
		struct cb_variant *v = &sc->variants[i];
		free(v->label);
		for (size_t j = 0; j < v->n_options; j++) {
			free((char *)v->options[j].key);
			free((char *)v->options[j].string);
		}
		free(v->options);
		for (size_t j = 0; v->env && v->env[j]; j++)
			free(v->env[j]);
		free(v->env);
		json_decref(v->spec);
	}
	for (size_t i = 0; i < sc->n_params; i++) {
		free(sc->params[i].name);
		free(sc->params[i].value);
	}
	for (size_t i = 0; i < sc->n_dropped; i++) {
		free(sc->dropped[i].name);
		free(sc->dropped[i].reason);
	}
	free(sc->name);
	free(sc->description);
	free(sc->file);
	free(sc->source);
	free(sc->variants);
	free(sc->algorithms);
	free(sc->ops);
	free(sc->sizes);
	free(sc->threads);
	json_decref(sc->derive);
	json_decref(sc->includes);
	free(sc->params);
	free(sc->dropped);
	free(sc);
}

/* ---- JSON for the results file ---- */

/* The source as a JSON string; bytes that are not UTF-8 become '?' (the
 * sha256 still names the exact file). */
static json_t *source_json(const struct cb_scenario *sc)
{
	json_t *s = json_stringn(sc->source, sc->source_len);
	char *ascii;

	if (s || sc->source == NULL)
		return s ? s : json_null();
	if ((ascii = malloc(sc->source_len + 1)) == NULL)
		return json_null();
	for (size_t i = 0; i < sc->source_len; i++)
		ascii[i] =
		    (unsigned char)sc->source[i] < 0x80 && sc->source[i] ? sc->source[i] : '?';
	s = json_stringn(ascii, sc->source_len);
	free(ascii);
	return s;
}

static json_t *variant_json(const struct cb_variant *v)
{
	json_t *o = json_object(), *env = json_object(), *options = json_object();

	json_object_set_new(o, "label", json_string(v->label));
	json_object_set_new(o, "engine", json_string(v->engine->name));
	json_object_set_new(o, "mode",
	                    json_string(v->config.mode == CB_MODE_STREAM ? "stream" : "message"));
	json_object_set_new(o, "reuse", json_boolean(!v->config.recreate));
	json_object_set_new(o, "chunk", json_integer((json_int_t)v->config.chunk));
	for (size_t i = 0; v->env && v->env[i]; i++) {
		const char *eq = strchr(v->env[i], '=');
		char name[256];
		snprintf(name, sizeof name, "%.*s", (int)(eq - v->env[i]), v->env[i]);
		json_object_set_new(env, name, json_string(eq + 1));
	}
	json_object_set_new(o, "env", env);
	for (size_t i = 0; i < v->n_options; i++)
		json_object_set_new(options, v->options[i].key,
		                    v->options[i].is_number ? json_real(v->options[i].number)
		                                            : json_string(v->options[i].string));
	json_object_set_new(o, "options", options);
	json_object_set_new(o, "as_written", json_deep_copy(v->spec));
	return o;
}

json_t *cb_scenario_to_json(const struct cb_scenario *sc)
{
	json_t *o = json_object(), *a, *input = json_object();

#define SET(key, value) json_object_set_new(o, key, value)
	SET("name", json_string(sc->name));
	SET("description", sc->description ? json_string(sc->description) : json_null());
	SET("file", json_string(sc->file));
	SET("sha256", json_string(sc->sha256));
	SET("source", source_json(sc));
	SET("derive", json_deep_copy(sc->derive));
	SET("includes", json_deep_copy(sc->includes));
	SET("params", a = json_object());
	for (size_t i = 0; i < sc->n_params; i++) {
		json_t *p = json_object();
		json_object_set_new(p, "value", json_string(sc->params[i].value));
		json_object_set_new(
		    p, "from",
		    json_string(sc->params[i].from_command_line ? "command-line" : "default"));
		json_object_set_new(a, sc->params[i].name, p);
	}
	SET("engines", a = json_array());
	for (size_t i = 0; i < sc->n_variants; i++)
		json_array_append_new(a, variant_json(&sc->variants[i]));
	SET("algorithms", a = json_array());
	for (size_t i = 0; i < sc->n_algorithms; i++)
		json_array_append_new(a, json_string(sc->algorithms[i]->name));
	SET("ops", a = json_array());
	for (size_t i = 0; i < sc->n_ops; i++)
		json_array_append_new(a, json_string(cb_op_name(sc->ops[i])));
	SET("sizes", a = json_array());
	for (size_t i = 0; i < sc->n_sizes; i++)
		json_array_append_new(a, json_integer((json_int_t)sc->sizes[i]));
	SET("threads", a = json_array());
	for (size_t i = 0; i < sc->n_threads; i++)
		json_array_append_new(a, json_integer(sc->threads[i]));
	SET("rounds", json_integer(sc->rounds));
	SET("warmup", json_integer(sc->warmup_rounds));
	SET("order", json_string(cb_order_name(sc->order)));
	SET("seed", json_integer((json_int_t)sc->order_seed));
	SET("trial_time_ns", json_integer((json_int_t)sc->trial_time_ns));
	SET("pin", json_boolean(sc->pin_threads));
	SET("layout", json_string(sc->layout_per_trial ? "trial" : "run"));
	json_object_set_new(input, "generator", json_string("xorshift32"));
	json_object_set_new(input, "seed", json_integer(sc->input_seed));
	json_object_set_new(input, "offset", json_integer((json_int_t)sc->input_offset));
	SET("input", input);
	if (sc->stop.given || sc->stop.until != CB_UNTIL_DEFAULT)
		SET("stop", stop_json(sc));
	SET("dropped", a = json_array());
	for (size_t i = 0; i < sc->n_dropped; i++) {
		json_t *d = json_object();
		json_object_set_new(d, "engine", json_string(sc->dropped[i].name));
		json_object_set_new(d, "reason", json_string(sc->dropped[i].reason));
		json_array_append_new(a, d);
	}
#undef SET
	return o;
}
