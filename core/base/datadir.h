/* datadir.h: where the program's data files and helper programs are.
 *
 * The known-answer vectors (read by `verify`), the gnuplot templates (copied
 * by `plot`) and the worker programs of other runtimes install under
 * $(pkgdatadir); the compiled workers, native programs that only this
 * program runs, install in $(pkglibexecdir) (core/local.mk says which goes
 * where, and why). The program looks for each, first match wins:
 *
 *   1. $CRYPTOBENCH_DATADIR/<name> for what installs under $(pkgdatadir),
 *      $CRYPTOBENCH_LIBEXECDIR/<name> for what installs in
 *      $(pkglibexecdir), $CRYPTOBENCH_LIBDIR for what installs in
 *      $(pkglibdir), when that variable is set and not empty;
 *   2. the source tree (tests/vectors, plots, core/engines/workers), or the
 *      build tree for what make builds (the compiled workers), when the
 *      running executable lies in the build tree it was built in (an
 *      uninstalled program);
 *   3. <executable's folder>/../share/cryptobench/<name>, or
 *      <executable's folder>/../libexec/cryptobench/<name>, when it exists
 *      (an installed copy, also after DESTDIR or moving the prefix);
 *   4. the configured $(pkgdatadir)/<name> or $(pkglibexecdir)/<name>.
 *
 * Rule 4 is also the answer when nothing exists, so that the reader's error
 * names the place where the data should have been. */
#ifndef CB_DATADIR_H
#define CB_DATADIR_H

#include <stddef.h>

enum cb_data {
	CB_DATA_VECTORS,       /* known-answer vectors, *.vec */
	CB_DATA_PLOTS,         /* gnuplot templates, *.gp */
	CB_DATA_WORKERS,       /* worker scripts of other runtimes (core/engines/workers) */
	CB_DATA_JAVA_WORKER,   /* the folder of the Java worker's classes */
	CB_DATA_DOTNET_WORKER, /* the folder of the .NET worker's assembly */
	CB_DATA_GO_WORKER,     /* the Go worker program */
	CB_DATA_RUST_WORKER,   /* the Rust worker program */
	/* the folder of the library engines' own shared objects
	 * (cryptobench-engine-NAME.so, core/builds/libbuild.h), in $(pkglibdir) */
	CB_DATA_ENGINE_OBJECTS,
};

/* Write the path of KIND (a folder, or for the Go and Rust workers a
 * program) into BUF (LEN bytes, PATH_MAX is enough; a longer path is cut)
 * and return BUF. Never fails: whether it can be read is for its reader to
 * say. */
const char *cb_datadir(enum cb_data kind, char *buf, size_t len);

#endif
