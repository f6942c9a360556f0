/* units.h: sizes and durations as people write them. */
#ifndef CB_UNITS_H
#define CB_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* The units accepted, as a phrase for error messages and help. */
#define CB_SIZE_UNITS "B, KiB, MiB, GiB, TiB (x1024) or KB (also kB), MB, GB, TB (x1000)"
#define CB_DURATION_UNITS "ns, us, ms, s"

/* Parse a size: "16B", "4KiB", "1MiB", "1GiB" (powers of two) or "4KB",
 * "1MB", "1GB" (powers of ten). The unit is required: "16" is not a size.
 * 0 on success; -1 when TEXT is not a size. */
int cb_parse_size(const char *text, size_t *bytes);
/* Parse a duration: "20ms", "1s", "500us", "250ns". The unit is required:
 * "10" is not a duration. 0 on success; -1 otherwise. */
int cb_parse_duration(const char *text, uint64_t *ns);
/* Parse a wall-clock span as a budget is written: parts in hours, minutes
 * and seconds, largest first, each at most once: "1h30m", "3m", "90s",
 * "1.5h", "2m30s". The unit is required. 0 on success; -1 otherwise. */
int cb_parse_span(const char *text, uint64_t *ns);
#define CB_SPAN_UNITS "h, m, s, largest first (like 1h30m, 3m, 90s)"
/* Whether TEXT is a plain number, with no unit (what an error then names). */
int cb_is_unitless(const char *text);

/* Format BYTES the way sizes are written back: "16B", "4KiB", "1MiB", or a
 * plain byte count when it is not a whole unit. */
const char *cb_format_size(size_t bytes, char buf[32]);

#endif
