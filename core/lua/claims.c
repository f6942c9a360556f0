/* claims.c: run a claims file (claims.h) in the sandbox. */
#include "core/lua/claims.h"

#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "core/base/errbuf.h"
#include "core/lua/sandbox.h"

/* A claims file reads whole data folders, analysed in C while the call that
 * asked for them runs: more time than a scenario's load, the same memory. */
#define CLAIMS_SECONDS 120.0
#define CLAIMS_INSTRUCTIONS 200000000ull
#define JSON_MAX_DEPTH 64

struct claims_run {
	const struct cb_claims_source *source;
	struct cb_claims *out;
	char **formats; /* per number */
	int functions;  /* registry: { claims = {check...}, numbers = {value...}, data = {} } */
};

static char *dup_or_die(lua_State *L, const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d)
		luaL_error(L, "not enough memory");
	return d;
}

/* "FILE:LINE" of the Lua code that called the running C function. */
static char *caller_place(lua_State *L)
{
	lua_Debug ar;
	char buf[1200];

	if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "Sl", &ar) && ar.source[0] == '@')
		snprintf(buf, sizeof buf, "%s:%d", ar.source + 1, ar.currentline);
	else
		snprintf(buf, sizeof buf, "?:0");
	return dup_or_die(L, buf);
}

/* ---- JSON to Lua ---- */

static void push_json(lua_State *L, json_t *j, int depth)
{
	const char *key;
	json_t *v;
	size_t i;

	if (depth > JSON_MAX_DEPTH || !lua_checkstack(L, 4))
		luaL_error(L, "data nested too deeply");
	switch (json_typeof(j)) {
	case JSON_OBJECT:
		lua_createtable(L, 0, (int)json_object_size(j));
		json_object_foreach(j, key, v)
		{
			if (json_is_null(v))
				continue; /* absent, as Lua has it */
			push_json(L, v, depth + 1);
			lua_setfield(L, -2, key);
		}
		break;
	case JSON_ARRAY:
		lua_createtable(L, (int)json_array_size(j), 0);
		json_array_foreach(j, i, v)
		{
			push_json(L, v, depth + 1);
			lua_rawseti(L, -2, (lua_Integer)i + 1);
		}
		break;
	case JSON_STRING:
		lua_pushlstring(L, json_string_value(j), json_string_length(j));
		break;
	case JSON_INTEGER:
		lua_pushinteger(L, (lua_Integer)json_integer_value(j));
		break;
	case JSON_REAL:
		lua_pushnumber(L, json_real_value(j));
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		lua_pushboolean(L, json_is_true(j));
		break;
	default:
		lua_pushnil(L); /* null in an array: a hole */
	}
}

/* ---- The functions a claims file calls ---- */

static struct claims_run *run_of(lua_State *L)
{
	return lua_touserdata(L, lua_upvalueindex(1));
}

/* Push the registry table's field NAME (claims, numbers or data). */
static void push_slot(lua_State *L, struct claims_run *run, const char *name)
{
	lua_rawgeti(L, LUA_REGISTRYINDEX, run->functions);
	lua_getfield(L, -1, name);
	lua_remove(L, -2); /* the registry table */
}

static int l_data(lua_State *L)
{
	struct claims_run *run = run_of(L);
	const char *name = luaL_checkstring(L, 1);
	char err[1024];
	json_t *j;

	luaL_argcheck(L, name[0] && name[0] != '.' && !strchr(name, '/'), 1,
	              "a data folder's name (no '/', not starting with '.')");
	push_slot(L, run, "data");
	if (lua_getfield(L, -1, name) != LUA_TNIL)
		return 1; /* read once */
	lua_pop(L, 1);
	err[0] = '\0';
	if (!(j = run->source->load(run->source->ctx, name, err, sizeof err)))
		return luaL_error(L, "data '%s': %s", name, err);
	push_json(L, j, 0);
	json_decref(j);
	lua_pushvalue(L, -1);
	lua_setfield(L, -3, name); /* into the cache */
	return 1;
}

/* Check that the table at 1 has only the fields KNOWN (NULL-terminated). */
static void check_fields(lua_State *L, const char *what, const char *const *known)
{
	luaL_checktype(L, 1, LUA_TTABLE);
	lua_pushnil(L);
	while (lua_next(L, 1)) {
		struct cb_lua_hint hint;
		const char *key;
		bool found = false;

		lua_pop(L, 1); /* the value */
		if (lua_type(L, -1) != LUA_TSTRING)
			luaL_error(L, "%s: fields are named (name = ...)", what);
		key = lua_tostring(L, -1);
		cb_lua_hint_init(&hint, key);
		for (size_t i = 0; known[i] && !found; i++) {
			found = strcmp(key, known[i]) == 0;
			cb_lua_hint_consider(&hint, known[i]);
		}
		if (!found) {
			const char *best = cb_lua_hint_best(&hint);

			if (best)
				luaL_error(L, "%s: unknown field '%s' (did you mean '%s'?)", what,
				           key, best);
			luaL_error(L, "%s: unknown field '%s'", what, key);
		}
	}
}

/* The string field NAME of the table at 1 (required unless OPTIONAL). */
static const char *string_field(lua_State *L, const char *what, const char *name, bool optional)
{
	int t = lua_getfield(L, 1, name);
	const char *s = lua_tostring(L, -1);

	lua_pop(L, 1); /* the string stays alive: the table holds it */
	if (t == LUA_TNIL && optional)
		return NULL;
	if (t != LUA_TSTRING || !s[0])
		luaL_error(L, "%s: '%s' must be a non-empty string", what, name);
	return s;
}

static int l_claim(lua_State *L)
{
	static const char *const known[] = {"name", "text", "check", NULL};
	struct claims_run *run = run_of(L);
	struct cb_claims *out = run->out;
	const char *name, *text;
	struct cb_claim *grown, *c;

	check_fields(L, "claim", known);
	name = string_field(L, "claim", "name", false);
	text = string_field(L, "claim", "text", false);
	for (size_t i = 0; i < out->n; i++)
		if (strcmp(out->claims[i].name, name) == 0)
			return luaL_error(L, "claim '%s' declared twice (first at %s)", name,
			                  out->claims[i].where);
	if (lua_getfield(L, 1, "check") != LUA_TFUNCTION)
		return luaL_error(L, "claim '%s': 'check' must be a function", name);
	if (!(grown = realloc(out->claims, (out->n + 1) * sizeof *grown)))
		return luaL_error(L, "not enough memory");
	out->claims = grown;
	c = memset(&out->claims[out->n], 0, sizeof *c);
	out->n++;
	c->name = dup_or_die(L, name);
	c->text = dup_or_die(L, text);
	c->where = caller_place(L);
	push_slot(L, run, "claims");
	lua_pushvalue(L, -2);
	lua_rawseti(L, -2, (lua_Integer)out->n); /* the check */
	return 0;
}

static int l_number(lua_State *L)
{
	static const char *const known[] = {"name", "value", "format", NULL};
	struct claims_run *run = run_of(L);
	struct cb_claims *out = run->out;
	const char *name, *format;
	struct cb_claim_number *grown, *n;
	char **formats;
	int t;

	check_fields(L, "number", known);
	name = string_field(L, "number", "name", false);
	format = string_field(L, "number", "format", true);
	if (strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") != strlen(name))
		return luaL_error(L, "number '%s': a name of letters only (it becomes \\%s)", name,
		                  name);
	for (size_t i = 0; i < out->n_numbers; i++)
		if (strcmp(out->numbers[i].name, name) == 0)
			return luaL_error(L, "number '%s' declared twice (first at %s)", name,
			                  out->numbers[i].where);
	t = lua_getfield(L, 1, "value");
	if (t != LUA_TNUMBER && t != LUA_TSTRING && t != LUA_TFUNCTION)
		return luaL_error(L,
		                  "number '%s': 'value' must be a number, a string or a function "
		                  "(got %s)",
		                  name, luaL_typename(L, -1));
	if (!(grown = realloc(out->numbers, (out->n_numbers + 1) * sizeof *grown)))
		return luaL_error(L, "not enough memory");
	out->numbers = grown;
	if (!(formats = realloc(run->formats, (out->n_numbers + 1) * sizeof *formats)))
		return luaL_error(L, "not enough memory");
	run->formats = formats;
	formats[out->n_numbers] = NULL;
	n = memset(&out->numbers[out->n_numbers], 0, sizeof *n);
	out->n_numbers++;
	n->name = dup_or_die(L, name);
	n->where = caller_place(L);
	formats[out->n_numbers - 1] = dup_or_die(L, format ? format : "%.3g");
	push_slot(L, run, "numbers");
	lua_pushvalue(L, -2);
	lua_rawseti(L, -2, (lua_Integer)out->n_numbers); /* the value */
	return 0;
}

/* ---- After the file: the checks and the numbers ---- */

/* Call the function or take the value at the top, as string.format(FORMAT,
 * value) would print it, into N->value. 0, or -1 with ERR. */
static int evaluate_number(lua_State *L, struct cb_claim_number *n, const char *format, char *err,
                           size_t err_len)
{
	char msg[1024];

	if (lua_type(L, -1) == LUA_TFUNCTION && cb_lua_pcall(L, 0, 1, msg, sizeof msg) != 0)
		return cb_errorf(err, err_len, "%s", msg);
	if (lua_type(L, -1) == LUA_TNUMBER) {
		lua_getglobal(L, "string");
		lua_getfield(L, -1, "format");
		lua_remove(L, -2); /* the string table */
		lua_pushstring(L, format);
		lua_pushvalue(L, -3); /* the number */
		if (cb_lua_pcall(L, 2, 1, msg, sizeof msg) != 0)
			return cb_errorf(err, err_len, "%s: number '%s': format '%s': %s", n->where,
			                 n->name, format, msg);
		lua_remove(L, -2); /* the number */
	}
	if (lua_type(L, -1) != LUA_TSTRING) {
		cb_errorf(err, err_len, "%s: number '%s': the value is %s, not a number or string",
		          n->where, n->name, luaL_typename(L, -1));
		lua_pop(L, 1);
		return -1;
	}
	n->value = strdup(lua_tostring(L, -1));
	lua_pop(L, 1);
	return n->value ? 0 : cb_errorf(err, err_len, "%s: not enough memory", n->where);
}

static int evaluate(lua_State *L, struct claims_run *run, char *err, size_t err_len)
{
	struct cb_claims *out = run->out;
	char msg[1024];

	for (size_t i = 0; i < out->n; i++) {
		struct cb_claim *c = &out->claims[i];

		push_slot(L, run, "claims");
		lua_rawgeti(L, -1, (lua_Integer)i + 1);
		lua_remove(L, -2); /* the claims table */
		if (cb_lua_pcall(L, 0, 2, msg, sizeof msg) != 0)
			return cb_errorf(err, err_len, "%s", msg);
		if (lua_type(L, -2) != LUA_TBOOLEAN) {
			cb_errorf(err, err_len,
			          "%s: claim '%s': the check returned %s, not a boolean", c->where,
			          c->name, luaL_typename(L, -2));
			lua_pop(L, 2);
			return -1;
		}
		c->held = lua_toboolean(L, -2);
		c->evidence =
		    strdup(lua_type(L, -1) == LUA_TSTRING || lua_type(L, -1) == LUA_TNUMBER
		               ? lua_tostring(L, -1)
		               : "");
		lua_pop(L, 2);
		if (!c->evidence)
			return cb_errorf(err, err_len, "%s: not enough memory", c->where);
	}
	for (size_t i = 0; i < out->n_numbers; i++) {
		push_slot(L, run, "numbers");
		lua_rawgeti(L, -1, (lua_Integer)i + 1);
		lua_remove(L, -2); /* the numbers table */
		if (evaluate_number(L, &out->numbers[i], run->formats[i], err, err_len) != 0)
			return -1;
	}
	return 0;
}

struct cb_claims *cb_claims_run(const char *path, const struct cb_claims_source *source, char *err,
                                size_t err_len)
{
	static const luaL_Reg functions[] = {
	    {"data", l_data}, {"claim", l_claim}, {"number", l_number}, {NULL, NULL}};
	struct cb_lua_limits limits = {.seconds = CLAIMS_SECONDS,
	                               .instructions = CLAIMS_INSTRUCTIONS};
	struct claims_run run = {.source = source, .functions = LUA_NOREF};
	struct cb_claims *out = calloc(1, sizeof *out);
	lua_State *L = NULL;
	int rc = -1;

	run.out = out;
	if (!out || !(L = cb_lua_new(&limits, err, err_len))) {
		if (!out)
			cb_errorf(err, err_len, "%s: not enough memory", path);
		goto done;
	}
	lua_createtable(L, 0, 3);
	lua_newtable(L);
	lua_setfield(L, -2, "claims");
	lua_newtable(L);
	lua_setfield(L, -2, "numbers");
	lua_newtable(L);
	lua_setfield(L, -2, "data");
	run.functions = luaL_ref(L, LUA_REGISTRYINDEX);
	lua_pushglobaltable(L);
	lua_pushlightuserdata(L, &run);
	luaL_setfuncs(L, functions, 1); /* data, claim, number: globals */
	lua_pop(L, 1);                  /* the globals */
	if (cb_lua_loadfile(L, path, err, err_len) != 0 || cb_lua_pcall(L, 0, 0, err, err_len) != 0)
		goto done;
	if (out->n == 0) {
		cb_error_at(err, err_len, path, 1, "no claim declared (claim { name = ..., ... })");
		goto done;
	}
	rc = evaluate(L, &run, err, err_len);
done:
	cb_lua_close(L);
	for (size_t i = 0; out && i < out->n_numbers; i++)
		free(run.formats[i]);
	free(run.formats);
	if (rc != 0) {
		cb_claims_free(out);
		return NULL;
	}
	return out;
}

void cb_claims_free(struct cb_claims *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->claims[i].name);
		free(c->claims[i].text);
		free(c->claims[i].where);
		free(c->claims[i].evidence);
	}
	for (size_t i = 0; i < c->n_numbers; i++) {
		free(c->numbers[i].name);
		free(c->numbers[i].value);
		free(c->numbers[i].where);
	}
	free(c->claims);
	free(c->numbers);
	free(c);
}
