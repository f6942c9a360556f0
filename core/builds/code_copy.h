/* code_copy.h: the code of every build of a compared library, the
 * default's included, runs from a copy of its file that this process made.
 *
 * A library's code runs from the page cache's pages of its file, and where
 * those pages lie in memory moves its speed: on an AMD EPYC (family 26),
 * one copy of libcrypto took 7-13% longer per AES-128-CBC decryption than
 * the other builds of its process in all 36 processes that loaded it,
 * wherever it was loaded, and a new copy of the same bytes as long as they
 * (analysis/README.md). A file keeps
 * its pages from process to process, so such a difference repeats in every
 * run and `--runs` cannot see it as the chance it is. The system's own
 * library sat in single pages here (4-9% of its code's 16 KiB groups
 * physically contiguous), a copy just written in folios of 16 (100%).
 *
 * So where a run compares builds of one library, each build is loaded from
 * a copy of its file written by this process, and the default's code (the
 * executable segments of the library the program linked) is mapped again,
 * at the same addresses, from such a copy: every build's code lies in
 * pages drawn the same way, drawn anew by every process, that is by every
 * run of `--runs`. The copies lie in one folder of this process under
 * $TMPDIR (else /tmp), named by the file's own name so that profiles name
 * the library as before, and are removed when the process exits or starts
 * again (cli/run_place.h). */
#ifndef CB_CODE_COPY_H
#define CB_CODE_COPY_H

#include <stdbool.h>
#include <stddef.h>

/* FILE copied into this process's folder, under a subfolder of its own
 * (KEY: one per build) and FILE's own name; the copy's path into OUT. 0, or
 * -1 with ERR (one line, naming FILE). */
int cb_code_copy(const char *file, const char *key, char *out, size_t out_len, char *err,
                 size_t err_len);

/* The executable segments of the library loaded at BASE from FILE mapped
 * again from a copy of FILE (cb_code_copy, KEY "default"): the same bytes at
 * the same addresses, checked byte for byte. A library whose code the
 * loader wrote to (text relocations) is left alone. 0, or -1 with ERR; the
 * old mapping is kept wherever a step failed. */
int cb_code_copy_remap(const char *file, const void *base, char *err, size_t err_len);

/* Whether the code at ADDR runs from one of this process's copies (the
 * mapping that holds ADDR, read from /proc/self/maps). */
bool cb_code_copy_holds(const void *addr);

/* This process's copies removed (they stay mapped where they are). Called
 * at exit by itself; a process about to exec calls it first. */
void cb_code_copy_remove(void);

#endif
