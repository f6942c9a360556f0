/* placement.c: a library's first mapping steered to an address chosen by
 * the default build's, and the choice of its slot (placement.h). */
#include "config.h"

#include "core/builds/placement.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* A file mapping of 2 MiB or more may be aligned by the kernel to 2 MiB:
 * it asks for a gap that much larger, takes its top, and moves up to the
 * next aligned address (mm/huge_memory.c; since Linux 6.7 by a whole 2 MiB
 * when the top was aligned already), where the filesystem allows; any
 * other mapping takes the top of the highest gap that fits. Two shapes of
 * hole, tried in turn with a mapping of the file itself: the first lands
 * on the address aimed at under the aligning rule (one page more than it
 * needs, so that its top is never aligned), the second under the plain. */
#define LARGE ((size_t)2 << 20)

static bool held(struct cb_placement *hold, void *at, size_t len)
{
	if (hold->n == CB_PLACEMENT_MAX_HELD)
		return false;
	hold->at[hold->n] = at;
	hold->len[hold->n++] = len;
	return true;
}

/* Fill every gap of the address space above FLOOR that could take LEN
 * bytes, but the one under the stack (which it grows into), so that the
 * kernel, which searches from the top down, comes to the hole first. */
static bool fill_gaps_above(uintptr_t floor, size_t len, struct cb_placement *hold)
{
	FILE *maps = fopen("/proc/self/maps", "re");
	char line[512];
	uintptr_t prev_end = 0;
	bool ok = maps != NULL;

	while (ok && fgets(line, sizeof line, maps)) {
		unsigned long start, end;
		char path[256] = "";

		if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %255s", &start, &end, path) < 2)
			continue;
		if (strcmp(path, "[stack]") == 0)
			break;
		if (prev_end >= floor && start > prev_end && start - prev_end >= len) {
			void *at =
			    mmap((void *)prev_end, start - prev_end, PROT_NONE,
			         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
			         -1, 0);

			ok = at == (void *)prev_end && held(hold, at, start - prev_end);
			if (at != MAP_FAILED && !ok)
				munmap(at, start - prev_end);
		}
		prev_end = end;
	}
	if (maps)
		fclose(maps);
	return ok;
}

/* Where the kernel puts a mapping of LEN bytes of FD now. */
static uintptr_t probe(int fd, size_t len)
{
	void *at = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);

	if (at == MAP_FAILED)
		return 0;
	munmap(at, len);
	return (uintptr_t)at;
}

static void *reserve(void *at, size_t len, int fixed)
{
	return mmap(at, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | fixed, -1, 0);
}

void *cb_placement_hold(const void *like, const char *path, size_t len, struct cb_placement *hold)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t m = CB_PLACEMENT_MODULO;
	size_t need = (len + page - 1) / page * page;
	/* A reservation of two moduli and the larger hole holds an address of
	 * every class, with room on both sides. */
	size_t size = 2 * m + LARGE + need;
	uintptr_t r, b;
	void *at;
	int fd;

	hold->n = 0;
	if (!like || len == 0 || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return NULL;
	if ((at = reserve(NULL, size, 0)) == MAP_FAILED) {
		close(fd);
		return NULL;
	}
	r = (uintptr_t)at;
	b = r + size - need - page; /* the highest start, then down to LIKE's class */
	b -= (b - (uintptr_t)like % m) % m;
	if (fill_gaps_above(r + size, need, hold))
		for (int shape = need >= LARGE ? 0 : 1; shape < 2; shape++) {
			size_t below = shape == 0 ? LARGE - page : 0;
			uintptr_t lo = b - below, hi = b + need + (shape == 0 ? page : 0);

			munmap((void *)lo, hi - lo);
			/* A part held before the table filled is unmapped again
			 * with the whole below: harmless. */
			if (probe(fd, need) == b && held(hold, (void *)r, lo - r) &&
			    held(hold, (void *)hi, r + size - hi)) {
				close(fd);
				return (void *)b;
			}
			if (reserve((void *)lo, hi - lo, MAP_FIXED_NOREPLACE) != (void *)lo)
				break;
		}
	close(fd);
	cb_placement_release(hold);
	munmap(at, size);
	return NULL;
}

void cb_placement_release(struct cb_placement *hold)
{
	for (size_t i = 0; i < hold->n; i++)
		munmap(hold->at[i], hold->len[i]);
	hold->n = 0;
}

bool cb_placement_alike(const void *a, const void *b)
{
	return (uintptr_t)a % CB_PLACEMENT_MODULO == (uintptr_t)b % CB_PLACEMENT_MODULO;
}

unsigned cb_placement_slot(const void *at)
{
	return (unsigned)((uintptr_t)at / CB_PLACEMENT_SLOT % CB_PLACEMENT_SLOTS);
}

bool cb_placement_crosses(const void *base, size_t code_lo, size_t code_hi)
{
	uintptr_t b = (uintptr_t)base;

	return code_hi > code_lo &&
	       (b + code_lo) / CB_PLACEMENT_PERIOD != (b + code_hi - 1) / CB_PLACEMENT_PERIOD;
}

void *cb_placement_in_slot(const void *like, unsigned slot)
{
	uintptr_t at = (uintptr_t)like;

	return (void *)(at - cb_placement_slot(like) * CB_PLACEMENT_SLOT +
	                slot * CB_PLACEMENT_SLOT);
}

int cb_placement_choose_slot(const void *like, bool like_crosses, size_t code_lo, size_t code_hi,
                             unsigned taken)
{
	int own = (int)cb_placement_slot(like);

	if (code_hi <= code_lo)
		return -1;
	/* Outwards from the default's own slot, the lower side first. */
	for (int distance = 1; distance < CB_PLACEMENT_SLOTS; distance++)
		for (int side = -1; side <= 1; side += 2) {
			int s = own + side * distance;

			if (s < 0 || s >= CB_PLACEMENT_SLOTS || (taken >> s & 1u))
				continue;
			if (cb_placement_crosses(cb_placement_in_slot(like, (unsigned)s), code_lo,
			                         code_hi) == like_crosses)
				return s;
		}
	return -1;
}
