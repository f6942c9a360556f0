/* placement.h: where another build's library is mapped in the process.
 *
 * Where a library's code lands moves its speed: on an AMD EPYC (family 26)
 * a libcrypto whose code straddles a 16 MiB boundary ran AES-128-CBC
 * decryption of 1 KiB 4-5% slower, and the kernel puts one library in
 * eight there (analysis/README.md, "Two builds of one library: where a
 * build's code lands"). Each process draws the default build's place anew;
 * the other builds are placed like it, at the same address modulo
 * CB_PLACEMENT_MODULO, so that within one process every build has the same
 * address bits below it wherever the default's landed, and an A/A of
 * copies of one file compares like with like. The kernel still chooses:
 * the next mapping it places itself (a library's first, as dlopen makes
 * it) is steered into a hole left in a reservation, with every higher gap
 * that could take it filled for the while. */
#ifndef CB_PLACEMENT_H
#define CB_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>

#define CB_PLACEMENT_MODULO ((size_t)1 << 30)
#define CB_PLACEMENT_MAX_HELD 64

struct cb_placement {
	void *at[CB_PLACEMENT_MAX_HELD];   /* what is held: the gaps filled, then */
	size_t len[CB_PLACEMENT_MAX_HELD]; /* the reservation's two parts */
	size_t n;
};

/* Hold the address space so that the kernel's next mapping of LEN bytes of
 * the file PATH from its start (a library of that extent, as the loader
 * maps it first) lands at an address congruent to LIKE modulo
 * CB_PLACEMENT_MODULO; checked with such a mapping before it returns. The
 * address aimed at, or NULL with nothing held. Release it as soon as that
 * mapping is made. */
void *cb_placement_hold(const void *like, const char *path, size_t len, struct cb_placement *hold);

void cb_placement_release(struct cb_placement *hold);

/* Whether A and B lie at the same address modulo CB_PLACEMENT_MODULO. */
bool cb_placement_alike(const void *a, const void *b);

#endif
