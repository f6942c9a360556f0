/* datadir.c: where the program's data files and helper programs are (see
 * datadir.h). */
#include "config.h"

#include "core/base/datadir.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
#ifndef CB_PKGLIBEXECDIR
#error "CB_PKGLIBEXECDIR must name $(pkglibexecdir)"
#endif
#ifndef CB_PKGLIBDIR
#error "CB_PKGLIBDIR must name $(pkglibdir)"
#endif

/* The installed folders: their variable, their folder beside bin/ and the
 * configured one. */
enum home { SHARE, LIBEXEC, LIB };
static const struct {
	const char *env;
	const char *beside_bin;
	const char *configured;
} homes[] = {
    [SHARE] = {"CRYPTOBENCH_DATADIR", "share/" PACKAGE, CB_PKGDATADIR},
    [LIBEXEC] = {"CRYPTOBENCH_LIBEXECDIR", "libexec/" PACKAGE, CB_PKGLIBEXECDIR},
    [LIB] = {"CRYPTOBENCH_LIBDIR", "lib/" PACKAGE, CB_PKGLIBDIR},
};

/* Each kind: where it installs (homes[]) and its name there; in an
 * uninstalled program, its tree and its path there (the built workers'
 * paths are the ones core/local.mk builds). */
static const struct {
	enum home home;
	const char *installed;
	bool built;
	const char *in_tree;
} kinds[] = {
    [CB_DATA_VECTORS] = {SHARE, "vectors", false, "tests/vectors"},
    [CB_DATA_PLOTS] = {SHARE, "plots", false, "plots"},
    [CB_DATA_WORKERS] = {SHARE, "workers", false, "core/engines/workers"},
    [CB_DATA_JAVA_WORKER] = {SHARE, "workers/java", true, "core/engines/workers/java/classes"},
    [CB_DATA_DOTNET_WORKER] = {SHARE, "workers/dotnet", true, "core/engines/workers/dotnet/bin"},
    [CB_DATA_GO_WORKER] = {LIBEXEC, "go-crypto", true,
                           "core/engines/workers/go/bin/cryptobench-worker"},
    [CB_DATA_RUST_WORKER] = {LIBEXEC, "rust-ring", true,
                             "core/engines/workers/rust/target/release/cryptobench-rust-ring"},
    [CB_DATA_ENGINE_OBJECTS] = {LIB, ".", true, "core/engines"},
};

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
	const char *name = kinds[kind].installed;
	const char *env = getenv(homes[kinds[kind].home].env);
	char exe[PATH_MAX], build[PATH_MAX], beside[PATH_MAX], found[PATH_MAX];

	if (env && *env)
		return join(buf, len, env, name);
	if (exe_dir(exe, sizeof exe)) {
		if (realpath(CB_BUILDDIR, build) && is_within(exe, build))
			return join(buf, len, kinds[kind].built ? CB_BUILDDIR : CB_SRCDIR,
			            kinds[kind].in_tree);
		/* bin/ beside share/ and libexec/, wherever the prefix now is */
		if (snprintf(beside, sizeof beside, "%s/../%s/%s", exe,
		             homes[kinds[kind].home].beside_bin, name) < (int)sizeof beside &&
		    realpath(beside, found)) {
			snprintf(buf, len, "%s", found);
			return buf;
		}
	}
	return join(buf, len, homes[kinds[kind].home].configured, name);
}
