/* units.h: sizes and durations as people write them. */
#ifndef CB_UNITS_H
#define CB_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* Parse a size: "16", "16B", "4KiB", "1MiB", "1GiB" (powers of two) or "4KB",
 * "1MB", "1GB" (powers of ten). 0 on success; -1 when TEXT is not a size. */
int cb_parse_size(const char *text, size_t *bytes);
/* Parse a duration: "20ms", "1s", "500us", "250ns" (a bare number is
 * seconds). 0 on success; -1 otherwise. */
int cb_parse_duration(const char *text, uint64_t *ns);

/* Format BYTES the way sizes are written back: "16B", "4KiB", "1MiB", or a
 * plain byte count when it is not a whole unit. */
const char *cb_format_size(size_t bytes, char buf[32]);

#endif
