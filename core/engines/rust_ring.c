/* rust_ring.c: rust-ring through Rust's ring crate (ring's own assembly and
 * C, from BoringSSL), a worker engine (see core/process.h and
 * core/engines/workers/PROTOCOL.md). make builds the worker with cargo,
 * offline, from Debian's packaged crates when configure found cargo and
 * ring; without them the engine is unavailable and says why. */
#include "config.h"

#include "core/process.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define RUST_DIR CB_BUILDDIR "/core/engines/workers/rust"

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
	static const char bin[] = RUST_DIR "/target/release/cryptobench-rust-ring";
	static const char log[] = RUST_DIR "/build.log";

	if (cb_process_override(pe))
		return cb_process_start(pe, why, why_len);
	if (access(bin, X_OK) != 0) {
		char error[256];

		first_error(log, error, sizeof error);
		if (access(log, R_OK) == 0)
			snprintf(why, why_len, "the Rust worker did not build (%s%s%s)", log,
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
