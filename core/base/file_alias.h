/* file_alias.h: files this process mapped under another name.
 *
 * Where the process runs a library's code from a copy of its file that it
 * made itself (core/builds/code_copy.h), what it reports of that code (a
 * profile's objects) names the file the copy stands for, not the copy. A
 * small table, filled as copies are mapped and read by the profiler. */
#ifndef CB_FILE_ALIAS_H
#define CB_FILE_ALIAS_H

#include <stdbool.h>
#include <stddef.h>

#define CB_FILE_ALIAS_MAX 32

/* COPY stands for ORIGINAL from now on, in this process. -1 when the table
 * is full. */
int cb_file_alias_add(const char *copy, const char *original);

/* The file COPY stands for, into OUT; false when COPY is no alias. */
bool cb_file_alias_of(const char *copy, char *out, size_t out_len);

/* Whether any alias is set. */
bool cb_file_alias_any(void);

#endif
