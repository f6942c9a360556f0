/* test_placement.c: a library's first mapping placed like another's
 * (core/builds/placement.h), with files of this test's own: one that the
 * kernel may align to 2 MiB (3 MiB and a bit) and one it does not (300 KiB),
 * each mapped from its start as the loader maps a library, aimed at several
 * addresses modulo 1 GiB. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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
 * would, and check where it landed. */
static void place(const char *path, size_t len, uintptr_t like, const char *what)
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
