/* datadir.c: where the program's data files are (see datadir.h). */
#include "config.h"

#include "core/datadir.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Set by the build (Makefile.am): the trees and the configured folder. */
#ifndef CB_SRCDIR
#error "CB_SRCDIR must name the source tree"
#endif
#ifndef CB_BUILDDIR
#error "CB_BUILDDIR must name the build tree"
#endif
#ifndef CB_PKGDATADIR
#error "CB_PKGDATADIR must name $(pkgdatadir)"
#endif

/* Each kind: its folder when installed, and in the source tree. */
static const struct {
	const char *installed;
	const char *source;
} kinds[] = {
    [CB_DATA_VECTORS] = {"vectors", "tests/vectors"},
    [CB_DATA_PLOTS] = {"plots", "plots"},
    [CB_DATA_WORKERS] = {"workers", "core/engines/workers"},
};

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Whether PATH is the folder DIR or lies below it (both resolved). */
static bool is_within(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* The folder of the running executable, resolved, into BUF; false when
 * /proc is not there. */
static bool exe_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;

	if (n <= 0 || (size_t)n >= len - 1)
		return false;
	buf[n] = '\0';
	if (!(slash = strrchr(buf, '/')))
		return false;
	*(slash == buf ? slash + 1 : slash) = '\0';
	return true;
}

/* "DIR/SUB" into BUF (cut to LEN bytes). */
static const char *join(char *buf, size_t len, const char *dir, const char *sub)
{
	snprintf(buf, len, "%s/%s", dir, sub);
	return buf;
}

const char *cb_datadir(enum cb_data kind, char *buf, size_t len)
{
	const char *env = getenv("CRYPTOBENCH_DATADIR");
	const char *name = kinds[kind].installed;
	char exe[PATH_MAX], build[PATH_MAX], share[PATH_MAX], found[PATH_MAX];

	if (env && *env)
		return join(buf, len, env, name);
	if (exe_dir(exe, sizeof exe)) {
		if (realpath(CB_BUILDDIR, build) && is_within(exe, build))
			return join(buf, len, CB_SRCDIR, kinds[kind].source);
		/* bin/ and share/ side by side, wherever the prefix now is */
		if (snprintf(share, sizeof share, "%s/../share/%s/%s", exe, PACKAGE, name) <
		        (int)sizeof share &&
		    realpath(share, found) && is_dir(found)) {
			snprintf(buf, len, "%s", found);
			return buf;
		}
	}
	return join(buf, len, CB_PKGDATADIR, name);
}
