/* derive_fields.c: the fields of cb.derive{}: a ratio of two selectors of
 * cells, the dimensions it is taken by, and an expectation. The declaration
 * is kept as JSON in the scenario (analysis/derive.h reads it back). */
#include "core/lua/internal.h"

#include <string.h>

#include <lauxlib.h>

typedef json_t *(*dimension_reader)(struct cb_loading *ld, lua_State *L, int idx,
                                    const struct cb_site *site);

static json_t *read_text(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site)
{
	return json_string(cb_check_string(ld, L, idx, site));
}

static json_t *read_algorithm(struct cb_loading *ld, lua_State *L, int idx,
                              const struct cb_site *site)
{
	return json_string(cb_check_algorithm(ld, L, idx, site)->name);
}

static json_t *read_op(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site)
{
	return json_string(cb_op_name(cb_check_op(ld, L, idx, site)));
}

static json_t *read_size(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site)
{
	return json_integer((json_int_t)cb_check_size(ld, L, idx, site));
}

static json_t *read_threads(struct cb_loading *ld, lua_State *L, int idx,
                            const struct cb_site *site)
{
	return json_integer(cb_check_integer(ld, L, idx, site, 1, CB_SCENARIO_MAX_THREADS));
}

/* The dimensions of a cell a selector or `by` may name. */
static const struct {
	const char *name;
	dimension_reader read;
} dimensions[] = {
    {"engine", read_text}, {"label", read_text}, {"algorithm", read_algorithm},
    {"op", read_op},       {"size", read_size},  {"threads", read_threads},
};
#define N_DIMENSIONS (sizeof dimensions / sizeof dimensions[0])

static size_t dimension_names(const char **names)
{
	for (size_t i = 0; i < N_DIMENSIONS; i++)
		names[i] = dimensions[i].name;
	return N_DIMENSIONS;
}

/* A selector { algorithm = "aes-128-cbc", op = "encrypt" } into the object INTO
 * (already owned by the pending declaration, so an error frees it). */
static void read_selector(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site,
                          json_t *into)
{
	const char *names[N_DIMENSIONS];

	if (lua_type(L, idx) != LUA_TTABLE) {
		char buf[128];
		cb_check_fail(ld, L, site, NULL,
		              "'%s' takes selectors like { algorithm = \"aes-128-cbc\" } (got %s)",
		              site->key, cb_check_describe(L, idx, buf, sizeof buf));
	}
	cb_check_keys(ld, L, idx, names, dimension_names(names), false, " in a selector");
	for (size_t i = 0; i < N_DIMENSIONS; i++, lua_pop(L, 1)) {
		struct cb_site inner = {.key = dimensions[i].name};
		if (cb_check_raw_field(L, idx, dimensions[i].name) != LUA_TNIL)
			json_object_set_new(into, dimensions[i].name,
			                    dimensions[i].read(ld, L, lua_gettop(L), &inner));
	}
}

static void read_ratio(struct cb_loading *ld, lua_State *L, int idx, json_t *decl)
{
	const struct cb_site site = {.key = "ratio"};
	json_t *ratio = json_array();

	if (lua_type(L, idx) != LUA_TTABLE || cb_check_list(ld, L, idx, &site, true) != 2)
		cb_check_fail(ld, L, &site, NULL,
		              "'ratio' must be { numerator, denominator }: two selectors like { "
		              "algorithm = \"aes-256-cbc\" }");
	json_object_set_new(decl, "ratio", ratio);
	for (int i = 1; i <= 2; i++, lua_pop(L, 1)) {
		json_t *selector = json_object();
		json_array_append_new(ratio, selector);
		lua_rawgeti(L, idx, i);
		read_selector(ld, L, lua_gettop(L), &site, selector);
	}
}

static void read_by(struct cb_loading *ld, lua_State *L, int idx, json_t *decl)
{
	const struct cb_site site = {.key = "by"};
	size_t n = cb_check_list(ld, L, idx, &site, true);
	const char *names[N_DIMENSIONS];
	json_t *by = json_array();
	char hint[256];

	json_object_set_new(decl, "by", by);
	for (size_t i = 1; i <= n; i++, lua_pop(L, 1)) {
		lua_rawgeti(L, idx, (lua_Integer)i);
		const char *name = cb_check_string(ld, L, -1, &site);
		size_t d, j;
		for (d = 0; d < N_DIMENSIONS && strcmp(name, dimensions[d].name) != 0; d++)
			;
		if (d == N_DIMENSIONS)
			cb_check_fail(
			    ld, L, &site, name, "unknown dimension '%s'%s", name,
			    cb_check_hint(name, names, dimension_names(names), hint, sizeof hint));
		for (j = 0; j < json_array_size(by); j++)
			if (strcmp(json_string_value(json_array_get(by, j)), name) == 0)
				cb_check_fail(ld, L, &site, name, "'%s' is listed twice", name);
		json_array_append_new(by, json_string(name));
	}
}

static void read_expect(struct cb_loading *ld, lua_State *L, int idx, json_t *decl)
{
	static const char *const keys[] = {"value", "tolerance", "when"};
	struct cb_site site = {.key = "expect"};
	json_t *expect;
	char buf[128];

	if (lua_type(L, idx) != LUA_TTABLE)
		cb_check_fail(
		    ld, L, &site, NULL,
		    "'expect' must be a table like { value = 0.71, tolerance = 0.05 } (got %s)",
		    cb_check_describe(L, idx, buf, sizeof buf));
	cb_check_keys(ld, L, idx, keys, 3, false, " in 'expect'");
	/* Made once the checks that can fail before it is owned have passed. */
	expect = json_object();
	json_object_set_new(decl, "expect", expect);
	for (int i = 0; i < 2; i++, lua_pop(L, 1)) {
		site.key = keys[i];
		if (cb_check_raw_field(L, idx, keys[i]) != LUA_TNUMBER)
			cb_check_fail(ld, L, &site, NULL, "'expect' needs '%s', a number (got %s)",
			              keys[i], cb_check_describe(L, -1, buf, sizeof buf));
		double x = lua_tonumber(L, -1);
		if (i == 1 && !(x >= 0))
			cb_check_fail(ld, L, &site, NULL,
			              "'tolerance' must not be negative (got %g)", x);
		json_object_set_new(expect, keys[i], json_real(x));
	}
	site.key = "when";
	if (cb_check_raw_field(L, idx, "when") != LUA_TNIL) {
		json_t *when = json_object();
		json_object_set_new(expect, "when", when);
		read_selector(ld, L, lua_gettop(L), &site, when);
	}
	lua_pop(L, 1);
}

int cb_fields_derive(lua_State *L)
{
	static const char *const keys[] = {"name", "ratio", "by", "expect"};
	struct cb_loading *ld = cb_check_loading(L);
	const struct cb_site site = {.key = "name"};

	cb_check_begin_call(ld, L);
	if (ld->pending)
		cb_check_fail(ld, L, NULL, NULL,
		              "cb.derive{} is called while another is being read");
	if (lua_gettop(L) != 1 || lua_type(L, 1) != LUA_TTABLE)
		cb_check_fail(
		    ld, L, NULL, NULL,
		    "cb.derive takes one table: cb.derive { name = ..., ratio = { ... } }");
	cb_check_keys(ld, L, 1, keys, 4, false, " in cb.derive{}");
	for (int i = 0; i < 2; i++, lua_pop(L, 1))
		if (cb_check_raw_field(L, 1, keys[i]) == LUA_TNIL)
			cb_check_fail(ld, L, NULL, NULL, "cb.derive{} is missing the field '%s'",
			              keys[i]);
	if ((ld->pending = json_object()) == NULL)
		luaL_error(L, "not enough memory");
	cb_check_raw_field(L, 1, "name");
	const char *name = cb_check_string(ld, L, 2, &site);
	for (size_t i = 0; i < json_array_size(ld->sc->derive); i++)
		if (strcmp(json_string_value(
		               json_object_get(json_array_get(ld->sc->derive, i), "name")),
		           name) == 0)
			cb_check_fail(ld, L, &site, name,
			              "a derived metric named '%s' is already declared", name);
	json_object_set_new(ld->pending, "name", json_string(name));
	lua_settop(L, 1);
	cb_check_raw_field(L, 1, "ratio");
	read_ratio(ld, L, 2, ld->pending);
	lua_settop(L, 1);
	if (cb_check_raw_field(L, 1, "by") != LUA_TNIL)
		read_by(ld, L, 2, ld->pending);
	else
		json_object_set_new(ld->pending, "by", json_array());
	lua_settop(L, 1);
	if (cb_check_raw_field(L, 1, "expect") != LUA_TNIL)
		read_expect(ld, L, 2, ld->pending);
	json_array_append_new(ld->sc->derive, ld->pending);
	ld->pending = NULL;
	return 0;
}
