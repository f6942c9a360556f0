/* externals.c: the engine entries that name something outside cryptobench,
 * { "worker", name = "mylib", command = { "./my-worker", "--flag" } } and
 * { "plugin", path = "./libmyengine.so" } (core/engine/extern.h, whose gate may
 * refuse them). */
#include "config.h"

#include <lauxlib.h>
#include <string.h>

#include "core/engine/extern.h"
#include "core/lua/internal.h"
#include "core/engine/process.h"

const char *const cb_worker_entry_keys[] = {"name", "command", NULL};
const char *const cb_plugin_entry_keys[] = {"name", "path", NULL};

static bool engine_name(const char *s)
{
	if (!*s || strlen(s) > 48)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '-' || *s == '_' || *s == '.'))
			return false;
	return true;
}

/* The string field KEY of the entry at IDX (NULL when absent and optional). */
static const char *string_field(struct cb_loading *ld, lua_State *L, int idx, const char *key,
                                bool required, const char *kind)
{
	const struct cb_site site = {.key = key};
	const char *s = NULL;

	if (cb_check_raw_field(L, idx, key) != LUA_TNIL)
		s = cb_check_string(ld, L, -1, &site);
	else if (required)
		cb_check_fail(ld, L, NULL, NULL, "a \"%s\" entry of 'engines' needs '%s'", kind,
		              key);
	if (s && strcmp(key, "name") == 0 && !engine_name(s))
		cb_check_fail(ld, L, &site, s,
		              "%s name '%s' must be letters, digits, '-', '_' or '.' (at most 48)",
		              kind, s);
	return s; /* stays on the stack, alive while the entry is read */
}

static const struct cb_engine *worker_entry(struct cb_loading *ld, lua_State *L, int idx,
                                            json_t *spec)
{
	const char *name = string_field(ld, L, idx, "name", true, "worker");
	const struct cb_site site = {.key = "command"};
	const char *argv[CB_PROCESS_MAX_ARGS];
	const struct cb_engine *e;
	char err[1024], buf[128];
	json_t *command = json_array();
	size_t n;

	if (cb_check_raw_field(L, idx, "command") != LUA_TTABLE) {
		json_decref(command);
		cb_check_fail(ld, L, lua_isnil(L, -1) ? NULL : &site,
		              lua_isnil(L, -1) ? name : NULL,
		              "worker '%s': 'command' must be a list of strings like { "
		              "\"./my-worker\", \"--flag\" } (got %s)",
		              name, cb_check_describe(L, -1, buf, sizeof buf));
	}
	int list = lua_gettop(L);
	n = cb_check_list(ld, L, list, &site, false);
	if (n >= CB_PROCESS_MAX_ARGS) {
		json_decref(command);
		cb_check_fail(ld, L, &site, NULL, "worker '%s': more than %d words in 'command'",
		              name, CB_PROCESS_MAX_ARGS - 1);
	}
	for (size_t i = 0; i < n; i++) {
		lua_rawgeti(L, list, (lua_Integer)i + 1);
		if (lua_type(L, -1) != LUA_TSTRING) {
			json_decref(command);
			cb_check_fail(
			    ld, L, &site, NULL,
			    "worker '%s': word %zu of 'command' must be a string (got %s)", name,
			    i + 1, cb_check_describe(L, -1, buf, sizeof buf));
		}
		argv[i] = lua_tostring(L, -1);
		json_array_append_new(command, json_string(argv[i]));
	}
	argv[n] = NULL;
	e = cb_extern_worker(name, argv, err, sizeof err);
	if (!e) {
		json_decref(command);
		cb_check_fail(ld, L, &site, argv[0], "%s", err);
	}
	json_object_set_new(spec, "command", command);
	return e;
}

static const struct cb_engine *plugin_entry(struct cb_loading *ld, lua_State *L, int idx,
                                            json_t *spec)
{
	const char *path = string_field(ld, L, idx, "path", true, "plugin");
	const char *name = string_field(ld, L, idx, "name", false, "plugin");
	const struct cb_site site = {.key = "path"};
	const struct cb_engine *e;
	char err[1024];

	e = cb_extern_plugin(path, name, err, sizeof err);
	if (!e)
		cb_check_fail(ld, L, &site, path, "%s", err);
	json_object_set_new(spec, "path", json_string(path));
	return e;
}

const struct cb_engine *cb_fields_external(struct cb_loading *ld, lua_State *L, int idx,
                                           const char *kind, json_t *spec)
{
	int top = lua_gettop(L);
	const struct cb_engine *e = strcmp(kind, "worker") == 0 ? worker_entry(ld, L, idx, spec)
	                                                        : plugin_entry(ld, L, idx, spec);

	json_object_set_new(spec, "external", json_string(kind));
	lua_settop(L, top);
	return e;
}
