/* profile_loops.h: two loops of known content, for the profiler's tests.
 *
 * cb_loop_aes runs AESENC and PXOR (AES-NI and SSE2) and nothing else but
 * its loop; cb_loop_imul runs scalar multiplies (base x86-64). Each is its
 * own function, never inlined, so a sample in it names it. On another
 * architecture both return at once. */
#ifndef CB_PROFILE_LOOPS_H
#define CB_PROFILE_LOOPS_H

#include <stdint.h>

/* ROUNDS times 32 AESENC and 32 PXOR, on one dependency chain. */
void cb_loop_aes(uint64_t rounds);
/* ROUNDS times 32 dependent 64-bit IMULs; returns the product. */
uint64_t cb_loop_imul(uint64_t rounds);
/* An exported function that does nothing: tests/profile_loop links it first,
 * so that a stripped copy keeps an exported symbol below the loops. */
void cb_loop_anchor(void);

#endif
