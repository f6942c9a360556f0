/* load.c: load a scenario script into a struct cb_scenario.
 *
 * The script runs once in the sandbox and only declares: the `cryptobench`
 * module it requires fills the scenario as it goes (the fields themselves are
 * read in fields.c). After it: --set overrides, then --quick. What C
 * allocates while Lua may still raise an error hangs off the scenario at once,
 * so cb_scenario_free() cleans up any failure. */
#include "core/lua/load.h"

#include "core/lua/internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lauxlib.h>

#include "core/base/datadir.h"
#include "core/base/errbuf.h"
#include "core/builds/libbuild.h"
#include "core/algorithms/input.h"
#include "core/machine/host.h"
#include "core/lua/sandbox.h"
#include "core/base/units.h"

#define MAX_SOURCE ((size_t)16 << 20)
#define MAX_GEOMETRIC 256 /* sizes one cb.geometric() may make */
#define QUICK_MAX_SIZE ((size_t)1 << 20)
#define QUICK_ROUNDS 5
#define DEFAULT_MAX_ROUNDS 400 /* a stop rule's, as analysis/verdicts/stopping.h's */
#define DEFAULT_BLOCK 8        /* the layout's stratum (core/measure/trial.h) */
#define QUICK_TRIAL_NS 5000000u
#define DEFAULT_ROUNDS 30
#define DEFAULT_ORDER_SEED 20260804u
#define DEFAULT_TRIAL_NS 20000000u

/* Record NAME = VALUE; a later value from the command line replaces an
 * earlier one. 0, or -1 when memory is short. */
static int record_param(struct cb_scenario *sc, const char *name, const char *value,
                        bool from_command_line)
{
	for (size_t i = 0; i < sc->n_params; i++) {
		struct cb_param *p = &sc->params[i];
		if (strcmp(p->name, name) != 0)
			continue;
		if (from_command_line) {
			char *copy = strdup(value);
			if (copy == NULL)
				return -1;
			free(p->value);
			p->value = copy;
			p->from_command_line = true;
		}
		return 0;
	}
	struct cb_param *params = realloc(sc->params, (sc->n_params + 1) * sizeof *params);
	if (params == NULL)
		return -1;
	sc->params = params;
	struct cb_param *p = &params[sc->n_params++];
	*p = (struct cb_param){strdup(name), strdup(value), from_command_line};
	return p->name && p->value ? 0 : -1;
}

/* ---- cb.available{ ... } ---- */

static void record_dropped(lua_State *L, struct cb_scenario *sc, const char *name,
                           const char *reason)
{
	for (size_t i = 0; i < sc->n_dropped; i++)
		if (strcmp(sc->dropped[i].name, name) == 0)
			return; /* said once */
	struct cb_dropped *dropped = realloc(sc->dropped, (sc->n_dropped + 1) * sizeof *dropped);
	if (dropped == NULL)
		luaL_error(L, "not enough memory");
	sc->dropped = dropped;
	dropped[sc->n_dropped] = (struct cb_dropped){NULL, NULL};
	struct cb_dropped *d = &dropped[sc->n_dropped++];
	d->name = cb_check_strdup(L, name);
	d->reason = cb_check_strdup(L, reason);
}

/* The entries whose engine is compiled in and usable here. A name close to
 * a compiled-in engine is a typo, not an engine missing. */
static int module_available(lua_State *L)
{
	struct cb_loading *ld = cb_check_loading(L);
	lua_Integer n, kept = 0;

	luaL_checktype(L, 1, LUA_TTABLE);
	n = (lua_Integer)lua_rawlen(L, 1);
	lua_settop(L, 1);
	lua_createtable(L, (int)n, 0);
	for (lua_Integer i = 1; i <= n; i++, lua_settop(L, 2)) {
		const char *name = NULL, *why = NULL;
		int type = lua_rawgeti(L, 1, i);
		if (type == LUA_TTABLE && lua_rawgeti(L, 3, 1) == LUA_TSTRING)
			name = lua_tostring(L, -1);
		else if (type == LUA_TSTRING)
			name = lua_tostring(L, 3);
		if (name == NULL)
			return luaL_error(L,
			                  "cb.available: entry %d is neither an engine name nor a "
			                  "variant table { \"name\", ... }",
			                  (int)i);
		const struct cb_engine *engine = cb_engine_find(name);
		if (engine == NULL) {
			struct cb_lua_hint hint;
			cb_lua_hint_init(&hint, name);
			for (size_t e = 0; e < cb_engine_count(); e++)
				cb_lua_hint_consider(&hint, cb_engine_at(e)->name);
			if (cb_lua_hint_best(&hint))
				return luaL_error(L, "unknown engine '%s' (did you mean '%s'?)",
				                  name, cb_lua_hint_best(&hint));
			why = "not compiled in";
		}
		if (engine && cb_engine_usable(engine, &why)) {
			lua_pushvalue(L, 3);
			lua_rawseti(L, 2, ++kept);
		} else {
			record_dropped(L, ld->sc, name, why ? why : "not usable here");
		}
	}
	return 1;
}

/* ---- cb.geometric(from, to, factor) ---- */

static size_t size_argument(lua_State *L, int arg)
{
	size_t bytes = 0;
	int ok = 0;

	if (lua_type(L, arg) == LUA_TSTRING) {
		ok = cb_parse_size(lua_tostring(L, arg), &bytes) == 0;
	} else if (lua_type(L, arg) == LUA_TNUMBER) {
		lua_Integer v = lua_tointegerx(L, arg, &ok);
		ok = ok && v >= 0;
		bytes = ok ? (size_t)v : 0;
	}
	if (!ok)
		luaL_argerror(L, arg,
		              lua_pushfstring(L, "bad size '%s' (a string needs its unit: %s)",
		                              luaL_tolstring(L, arg, NULL), CB_SIZE_UNITS));
	if (bytes < 1 || bytes > CB_SCENARIO_MAX_SIZE)
		luaL_argerror(L, arg, "size out of range (1B .. 4GiB)");
	return bytes;
}

static int module_geometric(lua_State *L)
{
	size_t from = size_argument(L, 1), to = size_argument(L, 2), previous = 0;
	double factor = luaL_checknumber(L, 3), x = (double)from;
	lua_Integer n = 0;

	luaL_argcheck(L, factor > 1 && factor < 1e6, 3, "the factor must be greater than 1");
	luaL_argcheck(L, from <= to, 2, "'to' must not be smaller than 'from'");
	lua_newtable(L);
	for (size_t size = from; size <= to; x *= factor, size = (size_t)(x + 0.5)) {
		if (size == previous)
			continue; /* rounding a small factor repeats sizes */
		if (n == MAX_GEOMETRIC)
			return luaL_error(L, "cb.geometric: more than %d sizes", MAX_GEOMETRIC);
		lua_pushinteger(L, (lua_Integer)size);
		lua_rawseti(L, -2, ++n);
		previous = size;
	}
	if (previous != to) { /* the sweep ends where the scenario said it ends */
		lua_pushinteger(L, (lua_Integer)to);
		lua_rawseti(L, -2, ++n);
	}
	return 1;
}

/* ---- cb.include(path) ---- */

/* Keep what an included file said (path, digest, text) with the scenario:
 * the scenario's own digest does not cover it. */
static void record_include(struct cb_scenario *sc, const char *path)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL, sha[65];
	size_t len = 0;
	json_t *entry;

	if (f) {
		fseek(f, 0, SEEK_END);
		long size = ftell(f);
		fseek(f, 0, SEEK_SET);
		if (size >= 0 && (text = malloc((size_t)size + 1)))
			len = fread(text, 1, (size_t)size, f);
		fclose(f);
	}
	if (!text)
		return;
	cb_sha256_hex((const unsigned char *)text, len, sha);
	entry = json_pack("{s:s, s:s, s:s%}", "path", path, "sha256", sha, "source", text, len);
	if (!entry) /* not UTF-8: the digest still pins the file down */
		entry = json_pack("{s:s, s:s}", "path", path, "sha256", sha);
	json_array_append_new(sc->includes, entry);
	free(text);
}

/* Runs a Lua file in the sandbox's globals and returns what it returns.
 * Looked for in the scenario's folder, then lib/ inside it, then lib/
 * beside it (scenarios/paper/x.lua finds scenarios/lib/). */
static int module_include(lua_State *L)
{
	struct cb_loading *ld = cb_check_loading(L);
	const char *name = luaL_checkstring(L, 1);
	const char *slash = strrchr(ld->sc->file, '/');
	int dir_len = slash ? (int)(slash - ld->sc->file) : 1;
	const char *dir = slash ? ld->sc->file : ".";
	const char *suffix =
	    strlen(name) >= 4 && strcmp(name + strlen(name) - 4, ".lua") == 0 ? "" : ".lua";
	static const char *const places[] = {"%.*s/%s%s", "%.*s/lib/%s%s", "%.*s/../lib/%s%s"};
	char path[4096], err[1024];
	size_t i;

	luaL_argcheck(L, name[0] != '\0', 1, "empty file name");
	if (name[0] == '/') {
		snprintf(path, sizeof path, "%s%s", name, suffix);
		i = access(path, R_OK) == 0 ? 0 : 3;
	} else {
		for (i = 0; i < 3; i++) {
			snprintf(path, sizeof path, places[i], dir_len, dir, name, suffix);
			if (access(path, R_OK) == 0)
				break;
		}
	}
	if (i == 3) {
		snprintf(err, sizeof err, "%.*s", dir_len, dir); /* luaL_error has no %.*s */
		return luaL_error(
		    L, "cb.include: cannot find '%s%s' (looked in %s, %s/lib, %s/../lib)", name,
		    suffix, err, err, err);
	}
	lua_settop(L, 0);
	if (cb_lua_loadfile(L, path, err, sizeof err) != 0) {
		lua_pushstring(L, err);
		return lua_error(L);
	}
	record_include(ld->sc, path);
	lua_call(L, 0, LUA_MULTRET);
	return lua_gettop(L);
}

/* ---- cb.param(name, default) ---- */

static int parse_boolean(const char *s, bool *b)
{
	static const char *const yes[] = {"true", "yes", "on", "1"}, *const no[] = {"false", "no",
	                                                                            "off", "0"};

	for (int i = 0; i < 4; i++)
		if (strcmp(s, yes[i]) == 0 || strcmp(s, no[i]) == 0) {
			*b = strcmp(s, yes[i]) == 0;
			return 0;
		}
	return -1;
}

/* Push the text of the value at IDX that reads back as the same value: a
 * string as is, an integer as Lua writes it, a float with the fewest
 * digits (from 14, as Lua's own "%.14g") that give the same double again.
 * Lua's tostring stops at 14 digits, so 1.0309278350515465 was recorded
 * as 1.0309278350515, and the file's run could not be resumed: the
 * recorded --set no longer gave the recorded engines. Returns the text. */
static const char *push_exact_text(lua_State *L, int idx)
{
	char buf[64];
	lua_Number x;

	if (lua_type(L, idx) != LUA_TNUMBER || lua_isinteger(L, idx)) {
		lua_pushvalue(L, idx); /* tostring on a copy: the value stays a number */
		return lua_tostring(L, -1);
	}
	x = lua_tonumber(L, idx);
	for (int digits = 14; digits <= 17; digits++) {
		snprintf(buf, sizeof buf, "%.*g", digits, (double)x);
		if (strtod(buf, NULL) == (double)x)
			break;
	}
	if (buf[strspn(buf, "-0123456789")] == '\0') /* a float stays one, as in Lua */
		strcat(buf, ".0");
	lua_pushstring(L, buf);
	return lua_tostring(L, -1);
}

/* The --set value of NAME converted to the default's type, else the default. */
static int module_param(lua_State *L)
{
	struct cb_loading *ld = cb_check_loading(L);
	const char *name = luaL_checkstring(L, 1), *value = NULL;
	int type = lua_type(L, 2);
	bool b;

	luaL_argcheck(L, name[0] != '\0', 1, "empty parameter name");
	luaL_argcheck(L, type == LUA_TNUMBER || type == LUA_TSTRING || type == LUA_TBOOLEAN, 2,
	              "the default must be a number, a string or a boolean");
	lua_settop(L, 2);
	for (size_t i = 0; i < ld->opts->n_overrides; i++)
		if (strcmp(ld->opts->overrides[i].key, name) == 0) {
			value = ld->opts->overrides[i].value; /* the last one wins */
			ld->override_used[i] = true;
		}
	if (value == NULL) {
		lua_pushvalue(L, 2);
	} else if (type == LUA_TSTRING) {
		lua_pushstring(L, value);
	} else if (type == LUA_TNUMBER) {
		if (lua_stringtonumber(L, value) == 0)
			return luaL_error(L, "--set %s=%s: parameter '%s' takes a number", name,
			                  value, name);
	} else {
		if (parse_boolean(value, &b) != 0)
			return luaL_error(L, "--set %s=%s: parameter '%s' takes true or false",
			                  name, value, name);
		lua_pushboolean(L, b);
	}
	const char *text =
	    type == LUA_TBOOLEAN ? (lua_toboolean(L, 3) ? "true" : "false") : push_exact_text(L, 3);
	if (record_param(ld->sc, name, text, value != NULL) != 0)
		return luaL_error(L, "not enough memory");
	lua_settop(L, 3);
	return 1;
}

/* cb.host: what a scenario may choose by on the machine that runs it, such
 * as which variable masks a CPU feature (scenarios/capability-mask.lua):
 * { arch = "x86_64" or "aarch64" or "other", features = { aes = true, ...} }. */
static void push_host(lua_State *L)
{
	json_t *features = cb_host_features();
	const char *name;
	json_t *value;

	lua_createtable(L, 0, 2);
	lua_pushstring(L, cb_host_arch());
	lua_setfield(L, -2, "arch");
	lua_newtable(L);
	json_object_foreach(features, name, value)
	{
		lua_pushboolean(L, json_is_true(value));
		lua_setfield(L, -2, name);
	}
	lua_setfield(L, -2, "features");
	json_decref(features);
}

static int open_module(lua_State *L)
{
	static const luaL_Reg functions[] = {
	    {"scenario", cb_fields_scenario},
	    {"derive", cb_fields_derive},
	    {"available", module_available},
	    {"geometric", module_geometric},
	    {"include", module_include},
	    {"param", module_param},
	    {NULL, NULL},
	};

	lua_newtable(L);
	lua_pushvalue(L, 1); /* the cb_loading, as every function's upvalue */
	luaL_setfuncs(L, functions, 1);
	push_host(L);
	lua_setfield(L, -2, "host");
	return 1;
}

/* ---- After the script: --set and --quick ---- */

static const struct cb_field *set_field(const char *key)
{
	for (size_t i = 0; i < cb_n_set_fields; i++)
		if (strcmp(cb_set_fields[i].name, key) == 0)
			return &cb_set_fields[i];
	return NULL;
}

static int check_set_keys(const struct cb_loading *ld, char *err, size_t err_len)
{
	const struct cb_scenario *sc = ld->sc;

	for (size_t i = 0; i < ld->opts->n_overrides; i++) {
		const char *key = ld->opts->overrides[i].key;
		if (ld->override_used[i] || set_field(key))
			continue;
		const char **names = calloc(cb_n_set_fields + sc->n_params + 1, sizeof *names);
		char hint[1024];
		size_t n = 0;
		for (size_t f = 0; names && f < cb_n_set_fields; f++)
			names[n++] = cb_set_fields[f].name;
		for (size_t p = 0; names && p < sc->n_params; p++)
			names[n++] = sc->params[p].name;
		cb_errorf(err, err_len, "--set: unknown key '%s'%s", key,
		          names ? cb_check_hint(key, names, n, hint, sizeof hint) : "");
		free(names);
		return -1;
	}
	return 0;
}

/* A --set value as Lua would have it: a number when it reads as one. */
static void push_set_value(lua_State *L, const char *text, size_t len)
{
	lua_pushlstring(L, text, len);
	if (lua_stringtonumber(L, lua_tostring(L, -1)) != 0)
		lua_remove(L, -2);
}

static void push_set_list(lua_State *L, const char *text)
{
	lua_Integer n = 0;

	lua_newtable(L);
	while (*text) {
		const char *comma = strchr(text, ',');
		size_t len = comma ? (size_t)(comma - text) : strlen(text);
		const char *start = text;
		while (len > 0 && (*start == ' ' || *start == '\t'))
			start++, len--;
		while (len > 0 && (start[len - 1] == ' ' || start[len - 1] == '\t'))
			len--;
		push_set_value(L, start, len);
		lua_rawseti(L, -2, ++n);
		if (comma == NULL)
			break;
		text = comma + 1;
	}
}

/* Run in a protected call of its own: its errors are "--set K=V: ...". */
static int apply_overrides(lua_State *L)
{
	struct cb_loading *ld = lua_touserdata(L, 1);

	for (size_t i = 0; i < ld->opts->n_overrides; i++, lua_settop(L, 1)) {
		const struct cb_override *o = &ld->opts->overrides[i];
		const struct cb_field *f = set_field(o->key);
		const struct cb_site site = {.key = o->key, .set_value = o->value};
		if (f == NULL)
			continue; /* a cb.param, already used */
		if (f->list)
			push_set_list(L, o->value);
		else
			push_set_value(L, o->value, strlen(o->value));
		f->parse(ld, L, 2, &site);
		if (record_param(ld->sc, o->key, o->value, true) != 0)
			return luaL_error(L, "not enough memory");
	}
	if (ld->opts->budget_s > 0) {
		const struct cb_site site = {.key = "stop_budget",
		                             .set_value = ld->opts->budget_text};

		push_set_value(L, site.set_value, strlen(site.set_value));
		cb_fields_stop_budget(ld, L, 2, &site, ld->opts->budget_s);
		if (record_param(ld->sc, site.key, site.set_value, true) != 0)
			return luaL_error(L, "not enough memory");
	}
	return 0;
}

/* A preview: few rounds, short trials, at most three sizes up to 1 MiB: the
 * smallest, the largest, and the one nearest their geometric mean (sizes
 * are read on a log scale). */
static int apply_quick(struct cb_scenario *sc)
{
	size_t n = 0;

	if (sc->rounds > QUICK_ROUNDS)
		sc->rounds = QUICK_ROUNDS;
	sc->warmup_rounds = 1;
	if (sc->trial_time_ns > QUICK_TRIAL_NS)
		sc->trial_time_ns = QUICK_TRIAL_NS;
	for (size_t i = 0; i < sc->n_sizes; i++) {
		size_t size = sc->sizes[i] < QUICK_MAX_SIZE ? sc->sizes[i] : QUICK_MAX_SIZE;
		if (n == 0 || sc->sizes[n - 1] != size)
			sc->sizes[n++] = size; /* ascending, so a capped size repeats at the end */
	}
	if (n > 3) {
		double middle = sqrt((double)sc->sizes[0] * (double)sc->sizes[n - 1]);
		size_t best = 1;
		for (size_t i = 2; i < n - 1; i++)
			if (fabs(log(sc->sizes[i] / middle)) < fabs(log(sc->sizes[best] / middle)))
				best = i;
		sc->sizes[1] = sc->sizes[best];
		sc->sizes[2] = sc->sizes[n - 1];
		n = 3;
	}
	sc->n_sizes = n;
	return record_param(sc, "quick", "true", true);
}

/* ---- Loading ---- */

static int read_source(struct cb_scenario *sc, char *err, size_t err_len)
{
	FILE *f = fopen(sc->file, "rb");
	size_t cap = 4096;

	if (f == NULL || (sc->source = malloc(cap)) == NULL)
		goto fail;
	for (;;) {
		sc->source_len +=
		    fread(sc->source + sc->source_len, 1, cap - sc->source_len - 1, f);
		if (sc->source_len < cap - 1)
			break;
		if (cap > MAX_SOURCE) {
			errno = EFBIG;
			goto fail;
		}
		char *bigger = realloc(sc->source, cap *= 2);
		if (bigger == NULL)
			goto fail;
		sc->source = bigger;
	}
	if (ferror(f))
		goto fail;
	sc->source[sc->source_len] = '\0';
	fclose(f);
	cb_sha256_hex((const unsigned char *)sc->source, sc->source_len, sc->sha256);
	return 0;
fail:
	cb_errorf(err, err_len, "%s: cannot read: %s", sc->file, strerror(errno));
	if (f)
		fclose(f);
	return -1;
}

static int set_defaults(struct cb_scenario *sc)
{
	static const enum cb_op ops[] = {CB_OP_HASH, CB_OP_ENCRYPT, CB_OP_DECRYPT};

	sc->ops = malloc(sizeof ops);
	sc->threads = malloc(sizeof *sc->threads);
	sc->derive = json_array();
	sc->includes = json_array();
	if (!sc->ops || !sc->threads || !sc->derive)
		return -1;
	memcpy(sc->ops, ops, sizeof ops);
	sc->n_ops = 3;
	sc->threads[0] = 1;
	sc->n_threads = 1;
	sc->rounds = DEFAULT_ROUNDS;
	sc->warmup_rounds = 1;
	sc->order = CB_ORDER_ROUND_ROBIN;
	sc->order_seed = DEFAULT_ORDER_SEED;
	sc->trial_time_ns = DEFAULT_TRIAL_NS;
	sc->input_seed = CB_INPUT_DEFAULT_SEED;
	sc->input_offset = 0;
	sc->layout_per_trial = true;
	sc->stop.max_rounds = DEFAULT_MAX_ROUNDS;
	sc->stop.block = DEFAULT_BLOCK;
	return 0;
}

/* Where the scenario runs another build of a library (a variant's lib),
 * its variants of that library's default build that run in this process
 * run through the engine's shared object too, the code every build runs
 * (core/builds/libbuild.h): the builds then differ in the library alone. */
static int same_engine_code(struct cb_scenario *sc, char *err, size_t err_len)
{
	char vectors[4096], why[1024];

	for (size_t i = 0; i < sc->n_variants; i++) {
		const char *library = cb_libbuild_library(sc->variants[i].engine);

		for (size_t j = 0; library && j < sc->n_variants; j++) {
			struct cb_variant *v = &sc->variants[j];
			const struct cb_engine *e;

			if (v->config.in_worker || strcmp(v->engine->name, library) != 0 ||
			    cb_libbuild_is_default_object(v->engine))
				continue;
			e = cb_libbuild_default_object(
			    v->engine, cb_datadir(CB_DATA_VECTORS, vectors, sizeof vectors), why,
			    sizeof why);
			if (!e)
				return cb_errorf(err, err_len, "%s: %s", sc->file, why);
			v->engine = e;
		}
	}
	return 0;
}

struct cb_scenario *cb_scenario_load(const char *path, const struct cb_load_options *options,
                                     char *err, size_t err_len)
{
	static const struct cb_load_options no_options;
	struct cb_loading ld = {.opts = options ? options : &no_options};
	struct cb_scenario *sc = calloc(1, sizeof *sc);
	lua_State *L = NULL;

	if (sc == NULL || (sc->file = strdup(path)) == NULL || set_defaults(sc) != 0 ||
	    (ld.override_used = calloc(ld.opts->n_overrides + 1, sizeof(bool))) == NULL) {
		cb_errorf(err, err_len, "%s: not enough memory", path);
		goto fail;
	}
	ld.sc = sc;
	if (read_source(sc, err, err_len) != 0 || (L = cb_lua_new(NULL, err, err_len)) == NULL)
		goto fail;
	if (cb_lua_provide(L, "cryptobench", open_module, &ld) != 0) {
		cb_errorf(err, err_len, "%s: not enough memory", path);
		goto fail;
	}
	if (cb_lua_loadfile(L, path, err, err_len) != 0 || cb_lua_pcall(L, 0, 0, err, err_len) != 0)
		goto fail;
	if (ld.scenario_line == 0) {
		cb_errorf(err, err_len, "%s:1: the script never calls cb.scenario{ ... }", path);
		goto fail;
	}
	if (check_set_keys(&ld, err, err_len) != 0)
		goto fail;
	lua_pushcfunction(L, apply_overrides);
	lua_pushlightuserdata(L, &ld);
	if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
		cb_errorf(err, err_len, "%s",
		          lua_tostring(L, -1) ? lua_tostring(L, -1) : "--set failed");
		goto fail;
	}
	/* Before --quick, which keeps only some sizes: a selector of a size it
	 * drops still names one the scenario has. */
	lua_pushcfunction(L, cb_derive_check_selectors);
	lua_pushlightuserdata(L, &ld);
	if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
		cb_errorf(err, err_len, "%s",
		          lua_tostring(L, -1) ? lua_tostring(L, -1) : "cb.derive: bad selector");
		goto fail;
	}
	if (ld.opts->quick && apply_quick(sc) != 0) {
		cb_errorf(err, err_len, "%s: not enough memory", path);
		goto fail;
	}
	if (same_engine_code(sc, err, err_len) != 0)
		goto fail;
	cb_lua_close(L);
	cb_derive_sites_free(&ld);
	free(ld.override_used);
	return sc;
fail:
	cb_lua_close(L);
	cb_derive_sites_free(&ld);
	json_decref(ld.pending);
	free(ld.override_used);
	cb_scenario_free(sc);
	return NULL;
}
