/* extern.h: engines from outside the program, and the gate they pass.
 *
 * An external worker is any program speaking core/engines/workers/PROTOCOL.md,
 * named by a scenario ({ "worker", name = "mylib", command = { "./w" } }) or
 * by the command line; a plug-in is a shared object exporting `cb_plugin`
 * (core/engine/engine.h) ({ "plugin", path = "./libmyengine.so" }). Neither is ever
 * started or loaded unless the command line allowed its file
 * (`--allow-external PATH[,PATH...]`, compared after realpath): a scenario
 * alone never starts a program or loads a library. Each one becomes an engine
 * of the registry (cb_engine_add), and every one met is listed, with its
 * file's SHA-256, for the results header and `run --dry-run`. */
#ifndef CB_EXTERN_H
#define CB_EXTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "core/engine/engine.h"

/* Allow the files of LIST (comma-separated paths; may be called again).
 * 0, or -1 with ERR when a path does not exist. */
int cb_extern_allow(const char *list, char *err, size_t err_len);

/* Under --dry-run an external the command line did not allow is listed and
 * becomes an unusable engine (nothing started or loaded) instead of an error. */
void cb_extern_set_dry_run(bool dry_run);

/* The engine NAME running the worker program ARGV (argv[0] looked up in
 * PATH when it has no '/'). NULL with ERR (one line) when ARGV[0] is not
 * found, is not allowed, or NAME is taken. The worker starts at the probe. */
const struct cb_engine *cb_extern_worker(const char *name, const char *const *argv, char *err,
                                         size_t err_len);

/* The engine the plug-in PATH exports, loaded now (NAME: the name to show
 * when it is not loaded; NULL: from its file name). NULL with ERR when it is
 * not allowed, cannot be loaded, or was built for another ABI. */
const struct cb_engine *cb_extern_plugin(const char *path, const char *name, char *err,
                                         size_t err_len);

/* For `engines` and `verify`: every allowed file that is not an engine yet
 * becomes one: a plug-in when its name ends in ".so" (or has ".so."), else a
 * worker run without arguments, named after its file. 0, or -1 with ERR. */
int cb_extern_add_allowed(char *err, size_t err_len);

/* Whether any external was met. */
bool cb_extern_any(void);

/* The externals met: [{kind, name, path, file, sha256, allowed, command}]
 * (`file` its realpath, `command` a worker's argv). New reference. */
json_t *cb_extern_json(void);

/* What would be started or loaded, one line each (run --dry-run). */
void cb_extern_print(FILE *out);

#endif
