/* libbuild.h: another build of an in-process library engine's library, in
 * the same process (a variant's `lib = FILE`).
 *
 * The engine's own code, built also as a shared object of its own
 * (cryptobench-engine-NAME.so, core/engines/local.mk), is loaded with
 * dlmopen into a link-map namespace of its own after FILE, so that its
 * calls bind to FILE and nothing else: the same engine code, the same timed
 * loop, interleaved in the same rounds as the default build. The namespace
 * has its own copy of the C library, whose environment is the variant's
 * `env` over the process's: a library's constructors read it when it loads,
 * and the default build never sees it. doc/architecture.md says why a
 * namespace rather than a process.
 *
 * Before a build is used it is checked and identified: FILE exists and is
 * an ELF shared library; its soname is the one the engine object needs (an
 * ABI: libcrypto.so.1.1 is not libcrypto.so.3); it defines the library's
 * own version function; the engine object's calls bind to FILE itself
 * (checked through dladdr, not by name); the engine's probe passes; and
 * every known-answer vector the engine offers passes on it. A build is
 * opened once per process and kept until exit (a namespace is never
 * unloaded). */
#ifndef CB_LIBBUILD_H
#define CB_LIBBUILD_H

#include <stddef.h>

#include <jansson.h>

#include "core/engine/engine.h"

/* glibc's namespaces (16 with the base one) and its surplus of static TLS
 * bound how many builds one process holds; each takes a band of this many
 * thread-specific keys of its own (below). */
#define CB_LIBBUILD_MAX 7
#define CB_LIBBUILD_KEY_BAND 128

/* Whether ENGINE can run another build of its library (`lib`): the
 * in-process library engines that have their shared object. */
bool cb_libbuild_applies(const struct cb_engine *engine);

/* The build FILE of BASE's library, opened (or the one opened already for
 * the same FILE, ENV and NAME). ENV: "NAME=value" pairs, NULL-ended, that
 * the build's copy of the C library sees over the process's environment
 * (NULL: none). NAME: the engine's name for it (the variant's label), under
 * which it is added to the registry (cb_engine_add) so that `verify`,
 * `engines` and the results tell it from the default build. VECTORS_DIR: the
 * known answers to check it with. The engine of the build, or NULL with ERR
 * (one line, starting with FILE) when it is refused. */
const struct cb_engine *cb_libbuild_open(const struct cb_engine *base, const char *file,
                                         char *const *env, const char *name,
                                         const char *vectors_dir, char *err, size_t err_len);

/* Where the default build of ENGINE's library lies in this process: the
 * library the program linked, of ENGINE or, for a build of
 * cb_libbuild_open, of the engine it is a build of. */
struct cb_libbuild_default {
	const char *engine; /* the table's engine of that library ("openssl") */
	const char *path;   /* its file, as the loader named it */
	const void *base;   /* where it is loaded */
	bool crosses;       /* its code across a 16 MiB boundary (placement.h) */
};

/* ENGINE's default build into OUT: whether ENGINE runs a library of the
 * table in this process (false for other engines, and when the library is
 * not loaded). A file whose code extent cannot be read does not cross. */
bool cb_libbuild_default_of(const struct cb_engine *engine, struct cb_libbuild_default *out);

/* The table's engine ("openssl") of the library ENGINE is a build of
 * (cb_libbuild_open), or NULL when ENGINE is not one. */
const char *cb_libbuild_library(const struct cb_engine *engine);

/* BASE's default build run through BASE's own shared object, the code every
 * other build of its library runs (cb_libbuild_open), loaded into the base
 * namespace so that its calls bind to the library the program linked:
 * where a run compares builds of one library, its default runs the same
 * engine code as they do, not the engine compiled into the program, whose
 * code is laid out otherwise (analysis/README.md measured the two 0.3-2%
 * apart at AES-256-GCM). The engine keeps BASE's name, is opened once per
 * process and checked as a build is (its calls bound to the linked
 * library, its probe, every known answer of VECTORS_DIR). NULL with ERR
 * when it is refused. */
const struct cb_engine *cb_libbuild_default_object(const struct cb_engine *base,
                                                   const char *vectors_dir, char *err,
                                                   size_t err_len);

/* Whether ENGINE is a default build run through its object. */
bool cb_libbuild_is_default_object(const struct cb_engine *engine);

/* What identifies the library ENGINE runs on, for the results header and
 * `engines`: {path, sha256, build_id, version, base, default, slot,
 * crosses_16mib}, "base" the address the library is loaded at, "default"
 * false for a build of cb_libbuild_open, "slot" and "crosses_16mib" where its
 * code lies (placement.h); a build's also {placed_like_default, placement}:
 * whether its placement's rule was met, and which ("slot", "alike" or
 * "kernel"). For a compiled-in library engine, the library the process
 * linked. Each also {engine_code}: "object" where the engine's shared
 * object ran it (every other build, and a default through
 * cb_libbuild_default_object), "program" where the engine compiled into
 * the program did. NULL for other engines. A new reference. */
json_t *cb_libbuild_json(const struct cb_engine *engine);

#endif
