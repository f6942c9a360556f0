/* fuzz_input.h: the fuzzers' shared plumbing.
 *
 * The code under test reads files by path, so each input is written to an
 * in-memory file (memfd) and passed as /proc/self/fd/N. */
#ifndef CB_FUZZ_INPUT_H
#define CB_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

/* The entry point libFuzzer calls (and replay.c, without libFuzzer). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Put DATA in the in-memory file named SUFFIX and return its path, or NULL. */
const char *cb_fuzz_file(const uint8_t *data, size_t size, const char *suffix);

#endif
