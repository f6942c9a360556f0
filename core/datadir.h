/* datadir.h: where the program's data files are.
 *
 * The known-answer vectors (read by `verify`) and the gnuplot templates
 * (copied by `plot`) install under $(pkgdatadir)/vectors and
 * $(pkgdatadir)/plots. The program looks for them, first match wins:
 *
 *   1. $CRYPTOBENCH_DATADIR/<kind>, when that variable is set and not empty;
 *   2. the source tree (tests/vectors, plots), when the running executable
 *      lies in the build tree it was built in (an uninstalled program);
 *   3. <executable's folder>/../share/cryptobench/<kind>, when that folder
 *      exists (an installed copy, also after DESTDIR or moving the prefix);
 *   4. the configured $(pkgdatadir)/<kind>.
 *
 * Rule 4 is also the answer when nothing exists, so that the reader's error
 * names the place where the data should have been. */
#ifndef CB_DATADIR_H
#define CB_DATADIR_H

#include <stddef.h>

enum cb_data {
	CB_DATA_VECTORS, /* known-answer vectors, *.vec */
	CB_DATA_PLOTS,   /* gnuplot templates, *.gp */
	CB_DATA_WORKERS, /* worker programs of other runtimes (core/engines/workers) */
};

/* Write the folder of KIND into BUF (LEN bytes, PATH_MAX is enough; a longer
 * path is cut) and return BUF. Never fails: whether the folder can be read is
 * for its reader to say. */
const char *cb_datadir(enum cb_data kind, char *buf, size_t len);

#endif
