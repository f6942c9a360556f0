/* placement.h: where another build's library is mapped in the process.
 *
 * Where a library's code lands moves its speed: on an AMD EPYC (family 26)
 * a libcrypto whose code straddles a 16 MiB boundary ran AES-128-CBC
 * decryption of 1 KiB 4-5% slower, and the kernel puts one library in
 * eight there (analysis/README.md, "Two builds of one library: where a
 * build's code lands"). Each process draws the default build's place anew
 * (the run command starts its process again while the default's code
 * crosses: cli/run_place.h); the other builds are placed by it, so that within one process every
 * build's code meets a 16 MiB boundary as the default's does wherever the
 * default's landed, and an A/A of copies of one file compares like with
 * like. Each build gets a 2 MiB slot of its own within the default's 16 MiB
 * block, one where its code crosses a 16 MiB boundary exactly when the
 * default's does: copies of one code whose addresses agree in bits 21 to 23
 * slowed each other by 2-3% there, and a copy one slot away by nothing.
 * When no slot is left that keeps the default's crossing (the default's
 * crosses: only its own slot does), the build is placed alike instead, at
 * the same address as the default modulo CB_PLACEMENT_MODULO, and pays that
 * price. The kernel still chooses: the next mapping it places itself (a
 * library's first, as dlopen makes it) is steered into a hole left in a
 * reservation, with every higher gap that could take it filled for the
 * while. */
#ifndef CB_PLACEMENT_H
#define CB_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>

#define CB_PLACEMENT_MODULO ((size_t)1 << 30)
#define CB_PLACEMENT_MAX_HELD 64
#define CB_PLACEMENT_SLOT ((size_t)2 << 20)    /* a library of 2 MiB or more is aligned so */
#define CB_PLACEMENT_PERIOD ((size_t)16 << 20) /* the boundary a crossing call pays at */
#define CB_PLACEMENT_SLOTS 8                   /* slots in a period */

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

/* Slots */

/* The slot of address AT: (AT / CB_PLACEMENT_SLOT) mod CB_PLACEMENT_SLOTS. */
unsigned cb_placement_slot(const void *at);

/* Whether code from CODE_LO to CODE_HI (one past its last byte) past BASE
 * lies across a multiple of CB_PLACEMENT_PERIOD; false for no code
 * (CODE_HI 0). */
bool cb_placement_crosses(const void *base, size_t code_lo, size_t code_hi);

/* The slot for a build whose code lies from CODE_LO to CODE_HI past its
 * base, beside a default build at LIKE whose code crosses a period's
 * boundary or not (LIKE_CROSSES): one not LIKE's own nor in TAKEN (bit s for
 * slot s, given to other builds already), where the build at
 * cb_placement_in_slot(LIKE, s) crosses exactly when the default does; the
 * nearest to LIKE's slot, the lower of two as near. -1 when none is (the
 * build's code extent unknown, CODE_HI 0, included). */
int cb_placement_choose_slot(const void *like, bool like_crosses, size_t code_lo, size_t code_hi,
                             unsigned taken);

/* The address in slot SLOT of LIKE's period with LIKE's offset within its
 * slot: LIKE + (SLOT - slot of LIKE) * CB_PLACEMENT_SLOT. */
void *cb_placement_in_slot(const void *like, unsigned slot);

#endif
