/* fields.c: the fields of cb.scenario{} (derive_fields.c: cb.derive{}).
 *
 * Each field has a parser that checks a Lua value and stores it in the
 * scenario; --set runs the same parsers on its strings, so a field means the
 * same from the script and from the command line. */
#include "core/lua/internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "core/measure/budget.h"
#include "core/base/datadir.h"
#include "core/builds/libbuild.h"
#include "core/lua/sandbox.h"
#include "core/base/units.h"

#define MAX_NAMES 128
#define MAX_ROUNDS 1000000
#define MAX_WARMUP 1000
#define MAX_TRIAL_NS (3600ull * 1000000000ull)

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

static void set_string(lua_State *L, char **field, const char *value)
{
	char *copy = cb_check_strdup(L, value);

	free(*field);
	*field = copy;
}

static int compare_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

static int compare_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

static int compare_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* SITE, pointing at the second place its value is written (a duplicate). */
static struct cb_site second_of(const struct cb_site *site)
{
	struct cb_site again = *site;

	again.nth = 1;
	return again;
}

static const char *const order_names[] = {
    [CB_ORDER_ROUND_ROBIN] = "round-robin",
    [CB_ORDER_RANDOMIZED] = "randomized",
    [CB_ORDER_BLOCKED] = "blocked",
};

/* ---- Fields of cb.scenario{} (and of --set) ---- */

static void parse_name(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site)
{
	set_string(L, &ld->sc->name, cb_check_string(ld, L, idx, site));
}

static void parse_description(struct cb_loading *ld, lua_State *L, int idx,
                              const struct cb_site *site)
{
	set_string(L, &ld->sc->description, cb_check_string(ld, L, idx, site));
}

static void parse_algorithms(struct cb_loading *ld, lua_State *L, int idx,
                             const struct cb_site *site)
{
	struct cb_scenario *sc = ld->sc;
	size_t n = cb_check_list(ld, L, idx, site, false);
	const struct cb_algorithm **algs = cb_check_calloc(L, n, sizeof *algs);
	const struct cb_site again = second_of(site);

	free(sc->algorithms);
	sc->algorithms = algs;
	sc->n_algorithms = 0;
	for (size_t i = 1; i <= n; i++, lua_pop(L, 1)) {
		lua_rawgeti(L, idx, (lua_Integer)i);
		const struct cb_algorithm *alg = cb_check_algorithm(ld, L, -1, site);
		for (size_t j = 0; j < sc->n_algorithms; j++)
			if (algs[j] == alg)
				cb_check_fail(ld, L, &again, alg->name,
				              "algorithm '%s' is listed twice", alg->name);
		algs[sc->n_algorithms++] = alg;
	}
}

static void parse_ops(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site)
{
	struct cb_scenario *sc = ld->sc;
	size_t n = cb_check_list(ld, L, idx, site, false);
	enum cb_op *ops = cb_check_calloc(L, n, sizeof *ops);
	const struct cb_site again = second_of(site);

	free(sc->ops);
	sc->ops = ops;
	sc->n_ops = 0;
	for (size_t i = 1; i <= n; i++, lua_pop(L, 1)) {
		lua_rawgeti(L, idx, (lua_Integer)i);
		enum cb_op op = cb_check_op(ld, L, -1, site);
		for (size_t j = 0; j < sc->n_ops; j++)
			if (ops[j] == op)
				cb_check_fail(ld, L, &again, cb_op_name(op),
				              "op '%s' is listed twice", cb_op_name(op));
		ops[sc->n_ops++] = op;
	}
}

static void parse_sizes(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site)
{
	struct cb_scenario *sc = ld->sc;
	size_t n = cb_check_list(ld, L, idx, site, false);
	size_t *sizes = cb_check_calloc(L, n, sizeof *sizes);
	char buf[32];

	free(sc->sizes);
	sc->sizes = sizes;
	sc->n_sizes = 0;
	for (size_t i = 1; i <= n; i++, lua_pop(L, 1)) {
		lua_rawgeti(L, idx, (lua_Integer)i);
		sizes[sc->n_sizes++] = cb_check_size(ld, L, -1, site);
	}
	qsort(sizes, n, sizeof *sizes, compare_size);
	for (size_t i = 1; i < n; i++)
		if (sizes[i] == sizes[i - 1])
			cb_check_fail(ld, L, site, NULL, "size %s is listed twice",
			              cb_format_size(sizes[i], buf));
}

static void parse_threads(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site)
{
	struct cb_scenario *sc = ld->sc;
	size_t n = cb_check_list(ld, L, idx, site, false);
	unsigned *threads = cb_check_calloc(L, n, sizeof *threads);

	free(sc->threads);
	sc->threads = threads;
	sc->n_threads = 0;
	for (size_t i = 1; i <= n; i++, lua_pop(L, 1)) {
		lua_rawgeti(L, idx, (lua_Integer)i);
		threads[sc->n_threads++] =
		    (unsigned)cb_check_integer(ld, L, -1, site, 1, CB_SCENARIO_MAX_THREADS);
	}
	qsort(threads, n, sizeof *threads, compare_unsigned);
	for (size_t i = 1; i < n; i++)
		if (threads[i] == threads[i - 1])
			cb_check_fail(ld, L, site, NULL, "%u threads is listed twice", threads[i]);
}

static void parse_rounds(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site)
{
	ld->sc->rounds = (unsigned)cb_check_integer(ld, L, idx, site, 1, MAX_ROUNDS);
}

static void parse_warmup(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site)
{
	ld->sc->warmup_rounds = (unsigned)cb_check_integer(ld, L, idx, site, 0, MAX_WARMUP);
}

static void parse_order(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site)
{
	const char *name = cb_check_string(ld, L, idx, site);
	char hint[256];

	for (int i = 0; i < 3; i++)
		if (strcmp(name, order_names[i]) == 0) {
			ld->sc->order = (enum cb_order)i;
			return;
		}
	cb_check_fail(ld, L, site, name, "bad order '%s'%s", name,
	              cb_check_hint(name, order_names, 3, hint, sizeof hint));
}

static void parse_seed(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site)
{
	ld->sc->order_seed = (uint64_t)cb_check_integer(ld, L, idx, site, 0, LUA_MAXINTEGER);
}

static void parse_trial_time(struct cb_loading *ld, lua_State *L, int idx,
                             const struct cb_site *site)
{
	char buf[128];
	uint64_t ns = 0;
	int ok = 0;

	/* Described first: lua_tostring() below turns a number into a string,
	 * and the order in which a call's arguments are evaluated is the
	 * compiler's. */
	cb_check_describe(L, idx, buf, sizeof buf);
	/* Always with its unit: a bare 10 read as seconds once made a
	 * 50-minute run out of what was meant as milliseconds. */
	if (lua_type(L, idx) == LUA_TSTRING)
		ok = cb_parse_duration(lua_tostring(L, idx), &ns) == 0;
	if (!ok && (lua_type(L, idx) == LUA_TNUMBER || cb_is_unitless(lua_tostring(L, idx))))
		cb_check_fail(ld, L, site, lua_tostring(L, idx),
		              "duration %s has no unit (write it like \"20ms\"; units: %s)", buf,
		              CB_DURATION_UNITS);
	if (!ok)
		cb_check_fail(ld, L, site, lua_tostring(L, idx),
		              "bad duration %s (write it like \"20ms\"; units: %s)", buf,
		              CB_DURATION_UNITS);
	if (ns == 0 || ns > MAX_TRIAL_NS)
		cb_check_fail(ld, L, site, lua_tostring(L, idx),
		              "'%s' %s is out of range (1ns .. 1 hour)", site->key, buf);
	ld->sc->trial_time_ns = ns;
}

static void parse_pin(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site)
{
	const char *text = lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx) : NULL;
	char buf[128];

	if (lua_type(L, idx) == LUA_TBOOLEAN)
		ld->sc->pin_threads = lua_toboolean(L, idx);
	else if (text && (strcmp(text, "true") == 0 || strcmp(text, "false") == 0))
		ld->sc->pin_threads = strcmp(text, "true") == 0; /* from --set pin=true */
	else
		cb_check_fail(ld, L, site, text, "'pin' wants true or false, not %s",
		              cb_check_describe(L, idx, buf, sizeof buf));
}

static void parse_layout(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site)
{
	const char *text = lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx) : NULL;
	char buf[128];

	if (text && (strcmp(text, "trial") == 0 || strcmp(text, "run") == 0))
		ld->sc->layout_per_trial = strcmp(text, "trial") == 0;
	else
		cb_check_fail(ld, L, site, text,
		              "'layout' wants \"trial\" (a stack and output placement drawn per "
		              "trial) or \"run\" (one per run), not %s",
		              cb_check_describe(L, idx, buf, sizeof buf));
}

/* NAME = { KEYS[i] = ... }: a table whose keys, all optional, each have
 * their parser; EXAMPLE shows one in the message when it is not a table. */
static void parse_keyed_table(struct cb_loading *ld, lua_State *L, int idx,
                              const struct cb_site *site, const char *name, const char *example,
                              const char *const *keys, const cb_field_parser *parsers, int n)
{
	char within[64];

	if (lua_type(L, idx) != LUA_TTABLE) {
		char buf[128];
		cb_check_fail(ld, L, site, NULL, "'%s' must be a table like %s (got %s)", name,
		              example, cb_check_describe(L, idx, buf, sizeof buf));
	}
	snprintf(within, sizeof within, " in '%s'", name);
	cb_check_keys(ld, L, idx, keys, (size_t)n, false, within);
	for (int i = 0; i < n; i++, lua_pop(L, 1)) {
		struct cb_site inner = {.key = keys[i]};
		lua_pushstring(L, keys[i]);
		if (lua_rawget(L, idx) != LUA_TNIL)
			parsers[i](ld, L, lua_gettop(L), &inner);
	}
}

static void parse_input_seed(struct cb_loading *ld, lua_State *L, int idx,
                             const struct cb_site *site)
{
	/* xorshift32 from 0 gives only zeros */
	ld->sc->input_seed = (uint32_t)cb_check_integer(ld, L, idx, site, 1, UINT32_MAX);
}

static void parse_input_offset(struct cb_loading *ld, lua_State *L, int idx,
                               const struct cb_site *site)
{
	ld->sc->input_offset = (size_t)cb_check_integer(ld, L, idx, site, 0, 4095);
}

static void parse_input(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site)
{
	static const char *const keys[] = {"seed", "offset"};
	static const cb_field_parser parsers[] = {parse_input_seed, parse_input_offset};

	parse_keyed_table(ld, L, idx, site, "input", "{ seed = 20260804 }", keys, parsers, 2);
}

/* ---- stop = { budget, max_rounds, precision, block } (scenario.h) ---- */

#define MAX_BLOCK 1024

void cb_fields_stop_budget(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site,
                           double seconds)
{
	const char *text = lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx) : NULL;
	char buf[128];

	cb_check_describe(L, idx, buf, sizeof buf);
	if (seconds < CB_BUDGET_MIN_S || seconds > CB_BUDGET_MAX_S)
		cb_check_fail(ld, L, site, text, "'%s' %s is out of range (1s .. 30 days)",
		              site->key, buf);
	ld->sc->stop.budget_s = seconds;
	ld->sc->stop.given = true;
}

static void parse_stop_budget(struct cb_loading *ld, lua_State *L, int idx,
                              const struct cb_site *site)
{
	const char *text = lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx) : NULL;
	char buf[128];
	double seconds = 0;

	cb_check_describe(L, idx, buf, sizeof buf);
	if (!text || cb_budget_parse(text, &seconds) != 0)
		cb_check_fail(ld, L, site, text,
		              "'%s' wants a duration like \"10m\" (units: %s), not %s", site->key,
		              CB_SPAN_UNITS, buf);
	cb_fields_stop_budget(ld, L, idx, site, seconds);
}

static void parse_stop_max_rounds(struct cb_loading *ld, lua_State *L, int idx,
                                  const struct cb_site *site)
{
	ld->sc->stop.max_rounds = (unsigned)cb_check_integer(ld, L, idx, site, 1, MAX_ROUNDS);
	ld->sc->stop.given = true;
}

static void parse_stop_precision(struct cb_loading *ld, lua_State *L, int idx,
                                 const struct cb_site *site)
{
	const char *text = lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx) : NULL;
	char buf[128], *end = NULL;
	double percent = text ? strtod(text, &end) : 0;

	/* Always as a percentage: a bare 1 could be 1% or 100%. */
	if (!text || end == text || strcmp(end, "%") != 0 || !(percent > 0 && percent < 100))
		cb_check_fail(ld, L, site, text,
		              "'%s' wants a percentage above 0 and below 100, like \"1%%\", not %s",
		              site->key, cb_check_describe(L, idx, buf, sizeof buf));
	ld->sc->stop.precision = percent / 100;
	ld->sc->stop.given = true;
}

static void parse_stop_block(struct cb_loading *ld, lua_State *L, int idx,
                             const struct cb_site *site)
{
	lua_Integer n = cb_check_integer(ld, L, idx, site, 8, MAX_BLOCK);

	/* Each block of 8 rounds gives every cell the 8 stack classes once
	 * (trial.h): a look inside a stratum would see some classes twice. */
	if (n % 8 != 0)
		cb_check_fail(ld, L, site, NULL,
		              "'%s' %lld is not a multiple of 8 (the layout's "
		              "block: each 8 rounds see the 8 stack placements once)",
		              site->key, (long long)n);
	ld->sc->stop.block = (unsigned)n;
	ld->sc->stop.given = true;
}

static void parse_stop(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site)
{
	static const char *const keys[] = {"budget", "max_rounds", "precision", "block"};
	static const cb_field_parser parsers[] = {parse_stop_budget, parse_stop_max_rounds,
	                                          parse_stop_precision, parse_stop_block};

	if (lua_type(L, idx) != LUA_TTABLE) {
		char buf[128];
		cb_check_fail(ld, L, site, NULL,
		              "'stop' must be a table like { budget = \"10m\" } (got %s)",
		              cb_check_describe(L, idx, buf, sizeof buf));
	}
	cb_check_keys(ld, L, idx, keys, 4, false, " in 'stop'");
	ld->sc->stop.given = true; /* stop = {} : until resolved, with the defaults */
	for (int i = 0; i < 4; i++, lua_pop(L, 1)) {
		struct cb_site inner = {.key = keys[i]};
		lua_pushstring(L, keys[i]);
		if (lua_rawget(L, idx) != LUA_TNIL)
			parsers[i](ld, L, lua_gettop(L), &inner);
	}
}

/* --set until=resolved|rounds (run --until): whether rounds run in blocks
 * until the answer is known, or as a fixed number. */
static void parse_until(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site)
{
	static const char *const names[] = {"resolved", "rounds"};
	const char *text = lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx) : NULL;
	char hint[256];

	for (int i = 0; text && i < 2; i++)
		if (strcmp(text, names[i]) == 0) {
			ld->sc->stop.until = i == 0 ? CB_UNTIL_RESOLVED : CB_UNTIL_ROUNDS;
			return;
		}
	cb_check_fail(ld, L, site, text, "'until' wants resolved or rounds, not '%s'%s",
	              text ? text : "?",
	              text ? cb_check_hint(text, names, 2, hint, sizeof hint) : "");
}

/* ---- explain = { samples, rate_hz } (scenario.h) ---- */

#define MAX_EXPLAIN_SAMPLES 1000000
#define MAX_EXPLAIN_RATE_HZ 100000

static void parse_explain_samples(struct cb_loading *ld, lua_State *L, int idx,
                                  const struct cb_site *site)
{
	ld->sc->explain.samples =
	    (unsigned)cb_check_integer(ld, L, idx, site, 1, MAX_EXPLAIN_SAMPLES);
}

static void parse_explain_rate_hz(struct cb_loading *ld, lua_State *L, int idx,
                                  const struct cb_site *site)
{
	const char *text = lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx) : NULL;
	double hz = lua_type(L, idx) == LUA_TNUMBER ? lua_tonumber(L, idx) : 0;
	char buf[128];

	if (!(hz >= 1 && hz <= MAX_EXPLAIN_RATE_HZ))
		cb_check_fail(ld, L, site, text,
		              "'%s' wants samples per second of CPU time, from 1 to %d, not %s",
		              site->key, MAX_EXPLAIN_RATE_HZ,
		              cb_check_describe(L, idx, buf, sizeof buf));
	ld->sc->explain.rate_hz = hz;
}

static void parse_explain_twins(struct cb_loading *ld, lua_State *L, int idx,
                                const struct cb_site *site)
{
	const char *text = lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx) : NULL;
	char buf[128];

	if (lua_type(L, idx) == LUA_TBOOLEAN)
		ld->sc->explain.twins = lua_toboolean(L, idx);
	else if (text && (strcmp(text, "true") == 0 || strcmp(text, "false") == 0))
		ld->sc->explain.twins = strcmp(text, "true") == 0; /* from --set */
	else
		cb_check_fail(ld, L, site, text, "'%s' wants true or false, not %s", site->key,
		              cb_check_describe(L, idx, buf, sizeof buf));
}

/* explain = { samples = 2000, rate_hz = 1000, twins = false }: a table, every
 * key optional; explain = {} asks for the defaults. */
static void parse_explain(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site)
{
	static const char *const keys[] = {"samples", "rate_hz", "twins"};
	static const cb_field_parser parsers[] = {parse_explain_samples, parse_explain_rate_hz,
	                                          parse_explain_twins};

	ld->sc->explain.samples = CB_EXPLAIN_SAMPLES;
	parse_keyed_table(ld, L, idx, site, "explain", "{ samples = 2000 }", keys, parsers, 3);
}

/* ---- Engine entries ---- */

static const char *const variant_keys[] = {"label", "mode", "reuse", "chunk", "env", "lib"};
#define N_VARIANT_KEYS (sizeof variant_keys / sizeof variant_keys[0])

static bool env_name(const char *s)
{
	if (!(*s == '_' || (*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')))
		return false;
	while (ident_char(*s))
		s++;
	return *s == '\0';
}

static void parse_env(struct cb_loading *ld, lua_State *L, int idx, struct cb_variant *v)
{
	const struct cb_site site = {.key = "env"};
	char buf[128];
	size_t n = 0;

	if (lua_type(L, idx) != LUA_TTABLE)
		cb_check_fail(ld, L, &site, NULL,
		              "'env' must be a table like { NAME = \"value\" } (got %s)",
		              cb_check_describe(L, idx, buf, sizeof buf));
	for (lua_pushnil(L); lua_next(L, idx); lua_pop(L, 1))
		n++;
	v->env = cb_check_calloc(L, n + 1, sizeof *v->env);
	n = 0;
	for (lua_pushnil(L); lua_next(L, idx); lua_pop(L, 1)) {
		if (lua_type(L, -2) != LUA_TSTRING || !env_name(lua_tostring(L, -2)))
			cb_check_fail(ld, L, &site, NULL, "bad environment variable name %s",
			              cb_check_describe(L, -2, buf, sizeof buf));
		if (lua_type(L, -1) != LUA_TSTRING && lua_type(L, -1) != LUA_TNUMBER)
			cb_check_fail(
			    ld, L, &site, NULL, "environment variable %s must be a string (got %s)",
			    lua_tostring(L, -2), cb_check_describe(L, -1, buf, sizeof buf));
		/* converting the value in place is harmless: lua_next reads only the key */
		const char *name = lua_tostring(L, -2), *value = lua_tostring(L, -1);
		char *pair = malloc(strlen(name) + strlen(value) + 2);
		if (pair == NULL)
			luaL_error(L, "not enough memory");
		sprintf(pair, "%s=%s", name, value);
		v->env[n++] = pair;
	}
	qsort(v->env, n, sizeof *v->env, compare_string);
}

static void parse_options(struct cb_loading *ld, lua_State *L, int idx, struct cb_variant *v)
{
	const char *const *names = v->engine->options;
	size_t n = 0;
	char buf[128];

	while (names && names[n])
		n++;
	v->options = cb_check_calloc(L, n, sizeof *v->options);
	for (size_t i = 0; i < n; i++, lua_pop(L, 1)) {
		struct cb_site site = {.key = names[i]};
		lua_pushstring(L, names[i]);
		int type = lua_rawget(L, idx);
		if (type == LUA_TNIL)
			continue;
		if (type != LUA_TNUMBER && type != LUA_TSTRING)
			cb_check_fail(
			    ld, L, &site, NULL,
			    "option '%s' of engine '%s' must be a number or a string (got %s)",
			    names[i], v->engine->name, cb_check_describe(L, -1, buf, sizeof buf));
		struct cb_option *o = &v->options[v->n_options++];
		o->key = cb_check_strdup(L, names[i]);
		o->is_number = type == LUA_TNUMBER;
		o->number = lua_tonumber(L, -1);
		if (!o->is_number)
			o->string = cb_check_strdup(L, lua_tostring(L, -1));
		json_object_set_new(v->spec, names[i], cb_check_scalar_json(L, -1));
	}
	v->config.options = v->options;
	v->config.n_options = v->n_options;
	if (v->engine->check_options) {
		struct cb_site site = {.key = NULL};
		char why[256];

		if (v->engine->check_options(&v->config, &site.key, why, sizeof why) != 0)
			cb_check_fail(ld, L, &site, NULL, "%s", why);
	}
}

__attribute__((format(printf, 4, 5))) static void append(char *buf, size_t len, size_t *used,
                                                         const char *fmt, ...)
{
	va_list ap;

	if (*used >= len)
		return; /* already truncated */
	va_start(ap, fmt);
	*used += (size_t)vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
}

/* `lib = FILE`: the variant runs another build of its engine's library, in
 * this process (core/builds/libbuild.h), opened and checked now, so that a wrong
 * file stops the load at its line. Its env reaches that build alone, so it
 * needs no worker. The engine becomes the build's, named after the label
 * ("openssl@FILE" without one). */
static void parse_lib(struct cb_loading *ld, lua_State *L, int idx, struct cb_variant *v)
{
	const struct cb_site site = {.key = "lib"};
	const char *file = cb_check_string(ld, L, idx, &site);
	char vectors[4096], name[4200], err[1024];
	const struct cb_engine *build;

	snprintf(name, sizeof name, "%s@%s", v->engine->name, v->label ? v->label : file);
	build =
	    cb_libbuild_open(v->engine, file, v->env, name,
	                     cb_datadir(CB_DATA_VECTORS, vectors, sizeof vectors), err, sizeof err);
	if (!build)
		cb_check_fail(ld, L, &site, file, "%s", err);
	if (!v->label)
		v->label = cb_check_strdup(L, name);
	v->engine = build;
	v->config.in_worker = NULL;
	json_object_set_new(v->spec, "lib", json_string(file));
}

/* The engine's name and what differs from the defaults: "openssl-stream". */
static void default_label(lua_State *L, struct cb_variant *v)
{
	char label[1024];
	size_t used = 0;

	append(label, sizeof label, &used, "%s", v->engine->name);
	if (v->config.mode == CB_MODE_STREAM)
		append(label, sizeof label, &used, "-stream");
	if (v->config.recreate)
		append(label, sizeof label, &used, "-noreuse");
	if (v->config.chunk) {
		char size[32];
		append(label, sizeof label, &used, "-chunk%s",
		       cb_format_size(v->config.chunk, size));
	}
	for (size_t i = 0; v->env && v->env[i]; i++)
		append(label, sizeof label, &used, "-%s", v->env[i]);
	for (size_t i = 0; i < v->n_options; i++) {
		const struct cb_option *o = &v->options[i];
		if (o->is_number)
			append(label, sizeof label, &used, "-%s=%.14g", o->key, o->number);
		else
			append(label, sizeof label, &used, "-%s=%s", o->key, o->string);
	}
	v->label = cb_check_strdup(L, label);
}

/* The variant's fields of the entry at IDX (and EXTRA's, NULL-ended, for
 * an external engine's entry). */
static void parse_variant_table(struct cb_loading *ld, lua_State *L, int idx, struct cb_variant *v,
                                const char *const *extra)
{
	const char *names[N_VARIANT_KEYS + MAX_NAMES];
	size_t n = 0;
	char where[128];
	struct cb_site site = {.key = "label"};

	for (size_t i = 0; i < N_VARIANT_KEYS; i++)
		names[n++] = variant_keys[i];
	for (size_t i = 0; extra && extra[i]; i++)
		names[n++] = extra[i];
	for (size_t i = 0;
	     v->engine->options && v->engine->options[i] && n < sizeof names / sizeof *names; i++)
		names[n++] = v->engine->options[i];
	snprintf(where, sizeof where, " for engine '%s'", v->engine->name);
	cb_check_keys(ld, L, idx, names, n, true, where);
	if (!v->spec)
		v->spec = json_object();
	json_object_set_new(v->spec, "engine", json_string(v->engine->name));
	if (cb_check_raw_field(L, idx, "label") != LUA_TNIL) {
		v->label = cb_check_strdup(L, cb_check_string(ld, L, -1, &site));
		json_object_set_new(v->spec, "label", json_string(v->label));
	}
	site.key = "mode";
	if (cb_check_raw_field(L, idx, "mode") != LUA_TNIL) {
		const char *s = cb_check_string(ld, L, -1, &site);
		if (strcmp(s, "message") != 0 && strcmp(s, "stream") != 0)
			cb_check_fail(ld, L, &site, s, "bad mode '%s' (one of: message, stream)",
			              s);
		v->config.mode = strcmp(s, "stream") == 0 ? CB_MODE_STREAM : CB_MODE_MESSAGE;
		json_object_set_new(v->spec, "mode", json_string(s));
	}
	site.key = "reuse";
	if (cb_check_raw_field(L, idx, "reuse") != LUA_TNIL) {
		if (!lua_isboolean(L, -1)) {
			char buf[128];
			cb_check_fail(ld, L, &site, NULL, "'reuse' must be true or false (got %s)",
			              cb_check_describe(L, -1, buf, sizeof buf));
		}
		v->config.recreate = !lua_toboolean(L, -1);
		json_object_set_new(v->spec, "reuse", json_boolean(lua_toboolean(L, -1)));
	}
	site.key = "chunk";
	if (cb_check_raw_field(L, idx, "chunk") != LUA_TNIL) {
		v->config.chunk = cb_check_size(ld, L, -1, &site);
		json_object_set_new(v->spec, "chunk", cb_check_scalar_json(L, -1));
	}
	if (cb_check_raw_field(L, idx, "env") != LUA_TNIL) {
		site.key = "env";
		/* An in-process library reads its environment when the process
		 * starts: a changed one needs a process of its own. A library engine
		 * runs inside `cryptobench worker`, a worker engine in its worker;
		 * the others (built-ins, whole commands) cannot carry one. */
		bool library = strcmp(v->engine->kind, "library") == 0;
		if (!library && strcmp(v->engine->kind, "process") != 0)
			cb_check_fail(
			    ld, L, &site, NULL,
			    "'env' cannot be applied to engine '%s' (%s): only library and "
			    "worker engines run in a process of their own",
			    v->engine->name, v->engine->kind);
		parse_env(ld, L, lua_gettop(L), v);
		v->config.env = v->env;
		if (library)
			v->config.in_worker = v->engine;
		json_t *env = json_object();
		for (size_t i = 0; v->env[i]; i++) {
			const char *eq = strchr(v->env[i], '=');
			char name[256];
			snprintf(name, sizeof name, "%.*s", (int)(eq - v->env[i]), v->env[i]);
			json_object_set_new(env, name, json_string(eq + 1));
		}
		json_object_set_new(v->spec, "env", env);
	}
	if (cb_check_raw_field(L, idx, "lib") != LUA_TNIL)
		parse_lib(ld, L, lua_gettop(L), v);
	lua_pop(L, 6); /* label, mode, reuse, chunk, env, lib */
	parse_options(ld, L, idx, v);
}

static void parse_engines(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site)
{
	struct cb_scenario *sc = ld->sc;
	size_t n = cb_check_list(ld, L, idx, site, true);
	char buf[128];

	if (n == 0 && sc->n_dropped > 0) {
		char why[512];
		size_t used = 0;
		why[0] = '\0';
		for (size_t i = 0; i < sc->n_dropped && used < sizeof why; i++)
			used += (size_t)snprintf(why + used, sizeof why - used, "%s%s: %s",
			                         i ? "; " : "", sc->dropped[i].name,
			                         sc->dropped[i].reason);
		cb_check_fail(ld, L, site, NULL, "no engine left to measure (%s)", why);
	}
	if (n == 0)
		cb_check_fail(ld, L, site, NULL, "'engines' must not be empty");
	sc->variants = cb_check_calloc(L, n, sizeof *sc->variants);
	for (size_t i = 1; i <= n; i++, lua_settop(L, idx)) {
		struct cb_variant *v = &sc->variants[sc->n_variants++];
		int entry = (lua_rawgeti(L, idx, (lua_Integer)i), lua_gettop(L));
		if (lua_type(L, entry) == LUA_TSTRING) {
			v->engine = cb_check_engine(ld, L, lua_tostring(L, entry), site);
			v->spec = json_string(v->engine->name);
		} else if (lua_type(L, entry) == LUA_TTABLE) {
			if (lua_rawgeti(L, entry, 1) != LUA_TSTRING)
				cb_check_fail(ld, L, site, NULL,
				              "entry %zu of 'engines' must start with an engine's "
				              "name, like { \"sim\", label = \"sim-a\" }",
				              i);
			const char *name = lua_tostring(L, -1);
			const char *const *extra = NULL;
			if (!cb_engine_find(name) &&
			    (strcmp(name, "worker") == 0 || strcmp(name, "plugin") == 0)) {
				extra =
				    name[0] == 'w' ? cb_worker_entry_keys : cb_plugin_entry_keys;
				v->spec = json_object();
				v->engine = cb_fields_external(ld, L, entry, name, v->spec);
			} else {
				v->engine = cb_check_engine(ld, L, name, site);
			}
			parse_variant_table(ld, L, entry, v, extra);
		} else {
			cb_check_fail(
			    ld, L, site, NULL,
			    "entries of 'engines' are engine names or tables (entry %zu is %s)", i,
			    cb_check_describe(L, entry, buf, sizeof buf));
		}
		if (v->label == NULL)
			default_label(L, v);
	}
	for (size_t i = 0; i < sc->n_variants; i++)
		for (size_t j = 0; j < i; j++)
			if (strcmp(sc->variants[i].label, sc->variants[j].label) == 0) {
				const struct cb_site again = second_of(site);
				cb_check_fail(
				    ld, L, &again, sc->variants[i].label,
				    "duplicate label '%s': give each variant its own label",
				    sc->variants[i].label);
			}
}

/* ---- cb.scenario{} ---- */

#define FIELD(field, ...)                                                                          \
	{                                                                                          \
		.name = #field, .parse = parse_##field, __VA_ARGS__                                \
	}

static const struct cb_field scenario_fields[] = {
    FIELD(name, .required = true),
    FIELD(description),
    FIELD(engines, .required = true, .list = true),
    FIELD(algorithms, .required = true, .list = true),
    FIELD(ops, .list = true),
    FIELD(sizes, .required = true, .list = true),
    FIELD(threads, .list = true),
    FIELD(rounds),
    FIELD(warmup),
    FIELD(order),
    FIELD(seed),
    FIELD(trial_time),
    FIELD(pin),
    FIELD(layout),
    FIELD(input),
    FIELD(stop),
    FIELD(explain),
};
#define N_SCENARIO_FIELDS (sizeof scenario_fields / sizeof scenario_fields[0])

const struct cb_field cb_set_fields[] = {
    FIELD(rounds),
    FIELD(warmup),
    FIELD(trial_time),
    FIELD(sizes, .list = true),
    FIELD(threads, .list = true),
    FIELD(order),
    FIELD(seed),
    FIELD(algorithms, .list = true),
    FIELD(ops, .list = true),
    FIELD(input_seed),
    FIELD(input_offset),
    FIELD(pin),
    FIELD(layout),
    FIELD(until),
    FIELD(stop_budget),
    FIELD(stop_max_rounds),
    FIELD(stop_precision),
    FIELD(stop_block),
    FIELD(explain_samples),
    FIELD(explain_rate_hz),
    FIELD(explain_twins),
};
#undef FIELD
const size_t cb_n_set_fields = sizeof cb_set_fields / sizeof cb_set_fields[0];

int cb_fields_scenario(lua_State *L)
{
	struct cb_loading *ld = cb_check_loading(L);
	const char *names[N_SCENARIO_FIELDS];

	cb_check_begin_call(ld, L);
	if (ld->scenario_line)
		cb_check_fail(ld, L, NULL, NULL, "cb.scenario{} is called twice (first at line %d)",
		              ld->scenario_line);
	ld->scenario_line = ld->call_line;
	if (lua_gettop(L) != 1 || lua_type(L, 1) != LUA_TTABLE)
		cb_check_fail(ld, L, NULL, NULL,
		              "cb.scenario takes one table: cb.scenario { name = ..., ... }");
	for (size_t i = 0; i < N_SCENARIO_FIELDS; i++)
		names[i] = scenario_fields[i].name;
	cb_check_keys(ld, L, 1, names, N_SCENARIO_FIELDS, false, "");
	for (size_t i = 0; i < N_SCENARIO_FIELDS; i++, lua_settop(L, 1)) {
		const struct cb_field *f = &scenario_fields[i];
		struct cb_site site = {.key = f->name};
		lua_pushstring(L, f->name);
		if (lua_rawget(L, 1) != LUA_TNIL)
			f->parse(ld, L, 2, &site);
		else if (f->required)
			cb_check_fail(ld, L, NULL, NULL, "cb.scenario{} is missing the field '%s'",
			              f->name);
	}
	return 0;
}
