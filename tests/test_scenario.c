/* test_scenario.c: scenarios load into the right C data, and bad ones fail
 * with one line that names the file and the line to change.
 *
 * Usage: test_scenario [BAD_DIR [GOOD_DIR]]
 * (defaults tests/scenarios/bad and BAD_DIR/../good). Each bad fixture
 * begins with "-- expect: <part of the message>" and "-- line: N". */
#include "core/lua/load.h"
#include "core/measure/scenario.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "core/base/errbuf.h"
#include "core/algorithms/input.h"
#include "core/lua/sandbox.h"
#include "core/base/units.h"
#include "tests/tap.h"

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n + 1)) != NULL) {
		*len = fread(buf, 1, (size_t)n, f);
		buf[*len] = '\0';
	}
	if (f)
		fclose(f);
	return buf;
}

static struct cb_scenario *load(const char *dir, const char *name, const struct cb_override *set,
                                size_t n_set, bool quick, char *err, size_t err_len)
{
	char path[1200];
	struct cb_load_options options = {set, n_set, quick};

	snprintf(path, sizeof path, "%s/%s", dir, name);
	struct cb_scenario *sc = cb_scenario_load(path, &options, err, err_len);
	if (sc == NULL)
		diag("%s: %s", name, err);
	return sc;
}

static const struct cb_variant *variant(const struct cb_scenario *sc, const char *label)
{
	for (size_t i = 0; i < sc->n_variants; i++)
		if (strcmp(sc->variants[i].label, label) == 0)
			return &sc->variants[i];
	return NULL;
}

static const struct cb_param *param(const struct cb_scenario *sc, const char *name)
{
	for (size_t i = 0; i < sc->n_params; i++)
		if (strcmp(sc->params[i].name, name) == 0)
			return &sc->params[i];
	return NULL;
}

/* ---- Bad scenarios ---- */

static void check_bad(const char *dir, const char *name)
{
	char path[1024], err[1024], expect[256] = "", prefix[1100];
	size_t len;
	int line = 0;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	char *text = read_file(path, &len);
	const char *e = text ? strstr(text, "-- expect: ") : NULL;
	const char *l = text ? strstr(text, "-- line: ") : NULL;
	const char *c = text ? strstr(text, "-- cli-only: ") : NULL;
	char cli_only_reason[256];
	const char *cli_only = NULL;
	if (e)
		sscanf(e + 11, "%255[^\n]", expect);
	if (l)
		line = atoi(l + 9);
	if (c && sscanf(c + 13, "%255[^\n]", cli_only_reason) == 1)
		cli_only = cli_only_reason;
	free(text);
	if (!ok(expect[0] && line > 0, "%s declares '-- expect:' and '-- line:'", name)) {
		tap_skip(4, "%s: nothing to compare", name);
		return;
	}
	if (cli_only) {
		/* the time budget or the command's watchdog: tests/cli_bad_scenarios.sh */
		tap_skip(4, "%s: %s", name, cli_only);
		return;
	}

	struct cb_scenario *sc = cb_scenario_load(path, NULL, err, sizeof err);
	ok(sc == NULL, "%s is refused", name);
	cb_scenario_free(sc);
	snprintf(prefix, sizeof prefix, "%s:%d: ", path, line);
	if (!ok(strncmp(err, prefix, strlen(prefix)) == 0, "%s: the error starts with %s", name,
	        prefix))
		diag("got: %s", err);
	if (!ok(strstr(err, expect) != NULL, "%s: the error says \"%s\"", name, expect))
		diag("got: %s", err);
	ok(strchr(err, '\n') == NULL, "%s: the error is one line", name);
	diag("%s", err);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_bad_fixtures(const char *dir)
{
	DIR *d = opendir(dir);
	char *names[256];
	size_t n = 0;
	struct dirent *entry;

	if (!ok(d != NULL, "the bad fixtures are in %s", dir))
		return;
	while ((entry = readdir(d)) != NULL && n < 256) {
		size_t len = strlen(entry->d_name);
		if (len > 4 && strcmp(entry->d_name + len - 4, ".lua") == 0)
			names[n++] = strdup(entry->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof *names, by_name);
	ok(n >= 18, "%zu bad fixtures", n);
	for (size_t i = 0; i < n; i++) {
		check_bad(dir, names[i]);
		free(names[i]);
	}
}

/* ---- Good scenarios ---- */

static void test_minimal(const char *dir)
{
	char err[1024], path[1200], hex[65];
	struct cb_scenario *sc = load(dir, "minimal.lua", NULL, 0, false, err, sizeof err);
	size_t len = 0;

	if (!ok(sc != NULL, "minimal.lua loads"))
		return;
	snprintf(path, sizeof path, "%s/minimal.lua", dir);
	char *text = read_file(path, &len);
	is_str(sc->name, "minimal", "minimal: name");
	ok(sc->description == NULL, "minimal: no description");
	is_str(sc->file, path, "minimal: the file as given");
	ok(text && sc->source_len == len && memcmp(sc->source, text, len) == 0,
	   "minimal: the source byte for byte");
	cb_sha256_hex((const unsigned char *)text, len, hex);
	is_str(sc->sha256, hex, "minimal: sha256 of the source");
	ok(sc->n_variants == 1 && strcmp(sc->variants[0].label, "sim") == 0 &&
	       strcmp(sc->variants[0].engine->name, "sim") == 0,
	   "minimal: one variant, labelled sim");
	ok(sc->variants[0].config.mode == CB_MODE_MESSAGE && !sc->variants[0].config.recreate &&
	       sc->variants[0].config.chunk == 0 && sc->variants[0].n_options == 0,
	   "minimal: the variant runs with the defaults");
	ok(sc->n_ops == 3 && sc->ops[0] == CB_OP_HASH && sc->ops[1] == CB_OP_ENCRYPT &&
	       sc->ops[2] == CB_OP_DECRYPT,
	   "minimal: ops default to hash, encrypt, decrypt");
	ok(sc->n_threads == 1 && sc->threads[0] == 1, "minimal: threads default to { 1 }");
	ok(sc->n_sizes == 1 && sc->sizes[0] == 64, "minimal: sizes { 64 }");
	is_num(sc->rounds, 30, "minimal: 30 rounds by default");
	is_num(sc->warmup_rounds, 1, "minimal: one warm-up round by default");
	ok(sc->order == CB_ORDER_ROUND_ROBIN, "minimal: round-robin by default");
	is_num(sc->order_seed, 20260804, "minimal: the order seed's default");
	is_num(sc->trial_time_ns, 20000000, "minimal: trial time 20 ms by default");
	is_num(sc->input_seed, 20260804, "minimal: the input seed's default");
	is_num(sc->input_offset, 0, "minimal: input offset 0 by default");
	ok(json_is_array(sc->derive) && json_array_size(sc->derive) == 0, "minimal: no derive");
	ok(sc->n_params == 0 && sc->n_dropped == 0, "minimal: no params, nothing dropped");
	free(text);
	cb_scenario_free(sc);
}

static void test_full(const char *dir)
{
	char err[1024];
	struct cb_scenario *sc = load(dir, "full.lua", NULL, 0, false, err, sizeof err);
	const struct cb_variant *v;

	if (!ok(sc != NULL, "full.lua loads"))
		return;
	is_str(sc->description, "every field, written out", "full: description");
	ok(sc->n_sizes == 4 && sc->sizes[0] == 16 && sc->sizes[1] == 1000 && sc->sizes[2] == 4096 &&
	       sc->sizes[3] == 1048576,
	   "full: sizes parsed (16, 1KB, 4KiB, 1MiB) and sorted");
	ok(sc->n_threads == 2 && sc->threads[0] == 1 && sc->threads[1] == 2, "full: threads 1, 2");
	ok(sc->n_algorithms == 3 && strcmp(sc->algorithms[0]->name, "aes-128-ctr") == 0 &&
	       strcmp(sc->algorithms[2]->name, "sha256") == 0,
	   "full: algorithms in the order written");
	ok(sc->n_ops == 3 && sc->ops[2] == CB_OP_HASH, "full: ops as written");
	is_num(sc->rounds, 12, "full: rounds from cb.param's default");
	is_num(sc->warmup_rounds, 2, "full: warmup");
	ok(sc->order == CB_ORDER_RANDOMIZED, "full: randomized order");
	is_num(sc->order_seed, 42, "full: order seed");
	is_num(sc->trial_time_ns, 2000000, "full: trial time 2ms");
	is_num(sc->input_seed, 7, "full: input seed");
	is_num(sc->input_offset, 3, "full: input offset");

	is_num(sc->n_variants, 4, "full: four variants (one engine dropped)");
	ok(variant(sc, "sim") != NULL, "full: a plain name is labelled with the engine");
	v = variant(sc, "sim-a");
	ok(v && v->n_options == 4 && v->config.options == v->options && v->config.n_options == 4,
	   "full: sim-a has its four options, in its config");
	ok(v && cb_option_number(&v->config, "overhead_ns", 0) == 150 &&
	       cb_option_number(&v->config, "ns_per_byte", 0) == 0.5 &&
	       cb_option_number(&v->config, "seed", 0) == 7,
	   "full: sim-a's option values");
	v = variant(sc, "sim-stream-noreuse-chunk4KiB");
	ok(v && v->config.mode == CB_MODE_STREAM && v->config.recreate && v->config.chunk == 4096,
	   "full: the default label names mode, reuse and chunk");
	v = variant(sc, "memcpy-b");
	ok(v && v->env == NULL && v->engine == cb_engine_find("memcpy"),
	   "full: a label as written, no environment");
	ok(sc->n_variants == 4 && json_is_string(sc->variants[0].spec) &&
	       json_is_object(sc->variants[1].spec) &&
	       json_integer_value(json_object_get(sc->variants[1].spec, "overhead_ns")) == 150,
	   "full: each entry kept as written");
	ok(sc->n_dropped == 1 && strcmp(sc->dropped[0].name, "no-such-engine-anywhere") == 0 &&
	       strcmp(sc->dropped[0].reason, "not compiled in") == 0,
	   "full: cb.available dropped the missing engine, saying why");

	json_t *d = json_array_get(sc->derive, 0), *expect = json_object_get(d, "expect");
	is_num(json_array_size(sc->derive), 2, "full: two derived metrics");
	is_str(json_string_value(json_object_get(d, "name")), "aes256/aes128", "full: derive name");
	is_str(json_string_value(
	           json_object_get(json_array_get(json_object_get(d, "ratio"), 0), "algorithm")),
	       "aes-256-ctr", "full: the numerator's selector");
	is_num(json_array_size(json_object_get(d, "by")), 3, "full: derive by three dimensions");
	near(json_real_value(json_object_get(expect, "value")), 10.0 / 14, 1e-12,
	     "full: expected value");
	near(json_real_value(json_object_get(expect, "tolerance")), 0.05, 1e-12, "full: tolerance");
	is_num(json_integer_value(json_object_get(json_object_get(expect, "when"), "size")), 4096,
	       "full: a size in a selector is stored in bytes");
	d = json_array_get(sc->derive, 1);
	ok(json_integer_value(
	       json_object_get(json_array_get(json_object_get(d, "ratio"), 0), "threads")) == 2 &&
	       json_array_size(json_object_get(d, "by")) == 0 &&
	       json_object_get(d, "expect") == NULL,
	   "full: a derive without by or expect");
	const struct cb_param *p = param(sc, "rounds");
	ok(p && strcmp(p->value, "12") == 0 && !p->from_command_line,
	   "full: cb.param recorded with its default");

	json_t *j = cb_scenario_to_json(sc);
	is_str(json_string_value(json_object_get(j, "name")), "full", "json: name");
	is_str(json_string_value(json_object_get(j, "sha256")), sc->sha256, "json: sha256");
	ok(json_string_length(json_object_get(j, "source")) == sc->source_len, "json: source");
	is_num(json_integer_value(json_object_get(j, "trial_time_ns")), 2000000,
	       "json: trial_time_ns");
	is_str(json_string_value(json_object_get(json_object_get(j, "input"), "generator")),
	       "xorshift32", "json: input generator");
	is_str(json_string_value(
	           json_object_get(json_array_get(json_object_get(j, "engines"), 1), "label")),
	       "sim-a", "json: engine labels");
	is_str(json_string_value(json_object_get(j, "order")), "randomized", "json: order");
	is_num(json_array_size(json_object_get(j, "dropped")), 1, "json: dropped engines");
	is_str(json_string_value(json_object_get(
	           json_object_get(json_object_get(j, "params"), "rounds"), "from")),
	       "default", "json: where a parameter came from");
	ok(json_equal(json_object_get(j, "derive"), sc->derive), "json: derive");
	json_decref(j);
	cb_scenario_free(sc);
}

static void test_params(const char *dir)
{
	char err[1024];
	struct cb_scenario *sc = load(dir, "params.lua", NULL, 0, false, err, sizeof err);

	if (!ok(sc != NULL, "params.lua loads"))
		return;
	is_num(sc->rounds, 10, "params: default rounds");
	ok(sc->n_variants == 1 && strcmp(sc->variants[0].label, "sim-p") == 0 &&
	       sc->variants[0].config.mode == CB_MODE_MESSAGE,
	   "params: default label and mode");
	if (!ok(sc->n_sizes == 7 && sc->sizes[0] == 16 && sc->sizes[1] == 64 &&
	            sc->sizes[6] == 65536,
	        "params: cb.geometric(16, \"64KiB\", 4) is 16 .. 64KiB by fours"))
		diag("n_sizes %zu", sc->n_sizes);
	is_num(sc->trial_time_ns, 1000000, "params: trial_time as a number of seconds");
	is_num(sc->n_params, 4, "params: four parameters recorded");
	cb_scenario_free(sc);

	static const struct cb_override set[] = {
	    {"rounds", "7"},     {"label", "custom"},   {"stream", "yes"},
	    {"largest", "1MiB"}, {"threads", "4, 1,2"}, {"trial_time", "3ms"},
	};
	sc = load(dir, "params.lua", set, 6, false, err, sizeof err);
	if (!ok(sc != NULL, "params.lua loads with --set"))
		return;
	is_num(sc->rounds, 7, "--set rounds=7 reaches the script as a number");
	ok(sc->n_variants == 1 && strcmp(sc->variants[0].label, "custom") == 0,
	   "--set label=custom as a string");
	ok(sc->n_variants == 1 && sc->variants[0].config.mode == CB_MODE_STREAM,
	   "--set stream=yes as a boolean");
	ok(sc->n_sizes == 9 && sc->sizes[8] == 1048576, "--set largest=1MiB");
	ok(sc->n_threads == 3 && sc->threads[0] == 1 && sc->threads[2] == 4,
	   "--set threads=4,1,2 overrides a field");
	is_num(sc->trial_time_ns, 3000000, "--set trial_time=3ms");
	cb_scenario_free(sc);
	static const struct cb_override off_grid[] = {{"largest", "128MiB"}};
	sc = load(dir, "params.lua", off_grid, 1, false, err, sizeof err);
	ok(sc && sc->n_sizes == 13 && sc->sizes[11] == 64u << 20 && sc->sizes[12] == 128u << 20,
	   "cb.geometric(16, \"128MiB\", 4) ends at 128MiB though 4 does not reach it exactly");
	cb_scenario_free(sc);
	sc = load(dir, "params.lua", set, 6, false, err, sizeof err);
	const struct cb_param *p = param(sc, "rounds");
	ok(p && strcmp(p->value, "7") == 0 && p->from_command_line,
	   "a parameter set on the command line says so");
	p = param(sc, "threads");
	ok(p && strcmp(p->value, "4, 1,2") == 0 && p->from_command_line,
	   "an overridden field is recorded too");
	cb_scenario_free(sc);
}

/* Loading NAME with the one override KEY=VALUE fails with exactly WANT. */
static void set_fails(const char *dir, const char *name, const char *key, const char *value,
                      const char *want)
{
	char err[1024];
	const char *message = err;
	const struct cb_override set = {key, value};
	struct cb_scenario *sc = load(dir, name, &set, 1, false, err, sizeof err);

	ok(sc == NULL, "%s with --set %s=%s is refused", name, key, value);
	is_str(message, want, "--set %s=%s: the message", key, value);
	cb_scenario_free(sc);
}

static void test_set_errors(const char *dir)
{
	char err[1024], path[1200];
	struct cb_scenario *sc = cb_scenario_load("/nonexistent/x.lua", NULL, err, sizeof err);

	if (!ok(sc == NULL && strncmp(err, "/nonexistent/x.lua: ", 20) == 0,
	        "a missing file is named in the error"))
		diag("got: %s", err);
	set_fails(dir, "minimal.lua", "rouns", "3",
	          "--set: unknown key 'rouns' (did you mean 'rounds'?)");
	set_fails(dir, "minimal.lua", "rounds", "0",
	          "--set rounds=0: 'rounds' must be between 1 and 1000000 (got 0)");
	set_fails(dir, "minimal.lua", "sizes", "16B,12XB",
	          "--set sizes=16B,12XB: bad size '12XB' (units: " CB_SIZE_UNITS ")");
	set_fails(dir, "minimal.lua", "sizes", "16B,64",
	          "--set sizes=16B,64: size 64 has no unit (write it like \"64B\" or \"4KiB\"; "
	          "units: " CB_SIZE_UNITS ")");
	set_fails(dir, "minimal.lua", "trial_time", "5",
	          "--set trial_time=5: duration 5 has no unit (write it like \"20ms\"; units: ns, "
	          "us, ms, s)");
	set_fails(dir, "minimal.lua", "order", "random",
	          "--set order=random: bad order 'random' (one of: round-robin, randomized, "
	          "blocked)");
	snprintf(path, sizeof path,
	         "%s/params.lua:6: --set stream=maybe: parameter 'stream' takes true or false",
	         dir);
	set_fails(dir, "params.lua", "stream", "maybe", path);
}

static void test_quick(const char *dir)
{
	char err[1024];
	struct cb_scenario *sc = load(dir, "full.lua", NULL, 0, true, err, sizeof err);

	if (!ok(sc != NULL, "full.lua loads with --quick"))
		return;
	is_num(sc->rounds, 5, "quick: at most 5 rounds");
	is_num(sc->warmup_rounds, 1, "quick: one warm-up round");
	is_num(sc->trial_time_ns, 2000000, "quick: a trial time already short stays");
	ok(sc->n_sizes == 3 && sc->sizes[0] == 16 && sc->sizes[1] == 4096 &&
	       sc->sizes[2] == 1048576,
	   "quick: smallest, the one nearest their geometric mean, largest");
	ok(param(sc, "quick") && param(sc, "quick")->from_command_line, "quick: recorded");
	cb_scenario_free(sc);

	static const struct cb_override set[] = {{"sizes", "16B,64B,256B,1KiB,4KiB,8MiB,64MiB"},
	                                         {"trial_time", "1s"}};
	sc = load(dir, "minimal.lua", set, 2, true, err, sizeof err);
	if (!ok(sc != NULL, "minimal.lua loads with --set and --quick"))
		return;
	is_num(sc->rounds, 5, "quick: 30 rounds become 5");
	is_num(sc->trial_time_ns, 5000000, "quick: trial time at most 5 ms");
	if (!ok(sc->n_sizes == 3 && sc->sizes[0] == 16 && sc->sizes[1] == 4096 &&
	            sc->sizes[2] == 1048576,
	        "quick: sizes capped at 1 MiB, three kept"))
		diag("%zu sizes: %zu %zu %zu", sc->n_sizes, sc->sizes[0], sc->sizes[1],
		     sc->sizes[2]);
	cb_scenario_free(sc);
}

static void test_include(const char *dir)
{
	char err[1024];
	struct cb_scenario *sc = load(dir, "include.lua", NULL, 0, false, err, sizeof err);

	if (!ok(sc != NULL, "include.lua loads"))
		return;
	ok(sc->n_variants == 2 && strcmp(sc->variants[1].label, "memcpy") == 0,
	   "include: engines from lib/common.lua");
	ok(sc->n_sizes == 3 && sc->sizes[0] == 1024 && sc->sizes[1] == 32768 &&
	       sc->sizes[2] == 1048576,
	   "include: sizes from a function of the library");
	json_t *inc = json_array_get(sc->includes, 0);
	const char *path = json_string_value(json_object_get(inc, "path"));
	const char *source = json_string_value(json_object_get(inc, "source"));
	ok(json_array_size(sc->includes) == 1 && path && strstr(path, "lib/common.lua") && source &&
	       strlen(json_string_value(json_object_get(inc, "sha256"))) == 64,
	   "include: the included file's path, digest and text are recorded");
	json_t *j = cb_scenario_to_json(sc);
	ok(json_equal(json_object_get(j, "includes"), sc->includes),
	   "include: the results header carries them");
	json_decref(j);
	cb_scenario_free(sc);
}

/* ---- The sandbox itself ---- */

static int run(lua_State *L, const char *code, char *err, size_t err_len)
{
	if (luaL_loadbufferx(L, code, strlen(code), "=test", "t") != LUA_OK) {
		cb_errorf(err, err_len, "%s", lua_tostring(L, -1));
		lua_pop(L, 1);
		return -1;
	}
	return cb_lua_pcall(L, 0, 0, err, err_len);
}

static void test_sandbox(void)
{
	struct cb_lua_limits limits = {
	    .memory = 8u << 20, .seconds = 0.2, .instructions = 1ull << 60};
	char err[1024];
	lua_State *L = cb_lua_new(&limits, err, sizeof err);
	struct cb_lua_hint hint;

	if (!ok(L != NULL, "a sandbox with small limits"))
		return;
	ok(run(L,
	       "assert(io == nil and os == nil and package == nil and debug == nil and "
	       "coroutine == nil and dofile == nil and loadfile == nil and string.dump == nil)",
	       err, sizeof err) == 0,
	   "sandbox: no io, os, package, debug, coroutine, dofile, loadfile, string.dump");
	ok(run(L, "assert(load('return 6 * 7')() == 42)", err, sizeof err) == 0,
	   "sandbox: load takes text");
	ok(run(L,
	       "local f, e = load(function() return '\\27Lua' end); assert(f == nil and "
	       "e:find('binary'))",
	       err, sizeof err) == 0,
	   "sandbox: load refuses binary from a reader function too");
	if (!ok(run(L, "local s = string.rep('x', 64 * 1024 * 1024)", err, sizeof err) != 0 &&
	            strstr(err, "not enough memory"),
	        "sandbox: the memory cap holds"))
		diag("got: %s", err);
	if (!ok(run(L, "while true do end", err, sizeof err) != 0 &&
	            strstr(err, "script stopped: ran more than 0.2 s of CPU time"),
	        "sandbox: a runaway loop is stopped"))
		diag("got: %s", err);
	ok(run(L, "local x = 1 + 1", err, sizeof err) == 0, "sandbox: usable after a stop");
	if (!ok(run(L, "setmetatable({}, { __gc = function() end })", err, sizeof err) != 0 &&
	            strstr(err, "__gc (finalizers) is not allowed"),
	        "sandbox: no finalizers (Lua runs them where no budget holds)"))
		diag("got: %s", err);
	ok(run(L, "assert(getmetatable(setmetatable({}, { __index = {} })).__index)", err,
	       sizeof err) == 0,
	   "sandbox: setmetatable otherwise as usual");
	ok(run(L, "local function f() error('deep') end f()", err, sizeof err) != 0 &&
	       strstr(cb_lua_traceback(L), "stack traceback:") && !strchr(err, '\n'),
	   "sandbox: the traceback is kept apart from the one-line message");
	cb_lua_close(L);

	limits = (struct cb_lua_limits){.seconds = 1000, .instructions = 1000000};
	L = cb_lua_new(&limits, err, sizeof err);
	if (!ok(L && run(L, "while true do end", err, sizeof err) != 0 &&
	            strstr(err, "script stopped: ran more than 1 million instructions"),
	        "sandbox: the instruction budget stops a loop the same way on any machine"))
		diag("got: %s", err);
	cb_lua_close(L);

	static const char *const words[] = {"threads", "rounds", "warmup", "order", "sizes"};
	cb_lua_hint_init(&hint, "threds");
	for (int i = 0; i < 5; i++)
		cb_lua_hint_consider(&hint, words[i]);
	is_str(cb_lua_hint_best(&hint), "threads", "hint: a missing letter");
	cb_lua_hint_init(&hint, "rounsd");
	for (int i = 0; i < 5; i++)
		cb_lua_hint_consider(&hint, words[i]);
	is_str(cb_lua_hint_best(&hint), "rounds", "hint: two letters swapped count once");
	cb_lua_hint_init(&hint, "xyz");
	for (int i = 0; i < 5; i++)
		cb_lua_hint_consider(&hint, words[i]);
	ok(cb_lua_hint_best(&hint) == NULL, "hint: nothing close, no hint");
}

int main(int argc, char **argv)
{
	const char *top = getenv("top_srcdir");
	char bad_dir[1024], good[1024];
	const char *bad = bad_dir;

	/* Fixtures live in the source tree, which is not the build tree in a
	 * VPATH build (make distcheck). */
	if (argc > 1)
		bad = argv[1];
	else
		snprintf(bad_dir, sizeof bad_dir, "%s/tests/scenarios/bad", top ? top : ".");
	snprintf(good, sizeof good, "%s/../good", bad);
	test_sandbox();
	test_minimal(argc > 2 ? argv[2] : good);
	test_full(argc > 2 ? argv[2] : good);
	test_params(argc > 2 ? argv[2] : good);
	test_set_errors(argc > 2 ? argv[2] : good);
	test_quick(argc > 2 ? argv[2] : good);
	test_include(argc > 2 ? argv[2] : good);
	test_bad_fixtures(bad);
	return tap_done();
}
