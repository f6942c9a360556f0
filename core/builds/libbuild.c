/* libbuild.c: another build of a library engine's library, loaded with its
 * engine into a link-map namespace of its own (libbuild.h). */
#include "config.h"

#include "core/builds/libbuild.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/builds/buildenv.h"
#include "core/builds/code_copy.h"
#include "core/builds/elf_info.h"
#include "core/builds/libraries.h"
#include "core/builds/placement.h"
#include "core/base/errbuf.h"
#include "core/algorithms/input.h"

extern char **environ;

struct libbuild {
	struct cb_engine engine; /* the object's table, under the variant's name */
	size_t library;          /* its row of cb_libraries[] */
	char *file, *real, *env_key;
	char code[PATH_MAX]; /* the copy its code runs from (code_copy.h) */
	char sha256[65];
	struct cb_elf_info elf;
	char **environ;        /* its C library's environment: kept for the life of its namespace */
	size_t environ_own;    /* environ[environ_own] onwards are copies of its own pairs */
	void *base;            /* where FILE is loaded */
	bool placed;           /* where its placement aimed, modulo CB_PLACEMENT_MODULO */
	const char *placement; /* "slot", "alike" (no slot left) or "kernel" (not placed) */
	unsigned slot;         /* its first page's 2 MiB slot (placement.h) */
	bool crosses;          /* its code across a 16 MiB boundary */
	/* The object's describe, and its namespace's own jansson and free:
	 * a json_t of the base namespace's jansson must never reach it. */
	void (*describe)(json_t *obj);
	json_t *(*json_object)(void);
	char *(*json_dumps)(const json_t *json, size_t flags);
	void (*json_delete)(json_t *json);
	void (*free)(void *p);
};

static struct libbuild *builds[CB_LIBBUILD_MAX];
static size_t n_builds;
/* Namespaces opened, refused builds' too (a namespace is never unloaded):
 * each keeps its band of thread-specific keys. */
static size_t n_namespaces;
/* Each namespace's environment: its C library reads it for the life of the
 * process, a refused build's too. */
static char **namespace_environ[CB_LIBBUILD_MAX];
static pthread_mutex_t builds_lock = PTHREAD_MUTEX_INITIALIZER;

/* A build's describe, run on an object of its own namespace's jansson and
 * carried over as text. */
static void describe_in(size_t slot, json_t *obj)
{
	const struct libbuild *b = builds[slot];
	json_t *theirs = b->json_object();
	char *text;
	json_t *ours;

	if (!theirs)
		return;
	b->describe(theirs);
	text = b->json_dumps(theirs, JSON_COMPACT);
	b->json_delete(theirs);
	if (text && (ours = json_loads(text, 0, NULL)) != NULL) {
		json_object_update(obj, ours);
		json_decref(ours);
	}
	b->free(text);
}

/* describe takes no context: one function per slot. */
#define DESCRIBE_SLOT(n)                                                                           \
	static void describe_##n(json_t *obj)                                                      \
	{                                                                                          \
		describe_in(n, obj);                                                               \
	}
DESCRIBE_SLOT(0)
DESCRIBE_SLOT(1)
DESCRIBE_SLOT(2)
DESCRIBE_SLOT(3)
DESCRIBE_SLOT(4)
DESCRIBE_SLOT(5)
DESCRIBE_SLOT(6)
static void (*const describe_slots[CB_LIBBUILD_MAX])(json_t *) = {
    describe_0, describe_1, describe_2, describe_3, describe_4, describe_5, describe_6,
};

bool cb_libbuild_applies(const struct cb_engine *engine)
{
	char path[PATH_MAX];
	size_t row;

	return strcmp(engine->kind, "library") == 0 && cb_library_row(engine->name, &row) &&
	       cb_library_object(engine->name, path, sizeof path);
}

/* B's environment freed, unless a namespace holds it. */
static void environ_free(struct libbuild *b)
{
	if (!b->environ)
		return;
	for (size_t i = 0; i < n_namespaces; i++)
		if (namespace_environ[i] == b->environ)
			return;
	for (size_t i = b->environ_own; b->environ[i]; i++)
		free(b->environ[i]);
	free(b->environ);
}

/* dlmopen under the build's environment: its C library copies the pointer
 * when it starts, and constructors read it; the process's is put back. */
static void *open_in(Lmid_t lmid, const char *path, char **env)
{
	char **saved = environ;
	void *handle;

	environ = env;
	handle = dlmopen(lmid, path, RTLD_NOW | RTLD_LOCAL);
	environ = saved;
	return handle;
}

/* What dlerror says, with glibc's limits named when it hit one. */
static int load_error(char *err, size_t err_len, const char *file, const char *what)
{
	const char *why = dlerror();

	if (!why)
		why = "unknown error";
	return cb_errorf(err, err_len, "%s: cannot load %s: %s%s", file, what, why,
	                 strstr(why, "static TLS") || strstr(why, "namespace")
	                     ? " (glibc's link-map namespaces or static TLS are used up: "
	                       "fewer builds in one run, or GLIBC_TUNABLES=glibc.rtld.nns=16)"
	                     : "");
}

/* Thread-specific keys live in the thread's descriptor, which every copy of
 * the C library shares, while each copy numbers its keys from 0: two
 * namespaces' libraries would write each other's thread state (OpenSSL's
 * error queues and its cleanup at exit). The namespace's C library takes
 * its keys from band SLOT + 1, the base namespace keeps band 0. */
static int key_band(void *library, size_t slot, const char *file, char *err, size_t err_len)
{
	int (*key_create)(pthread_key_t *, void (*)(void *)) = dlsym(library, "pthread_key_create");
	pthread_key_t key, first = CB_LIBBUILD_KEY_BAND;
	pthread_key_t start = (pthread_key_t)(CB_LIBBUILD_KEY_BAND * (slot + 1));
	int made = pthread_key_create(&key, NULL);

	if (made == 0)
		pthread_key_delete(key);
	if (made != 0 || key >= CB_LIBBUILD_KEY_BAND)
		return cb_errorf(err, err_len,
		                 "%s: the process uses more than %d thread-specific keys already",
		                 file, CB_LIBBUILD_KEY_BAND);
	if (!key_create)
		return cb_errorf(err, err_len, "%s: its namespace has no pthread_key_create", file);
	do {
		if (key_create(&key, NULL) != 0)
			return cb_errorf(err, err_len, "%s: no thread-specific key left", file);
		if (first == CB_LIBBUILD_KEY_BAND)
			first = key;
	} while (key + 1 < start);
	if (first != 0)
		return cb_errorf(err, err_len,
		                 "%s: its C library took thread-specific keys at load", file);
	return 0;
}

/* Whether FILE's soname is the one OBJECT needs; else ERR says what it is. */
static int check_soname(const struct libbuild *b, const struct cb_elf_info *object, char *err,
                        size_t err_len)
{
	const char *stem = cb_libraries[b->library].stem;
	const char *wanted = NULL;

	for (size_t i = 0; i < object->n_needed; i++) {
		if (strcmp(object->needed[i], b->elf.soname) == 0)
			return 0;
		if (strncmp(object->needed[i], stem, strlen(stem)) == 0)
			wanted = object->needed[i];
	}
	if (!wanted)
		wanted = stem;
	if (b->elf.soname[0] && strncmp(b->elf.soname, stem, strlen(stem)) == 0)
		return cb_errorf(err, err_len, "%s is %s, another ABI than the %s engine's %s (%s)",
		                 b->file, b->elf.soname, cb_libraries[b->library].engine,
		                 cb_libraries[b->library].library, wanted);
	return cb_errorf(err, err_len, "%s is %s, not %s (%s)", b->file,
	                 b->elf.soname[0] ? b->elf.soname : "a library without a soname",
	                 cb_libraries[b->library].library, wanted);
}

/* The row of cb_libraries[] of the library ENGINE is a build of
 * (cb_libbuild_open), or CB_N_LIBRARIES when it is not one. */
static size_t build_library(const struct cb_engine *engine)
{
	size_t library = CB_N_LIBRARIES;

	pthread_mutex_lock(&builds_lock);
	for (size_t i = 0; i < n_builds; i++)
		if (&builds[i]->engine == engine)
			library = builds[i]->library;
	pthread_mutex_unlock(&builds_lock);
	return library;
}

bool cb_libbuild_default_of(const struct cb_engine *engine, struct cb_libbuild_default *out)
{
	size_t library = build_library(engine);
	Dl_info linked;

	if (library == CB_N_LIBRARIES &&
	    (strcmp(engine->kind, "library") != 0 || !cb_library_row(engine->name, &library)))
		return false;
	if (!cb_library_linked(library, &linked))
		return false;
	out->engine = cb_libraries[library].engine;
	out->path = linked.dli_fname;
	out->base = linked.dli_fbase;
	out->crosses = cb_library_linked_crosses(&linked);
	return true;
}

const char *cb_libbuild_library(const struct cb_engine *engine)
{
	size_t library = build_library(engine);

	return library == CB_N_LIBRARIES ? NULL : cb_libraries[library].engine;
}

/* A slot of its own for B beside the default build at LINKED, none given to
 * another build of its library (placement.h): -1 when none is left. */
static int slot_for(const struct libbuild *b, const Dl_info *linked)
{
	unsigned taken = 0;

	for (size_t i = 0; i < n_builds; i++)
		if (builds[i]->library == b->library)
			taken |= 1u << builds[i]->slot;
	return cb_placement_choose_slot(linked->dli_fbase, cb_library_linked_crosses(linked),
	                                b->elf.code_lo, b->elf.code_hi, taken);
}

/* Load FILE, the libraries beside it the object needs, then the object, in
 * one new namespace; check what the object's calls bind to. */
static const struct cb_engine *load(struct libbuild *b, const char *object, char *err,
                                    size_t err_len)
{
	const char *symbol = cb_libraries[b->library].version_symbol;
	char sym_name[128], path[PATH_MAX], bound_real[PATH_MAX];
	struct cb_elf_info object_elf;
	const struct cb_engine *table;
	void *library, *engine, *mark, *bound;
	struct link_map *map;
	Lmid_t lmid;
	Dl_info info;

	if (cb_elf_info_read(object, &object_elf, err, err_len) != 0 ||
	    check_soname(b, &object_elf, err, err_len) != 0)
		return NULL;
	/* Placed by the default build (placement.h): FILE's is its first
	 * mapping, and what it needs comes after. */
	Dl_info linked;
	void *like = cb_library_linked(b->library, &linked) ? linked.dli_fbase : NULL;
	int own_slot = like ? slot_for(b, &linked) : -1;
	void *aim = own_slot >= 0 ? cb_placement_in_slot(like, (unsigned)own_slot) : like;
	struct cb_placement hold;
	bool holding = cb_placement_hold(aim, b->code, b->elf.span, &hold) != NULL;

	library = open_in(LM_ID_NEWLM, b->code, b->environ);
	if (holding)
		cb_placement_release(&hold);
	if (!library) {
		load_error(err, err_len, b->file, "it");
		return NULL;
	}
	size_t slot = n_namespaces++;
	namespace_environ[slot] = b->environ;
	if (!(mark = dlsym(library, symbol))) {
		cb_errorf(err, err_len, "%s defines no %s: not %s", b->file, symbol,
		          cb_libraries[b->library].library);
		return NULL;
	}
	if (dlinfo(library, RTLD_DI_LMID, &lmid) != 0 ||
	    dlinfo(library, RTLD_DI_LINKMAP, &map) != 0) {
		load_error(err, err_len, b->file, "its namespace");
		return NULL;
	}
	b->base = (void *)map->l_addr;
	void *start = dladdr(mark, &info) && info.dli_fbase ? info.dli_fbase : b->base;
	b->placed = aim && cb_placement_alike(start, aim);
	b->placement = !b->placed ? "kernel" : own_slot >= 0 ? "slot" : "alike";
	b->slot = cb_placement_slot(start);
	b->crosses = cb_placement_crosses(start, b->elf.code_lo, b->elf.code_hi);
	if (key_band(library, slot, b->file, err, err_len) != 0)
		return NULL;
	/* What else the object needs and FILE's folder holds is that build's
	 * too (nettle's libhogweed beside libnettle), as an RPATH would say. */
	for (size_t i = 0; i < object_elf.n_needed; i++) {
		char dir[PATH_MAX];
		const char *slash;

		snprintf(dir, sizeof dir, "%s", b->real);
		slash = strrchr(dir, '/');
		if (!slash || strcmp(object_elf.needed[i], b->elf.soname) == 0)
			continue;
		snprintf(path, sizeof path, "%.*s/%s", (int)(slash - dir), dir,
		         object_elf.needed[i]);
		if (access(path, R_OK) == 0 && !open_in(lmid, path, b->environ)) {
			load_error(err, err_len, b->file, path);
			return NULL;
		}
	}
	if (!(engine = open_in(lmid, object, b->environ))) {
		load_error(err, err_len, b->file, object);
		return NULL;
	}
	snprintf(sym_name, sizeof sym_name, "cb_engine_%s", cb_libraries[b->library].engine);
	if (!(table = dlsym(engine, sym_name))) {
		cb_errorf(err, err_len, "%s: %s has no %s", b->file, object, sym_name);
		return NULL;
	}
	b->json_object = (json_t * (*)(void)) dlsym(engine, "json_object");
	b->json_dumps = (char *(*)(const json_t *, size_t))dlsym(engine, "json_dumps");
	b->json_delete = (void (*)(json_t *))dlsym(engine, "json_delete");
	b->free = (void (*)(void *))dlsym(engine, "free");
	if (table->describe && (!b->json_object || !b->json_dumps || !b->json_delete || !b->free)) {
		cb_errorf(err, err_len, "%s: %s has no jansson of its own", b->file, object);
		return NULL;
	}
	/* The object's own lookup of the library's function must find FILE's:
	 * the file really bound, not a name that matched. */
	bound = dlsym(engine, symbol);
	if (bound != mark || !dladdr(bound, &info) || !info.dli_fname ||
	    !realpath(info.dli_fname, bound_real) || strcmp(bound_real, b->code) != 0) {
		cb_errorf(
		    err, err_len, "%s: the %s engine bound to %s instead", b->file, table->name,
		    bound && dladdr(bound, &info) && info.dli_fname ? info.dli_fname : "nothing");
		return NULL;
	}
	return table;
}

static void build_free(struct libbuild *b)
{
	if (!b)
		return;
	free((char *)b->engine.name);
	free(b->file);
	free(b->real);
	free(b->env_key);
	environ_free(b);
	free(b);
}

/* A build opened already for the same file, environment and name. */
static const struct cb_engine *opened(const char *real, const char *key, const char *name)
{
	for (size_t i = 0; i < n_builds; i++)
		if (strcmp(builds[i]->real, real) == 0 && strcmp(builds[i]->env_key, key) == 0 &&
		    strcmp(builds[i]->engine.name, name) == 0)
			return &builds[i]->engine;
	return NULL;
}

static const struct cb_engine *open_locked(const struct cb_engine *base, const char *file,
                                           char *const *env, const char *name,
                                           const char *vectors_dir, char *err, size_t err_len)
{
	size_t library;
	char object[PATH_MAX], real[PATH_MAX], why_buf[256], path_key[32];
	const struct cb_engine *table, *found;
	struct libbuild *b = NULL;
	char *key;

	if (!cb_library_row(base->name, &library) || strcmp(base->kind, "library") != 0 ||
	    !cb_library_object(base->name, object, sizeof object))
		return cb_errorf(err, err_len,
		                 "'lib' applies to the library engines built as objects of "
		                 "their own (%s), not '%s' (%s)",
		                 cb_library_applicable(object, sizeof object), base->name,
		                 base->kind),
		       NULL;
	if (!realpath(file, real))
		return cb_errorf(err, err_len, "%s: %s", file, strerror(errno)), NULL;
	if (!(key = cb_buildenv_key(env)))
		return cb_errorf(err, err_len, "not enough memory"), NULL;
	if ((found = opened(real, key, name)) != NULL) {
		free(key);
		return found;
	}
	if (n_namespaces == CB_LIBBUILD_MAX) {
		free(key);
		return cb_errorf(err, err_len,
		                 "%s: more than %d other builds in one process (glibc's link-map "
		                 "namespaces and static TLS)",
		                 file, CB_LIBBUILD_MAX),
		       NULL;
	}
	if (!(b = calloc(1, sizeof *b)) || !(b->file = strdup(file)) || !(b->real = strdup(real)) ||
	    !(b->environ = cb_buildenv_over(env, &b->environ_own)) ||
	    !(b->engine.name = strdup(name))) {
		free(key);
		build_free(b);
		return cb_errorf(err, err_len, "not enough memory"), NULL;
	}
	b->env_key = key;
	b->library = library;
	b->engine.kind = base->kind;
	if (cb_elf_info_read(real, &b->elf, err, err_len) != 0)
		goto fail;
	snprintf(path_key, sizeof path_key, "%zu", n_namespaces);
	if (cb_code_copy(real, path_key, b->code, sizeof b->code, err, err_len) != 0)
		goto fail;
	if (!(table = load(b, object, err, err_len)))
		goto fail;
	name = b->engine.name;
	b->engine = *table;
	b->engine.name = name;
	b->describe = table->describe;
	b->engine.describe = table->describe ? describe_slots[n_builds] : NULL;
	why_buf[0] = '\0';
	if (b->engine.probe && b->engine.probe(why_buf, sizeof why_buf) != 0) {
		cb_errorf(err, err_len, "%s: unusable: %s", file, why_buf);
		goto fail;
	}
	if (cb_library_known_answers(&b->engine, b->file, vectors_dir, err, err_len) != 0 ||
	    cb_engine_add(&b->engine, err, err_len) != 0)
		goto fail;
	cb_sha256_file(real, b->sha256);
	builds[n_builds++] = b;
	return &b->engine;
fail:
	/* The namespace stays: glibc cannot always unload one cleanly. */
	build_free(b);
	return NULL;
}

const struct cb_engine *cb_libbuild_open(const struct cb_engine *base, const char *file,
                                         char *const *env, const char *name,
                                         const char *vectors_dir, char *err, size_t err_len)
{
	const struct cb_engine *e;

	pthread_mutex_lock(&builds_lock);
	e = open_locked(base, file, env, name, vectors_dir, err, err_len);
	pthread_mutex_unlock(&builds_lock);
	return e;
}

/* The identification of the library at PATH loaded at BASE, whose code
 * lies in SLOT and crosses a 16 MiB boundary or not (placement.h). */
static json_t *identify(const char *path, const char *version, const void *base, bool is_default,
                        const char *sha256, const char *build_id, unsigned slot, bool crosses)
{
	char at[32];

	snprintf(at, sizeof at, "%p", base);
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:b, s:i, s:b}", "path", path, "sha256", sha256,
	                 "build_id", build_id, "version", version ? version : "", "base", at,
	                 "default", is_default, "slot", (int)slot, "crosses_16mib", crosses);
}

json_t *cb_libbuild_json(const struct cb_engine *engine)
{
	static json_t *defaults[CB_N_LIBRARIES];
	size_t library;
	bool known;
	json_t *out = NULL;
	Dl_info info;

	pthread_mutex_lock(&builds_lock);
	for (size_t i = 0; i < n_builds && !out; i++)
		if (&builds[i]->engine == engine) {
			const struct libbuild *b = builds[i];

			out = identify(b->file, engine->version(), b->base, false, b->sha256,
			               b->elf.build_id, b->slot, b->crosses);
			json_object_set_new(out, "placed_like_default", json_boolean(b->placed));
			json_object_set_new(out, "placement", json_string(b->placement));
			json_object_set_new(out, "engine_code", json_string("object"));
			json_object_set_new(out, "code_from", json_string("copy"));
		}
	known = !out && cb_library_row(engine->name, &library);
	if (known && !defaults[library] && strcmp(engine->kind, "library") == 0 &&
	    cb_library_linked(library, &info)) {
		struct cb_elf_info elf;
		char sha256[65], err[256];

		if (cb_elf_info_read(info.dli_fname, &elf, err, sizeof err) != 0)
			elf.build_id[0] = '\0';
		cb_sha256_file(info.dli_fname, sha256);
		defaults[library] = identify(
		    info.dli_fname, engine->version(), info.dli_fbase, true, sha256, elf.build_id,
		    cb_placement_slot(info.dli_fbase), cb_library_linked_crosses(&info));
	}
	if (known && defaults[library]) {
		out = json_deep_copy(defaults[library]);
		json_object_set_new(
		    out, "engine_code",
		    json_string(cb_libbuild_is_default_object(engine) ? "object" : "program"));
		json_object_set_new(out, "code_from",
		                    json_string(cb_library_linked(library, &info) &&
		                                        cb_code_copy_holds(info.dli_saddr)
		                                    ? "copy"
		                                    : "file"));
	}
	pthread_mutex_unlock(&builds_lock);
	return out;
}
