/* sandbox.c: a Lua state that can run scenario text and nothing else.
 *
 * The library list is an edited copy of Lua's linit.c; the message handler
 * follows lua.c's msghandler, and also makes sure every message starts with
 * the script's "FILE:LINE:", because a message without one (assert, error with
 * level 0, a table thrown) leaves the user searching. */
#include "core/lua/sandbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/base/errbuf.h"

#include <lauxlib.h>
#include <lualib.h>

/* A build with AddressSanitizer runs the interpreter and its allocator two to
 * three times slower and faults in shadow memory beside each page a script
 * touches. The budget is the script's, so the default one of such a build is
 * three times as long: a script that fills its memory took 1.1 s of 2 s under
 * ASan on an idle machine, and more than 2 s on a loaded one. */
#if defined(__SANITIZE_ADDRESS__)
#define INSTRUMENTED_SLOWDOWN 3.0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define INSTRUMENTED_SLOWDOWN 3.0
#endif
#endif
#ifndef INSTRUMENTED_SLOWDOWN
#define INSTRUMENTED_SLOWDOWN 1.0
#endif

#define HOOK_EVERY 1000      /* instructions between two looks at the budget */
#define RANDOM_SEED 20260804 /* math.random repeats from run to run */
#define MODULES_KEY "cb_lua.modules"
#define LOADED_KEY "cb_lua.loaded"

struct sandbox {
	lua_State *L;
	size_t used, limit;
	double seconds;
	unsigned long long instructions, counted; /* budget and use in this call */
	struct timespec deadline;
	bool ready;   /* libraries open: a refused allocation may look at the stack */
	bool in_call; /* inside cb_lua_pcall: the deadline holds */
	bool stopped; /* the budget ran out during the current call */
	char stop_message[512];
	char where_file[256]; /* the last place the script was seen running */
	int where_line;
	char **files; /* every file loaded, so messages naming them count as located */
	size_t n_files;
	char *traceback;
};

/* The sandbox inside cb_lua_pcall, for cb_lua_active_place(). */
static struct sandbox *volatile active;

static struct sandbox *sandbox_of(lua_State *L)
{
	void *ud;

	lua_getallocf(L, &ud);
	return ud;
}

/* ---- Time and memory ---- */

static struct timespec now(void)
{
	struct timespec t;

	/* CPU time: the same budget on a busy machine as on an idle one */
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t;
}

static bool past(const struct timespec *deadline)
{
	struct timespec t = now();

	return t.tv_sec > deadline->tv_sec ||
	       (t.tv_sec == deadline->tv_sec && t.tv_nsec >= deadline->tv_nsec);
}

/* The file and line of the innermost function of a file running, from LEVEL
 * up (a chunk made by load() from a string is not a place one can open). */
static bool current_location(lua_State *L, int level, char *file, size_t file_len, int *line)
{
	lua_Debug ar;

	for (; lua_getstack(L, level, &ar); level++) {
		if (!lua_getinfo(L, "Sl", &ar) || ar.currentline <= 0 || ar.source[0] != '@')
			continue;
		snprintf(file, file_len, "%s", ar.source + 1);
		*line = ar.currentline;
		return true;
	}
	return false;
}

static void stop_for_time(struct sandbox *sb);

static void *sandbox_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	struct sandbox *sb = ud;
	size_t old = ptr ? osize : 0; /* without PTR, OSIZE is a type tag */

	if (nsize == 0) {
		free(ptr);
		sb->used -= old;
		return NULL;
	}
	if (nsize > old && sb->in_call && !sb->stopped && past(&sb->deadline)) {
		/* C code building a string (gsub, rep, concat) runs no hook: the
		 * budget stops it at its next allocation. */
		stop_for_time(sb);
		return NULL;
	}
	if (nsize > old && sb->stopped && sb->in_call)
		return NULL;
	if (nsize > old && nsize - old > sb->limit - sb->used) {
		/* No message handler runs for memory errors: note where we are now. */
		if (sb->ready)
			current_location(sb->L, 0, sb->where_file, sizeof sb->where_file,
			                 &sb->where_line);
		return NULL;
	}
	void *p = realloc(ptr, nsize);
	if (p)
		sb->used = sb->used - old + nsize;
	return p;
}

/* "FILE:LINE" where the script was last seen, for errors raised where no
 * stack is left to ask. */
static const char *last_place(const struct sandbox *sb, char *buf, size_t len)
{
	if (sb->where_file[0])
		snprintf(buf, len, "%s:%d", sb->where_file, sb->where_line);
	else if (sb->n_files > 0)
		snprintf(buf, len, "%s:1", sb->files[0]);
	else
		snprintf(buf, len, "?:0");
	return buf;
}

/* The budget ran out: note the message every later error will carry. */
static void stop(struct sandbox *sb, const char *why)
{
	char place[300];

	if (sb->ready) /* a C function's caller: a line the hook may not have seen */
		current_location(sb->L, 0, sb->where_file, sizeof sb->where_file, &sb->where_line);
	sb->stopped = true;
	snprintf(sb->stop_message, sizeof sb->stop_message,
	         "%s: script stopped: ran %s (runaway loop?)", last_place(sb, place, sizeof place),
	         why);
}

static void stop_for_time(struct sandbox *sb)
{
	char why[64];

	snprintf(why, sizeof why, "more than %g s of CPU time", sb->seconds);
	stop(sb, why);
}

static void budget_hook(lua_State *L, lua_Debug *ar)
{
	struct sandbox *sb = sandbox_of(L);

	(void)ar;
	current_location(L, 0, sb->where_file, sizeof sb->where_file, &sb->where_line);
	if (!sb->stopped) {
		sb->counted += HOOK_EVERY;
		if (sb->counted > sb->instructions) {
			char why[64];

			snprintf(why, sizeof why, "more than %llu million instructions",
			         sb->instructions / 1000000);
			stop(sb, why);
		} else if (past(&sb->deadline)) {
			stop_for_time(sb);
		} else {
			return;
		}
	}
	/* From now on every instruction fails, so a pcall in the script cannot
	 * catch the stop and carry on. */
	lua_sethook(L, budget_hook, LUA_MASKCOUNT, 1);
	lua_pushstring(L, sb->stop_message);
	lua_error(L);
}

/* ---- Replacements for base functions ---- */

static int sandbox_require(lua_State *L)
{
	const char *name = luaL_checkstring(L, 1);

	lua_settop(L, 1);
	lua_getfield(L, LUA_REGISTRYINDEX, LOADED_KEY);
	if (lua_getfield(L, 2, name) != LUA_TNIL)
		return 1;
	lua_pop(L, 1);
	lua_getfield(L, LUA_REGISTRYINDEX, MODULES_KEY);
	if (lua_getfield(L, 3, name) != LUA_TTABLE)
		return luaL_error(L, "module '%s' is not available in scenarios", name);
	lua_rawgeti(L, 4, 1); /* open */
	lua_rawgeti(L, 4, 2); /* its data */
	lua_call(L, 1, 1);
	lua_pushvalue(L, -1);
	lua_setfield(L, 2, name); /* loaded[name] = module */
	return 1;
}

/* load(chunk [, chunkname [, mode [, env]]]) with the mode forced to text. */
static int sandbox_load(lua_State *L)
{
	int nargs = lua_gettop(L) >= 4 ? 4 : 3; /* an absent env stays absent */

	if (lua_type(L, 1) == LUA_TSTRING && lua_tostring(L, 1)[0] == LUA_SIGNATURE[0])
		return luaL_error(L, "load: binary chunks are not allowed in scenarios");
	lua_settop(L, nargs);
	lua_pushliteral(L, "t");
	lua_replace(L, 3);
	lua_pushvalue(L, lua_upvalueindex(1)); /* the original load */
	lua_insert(L, 1);
	lua_call(L, nargs, LUA_MULTRET);
	return lua_gettop(L);
}

/* setmetatable refusing finalizers: Lua runs __gc with hooks off, so no
 * time budget could stop one (nor one run by lua_close). */
static int sandbox_setmetatable(lua_State *L)
{
	if (lua_type(L, 2) == LUA_TTABLE && lua_getfield(L, 2, "__gc") != LUA_TNIL)
		return luaL_error(L, "setmetatable: __gc (finalizers) is not allowed in scenarios");
	lua_settop(L, 2);
	lua_pushvalue(L, lua_upvalueindex(1)); /* the original setmetatable */
	lua_insert(L, 1);
	lua_call(L, 2, 1);
	return 1;
}

/* print to stderr: stdout may be carrying results. */
static int sandbox_print(lua_State *L)
{
	int n = lua_gettop(L);

	for (int i = 1; i <= n; i++) {
		size_t len;
		const char *s = luaL_tolstring(L, i, &len);
		if (i > 1)
			fputc('\t', stderr);
		fwrite(s, 1, len, stderr);
		lua_pop(L, 1);
	}
	fputc('\n', stderr);
	return 0;
}

static const luaL_Reg allowed_libs[] = {
    {LUA_GNAME, luaopen_base},       {LUA_STRLIBNAME, luaopen_string},
    {LUA_TABLIBNAME, luaopen_table}, {LUA_MATHLIBNAME, luaopen_math},
    {LUA_UTF8LIBNAME, luaopen_utf8}, {NULL, NULL},
};

static int open_sandbox(lua_State *L)
{
	for (const luaL_Reg *lib = allowed_libs; lib->func; lib++) {
		luaL_requiref(L, lib->name, lib->func, 1);
		lua_pop(L, 1);
	}
	lua_pushglobaltable(L);
	lua_pushnil(L);
	lua_setfield(L, -2, "dofile");
	lua_pushnil(L);
	lua_setfield(L, -2, "loadfile");
	lua_getfield(L, -1, "load");
	lua_pushcclosure(L, sandbox_load, 1);
	lua_setfield(L, -2, "load");
	lua_getfield(L, -1, "setmetatable");
	lua_pushcclosure(L, sandbox_setmetatable, 1);
	lua_setfield(L, -2, "setmetatable");
	lua_pushcfunction(L, sandbox_print);
	lua_setfield(L, -2, "print");
	lua_pushcfunction(L, sandbox_require);
	lua_setfield(L, -2, "require");
	lua_getfield(L, -1, LUA_STRLIBNAME);
	lua_pushnil(L);
	lua_setfield(L, -2, "dump"); /* string.dump makes binary chunks */
	lua_pop(L, 1);
	lua_getfield(L, -1, LUA_MATHLIBNAME);
	lua_getfield(L, -1, "randomseed");
	lua_pushinteger(L, RANDOM_SEED);
	lua_call(L, 1, 0);
	lua_pop(L, 2); /* math, globals */
	lua_newtable(L);
	lua_setfield(L, LUA_REGISTRYINDEX, MODULES_KEY);
	lua_newtable(L);
	lua_setfield(L, LUA_REGISTRYINDEX, LOADED_KEY);
	return 0;
}

lua_State *cb_lua_new(const struct cb_lua_limits *limits, char *err, size_t err_len)
{
	struct sandbox *sb = calloc(1, sizeof *sb);

	if (sb == NULL)
		goto fail;
	sb->limit = limits && limits->memory ? limits->memory : CB_LUA_DEFAULT_MEMORY;
	sb->seconds = limits && limits->seconds > 0
	                  ? limits->seconds
	                  : CB_LUA_DEFAULT_SECONDS * INSTRUMENTED_SLOWDOWN;
	sb->instructions =
	    limits && limits->instructions ? limits->instructions : CB_LUA_DEFAULT_INSTRUCTIONS;
	sb->L = lua_newstate(sandbox_alloc, sb);
	if (sb->L == NULL)
		goto fail;
	lua_pushcfunction(sb->L, open_sandbox);
	if (lua_pcall(sb->L, 0, 0, 0) != LUA_OK)
		goto fail;
	sb->ready = true;
	return sb->L;
fail:
	cb_errorf(err, err_len, "cannot create a Lua state: not enough memory");
	if (sb && sb->L)
		lua_close(sb->L);
	free(sb);
	return NULL;
}

void cb_lua_close(lua_State *L)
{
	struct sandbox *sb;

	if (L == NULL)
		return;
	sb = sandbox_of(L);
	sb->ready = false;
	sb->stopped = true; /* finalizers left by the script stop at once */
	snprintf(sb->stop_message, sizeof sb->stop_message, "script stopped: closing");
	lua_sethook(L, budget_hook, LUA_MASKCOUNT, 1);
	lua_close(L);
	for (size_t i = 0; i < sb->n_files; i++)
		free(sb->files[i]);
	free(sb->files);
	free(sb->traceback);
	free(sb);
}

static int provide(lua_State *L)
{
	const char *name = lua_touserdata(L, 1);

	lua_getfield(L, LUA_REGISTRYINDEX, MODULES_KEY);
	lua_createtable(L, 2, 0);
	lua_pushvalue(L, 2);
	lua_rawseti(L, -2, 1);
	lua_pushvalue(L, 3);
	lua_rawseti(L, -2, 2);
	lua_setfield(L, -2, name);
	return 0;
}

int cb_lua_provide(lua_State *L, const char *name, lua_CFunction open, void *data)
{
	lua_pushcfunction(L, provide);
	lua_pushlightuserdata(L, (void *)name);
	lua_pushcfunction(L, open);
	lua_pushlightuserdata(L, data);
	if (lua_pcall(L, 3, 0, 0) != LUA_OK) {
		lua_pop(L, 1);
		return -1;
	}
	return 0;
}

/* ---- Messages ---- */

static bool starts_with_location(const char *msg, const char *file)
{
	size_t n = strlen(file);

	return n > 0 && strncmp(msg, file, n) == 0 && msg[n] == ':' && msg[n + 1] >= '0' &&
	       msg[n + 1] <= '9';
}

static bool names_loaded_file(const struct sandbox *sb, const char *msg)
{
	for (size_t i = 0; i < sb->n_files; i++)
		if (starts_with_location(msg, sb->files[i]))
			return true;
	return false;
}

/* MSG with its location made "PATH:LINE:" for a file of the stack or one
 * loaded; pushes the result. Lua writes a long path shortened ("...s/x.lua"),
 * the user gave it whole. */
static void push_located(lua_State *L, const char *msg)
{
	struct sandbox *sb = sandbox_of(L);
	lua_Debug ar;

	if (names_loaded_file(sb, msg)) {
		lua_pushstring(L, msg);
		return;
	}
	for (int level = 1; lua_getstack(L, level, &ar); level++) {
		if (!lua_getinfo(L, "S", &ar) || ar.source[0] != '@')
			continue;
		if (starts_with_location(msg, ar.source + 1)) {
			lua_pushstring(L, msg);
			return;
		}
		size_t n = strlen(ar.short_src);
		if (starts_with_location(msg, ar.short_src)) {
			lua_pushfstring(L, "%s%s", ar.source + 1, msg + n);
			return;
		}
	}
	char file[256];
	int line;
	if (current_location(L, 1, file, sizeof file, &line))
		lua_pushfstring(L, "%s:%d: %s", file, line, msg);
	else
		lua_pushstring(L, msg);
}

static int msghandler(lua_State *L)
{
	struct sandbox *sb = sandbox_of(L);
	const char *msg = lua_tostring(L, 1);

	if (sb->stopped) {
		lua_pushstring(L, sb->stop_message);
		return 1;
	}
	if (msg == NULL) { /* an error object that is not a string */
		if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
			msg = lua_tostring(L, -1);
		else
			msg =
			    lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
	}
	push_located(L, msg);
	luaL_traceback(L, L, lua_tostring(L, -1), 1);
	return 1;
}

/* Copy MSG as one line: the traceback goes to SB, newlines become spaces. */
static void one_line(struct sandbox *sb, const char *msg, char *err, size_t err_len)
{
	const char *tb = strstr(msg, "\nstack traceback:");
	size_t n = tb ? (size_t)(tb - msg) : strlen(msg);

	free(sb->traceback);
	sb->traceback = tb ? strdup(tb + 1) : NULL;
	if (err_len == 0)
		return;
	if (n >= err_len)
		n = err_len - 1;
	for (size_t i = 0; i < n; i++)
		err[i] = msg[i] == '\n' || msg[i] == '\t' || msg[i] == '\r' ? ' ' : msg[i];
	err[n] = '\0';
}

int cb_lua_pcall(lua_State *L, int nargs, int nresults, char *err, size_t err_len)
{
	struct sandbox *sb = sandbox_of(L);
	int base = lua_gettop(L) - nargs;
	struct timespec t = now();
	double whole = (double)(long long)sb->seconds;

	t.tv_sec += (time_t)whole;
	t.tv_nsec += (long)((sb->seconds - whole) * 1e9);
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	sb->deadline = t;
	sb->stopped = false;
	sb->counted = 0;
	sb->where_file[0] = '\0';
	sb->where_line = 0;
	lua_sethook(L, budget_hook, LUA_MASKCOUNT, HOOK_EVERY);
	lua_pushcfunction(L, msghandler);
	lua_insert(L, base);
	struct sandbox *outer = active;
	sb->in_call = true;
	active = sb;
	int status = lua_pcall(L, nargs, nresults, base);
	active = outer;
	sb->in_call = false;
	lua_remove(L, base);
	lua_sethook(L, NULL, 0, 0);
	if (status == LUA_OK)
		return 0;

	const char *msg = lua_tostring(L, -1);
	char fallback[300];
	last_place(sb, fallback, sizeof fallback);
	if (sb->stopped) {
		one_line(sb, sb->stop_message, err, err_len);
	} else if (status == LUA_ERRMEM) {
		char text[400];
		snprintf(text, sizeof text, "%s: not enough memory (a scenario may use %zu MiB)",
		         fallback, sb->limit >> 20);
		one_line(sb, text, err, err_len);
	} else if (msg == NULL || !names_loaded_file(sb, msg)) {
		/* no file named: code not from a file, or the handler failed */
		char text[1024];
		snprintf(text, sizeof text, "%s: %s", fallback, msg ? msg : "error");
		one_line(sb, text, err, err_len);
	} else {
		one_line(sb, msg, err, err_len);
	}
	lua_pop(L, 1);
	return -1;
}

size_t cb_lua_active_place(char *buf, size_t len)
{
	struct sandbox *sb = active;
	const char *file;
	char digits[16];
	size_t n = 0, d = 0;
	int line;

	if (!sb || len == 0)
		return 0;
	/* The caller of the stuck C function; lua_getinfo only reads. */
	current_location(sb->L, 0, sb->where_file, sizeof sb->where_file, &sb->where_line);
	file = sb->where_file[0] ? sb->where_file : sb->n_files ? sb->files[0] : "?";
	line = sb->where_file[0] ? sb->where_line : 1;
	/* By hand: the process is in a signal handler. */
	while (*file && n + 1 < len)
		buf[n++] = *file++;
	do
		digits[d++] = (char)('0' + line % 10);
	while ((line /= 10) > 0 && d < sizeof digits);
	if (n + 1 < len)
		buf[n++] = ':';
	while (d > 0 && n + 1 < len)
		buf[n++] = digits[--d];
	buf[n] = '\0';
	return n;
}

const char *cb_lua_traceback(lua_State *L)
{
	struct sandbox *sb = sandbox_of(L);

	return sb->traceback ? sb->traceback : "";
}

/* ---- Loading files ---- */

static int load_text_file(lua_State *L)
{
	const char *path = lua_touserdata(L, 1);
	int status = luaL_loadfilex(L, path, "t");

	if (status == LUA_OK)
		return 1;
	if (status == LUA_ERRMEM)
		luaL_error(L, "not enough memory");
	return lua_error(L);
}

static int remember_file(struct sandbox *sb, const char *path)
{
	for (size_t i = 0; i < sb->n_files; i++)
		if (strcmp(sb->files[i], path) == 0)
			return 0;
	char **files = realloc(sb->files, (sb->n_files + 1) * sizeof *files);
	if (files == NULL)
		return -1;
	sb->files = files;
	if ((files[sb->n_files] = strdup(path)) == NULL)
		return -1;
	sb->n_files++;
	return 0;
}

/* The form Lua gives PATH in messages (shortened when long). */
static void short_source(lua_State *L, const char *path, char *out, size_t out_len)
{
	lua_Debug ar;

	snprintf(out, out_len, "%s", path);
	lua_pushfstring(L, "@%s", path);
	if (luaL_loadbufferx(L, "", 0, lua_tostring(L, -1), "t") == LUA_OK &&
	    lua_getinfo(L, ">S", &ar))
		snprintf(out, out_len, "%s", ar.short_src);
	else
		lua_pop(L, 1); /* the error message */
	lua_pop(L, 1);         /* the chunk name */
}

int cb_lua_loadfile(lua_State *L, const char *path, char *err, size_t err_len)
{
	struct sandbox *sb = sandbox_of(L);
	char text[1024], short_src[LUA_IDSIZE];

	if (remember_file(sb, path) != 0) {
		cb_errorf(err, err_len, "%s:1: not enough memory", path);
		return -1;
	}
	lua_pushcfunction(L, load_text_file);
	lua_pushlightuserdata(L, (void *)path);
	if (lua_pcall(L, 1, 1, 0) == LUA_OK)
		return 0;
	const char *msg = lua_tostring(L, -1);
	if (msg == NULL)
		msg = "cannot load";
	short_source(L, path, short_src, sizeof short_src);
	size_t n = strlen(short_src);
	const char *named = strstr(msg, path);
	if (starts_with_location(msg, short_src))
		snprintf(text, sizeof text, "%s%s", path, msg + n);
	else if (strncmp(msg, "cannot ", 7) == 0 && named && named > msg)
		/* "cannot open PATH: why": the file itself, no line to give */
		snprintf(text, sizeof text, "%s: %.*s%s", path, (int)(named - msg - 1), msg,
		         named + strlen(path));
	else
		snprintf(text, sizeof text, "%s:1: %s", path, msg);
	lua_pop(L, 1);
	one_line(sb, text, err, err_len);
	return -1;
}

/* ---- "Did you mean" ---- */

#define HINT_MAX_LEN 64
#define HINT_MAX_DISTANCE 2

/* Optimal string alignment distance: edits, with a swap of neighbours as one. */
static size_t osa_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t row[3][HINT_MAX_LEN + 1];

	if (la > HINT_MAX_LEN || lb > HINT_MAX_LEN)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t *cur = row[i % 3], *prev = row[(i - 1) % 3], *prev2 = row[(i + 1) % 3];
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
			size_t d = prev[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			if (prev[j - 1] + cost < d)
				d = prev[j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < d)
				d = prev2[j - 2] + 1;
			cur[j] = d;
		}
	}
	return row[la % 3][lb];
}

void cb_lua_hint_init(struct cb_lua_hint *hint, const char *word)
{
	hint->word = word;
	hint->best = NULL;
	hint->distance = SIZE_MAX;
}

void cb_lua_hint_consider(struct cb_lua_hint *hint, const char *candidate)
{
	size_t d = osa_distance(hint->word, candidate);

	/* an edit per letter is no resemblance ("x" is not "ops") */
	if (d <= HINT_MAX_DISTANCE && d < strlen(candidate) && d < hint->distance) {
		hint->best = candidate;
		hint->distance = d;
	}
}

const char *cb_lua_hint_best(const struct cb_lua_hint *hint)
{
	return hint->best;
}
