/* libraries.h: the libraries whose engines can run another build, and the
 * default build of each, the one the program linked (core/builds' own:
 * libbuild.c and default_object.c share it). */
#ifndef CB_LIBRARIES_H
#define CB_LIBRARIES_H

#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/engine/engine.h"

/* A library engine's library: the soname's stem the engine's object needs,
 * and a function only that library defines (its version), which a build's
 * file must define. */
struct cb_library {
	const char *engine;
	const char *library;
	const char *stem;
	const char *version_symbol;
};

#define CB_N_LIBRARIES 7
extern const struct cb_library cb_libraries[CB_N_LIBRARIES];

/* ENGINE's row of cb_libraries[] into *ROW; false when it has none. */
bool cb_library_row(const char *engine, size_t *row);

/* The engine's own shared object into BUF; whether it is there. */
bool cb_library_object(const char *engine, char *buf, size_t len);

/* The engines that have their object here, comma-separated, into BUF. */
const char *cb_library_applicable(char *buf, size_t len);

/* The file and base of the default build of library ROW, the one the
 * process linked, into INFO: whether it is loaded. */
bool cb_library_linked(size_t row, Dl_info *info);

/* Whether the code of the library LINKED describes lies across a 16 MiB
 * boundary (placement.h); a file whose code extent cannot be read does
 * not. */
bool cb_library_linked_crosses(const Dl_info *linked);

/* Every known answer of VECTORS_DIR that ENGINE offers, run on the build
 * FILE: 0, or -1 with ERR naming the first that fails. */
int cb_library_known_answers(const struct cb_engine *engine, const char *file,
                             const char *vectors_dir, char *err, size_t err_len);

#endif
