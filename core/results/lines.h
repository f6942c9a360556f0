/* lines.h: reading a file line by line, plain or compressed.
 *
 * A results file may be kept compressed: gzip (zlib) or zstd (libzstd). The
 * format is told by the file's first bytes, not by its name, and the
 * decompressed text is read in large blocks, so the readers (results files,
 * export) see the same lines whatever the file holds. Concatenated gzip
 * members or zstd frames read as one text. */
#ifndef CB_LINES_H
#define CB_LINES_H

#include <stddef.h>

struct cb_lines;

/* Open PATH for reading lines of at most MAX bytes. NULL with
 * "PATH: cannot open: reason" in ERR. */
struct cb_lines *cb_lines_open(const char *path, size_t max, char *err, size_t err_len);

/* The next line: *LINE points to its LEN bytes (newline kept when there is
 * one; valid until the next call; NUL bytes are kept). 1: a line, 0: the end
 * of the file, -1: a line longer than MAX, -2: out of memory, -3: the file
 * cannot be read or its compressed data is corrupt or cut short (the reason
 * in cb_lines_error). */
int cb_lines_next(struct cb_lines *l, const char **line, size_t *len);

/* Why cb_lines_next returned -3 (no path, no line number). */
const char *cb_lines_error(const struct cb_lines *l);

/* "gzip", "zstd", or NULL for a plain file. */
const char *cb_lines_compression(const struct cb_lines *l);

void cb_lines_close(struct cb_lines *l);

#endif
