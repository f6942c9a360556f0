/* rust_ring.c: rust-ring through Rust's ring crate (ring's own assembly and
 * C, from BoringSSL), a worker engine (see core/engine/process.h and
 * core/engines/workers/PROTOCOL.md). make builds the worker with cargo,
 * offline, from Debian's packaged crates when configure found cargo and
 * ring; without them the engine is unavailable and says why. */
#include "config.h"

#include "core/base/datadir.h"
#include "core/engine/process.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* make's log of the worker's build, in the build tree */
#define RUST_LOG CB_BUILDDIR "/core/engines/workers/rust/build.log"

/* Cargo's first "error" line in its build log LOG (the reason a build
 * failed), or "" when there is none. */
static void first_error(const char *log, char *line, size_t len)
{
	FILE *f = fopen(log, "r");

	line[0] = '\0';
	while (f && fgets(line, (int)len, f) && strncmp(line, "error", 5) != 0)
		line[0] = '\0';
	line[strcspn(line, "\n")] = '\0';
	if (f)
		fclose(f);
}

static int find_rust(struct cb_process_engine *pe, char *why, size_t why_len)
{
	const char *bin = cb_datadir(CB_DATA_RUST_WORKER, pe->script, sizeof pe->script);

	if (cb_process_override(pe))
		return cb_process_start(pe, why, why_len);
	if (access(bin, X_OK) != 0) {
		char error[256];
		/* the build's log explains a missing worker of the build tree only */
		bool in_build_tree = strncmp(bin, CB_BUILDDIR "/", strlen(CB_BUILDDIR "/")) == 0;

		first_error(RUST_LOG, error, sizeof error);
		if (in_build_tree && access(RUST_LOG, R_OK) == 0)
			snprintf(why, why_len, "the Rust worker did not build (%s%s%s)", RUST_LOG,
			         error[0] ? ": " : "", error);
		else
			cb_process_not_built(
			    why, why_len, "Rust", bin,
			    "`cargo` or Debian's ring crate (librust-ring-dev) was "
			    "not found");
		return -1;
	}
	pe->argv[0] = bin;
	pe->argv[1] = NULL;
	return cb_process_start(pe, why, why_len);
}

CB_PROCESS_ENGINE(rust_ring, "rust-ring", find_rust, NULL);
