/* symbols.h: where a sampled program counter lies, by name where one is known.
 *
 * A snapshot of one process's mappings (elfutils' libdwfl reads
 * /proc/PID/maps and opens each object): for each program counter, the
 * object file (its path and build id), the address in the object's own
 * terms (what `objdump -d` and `addr2line` take), and the function that
 * contains it:
 *
 * - the function's range comes from the unwind tables (.eh_frame, or
 *   .debug_frame: one FDE per function), else from a symbol's size;
 * - its name comes from a symbol (.symtab, or .dynsym in a stripped
 *   library) whose range contains the address, never from anything else:
 *   when none does, NAME is NULL and HINT names the nearest exported
 *   function below, which is a landmark, not the function's name;
 * - code outside any object: a perf map (/tmp/perf-PID.map, which Node.js
 *   writes with --perf-basic-prof and .NET with DOTNET_PerfMapEnabled=1)
 *   names it, else an anonymous executable mapping is "JIT/anonymous code"
 *   with the mapping as its range.
 *
 * Separate debug files are looked up only on this machine (by build id under
 * /usr/lib/debug), never fetched. The process must still run while its
 * snapshot is taken. */
#ifndef CB_PROFILE_SYMBOLS_H
#define CB_PROFILE_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* What is known of one program counter. The strings belong to the
 * snapshot and live until cb_symbols_close. */
struct cb_symbol {
	const char *object;   /* object path, "[vdso]", "perf map", "JIT/anonymous code", or
	                         "[unknown]" when no mapping holds the address */
	const char *build_id; /* hex, "" when the object has none */
	uint64_t offset;      /* the address in the object's own terms (pc - load bias) */
	uint64_t start;       /* the function's first address, in the same terms */
	uint64_t size;        /* the function's size in bytes; 0 when its range is unknown */
	uint64_t bias;        /* add to START for the run-time address */
	const char *range;    /* "cfi", "symbol", "perf-map", "region" or "none" */
	const char *name;     /* the function's name, or NULL when no symbol contains it */
	const char *hint;     /* with NAME NULL: the nearest exported function below, or NULL */
};

struct cb_symbols;

/* Take the snapshot of process PID (0: this process). Returns NULL with ERR
 * when the process's mappings cannot be read. */
struct cb_symbols *cb_symbols_open(pid_t pid, char *err, size_t err_len);
/* Describe PC in OUT. Returns 0, or -1 when no mapping holds it (OUT then
 * says "[unknown]" with the PC as its offset). */
int cb_symbols_lookup(struct cb_symbols *s, uint64_t pc, struct cb_symbol *out);
/* The process the snapshot is of (never 0: this process's own id). */
pid_t cb_symbols_pid(const struct cb_symbols *s);
void cb_symbols_close(struct cb_symbols *s);

#endif
