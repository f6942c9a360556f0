/* internal.h: what the four files of the scenario loader share.
 *
 * load.c           the loader, the `cryptobench` module, --set, --quick
 * check.c          reading Lua values, with errors that point at the line
 * fields.c         the fields of cb.scenario{} (and of --set)
 * derive_fields.c  the fields of cb.derive{}
 * externals.c      the engine entries naming an external worker or plug-in
 *
 * Not for other modules: load.h is the interface. Every function here
 * that takes a lua_State runs inside a protected call from the script and
 * reports a problem by raising a Lua error "FILE:LINE: message". */
#ifndef CB_SCENARIO_INTERNAL_H
#define CB_SCENARIO_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>
#include <lua.h>

#include "core/measure/scenario.h"

struct cb_load_options; /* load.h: the loader includes this file, not the reverse */

#define CB_SCENARIO_MAX_SIZE ((size_t)4 << 30)
#define CB_SCENARIO_MAX_THREADS 256

/* The dimensions a derived metric's selector may name (derive_fields.c). */
#define CB_DERIVE_DIMENSIONS 6

/* Where a selector of a cb.derive{} is written, to check it against the
 * scenario once the script has declared everything. */
struct cb_selector_site {
	size_t decl;                    /* its declaration: index in sc->derive */
	int which;                      /* 0 the numerator, 1 the denominator, 2 expect.when */
	char *file;                     /* of the cb.derive{} call (a copy) */
	int call_line;                  /* of the cb.derive{} call */
	int line[CB_DERIVE_DIMENSIONS]; /* of each dimension it names; 0: not named */
};

/* A loading in progress; the module's functions reach it as upvalue 1. */
struct cb_loading {
	struct cb_scenario *sc;
	const struct cb_load_options *opts;
	bool *override_used;   /* per override: read by cb.param */
	int scenario_line;     /* of the cb.scenario{} call; 0 before it */
	json_t *pending;       /* the cb.derive{} being read, owned until appended */
	const char *call_file; /* the cb.scenario{} or cb.derive{} being read */
	int call_line;
	bool call_in_main; /* its text is sc->source */
	struct cb_selector_site *selector_sites;
	size_t n_selector_sites;
};

/* Where a value came from: a field of the call being read, or --set. */
struct cb_site {
	const char *key;       /* the field's name, looked for in the source */
	const char *set_value; /* non-NULL: from --set KEY=SET_VALUE */
	unsigned nth;          /* point at this occurrence of the bad value (0: the first) */
};

typedef void (*cb_field_parser)(struct cb_loading *ld, lua_State *L, int idx,
                                const struct cb_site *site);

struct cb_field {
	const char *name;
	cb_field_parser parse;
	bool required; /* in the script */
	bool list;     /* with --set: comma-separated */
};

/* ---- check.c ---- */

/* The loading of a call from the script: upvalue 1 of the module's functions. */
struct cb_loading *cb_check_loading(lua_State *L);
/* t[NAME] of the table at IDX without metamethods: pushes it, returns its type. */
int cb_check_raw_field(lua_State *L, int idx, const char *name);

/* Note the file and line of the script's call being read. */
void cb_check_begin_call(struct cb_loading *ld, lua_State *L);
/* The line cb_check_fail() would name for NEAR (quoted) or `KEY =`. */
int cb_check_locate(const struct cb_loading *ld, const char *near, const char *key, unsigned nth);
/* Raise "FILE:LINE: message", LINE being the first at or after the call
 * where "NEAR" (quoted; its SITE->nth occurrence) or `SITE->key =` is
 * written, else the call's; or
 * "--set KEY=VALUE: message" for a value from the command line. */
__attribute__((format(printf, 5, 6), noreturn)) void
cb_check_fail(struct cb_loading *ld, lua_State *L, const struct cb_site *site, const char *near,
              const char *fmt, ...);
/* The value at IDX in a few words, for a message; no metamethod runs. */
const char *cb_check_describe(lua_State *L, int idx, char *buf, size_t len);
/* " (did you mean 'x'?)", or " (one of: a, b, c)" when nothing is close. */
const char *cb_check_hint(const char *word, const char *const *names, size_t n, char *buf,
                          size_t len);
/* Every key of the table at IDX is one of NAMES ([1] too when INDEX1);
 * otherwise "unknown field 'k'WHERE (did you mean ...)" for the first written. */
void cb_check_keys(struct cb_loading *ld, lua_State *L, int idx, const char *const *names, size_t n,
                   bool index1, const char *where);

const char *cb_check_string(struct cb_loading *ld, lua_State *L, int idx,
                            const struct cb_site *site);
lua_Integer cb_check_integer(struct cb_loading *ld, lua_State *L, int idx,
                             const struct cb_site *site, lua_Integer min, lua_Integer max);
/* A number of bytes or a unit string, 1 B .. 4 GiB. */
size_t cb_check_size(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site);
/* The length of the list at IDX (a table with keys 1..n only). */
size_t cb_check_list(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site,
                     bool may_be_empty);
const struct cb_algorithm *cb_check_algorithm(struct cb_loading *ld, lua_State *L, int idx,
                                              const struct cb_site *site);
enum cb_op cb_check_op(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site);
const struct cb_engine *cb_check_engine(struct cb_loading *ld, lua_State *L, const char *name,
                                        const struct cb_site *site);

/* strdup and calloc that raise "not enough memory" instead of returning NULL. */
char *cb_check_strdup(lua_State *L, const char *s);
void *cb_check_calloc(lua_State *L, size_t n, size_t size);
/* A number, boolean or string at IDX as JSON (null for anything else). */
json_t *cb_check_scalar_json(lua_State *L, int idx);

/* ---- fields.c ---- */

/* The fields --set may override, with their parsers. */
extern const struct cb_field cb_set_fields[];
extern const size_t cb_n_set_fields;

/* cb.scenario{...}; upvalue 1 is the cb_loading. */
int cb_fields_scenario(lua_State *L);
/* The stop budget, SECONDS parsed from the value at IDX (a scenario's, or
 * run --budget's): set, or an error at SITE when out of a scenario's range. */
void cb_fields_stop_budget(struct cb_loading *ld, lua_State *L, int idx, const struct cb_site *site,
                           double seconds);

/* ---- externals.c ---- */

/* The fields an external entry takes beside a variant's (NULL-ended). */
extern const char *const cb_worker_entry_keys[];
extern const char *const cb_plugin_entry_keys[];
/* The engine the entry at IDX names, KIND being "worker" or "plugin"
 * (core/engine/extern.h), with what it names recorded in SPEC; a refusal of the
 * gate is raised at the entry's line. */
const struct cb_engine *cb_fields_external(struct cb_loading *ld, lua_State *L, int idx,
                                           const char *kind, json_t *spec);

/* ---- derive_fields.c ---- */

/* cb.derive{...}; upvalue 1 is the cb_loading. */
int cb_fields_derive(lua_State *L);
/* After the script (and --set): every selector of every cb.derive{} names
 * only what the scenario has, and selects at least one cell; otherwise
 * "FILE:LINE: derived metric 'x': ..." at the selector. A protected call's
 * function: argument 1 is the cb_loading (light userdata). */
int cb_derive_check_selectors(lua_State *L);
void cb_derive_sites_free(struct cb_loading *ld);

#endif
