/* extern.c: external workers and plug-ins, and the gate they pass. */
#include "config.h"

#include "core/engine/extern.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/errbuf.h"
#include "core/algorithms/input.h"
#include "core/engine/process.h"

#define MAX_ALLOWED 32
#define MAX_WORKERS 8
#define MAX_PLUGINS 8
#define MAX_REFUSED 8

static char *allowed[MAX_ALLOWED];
static size_t n_allowed;
static bool dry_run;

/* One external met, for the header and --dry-run. */
struct ext {
	const char *kind; /* "worker" or "plugin" */
	char name[64];
	char *path;                      /* as written */
	char file[PATH_MAX];             /* its realpath */
	char sha256[65];                 /* of the file */
	char *argv[CB_PROCESS_MAX_ARGS]; /* a worker's command */
	bool allowed;
	const struct cb_engine *engine;
};

static struct ext exts[MAX_WORKERS + MAX_PLUGINS + MAX_REFUSED];
static size_t n_exts;

/* ---- The gate ---- */

/* The realpath of CMD into REAL (PATH searched when it has no '/'): 0, or
 * -1 with ERR. */
static int resolve(const char *cmd, char *real, char *err, size_t err_len)
{
	const char *path = getenv("PATH");
	char candidate[PATH_MAX];

	if (strchr(cmd, '/')) {
		if (realpath(cmd, real))
			return 0;
		return cb_errorf(err, err_len, "%s: %s", cmd, strerror(errno));
	}
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t len = strcspn(p, ":");

		snprintf(candidate, sizeof candidate, "%.*s/%s", (int)len, len ? p : ".", cmd);
		if (access(candidate, X_OK) == 0 && realpath(candidate, real))
			return 0;
		p += len + (p[len] == ':');
	}
	return cb_errorf(err, err_len, "%s: not found in PATH", cmd);
}

int cb_extern_allow(const char *list, char *err, size_t err_len)
{
	char *copy = strdup(list), *save = NULL;
	int rc = 0;

	if (!copy)
		return cb_errorf(err, err_len, "out of memory");
	for (char *p = strtok_r(copy, ",", &save); p && rc == 0; p = strtok_r(NULL, ",", &save)) {
		char real[PATH_MAX], why[PATH_MAX + 64];

		if (!strchr(p, '/') && access(p, F_OK) == 0) {
			/* a file of the current folder, as written */
			if (!realpath(p, real))
				rc = cb_errorf(err, err_len, "--allow-external %s: %s", p,
				               strerror(errno));
		} else if (resolve(p, real, why, sizeof why) != 0) {
			rc = cb_errorf(err, err_len, "--allow-external %s", why);
		}
		if (rc == 0 && n_allowed == MAX_ALLOWED)
			rc = cb_errorf(err, err_len, "--allow-external: more than %d files",
			               MAX_ALLOWED);
		if (rc == 0 && !(allowed[n_allowed++] = strdup(real)))
			rc = cb_errorf(err, err_len, "out of memory");
	}
	free(copy);
	return rc;
}

void cb_extern_set_dry_run(bool on)
{
	dry_run = on;
}

static bool is_allowed(const char *file)
{
	for (size_t i = 0; i < n_allowed; i++)
		if (strcmp(allowed[i], file) == 0)
			return true;
	return false;
}

/* A new entry for the external KIND named NAME at PATH (resolved into
 * its file and checked against the gate), or NULL with ERR. */
static struct ext *met(const char *kind, const char *name, const char *path, char *err,
                       size_t err_len)
{
	struct ext *x;
	char why[PATH_MAX + 64];

	if (n_exts == sizeof exts / sizeof exts[0]) {
		cb_errorf(err, err_len, "more than %zu external engines", n_exts);
		return NULL;
	}
	x = &exts[n_exts];
	memset(x, 0, sizeof *x);
	if (resolve(path, x->file, why, sizeof why) != 0) {
		cb_errorf(err, err_len, "%s '%s': %s", kind, name, why);
		return NULL;
	}
	x->allowed = is_allowed(x->file);
	if (!x->allowed && !dry_run) {
		cb_errorf(err, err_len,
		          "%s '%s': %s is not allowed to %s (run with --allow-external %s)", kind,
		          name, path, strcmp(kind, "worker") == 0 ? "start" : "load", path);
		return NULL;
	}
	if (!(x->path = strdup(path))) {
		cb_errorf(err, err_len, "out of memory");
		return NULL;
	}
	x->kind = kind;
	snprintf(x->name, sizeof x->name, "%s", name);
	cb_sha256_file(x->file, x->sha256);
	n_exts++;
	return x;
}

/* ---- What an external the gate kept out shows (--dry-run) ---- */

static const char *refused_version(void)
{
	return "not started";
}

static int refused_probe(char *why, size_t why_len)
{
	return cb_errorf(why, why_len, "not allowed: run with --allow-external and its file");
}

static bool refused_supports(const struct cb_algorithm *alg, enum cb_op op, enum cb_mode mode)
{
	(void)alg;
	(void)op;
	(void)mode;
	return false;
}

static struct cb_engine refused[MAX_REFUSED];
static size_t n_refused;

static const struct cb_engine *refused_engine(struct ext *x, const char *kind, char *err,
                                              size_t err_len)
{
	struct cb_engine *e;

	if (n_refused == MAX_REFUSED) {
		cb_errorf(err, err_len, "more than %d externals not allowed", MAX_REFUSED);
		return NULL;
	}
	e = &refused[n_refused];
	*e = (struct cb_engine){.name = x->name,
	                        .kind = kind,
	                        .version = refused_version,
	                        .probe = refused_probe,
	                        .supports = refused_supports};
	if (cb_engine_add(e, err, err_len) != 0)
		return NULL;
	n_refused++;
	return x->engine = e;
}

/* ---- External workers ---- */

struct ext_worker {
	struct cb_process_engine pe;
	struct cb_engine engine;
	struct ext *ext;
};

static struct ext_worker workers[MAX_WORKERS];
static size_t n_workers;

static int worker_find(struct cb_process_engine *pe, char *why, size_t why_len)
{
	return cb_process_start(pe, why, why_len);
}

/* The engine table's functions take no context: one set per slot. */
#define WORKER_SLOT(i)                                                                             \
	static const char *worker_version_##i(void)                                                \
	{                                                                                          \
		return cb_process_version(&workers[i].pe);                                         \
	}                                                                                          \
	static int worker_probe_##i(char *why, size_t why_len)                                     \
	{                                                                                          \
		return cb_process_probe(&workers[i].pe, why, why_len);                             \
	}                                                                                          \
	static bool worker_supports_##i(const struct cb_algorithm *alg, enum cb_op op,             \
	                                enum cb_mode mode)                                         \
	{                                                                                          \
		return cb_process_supports(&workers[i].pe, alg, op, mode);                         \
	}                                                                                          \
	static void *worker_open_##i(const struct cb_cell_setup *cell,                             \
	                             const struct cb_engine_setup *setup, char *err,               \
	                             size_t err_len)                                               \
	{                                                                                          \
		(void)setup;                                                                       \
		return cb_process_open(&workers[i].pe, cell, err, err_len);                        \
	}                                                                                          \
	static void worker_describe_##i(json_t *obj)                                               \
	{                                                                                          \
		cb_process_describe(&workers[i].pe, obj);                                          \
	}

WORKER_SLOT(0)
WORKER_SLOT(1)
WORKER_SLOT(2)
WORKER_SLOT(3)
WORKER_SLOT(4)
WORKER_SLOT(5)
WORKER_SLOT(6)
WORKER_SLOT(7)

#define WORKER_TABLE(i)                                                                            \
	{                                                                                          \
		.version = worker_version_##i, .probe = worker_probe_##i,                          \
		.supports = worker_supports_##i, .open = worker_open_##i,                          \
		.describe = worker_describe_##i                                                    \
	}

static const struct cb_engine worker_tables[MAX_WORKERS] = {
    WORKER_TABLE(0), WORKER_TABLE(1), WORKER_TABLE(2), WORKER_TABLE(3),
    WORKER_TABLE(4), WORKER_TABLE(5), WORKER_TABLE(6), WORKER_TABLE(7),
};

/* Whether KEPT (argv[0] resolved) holds the words of ARGV. */
static bool same_words(char *const *kept, const char *const *argv)
{
	char real[PATH_MAX], why[PATH_MAX + 64];
	size_t i = 1;

	if (!kept[0] || resolve(argv[0], real, why, sizeof why) != 0 || strcmp(real, kept[0]) != 0)
		return false;
	for (; kept[i] && argv[i]; i++)
		if (strcmp(kept[i], argv[i]) != 0)
			return false;
	return !kept[i] && !argv[i];
}

const struct cb_engine *cb_extern_worker(const char *name, const char *const *argv, char *err,
                                         size_t err_len)
{
	struct ext_worker *w;
	struct ext *x;
	size_t n = 0;

	if (!argv || !argv[0] || !argv[0][0]) {
		cb_errorf(err, err_len, "worker '%s': no command", name);
		return NULL;
	}
	for (size_t i = 0; i < n_exts; i++) /* met again (a scenario loaded twice) */
		if (strcmp(exts[i].kind, "worker") == 0 && strcmp(exts[i].name, name) == 0 &&
		    same_words(exts[i].argv, argv))
			return exts[i].engine;
	if (cb_engine_find(name)) {
		cb_errorf(err, err_len, "worker '%s': an engine of that name exists already", name);
		return NULL;
	}
	if (n_workers == MAX_WORKERS) {
		cb_errorf(err, err_len, "worker '%s': more than %d external workers", name,
		          MAX_WORKERS);
		return NULL;
	}
	if (!(x = met("worker", name, argv[0], err, err_len)))
		return NULL;
	for (; argv[n] && n + 1 < CB_PROCESS_MAX_ARGS; n++)
		if (!(x->argv[n] = strdup(n == 0 ? x->file : argv[n]))) {
			cb_errorf(err, err_len, "out of memory");
			return NULL;
		}
	if (argv[n]) {
		cb_errorf(err, err_len, "worker '%s': more than %d words in its command", name,
		          CB_PROCESS_MAX_ARGS - 1);
		return NULL;
	}
	if (!x->allowed)
		return refused_engine(x, "process", err, err_len);
	w = &workers[n_workers];
	w->engine = worker_tables[n_workers];
	w->engine.name = x->name;
	w->engine.kind = "process";
	w->engine.call = cb_process_call;
	w->engine.close = cb_process_close;
	w->engine.remote = cb_process_remote;
	w->engine.options = cb_process_options;
	w->engine.check_options = cb_process_check_options;
	w->pe.engine = &w->engine;
	w->pe.find = worker_find;
	for (size_t i = 0; i <= n; i++)
		w->pe.argv[i] = x->argv[i];
	w->ext = x;
	if (cb_engine_add(&w->engine, err, err_len) != 0)
		return NULL;
	n_workers++;
	return x->engine = &w->engine;
}

/* ---- Plug-ins ---- */

static struct cb_engine plugins[MAX_PLUGINS];
static size_t n_plugins;

/* The name to show for the plug-in PATH: its file name without "lib" and
 * what follows the first '.'. */
static void plugin_name(const char *path, char *name, size_t len)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	if (strncmp(base, "lib", 3) == 0 && base[3])
		base += 3;
	snprintf(name, len, "%.*s", (int)strcspn(base, "."), base);
}

/* Copy the table P exports into E: 0, or -1 with WHY. */
static int plugin_table(const struct cb_plugin *p, struct cb_engine *e, char *why, size_t why_len)
{
	if (p->abi != CB_ENGINE_ABI)
		return cb_errorf(why, why_len,
		                 "built for engine ABI %u, this cryptobench has ABI %u: rebuild it "
		                 "against this cryptobench/engine.h",
		                 p->abi, CB_ENGINE_ABI);
	if (p->struct_size < CB_ENGINE_ABI_1_SIZE || !p->engine)
		return cb_errorf(why, why_len,
		                 "its struct cb_engine is %zu bytes, less than ABI %u's %zu",
		                 p->struct_size, CB_ENGINE_ABI, (size_t)CB_ENGINE_ABI_1_SIZE);
	/* A table from an older header stops early (the rest stays NULL); a
	 * newer one's additions at the end are not known here. */
	memset(e, 0, sizeof *e);
	memcpy(e, p->engine, p->struct_size < sizeof *e ? p->struct_size : sizeof *e);
	if (!e->name || !e->name[0] || !e->version || !e->supports || !e->open || !e->call ||
	    !e->close)
		return cb_errorf(
		    why, why_len,
		    "its engine lacks one of name, version, supports, open, call, close");
	if (e->remote || e->virtual_ns)
		return cb_errorf(why, why_len,
		                 "a plug-in's calls run and are timed in cryptobench "
		                 "(no remote, no virtual clock)");
	e->kind = "plugin";
	e->reference = false;
	return 0;
}

const struct cb_engine *cb_extern_plugin(const char *path, const char *name, char *err,
                                         size_t err_len)
{
	char shown[64], why[512], given[PATH_MAX];
	const struct cb_plugin *p;
	struct ext *x;
	void *handle;

	if (name)
		snprintf(shown, sizeof shown, "%s", name);
	else
		plugin_name(path, shown, sizeof shown);
	snprintf(given, sizeof given, "%s%s", strchr(path, '/') ? "" : "./", path);
	for (size_t i = 0; i < n_exts; i++) { /* the same file again: the same engine */
		char real[PATH_MAX];

		if (strcmp(exts[i].kind, "plugin") == 0 && realpath(given, real) &&
		    strcmp(real, exts[i].file) == 0)
			return exts[i].engine;
	}
	if (n_plugins == MAX_PLUGINS) {
		cb_errorf(err, err_len, "plugin %s: more than %d plug-ins", path, MAX_PLUGINS);
		return NULL;
	}
	if (!(x = met("plugin", shown, given, err, err_len)))
		return NULL;
	if (!x->allowed)
		return refused_engine(x, "plugin", err, err_len);
	handle = dlopen(x->file, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		cb_errorf(err, err_len, "plugin %s: cannot load: %s", path, dlerror());
		return NULL;
	}
	p = dlsym(handle, "cb_plugin");
	if (!p) {
		cb_errorf(err, err_len, "plugin %s: exports no cb_plugin (CB_PLUGIN in engine.h)",
		          path);
		dlclose(handle);
		return NULL;
	}
	if (plugin_table(p, &plugins[n_plugins], why, sizeof why) != 0) {
		cb_errorf(err, err_len, "plugin %s: %s", path, why);
		dlclose(handle);
		return NULL;
	}
	if (cb_engine_add(&plugins[n_plugins], why, sizeof why) != 0) {
		cb_errorf(err, err_len, "plugin %s: %s", path, why);
		dlclose(handle);
		return NULL;
	}
	snprintf(x->name, sizeof x->name, "%s", plugins[n_plugins].name);
	return x->engine = &plugins[n_plugins++]; /* the handle stays open */
}

/* ---- Listing ---- */

static bool plugin_file(const char *path)
{
	size_t len = strlen(path);

	return (len > 3 && strcmp(path + len - 3, ".so") == 0) || strstr(path, ".so.") != NULL;
}

int cb_extern_add_allowed(char *err, size_t err_len)
{
	for (size_t i = 0; i < n_allowed; i++) {
		const char *base = strrchr(allowed[i], '/') + 1;
		const char *argv[2] = {allowed[i], NULL};
		bool seen = false;

		for (size_t j = 0; j < n_exts && !seen; j++)
			seen = strcmp(exts[j].file, allowed[i]) == 0;
		if (seen)
			continue;
		if (plugin_file(allowed[i]) ? !cb_extern_plugin(allowed[i], NULL, err, err_len)
		                            : !cb_extern_worker(base, argv, err, err_len))
			return -1;
	}
	return 0;
}

bool cb_extern_any(void)
{
	return n_exts > 0;
}

json_t *cb_extern_json(void)
{
	json_t *list = json_array();

	for (size_t i = 0; i < n_exts; i++) {
		const struct ext *x = &exts[i];
		json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:b}", "kind", x->kind, "name",
		                      x->name, "path", x->path, "file", x->file, "sha256",
		                      x->sha256, "allowed", x->allowed);

		if (x->argv[0]) {
			json_t *argv = json_array();

			for (size_t k = 0; x->argv[k]; k++)
				json_array_append_new(argv, json_string(x->argv[k]));
			json_object_set_new(o, "command", argv);
		}
		json_array_append_new(list, o);
	}
	return list;
}

void cb_extern_print(FILE *out)
{
	if (!n_exts)
		return;
	fputs("\nexternal engines (started or loaded only when allowed):\n", out);
	for (size_t i = 0; i < n_exts; i++) {
		const struct ext *x = &exts[i];

		fprintf(out, "  %s %s: %s", x->kind, x->name, x->file);
		for (size_t k = 1; x->argv[0] && x->argv[k]; k++)
			fprintf(out, " %s", x->argv[k]);
		fprintf(out, "\n    sha256 %s, %s\n", x->sha256[0] ? x->sha256 : "(unreadable)",
		        x->allowed ? "allowed"
		                   : "NOT allowed: a run refuses it without --allow-external");
	}
}
