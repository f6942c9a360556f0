/* derive_fields.c: the fields of cb.derive{}: a ratio of two selectors of
 * cells, the dimensions it is taken by, and an expectation. The declaration
 * is kept as JSON in the scenario (analysis/verdicts/derive.h reads it back). */
#include "core/lua/internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "core/base/units.h"

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
_Static_assert(N_DIMENSIONS == CB_DERIVE_DIMENSIONS, "internal.h counts the dimensions");

static size_t dimension_names(const char **names)
{
	for (size_t i = 0; i < N_DIMENSIONS; i++)
		names[i] = dimensions[i].name;
	return N_DIMENSIONS;
}

/* Note where the selector WHICH of the declaration being read is written. */
static void add_site(struct cb_loading *ld, lua_State *L, int which)
{
	struct cb_selector_site *sites =
	    realloc(ld->selector_sites, (ld->n_selector_sites + 1) * sizeof *sites);

	if (sites == NULL)
		luaL_error(L, "not enough memory");
	ld->selector_sites = sites;
	sites += ld->n_selector_sites;
	*sites = (struct cb_selector_site){
	    .decl = json_array_size(ld->sc->derive), .which = which, .call_line = ld->call_line};
	ld->n_selector_sites++;
	sites->file = cb_check_strdup(L, ld->call_file);
}

/* A selector { algorithm = "aes-128-cbc", op = "encrypt" } into the object INTO
 * (already owned by the pending declaration, so an error frees it); WHICH is
 * its place, for the check against the scenario (struct cb_selector_site). */
static void read_selector(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site,
                          json_t *into, int which)
{
	const char *names[N_DIMENSIONS];
	struct cb_selector_site *where;

	if (lua_type(L, idx) != LUA_TTABLE) {
		char buf[128];
		cb_check_fail(ld, L, site, NULL,
		              "'%s' takes selectors like { algorithm = \"aes-128-cbc\" } (got %s)",
		              site->key, cb_check_describe(L, idx, buf, sizeof buf));
	}
	cb_check_keys(ld, L, idx, names, dimension_names(names), false, " in a selector");
	add_site(ld, L, which);
	where = &ld->selector_sites[ld->n_selector_sites - 1];
	for (size_t i = 0; i < N_DIMENSIONS; i++, lua_pop(L, 1)) {
		struct cb_site inner = {.key = dimensions[i].name};
		if (cb_check_raw_field(L, idx, dimensions[i].name) == LUA_TNIL)
			continue;
		json_object_set_new(into, dimensions[i].name,
		                    dimensions[i].read(ld, L, lua_gettop(L), &inner));
		where->line[i] =
		    cb_check_locate(ld, lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL,
		                    dimensions[i].name, 0);
	}
}

static void read_ratio(struct cb_loading *ld, lua_State *L, int idx, json_t *decl)
{
	const struct cb_site site = {.key = "ratio"};
	json_t *ratio;

	if (lua_type(L, idx) != LUA_TTABLE || cb_check_list(ld, L, idx, &site, true) != 2)
		cb_check_fail(ld, L, &site, NULL,
		              "'ratio' must be { numerator, denominator }: two selectors like { "
		              "algorithm = \"aes-256-cbc\" }");
	/* Made once the check that can fail before it is owned has passed. */
	ratio = json_array();
	json_object_set_new(decl, "ratio", ratio);
	for (int i = 1; i <= 2; i++, lua_pop(L, 1)) {
		json_t *selector = json_object();
		json_array_append_new(ratio, selector);
		lua_rawgeti(L, idx, i);
		read_selector(ld, L, lua_gettop(L), &site, selector, i - 1);
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
		read_selector(ld, L, lua_gettop(L), &site, when, 2);
	}
	lua_pop(L, 1);
}

int cb_fields_derive(lua_State *L)
{
	static const char *const keys[] = {"name", "ratio", "by", "expect"};
	struct cb_loading *ld = cb_check_loading(L);
	const struct cb_site site = {.key = "name"};

	cb_check_begin_call(ld, L);
	/* the sites of a call that failed (its error caught by the script) */
	while (ld->n_selector_sites > 0 &&
	       ld->selector_sites[ld->n_selector_sites - 1].decl >= json_array_size(ld->sc->derive))
		free(ld->selector_sites[--ld->n_selector_sites].file);
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

/* ---- Selectors against the scenario ---- */

void cb_derive_sites_free(struct cb_loading *ld)
{
	for (size_t i = 0; i < ld->n_selector_sites; i++)
		free(ld->selector_sites[i].file);
	free(ld->selector_sites);
	ld->selector_sites = NULL;
	ld->n_selector_sites = 0;
}

__attribute__((format(printf, 4, 5), noreturn)) static void fail_at(lua_State *L, const char *file,
                                                                    int line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	lua_pushfstring(L, "%s:%d: %s", file, line, msg);
	lua_error(L);
	abort(); /* not reached */
}

#define MAX_NAMES 256

/* The names of dimension D in the scenario (each once, at most MAX_NAMES). */
static size_t scenario_names(const struct cb_scenario *sc, size_t d, const char **names)
{
	size_t n = 0;

	if (d == 0 || d == 1) {
		for (size_t v = 0; v < sc->n_variants && n < MAX_NAMES; v++) {
			const char *name =
			    d == 0 ? sc->variants[v].engine->name : sc->variants[v].label;
			size_t k;
			for (k = 0; k < n && strcmp(names[k], name) != 0; k++)
				;
			if (k == n)
				names[n++] = name;
		}
	} else if (d == 2) {
		for (size_t a = 0; a < sc->n_algorithms && n < MAX_NAMES; a++)
			names[n++] = sc->algorithms[a]->name;
	} else if (d == 3) {
		for (size_t o = 0; o < sc->n_ops && n < MAX_NAMES; o++)
			names[n++] = cb_op_name(sc->ops[o]);
	}
	return n;
}

/* A list of the scenario's sizes or thread counts, "64B, 4KiB". */
static const char *scenario_numbers(const struct cb_scenario *sc, size_t d, char *buf, size_t len)
{
	size_t used = 0, n = d == 4 ? sc->n_sizes : sc->n_threads;

	buf[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++) {
		char size[32];
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
		                         d == 4 ? cb_format_size(sc->sizes[i], size) : "");
		if (d == 5 && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%u", sc->threads[i]);
	}
	return buf;
}

static bool dropped_engine(const struct cb_scenario *sc, const char *name)
{
	for (size_t i = 0; i < sc->n_dropped; i++)
		if (strcmp(sc->dropped[i].name, name) == 0)
			return true;
	return false;
}

static bool variant_matches(const struct cb_variant *v, json_t *sel)
{
	json_t *engine = json_object_get(sel, "engine"), *label = json_object_get(sel, "label");

	return (!engine || strcmp(json_string_value(engine), v->engine->name) == 0) &&
	       (!label || strcmp(json_string_value(label), v->label) == 0);
}

/* Whether some cell of the scenario (engines x algorithms x ops x sizes x
 * threads, less the combinations that cannot exist: an op the algorithm has
 * not, a size not a multiple of its block) has every value SEL names. */
static bool selects_a_cell(const struct cb_scenario *sc, json_t *sel)
{
	json_t *alg = json_object_get(sel, "algorithm"), *op = json_object_get(sel, "op");
	json_t *size = json_object_get(sel, "size"), *threads = json_object_get(sel, "threads");
	bool variant = false, thread = !threads;

	for (size_t v = 0; v < sc->n_variants; v++)
		variant |= variant_matches(&sc->variants[v], sel);
	for (size_t t = 0; t < sc->n_threads && !thread; t++)
		thread = (json_int_t)sc->threads[t] == json_integer_value(threads);
	if (!variant || !thread)
		return false;
	for (size_t a = 0; a < sc->n_algorithms; a++) {
		const struct cb_algorithm *x = sc->algorithms[a];
		if (alg && strcmp(json_string_value(alg), x->name) != 0)
			continue;
		for (size_t o = 0; o < sc->n_ops; o++) {
			if ((op && strcmp(json_string_value(op), cb_op_name(sc->ops[o])) != 0) ||
			    !cb_op_applies(x, sc->ops[o]))
				continue;
			for (size_t z = 0; z < sc->n_sizes; z++)
				if ((!size ||
				     (json_int_t)sc->sizes[z] == json_integer_value(size)) &&
				    sc->sizes[z] % x->block_len == 0)
					return true;
		}
	}
	return false;
}

/* Whether the value of dimension D in SEL is one the scenario has. */
static bool in_scenario(const struct cb_scenario *sc, size_t d, json_t *value)
{
	const char *names[MAX_NAMES];
	size_t n;

	if (d == 4) {
		for (size_t z = 0; z < sc->n_sizes; z++)
			if ((json_int_t)sc->sizes[z] == json_integer_value(value))
				return true;
		return false;
	}
	if (d == 5) {
		for (size_t t = 0; t < sc->n_threads; t++)
			if ((json_int_t)sc->threads[t] == json_integer_value(value))
				return true;
		return false;
	}
	if (sc->n_variants > MAX_NAMES || sc->n_algorithms > MAX_NAMES)
		return true; /* more than the list holds: not checked by name */
	n = scenario_names(sc, d, names);
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], json_string_value(value)) == 0)
			return true;
	return false;
}

/* SEL as the script writes it: { algorithm = "sha256", op = "encrypt" }. */
static const char *selector_text(json_t *sel, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "{");

	for (size_t d = 0; d < N_DIMENSIONS && used < len; d++) {
		json_t *value = json_object_get(sel, dimensions[d].name);
		if (!value)
			continue;
		if (json_is_string(value))
			used += (size_t)snprintf(buf + used, len - used, "%s %s = \"%s\"",
			                         used > 1 ? "," : "", dimensions[d].name,
			                         json_string_value(value));
		else
			used += (size_t)snprintf(buf + used, len - used, "%s %s = %lld",
			                         used > 1 ? "," : "", dimensions[d].name,
			                         (long long)json_integer_value(value));
	}
	if (used < len)
		snprintf(buf + used, len - used, " }");
	return buf;
}

static void check_site(lua_State *L, const struct cb_scenario *sc,
                       const struct cb_selector_site *site)
{
	static const char *const which[] = {"numerator", "denominator", "expect.when"};
	json_t *decl = json_array_get(sc->derive, site->decl);
	const char *name = json_string_value(json_object_get(decl, "name"));
	json_t *sel = site->which < 2
	                  ? json_array_get(json_object_get(decl, "ratio"), (size_t)site->which)
	                  : json_object_get(json_object_get(decl, "expect"), "when");
	bool unknowable = false; /* names an engine cb.available{} left out here */
	int first = 0;

	for (size_t d = 0; d < N_DIMENSIONS; d++) {
		json_t *value = json_object_get(sel, dimensions[d].name);
		const char *names[MAX_NAMES];
		char hint[1024], value_text[64];

		if (!value)
			continue;
		if (!first || site->line[d] < first)
			first = site->line[d];
		if (in_scenario(sc, d, value))
			continue;
		if (d == 0 && dropped_engine(sc, json_string_value(value))) {
			unknowable = true;
			continue;
		}
		if (d == 1 && sc->n_dropped > 0) {
			unknowable = true; /* a left-out variant's label is not known */
			continue;
		}
		if (d >= 4) {
			char size[32];
			snprintf(value_text, sizeof value_text, "%s",
			         d == 4 ? cb_format_size((size_t)json_integer_value(value), size)
			                : "");
			if (d == 5)
				snprintf(value_text, sizeof value_text, "%lld",
				         (long long)json_integer_value(value));
			fail_at(L, site->file, site->line[d],
			        "derived metric '%s': its %s selects %s %s, which the scenario "
			        "does not measure (%s: %s)",
			        name, which[site->which], dimensions[d].name, value_text,
			        d == 4 ? "sizes" : "threads",
			        scenario_numbers(sc, d, hint, sizeof hint));
		}
		if (d <= 1 && in_scenario(sc, 1 - d, value))
			/* engine = is the engine's name, label = the variant's label
			 * (as in run --only): the value is the other key's. */
			fail_at(L, site->file, site->line[d],
			        "derived metric '%s': its %s selects %s '%s', which is not in the "
			        "scenario: '%s' is %s: write %s = '%s'",
			        name, which[site->which], dimensions[d].name,
			        json_string_value(value), json_string_value(value),
			        d == 0 ? "a label" : "an engine", dimensions[1 - d].name,
			        json_string_value(value));
		fail_at(
		    L, site->file, site->line[d],
		    "derived metric '%s': its %s selects %s '%s', which is not in the scenario%s",
		    name, which[site->which], dimensions[d].name, json_string_value(value),
		    cb_check_hint(json_string_value(value), names, scenario_names(sc, d, names),
		                  hint, sizeof hint));
	}
	if (!unknowable && !selects_a_cell(sc, sel)) {
		char text[512];
		fail_at(L, site->file, first ? first : site->call_line,
		        "derived metric '%s': its %s %s matches no cell of the scenario (no "
		        "cell has all of these)",
		        name, which[site->which], selector_text(sel, text, sizeof text));
	}
}

/* What the cells SEL can select count, by the algorithms and ops it names
 * (an engine, a size or a thread count changes no unit): bytes, operations
 * (public key, results-format.md's `ops`), or both. */
enum { UNIT_BYTES = 1, UNIT_OPS = 2 };

static unsigned selector_units(const struct cb_scenario *sc, json_t *sel)
{
	json_t *alg = json_object_get(sel, "algorithm"), *op = json_object_get(sel, "op");
	unsigned units = 0;

	for (size_t a = 0; a < sc->n_algorithms; a++) {
		const struct cb_algorithm *x = sc->algorithms[a];
		if (alg && strcmp(json_string_value(alg), x->name) != 0)
			continue;
		for (size_t o = 0; o < sc->n_ops; o++)
			if ((!op || strcmp(json_string_value(op), cb_op_name(sc->ops[o])) == 0) &&
			    cb_op_applies(x, sc->ops[o]))
				units |= cb_alg_is_pk(x) ? UNIT_OPS : UNIT_BYTES;
	}
	return units;
}

/* A ratio of an operation rate over a throughput (or the reverse) is no
 * number: refused at the denominator DEN's algorithm (else op) line. */
static void check_units(lua_State *L, const struct cb_scenario *sc,
                        const struct cb_selector_site *den)
{
	static const char *const words[] = {NULL, "bytes", "operations (public key)"};
	json_t *decl = json_array_get(sc->derive, den->decl);
	json_t *ratio = json_object_get(decl, "ratio");
	unsigned over = selector_units(sc, json_array_get(ratio, 0));
	unsigned under = selector_units(sc, json_array_get(ratio, 1));
	int line = den->line[2] ? den->line[2] : den->line[3] ? den->line[3] : den->call_line;

	if (over != under && (over == UNIT_BYTES || over == UNIT_OPS) &&
	    (under == UNIT_BYTES || under == UNIT_OPS))
		fail_at(L, den->file, line,
		        "derived metric '%s': its numerator counts %s and its denominator %s: a "
		        "ratio across units is no number",
		        json_string_value(json_object_get(decl, "name")), words[over],
		        words[under]);
}

int cb_derive_check_selectors(lua_State *L)
{
	struct cb_loading *ld = lua_touserdata(L, 1);

	for (size_t i = 0; i < ld->n_selector_sites; i++)
		if (ld->selector_sites[i].decl < json_array_size(ld->sc->derive))
			check_site(L, ld->sc, &ld->selector_sites[i]);
	for (size_t i = 0; i < ld->n_selector_sites; i++)
		if (ld->selector_sites[i].decl < json_array_size(ld->sc->derive) &&
		    ld->selector_sites[i].which == 1)
			check_units(L, ld->sc, &ld->selector_sites[i]);
	return 0;
}
