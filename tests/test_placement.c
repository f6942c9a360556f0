/* test_placement.c: a library's first mapping placed like another's
 * (core/builds/placement.h), with files of this test's own: one that the
 * kernel may align to 2 MiB (3 MiB and a bit) and one it does not (300 KiB),
 * each mapped from its start as the loader maps a library, aimed at several
 * addresses modulo 1 GiB and at a slot of its own; and the choice of a
 * build's 2 MiB slot for synthetic code extents, libcrypto's among them
 * (its code from 0.77 to 3.27 MiB past its base). */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/builds/placement.h"
#include "tests/tap.h"

#define MIB ((size_t)1 << 20)

static int mappings(void)
{
	FILE *maps = fopen("/proc/self/maps", "r");
	int n = 0, c;

	while (maps && (c = getc(maps)) != EOF)
		n += c == '\n';
	if (maps)
		fclose(maps);
	return n;
}

static void file_of(const char *path, size_t len)
{
	FILE *f = fopen(path, "w");

	for (size_t i = 0; f && i < len; i++)
		putc((int)(i * 131 % 251), f);
	if (f)
		fclose(f);
}

/* Aim the mapping of LEN bytes of PATH at LIKE's class, map it as the loader
 * would, and check where it landed; that address, or 0. */
static uintptr_t place(const char *path, size_t len, uintptr_t like, const char *what)
{
	struct cb_placement hold;
	int before = mappings(), fd = open(path, O_RDONLY);
	void *aim = cb_placement_hold((void *)like, path, len, &hold);
	void *at = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);

	cb_placement_release(&hold);
	ok(aim != NULL && at == aim, "%s: the mapping lands where aimed (%p, %p)", what, aim, at);
	ok(at != MAP_FAILED && cb_placement_alike(at, (void *)like),
	   "%s: at the address aimed at modulo 1 GiB (%#lx)", what,
	   (unsigned long)((uintptr_t)at % CB_PLACEMENT_MODULO));
	munmap(at, len);
	close(fd);
	ok(mappings() == before, "%s: nothing held once released (%d mappings, %d before)", what,
	   mappings(), before);
	return at == MAP_FAILED ? 0 : (uintptr_t)at;
}

/* The slots chosen in turn for builds of code from CODE_LO to CODE_HI past
 * their base beside a default at LIKE, each taking its slot, until none is
 * left, as digits ("-" for none). */
static const char *slots_in_turn(uintptr_t like, size_t code_lo, size_t code_hi, char out[10])
{
	bool crosses = cb_placement_crosses((void *)like, code_lo, code_hi);
	unsigned taken = 0;
	size_t n = 0;
	int s;

	while (n < 8 && (s = cb_placement_choose_slot((void *)like, crosses, code_lo, code_hi,
	                                              taken)) >= 0) {
		out[n++] = (char)('0' + s);
		taken |= 1u << s;
	}
	out[n++] = '-';
	out[n] = '\0';
	return out;
}

static void slots(uintptr_t base)
{
	const size_t lo = 790 * 1024, hi = 3350 * 1024; /* libcrypto's code */
	char got[10];

	ok(cb_placement_slot((void *)(base + 14 * MIB + 4096)) == 7 &&
	       cb_placement_slot((void *)(base + 16 * MIB)) == 0,
	   "slot: the address's 2 MiB within its 16 MiB");
	ok(cb_placement_crosses((void *)(base + 14 * MIB), lo, hi) &&
	       !cb_placement_crosses((void *)(base + 12 * MIB), lo, hi) &&
	       !cb_placement_crosses((void *)base, lo, hi) &&
	       !cb_placement_crosses((void *)(base + 14 * MIB), lo, 0),
	   "libcrypto's code crosses 16 MiB in slot 7 alone; no code never does");
	ok(strcmp(slots_in_turn(base + 6 * MIB, lo, hi, got), "241506-") == 0,
	   "default in slot 3: builds in 2 4 1 5 0 6, nearest first, the lower of two, "
	   "never 7 (crossing), then none (%s)",
	   got);
	ok(strcmp(slots_in_turn(base, lo, hi, got), "123456-") == 0,
	   "default in slot 0: builds in 1 to 6, then none (%s)", got);
	ok(strcmp(slots_in_turn(base + 14 * MIB, lo, hi, got), "-") == 0,
	   "default in slot 7, crossing: no slot, the build is placed alike (%s)", got);
	ok(cb_placement_choose_slot((void *)(base + 14 * MIB), true, MIB / 2, 5 * MIB, 0) == 6 &&
	       cb_placement_choose_slot((void *)(base + 14 * MIB), true, MIB / 10, MIB / 5, 0) < 0,
	   "a build of another layout by its own code: a crossing default's neighbour crosses "
	   "for code to 5 MiB, none for code within 200 KiB");
	ok(cb_placement_choose_slot((void *)(base + 6 * MIB), false, 0, 0, 0) < 0,
	   "a build whose code extent is unknown: no slot");
	ok(cb_placement_in_slot((void *)(base + 6 * MIB + 4096), 5) ==
	           (void *)(base + 10 * MIB + 4096) &&
	       cb_placement_in_slot((void *)(base + 6 * MIB + 4096), 0) == (void *)(base + 4096),
	   "the address in a slot keeps the default's 16 MiB and its offset in its slot");
}

int main(void)
{
	const char *large = "test_placement.large", *small = "test_placement.small";
	const uintptr_t base = (uintptr_t)0x7e0000000000;
	const size_t large_len = 3 * MIB + 5000, small_len = 300 * 1024 + 17;
	char what[96];
	struct cb_placement hold;

	file_of(large, large_len);
	file_of(small, small_len);
	for (size_t off = 0; off < CB_PLACEMENT_MODULO; off += 510 * MIB) {
		snprintf(what, sizeof what, "3 MiB at %zu MiB", off / MIB);
		place(large, large_len, base + off, what);
	}
	place(large, large_len, base + 14 * MIB, "3 MiB at 14 MiB (straddling 16 MiB)");
	place(small, small_len, base + 4096, "300 KiB at 4 KiB");
	place(small, small_len, base + CB_PLACEMENT_MODULO - 2 * 4096,
	      "300 KiB at 1 GiB less 8 KiB");
	/* A default in slot 3, 518 MiB into its gigabyte: its build aimed at
	 * slot 2 lands there, 2 MiB below it. */
	uintptr_t like = base + 518 * MIB, at;
	int s = cb_placement_choose_slot((void *)like, false, 790 * 1024, 3350 * 1024, 0);

	at = place(large, large_len, (uintptr_t)cb_placement_in_slot((void *)like, (unsigned)s),
	           "3 MiB in slot 2 of a default in slot 3");
	ok(s == 2 && at && cb_placement_slot((void *)at) == 2 &&
	       cb_placement_alike((void *)at, (void *)(like - 2 * MIB)),
	   "...in slot 2, at the default's address less 2 MiB modulo 1 GiB (%#lx)",
	   (unsigned long)(at % CB_PLACEMENT_MODULO));
	slots(base);
	ok(cb_placement_hold(NULL, large, large_len, &hold) == NULL && hold.n == 0,
	   "nothing to be like: nothing held");
	ok(cb_placement_hold((void *)base, "test_placement.none", large_len, &hold) == NULL &&
	       hold.n == 0,
	   "a file that cannot be opened: nothing held");
	ok(cb_placement_alike((void *)(base + 3 * CB_PLACEMENT_MODULO + 4096),
	                      (void *)(base + 4096)) &&
	       !cb_placement_alike((void *)(base + 4096), (void *)(base + 8192)),
	   "alike: the same address modulo 1 GiB, and only that");
	unlink(large);
	unlink(small);
	return tap_done();
}
