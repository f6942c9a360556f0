/* regions.h: the code of a process that lies in no object file.
 *
 * Runtimes that compile at run time put code in anonymous mappings; some
 * say what is where in a perf map, /tmp/perf-PID.map ("START SIZE NAME",
 * hexadecimal, one function a line: Node.js with --perf-basic-prof, .NET
 * with DOTNET_PerfMapEnabled=1, the JVM with an agent). The regions are the
 * map's functions, and the executable mappings without a file (anonymous,
 * [anon:...], /memfd:...) for the rest. */
#ifndef CB_PROFILE_REGIONS_H
#define CB_PROFILE_REGIONS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct cb_region {
	uint64_t start, end; /* run-time addresses, END excluded */
	char *name;          /* the perf map's name for it; NULL for a mapping */
	int perf_map;        /* from the perf map (1) or /proc/PID/maps (0) */
};

struct cb_regions {
	struct cb_region *items; /* perf-map entries first, sorted by START within each kind */
	size_t count, n_perf;
};

/* Read PID's perf map, when there is one, and its anonymous executable
 * mappings into R (zeroed first). What cannot be read is left out. */
void cb_regions_read(struct cb_regions *r, pid_t pid);
/* The region holding PC: a perf-map function before a mapping; or NULL. */
const struct cb_region *cb_regions_find(const struct cb_regions *r, uint64_t pc);
void cb_regions_free(struct cb_regions *r);

#endif
