/* check.c: reading the script's values, with errors that point at
 * the line the user must change.
 *
 * Lua knows only the line of a call, and a cb.scenario{} call spans many
 * lines, so an error about a field looks in the script's text for the line
 * where that field (or the bad value, quoted) is written. Tables are read
 * raw: no metamethod of the script runs while C reads its declarations. */
#include "core/lua/internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "core/lua/sandbox.h"
#include "core/base/units.h"

struct cb_loading *cb_check_loading(lua_State *L)
{
	return lua_touserdata(L, lua_upvalueindex(1));
}

int cb_check_raw_field(lua_State *L, int idx, const char *name)
{
	lua_pushstring(L, name);
	return lua_rawget(L, idx);
}

/* ---- Errors that point at the line ---- */

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

static int line_of(const char *text, const char *at)
{
	int line = 1;

	for (const char *p = text; p < at; p++)
		line += *p == '\n';
	return line;
}

/* The first line at or after the call's where "NEAR" (quoted; its NTH
 * occurrence, or the last when fewer) or else `KEY =` is written; the
 * call's line when neither shows. */
int cb_check_locate(const struct cb_loading *ld, const char *near, const char *key, unsigned nth)
{
	const char *found = NULL;
	const char *text = ld->sc->source;

	if (!ld->call_in_main || text == NULL)
		return ld->call_line;
	const char *end = text + ld->sc->source_len, *from = text;
	for (int line = 1; line < ld->call_line && from < end; from++)
		line += *from == '\n';
	size_t near_len = near ? strlen(near) : 0;
	for (const char *p = from; near && p + near_len + 2 <= end; p++)
		if ((*p == '"' || *p == '\'') && memcmp(p + 1, near, near_len) == 0 &&
		    p[near_len + 1] == *p) {
			found = p;
			if (nth-- == 0)
				break;
		}
	if (found)
		return line_of(text, found);
	size_t key_len = key ? strlen(key) : 0;
	for (const char *p = from; key && p + key_len < end; p++) {
		if (memcmp(p, key, key_len) != 0 || (p > text && ident_char(p[-1])))
			continue;
		const char *q = p + key_len;
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		if (q < end && *q == '=' && (q + 1 == end || q[1] != '='))
			return line_of(text, p);
	}
	return ld->call_line;
}

void cb_check_fail(struct cb_loading *ld, lua_State *L, const struct cb_site *site,
                   const char *near, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (site && site->set_value)
		lua_pushfstring(L, "--set %s=%s: %s", site->key, site->set_value, msg);
	else
		lua_pushfstring(
		    L, "%s:%d: %s", ld->call_file,
		    cb_check_locate(ld, near, site ? site->key : NULL, site ? site->nth : 0), msg);
	lua_error(L);
	abort(); /* not reached: lua_error does not return */
}

/* Note which call of the script is being read, for cb_check_fail(). */
void cb_check_begin_call(struct cb_loading *ld, lua_State *L)
{
	lua_Debug ar;

	ld->call_file = ld->sc->file;
	ld->call_line = 1;
	ld->call_in_main = true;
	for (int level = 1; lua_getstack(L, level, &ar); level++)
		if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0 && ar.source[0] == '@') {
			ld->call_file = ar.source + 1;
			ld->call_line = ar.currentline;
			ld->call_in_main = strcmp(ar.source + 1, ld->sc->file) == 0;
			return;
		}
}

/* A short description of the value at IDX for a message; no metamethods run. */
const char *cb_check_describe(lua_State *L, int idx, char *buf, size_t len)
{
	switch (lua_type(L, idx)) {
	case LUA_TSTRING:
		snprintf(buf, len, "'%s'", lua_tostring(L, idx));
		break;
	case LUA_TNUMBER:
		if (lua_isinteger(L, idx))
			snprintf(buf, len, "%lld", (long long)lua_tointeger(L, idx));
		else
			snprintf(buf, len, "%.14g", lua_tonumber(L, idx));
		break;
	case LUA_TBOOLEAN:
		snprintf(buf, len, "%s", lua_toboolean(L, idx) ? "true" : "false");
		break;
	default:
		snprintf(buf, len, "a %s", luaL_typename(L, idx));
	}
	return buf;
}

/* " (did you mean 'x'?)" or " (one of: a, b, c)" for WORD among NAMES. */
const char *cb_check_hint(const char *word, const char *const *names, size_t n, char *buf,
                          size_t len)
{
	struct cb_lua_hint hint;
	size_t used;

	cb_lua_hint_init(&hint, word);
	for (size_t i = 0; i < n; i++)
		cb_lua_hint_consider(&hint, names[i]);
	if (cb_lua_hint_best(&hint)) {
		snprintf(buf, len, " (did you mean '%s'?)", cb_lua_hint_best(&hint));
		return buf;
	}
	used = (size_t)snprintf(buf, len, " (one of:");
	for (size_t i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s %s", i ? "," : "", names[i]);
	if (used < len)
		snprintf(buf + used, len - used, ")");
	return buf;
}

/* Every key of the table at IDX must be in NAMES (and, when INDEX1, [1] may
 * be there too). Of several unknown keys, the first written is reported. */
void cb_check_keys(struct cb_loading *ld, lua_State *L, int idx, const char *const *names, size_t n,
                   bool index1, const char *where)
{
	const char *unknown = NULL;
	int unknown_line = 0;
	char buf[512];

	idx = lua_absindex(L, idx);
	for (lua_pushnil(L); lua_next(L, idx); lua_pop(L, 1)) {
		if (index1 && lua_isinteger(L, -2) && lua_tointeger(L, -2) == 1)
			continue;
		if (lua_type(L, -2) != LUA_TSTRING)
			cb_check_fail(ld, L, NULL, NULL,
			              "unexpected value %s%s: fields are written name = value",
			              cb_check_describe(L, -1, buf, sizeof buf), where);
		const char *key = lua_tostring(L, -2);
		size_t i;
		for (i = 0; i < n && strcmp(key, names[i]) != 0; i++)
			;
		if (i < n)
			continue;
		int line = cb_check_locate(ld, NULL, key, 0);
		if (!unknown || line < unknown_line ||
		    (line == unknown_line && strcmp(key, unknown) < 0)) {
			unknown = key; /* the table holds it: it stays valid */
			unknown_line = line;
		}
	}
	if (unknown) {
		struct cb_site site = {.key = unknown};
		char hint[512];
		cb_check_fail(ld, L, &site, NULL, "unknown field '%s'%s%s", unknown, where,
		              cb_check_hint(unknown, names, n, hint, sizeof hint));
	}
}

/* ---- Values ---- */

const char *cb_check_string(struct cb_loading *ld, lua_State *L, int idx,
                            const struct cb_site *site)
{
	const char *s;
	json_t *probe;

	if (lua_type(L, idx) != LUA_TSTRING || lua_rawlen(L, idx) == 0) {
		char buf[128];
		cb_check_fail(ld, L, site, NULL, "'%s' must be a non-empty string (got %s)",
		              site->key, cb_check_describe(L, idx, buf, sizeof buf));
	}
	/* It goes into the results file's JSON: UTF-8 text, no NUL. */
	s = lua_tostring(L, idx);
	probe = strlen(s) == lua_rawlen(L, idx) ? json_string(s) : NULL;
	if (!probe)
		cb_check_fail(ld, L, site, NULL, "'%s' must be UTF-8 text without NUL bytes",
		              site->key);
	json_decref(probe);
	return s;
}

lua_Integer cb_check_integer(struct cb_loading *ld, lua_State *L, int idx,
                             const struct cb_site *site, lua_Integer min, lua_Integer max)
{
	int is_integer = 0;
	lua_Integer v = lua_type(L, idx) == LUA_TNUMBER ? lua_tointegerx(L, idx, &is_integer) : 0;

	if (!is_integer) {
		char buf[128];
		cb_check_fail(ld, L, site, NULL, "'%s' must be a whole number (got %s)", site->key,
		              cb_check_describe(L, idx, buf, sizeof buf));
	}
	if (v < min || v > max) {
		if (max == LUA_MAXINTEGER)
			cb_check_fail(ld, L, site, NULL, "'%s' must be at least %lld (got %lld)",
			              site->key, (long long)min, (long long)v);
		cb_check_fail(ld, L, site, NULL, "'%s' must be between %lld and %lld (got %lld)",
		              site->key, (long long)min, (long long)max, (long long)v);
	}
	return v;
}

size_t cb_check_size(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site)
{
	char buf[128];
	size_t bytes = 0;
	int ok = 0;

	/* Described first: lua_tostring() below turns a number into a string,
	 * and the order in which a call's arguments are evaluated is the
	 * compiler's. */
	cb_check_describe(L, idx, buf, sizeof buf);
	/* A Lua number in a scenario is a count of bytes; a string, and
	 * anything from --set, needs its unit. */
	if (lua_type(L, idx) == LUA_TSTRING) {
		ok = cb_parse_size(lua_tostring(L, idx), &bytes) == 0;
	} else if (lua_type(L, idx) == LUA_TNUMBER && !(site && site->set_value)) {
		lua_Integer v = lua_tointegerx(L, idx, &ok);
		if (!ok)
			cb_check_fail(ld, L, site, NULL, "size %s is not a whole number of bytes",
			              cb_check_describe(L, idx, buf, sizeof buf));
		bytes = v < 0 ? 0 : (size_t)v; /* a negative count is out of range */
	}
	if (!ok && (lua_type(L, idx) == LUA_TNUMBER || cb_is_unitless(lua_tostring(L, idx))))
		cb_check_fail(ld, L, site, lua_tostring(L, idx),
		              "size %s has no unit (write it like \"64B\" or \"4KiB\"; units: %s)",
		              buf, CB_SIZE_UNITS);
	if (!ok)
		cb_check_fail(ld, L, site, lua_tostring(L, idx), "bad size %s (units: %s)", buf,
		              CB_SIZE_UNITS);
	if (bytes < 1 || bytes > CB_SCENARIO_MAX_SIZE) {
		char lo[32], hi[32];
		cb_check_fail(ld, L, site, lua_tostring(L, idx),
		              "size %s is out of range (%s .. %s)", buf, cb_format_size(1, lo),
		              cb_format_size(CB_SCENARIO_MAX_SIZE, hi));
	}
	return bytes;
}

/* The length of the list at IDX; anything but a list of values is an error. */
size_t cb_check_list(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site,
                     bool may_be_empty)
{
	char buf[128];
	size_t n, count = 0;

	idx = lua_absindex(L, idx);
	if (lua_type(L, idx) != LUA_TTABLE)
		cb_check_fail(ld, L, site, NULL, "'%s' must be a list like { ... } (got %s)",
		              site->key, cb_check_describe(L, idx, buf, sizeof buf));
	n = lua_rawlen(L, idx);
	for (lua_pushnil(L); lua_next(L, idx); lua_pop(L, 1)) {
		int is_integer;
		lua_Integer k = lua_tointegerx(L, -2, &is_integer);
		if (lua_type(L, -2) != LUA_TNUMBER || !is_integer || k < 1 || (size_t)k > n)
			cb_check_fail(ld, L, site, NULL,
			              "'%s' must be a list of values (found key %s)", site->key,
			              cb_check_describe(L, -2, buf, sizeof buf));
		count++;
	}
	if (count != n)
		cb_check_fail(ld, L, site, NULL, "'%s' has holes (nil values)", site->key);
	if (n == 0 && !may_be_empty)
		cb_check_fail(ld, L, site, NULL, "'%s' must not be empty", site->key);
	return n;
}

char *cb_check_strdup(lua_State *L, const char *s)
{
	char *copy = strdup(s);

	if (copy == NULL)
		luaL_error(L, "not enough memory");
	return copy;
}

void *cb_check_calloc(lua_State *L, size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (p == NULL)
		luaL_error(L, "not enough memory");
	return p;
}

json_t *cb_check_scalar_json(lua_State *L, int idx)
{
	switch (lua_type(L, idx)) {
	case LUA_TNUMBER:
		return lua_isinteger(L, idx) ? json_integer(lua_tointeger(L, idx))
		                             : json_real(lua_tonumber(L, idx));
	case LUA_TBOOLEAN:
		return json_boolean(lua_toboolean(L, idx));
	case LUA_TSTRING:
		return json_string(lua_tostring(L, idx));
	default:
		return json_null();
	}
}

/* ---- Names to suggest from ---- */

#define MAX_NAMES 128

static size_t algorithm_names(const char **names)
{
	size_t n = 0;

	for (; n < MAX_NAMES && cb_algorithm_at(n); n++)
		names[n] = cb_algorithm_at(n)->name;
	return n;
}

static size_t op_names(const char **names)
{
	for (int i = 0; i < CB_OP_COUNT; i++)
		names[i] = cb_op_name((enum cb_op)i);
	return CB_OP_COUNT;
}

static size_t engine_names(const char **names)
{
	size_t n = 0;

	for (; n < MAX_NAMES && n < cb_engine_count(); n++)
		names[n] = cb_engine_at(n)->name;
	return n;
}

const struct cb_algorithm *cb_check_algorithm(struct cb_loading *ld, lua_State *L, int idx,
                                              const struct cb_site *site)
{
	const char *name = cb_check_string(ld, L, idx, site);
	const struct cb_algorithm *alg = cb_algorithm_find(name);

	if (alg == NULL) {
		const char *names[MAX_NAMES];
		char hint[1024];
		cb_check_fail(
		    ld, L, site, name, "unknown algorithm '%s'%s", name,
		    cb_check_hint(name, names, algorithm_names(names), hint, sizeof hint));
	}
	return alg;
}

enum cb_op cb_check_op(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site)
{
	const char *name = cb_check_string(ld, L, idx, site);
	int op = cb_op_parse(name);

	if (op < 0) {
		const char *names[CB_OP_COUNT];
		char hint[256];
		cb_check_fail(ld, L, site, name, "unknown op '%s'%s", name,
		              cb_check_hint(name, names, op_names(names), hint, sizeof hint));
	}
	return (enum cb_op)op;
}

const struct cb_engine *cb_check_engine(struct cb_loading *ld, lua_State *L, const char *name,
                                        const struct cb_site *site)
{
	const char *names[MAX_NAMES];
	struct cb_lua_hint hint;
	char list[1024];
	size_t n = engine_names(names), used = 0;

	if (cb_engine_find(name))
		return cb_engine_find(name);
	cb_lua_hint_init(&hint, name);
	for (size_t i = 0; i < n; i++)
		cb_lua_hint_consider(&hint, names[i]);
	if (cb_lua_hint_best(&hint))
		cb_check_fail(ld, L, site, name, "unknown engine '%s' (did you mean '%s'?)", name,
		              cb_lua_hint_best(&hint));
	list[0] = '\0';
	for (size_t i = 0; i < n && used < sizeof list; i++)
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
		                         names[i]);
	cb_check_fail(ld, L, site, name, "unknown engine '%s' (compiled in: %s)", name, list);
}
