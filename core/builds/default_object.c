/* default_object.c: a library's default build run through its engine's
 * shared object, the code every other build of it runs (libbuild.h). */
#include "config.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/base/errbuf.h"
#include "core/builds/code_copy.h"
#include "core/builds/libbuild.h"
#include "core/builds/libraries.h"

/* One per library, opened at most once per process (the object stays). */
static struct cb_engine opened[CB_N_LIBRARIES];
static bool is_open[CB_N_LIBRARIES];
static pthread_mutex_t opened_lock = PTHREAD_MUTEX_INITIALIZER;

/* The object of library ROW loaded into the base namespace, into
 * opened[ROW]. Its DT_NEEDED soname is the linked library's, which the
 * loader finds loaded already; the version function looked up through it
 * must be the linked library's own (as a build's must be its file's). */
static int open_object(const struct cb_engine *base, size_t row, const char *vectors_dir, char *err,
                       size_t err_len)
{
	const char *symbol = cb_libraries[row].version_symbol;
	char object[PATH_MAX], name[128], why[256];
	const struct cb_engine *table;
	void *handle, *bound;
	Dl_info linked;

	if (!cb_library_object(base->name, object, sizeof object))
		return cb_errorf(err, err_len, "%s: its engine's object %s is missing (make)",
		                 base->name, object);
	if (!cb_library_linked(row, &linked))
		return cb_errorf(err, err_len, "%s: the program's %s is not loaded", base->name,
		                 cb_libraries[row].library);
	if (!(handle = dlopen(object, RTLD_NOW | RTLD_LOCAL)))
		return cb_errorf(err, err_len, "%s: cannot load %s: %s", base->name, object,
		                 dlerror());
	snprintf(name, sizeof name, "cb_engine_%s", cb_libraries[row].engine);
	if (!(table = dlsym(handle, name)))
		return cb_errorf(err, err_len, "%s: %s has no %s", base->name, object, name);
	bound = dlsym(handle, symbol);
	if (bound != dlsym(RTLD_DEFAULT, symbol))
		return cb_errorf(err, err_len, "%s: %s bound to another %s than %s", base->name,
		                 object, cb_libraries[row].library, linked.dli_fname);
	/* The default's code from a copy, as every build's is (code_copy.h);
	 * where it cannot be, the run goes on and its header says so. */
	if (cb_code_copy_remap(linked.dli_fname, linked.dli_fbase, why, sizeof why) != 0)
		fprintf(stderr, "warning: %s: the default's code runs from its file: %s\n",
		        base->name, why);
	opened[row] = *table;
	opened[row].name = base->name;
	why[0] = '\0';
	if (opened[row].probe && opened[row].probe(why, sizeof why) != 0)
		return cb_errorf(err, err_len, "%s through %s: unusable: %s", base->name, object,
		                 why);
	if (cb_library_known_answers(&opened[row], linked.dli_fname, vectors_dir, err, err_len) !=
	        0 ||
	    cb_engine_add_stand_in(&opened[row], err, err_len) != 0)
		return -1;
	is_open[row] = true;
	return 0;
}

const struct cb_engine *cb_libbuild_default_object(const struct cb_engine *base,
                                                   const char *vectors_dir, char *err,
                                                   size_t err_len)
{
	const struct cb_engine *e = NULL;
	size_t row;

	if (strcmp(base->kind, "library") != 0 || !cb_library_row(base->name, &row))
		return cb_errorf(err, err_len, "%s: not a library engine with builds", base->name),
		       NULL;
	pthread_mutex_lock(&opened_lock);
	if (is_open[row] || open_object(base, row, vectors_dir, err, err_len) == 0)
		e = &opened[row];
	pthread_mutex_unlock(&opened_lock);
	return e;
}

bool cb_libbuild_is_default_object(const struct cb_engine *engine)
{
	/* Only cb_libbuild_default_object hands out these addresses, once open. */
	return engine >= opened && engine < opened + CB_N_LIBRARIES;
}
