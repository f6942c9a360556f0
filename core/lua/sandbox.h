/* sandbox.h: a Lua 5.4 state that can run scenario text and nothing else.
 *
 * Only base, string, table, math and utf8 are opened; dofile, loadfile and
 * string.dump are gone; `load` takes text only; `require` finds only the
 * modules given to cb_lua_provide(); `print` writes to stderr;
 * `setmetatable` refuses __gc (Lua runs finalizers where no budget holds).
 * Memory is capped and every cb_lua_pcall() has a budget of instructions
 * (the same on any machine) and of CPU time (also for C code that
 * allocates as it runs, checked at every allocation), so a runaway script is
 * stopped. A library function that neither runs Lua nor allocates (a
 * string pattern match on a long subject) is beyond the budget: see
 * cb_lua_active_place() for a caller's watchdog. Errors come back as one line "FILE:LINE: message",
 * FILE being the path as it was given. */
#ifndef CB_LUA_SANDBOX_H
#define CB_LUA_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>

#include <lua.h>

#define CB_LUA_DEFAULT_MEMORY ((size_t)256 << 20)
#define CB_LUA_DEFAULT_SECONDS 2.0
#define CB_LUA_DEFAULT_INSTRUCTIONS 20000000ull

struct cb_lua_limits {
	size_t memory;  /* bytes the state may hold; 0: CB_LUA_DEFAULT_MEMORY */
	double seconds; /* CPU-time budget of one cb_lua_pcall; 0: CB_LUA_DEFAULT_SECONDS */
	unsigned long long instructions; /* of one cb_lua_pcall; 0: CB_LUA_DEFAULT_INSTRUCTIONS */
};

/* ---- The state ---- */

/* A new sandboxed state (LIMITS may be NULL for the defaults). NULL with ERR
 * filled when memory is short. */
lua_State *cb_lua_new(const struct cb_lua_limits *limits, char *err, size_t err_len);
/* Close L; Lua code left in finalizers gets no time to run. NULL is fine. */
void cb_lua_close(lua_State *L);

/* Make `require(NAME)` call OPEN once, with DATA as a light userdata argument,
 * and return its first result from then on. 0, or -1 when memory is short. */
int cb_lua_provide(lua_State *L, const char *name, lua_CFunction open, void *data);

/* ---- Running code ---- */

/* Load the Lua text file PATH (luaL_loadfilex, mode "t") and push it as a
 * function whose globals are the sandbox's. 0; or -1 with nothing pushed and
 * ERR "PATH:LINE: message" (Lua's syntax error, one line). May be called from
 * a C function the script called. */
int cb_lua_loadfile(lua_State *L, const char *path, char *err, size_t err_len);

/* Call the function under its NARGS arguments in protected mode with a
 * message handler and a fresh time budget, like lua.c's docall. 0; or -1 with
 * the function and arguments popped and ERR one line "FILE:LINE: message". */
int cb_lua_pcall(lua_State *L, int nargs, int nresults, char *err, size_t err_len);

/* The stack traceback of the last failed cb_lua_pcall ("" when none): kept
 * apart from the one-line message for a verbose report. */
const char *cb_lua_traceback(lua_State *L);

/* Where the script inside the running cb_lua_pcall is, as "FILE:LINE" in
 * BUF; its length, or 0 when no call runs. For a watchdog's signal handler
 * that ends the process because a library call got stuck: it only reads the
 * Lua stack and copies bytes, but it is not async-signal-safe in general. */
size_t cb_lua_active_place(char *buf, size_t len);

/* ---- "Did you mean" ---- */

/* Finds the candidate closest to a misspelt word (optimal string alignment
 * distance, at most 2 edits; the first of equals wins). */
struct cb_lua_hint {
	const char *word;
	const char *best;
	size_t distance;
};

void cb_lua_hint_init(struct cb_lua_hint *hint, const char *word);
void cb_lua_hint_consider(struct cb_lua_hint *hint, const char *candidate);
/* The best candidate, or NULL when none is close. */
const char *cb_lua_hint_best(const struct cb_lua_hint *hint);

#endif
