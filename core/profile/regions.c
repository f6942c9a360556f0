/* regions.c: perf maps and anonymous executable mappings. */
#include "core/profile/regions.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int add(struct cb_regions *r, size_t *cap, uint64_t start, uint64_t end, const char *name,
               int perf_map)
{
	struct cb_region *item;

	if (r->count == *cap) {
		size_t more = *cap ? 2 * *cap : 64;
		struct cb_region *items = realloc(r->items, more * sizeof *items);
		if (!items)
			return -1;
		r->items = items;
		*cap = more;
	}
	item = &r->items[r->count];
	item->start = start;
	item->end = end;
	item->perf_map = perf_map;
	item->name = name ? strdup(name) : NULL;
	if (name && !item->name)
		return -1;
	r->count++;
	return 0;
}

static void read_perf_map(struct cb_regions *r, size_t *cap, pid_t pid)
{
	char path[64], line[4096];
	FILE *f;

	snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)pid);
	if (!(f = fopen(path, "r")))
		return;
	while (fgets(line, sizeof line, f)) {
		uint64_t start, size;
		int used = 0;
		if (sscanf(line, "%" SCNx64 " %" SCNx64 " %n", &start, &size, &used) != 2 || !used)
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (add(r, cap, start, start + size, line + used, 1) != 0)
			break;
	}
	fclose(f);
}

static void read_anonymous(struct cb_regions *r, size_t *cap, pid_t pid)
{
	char path[64], line[4096];
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
	if (!(f = fopen(path, "r")))
		return;
	while (fgets(line, sizeof line, f)) {
		uint64_t start, end;
		char perms[8];
		int used = 0;
		const char *file;
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %*s %*s %*s %n", &start, &end, perms,
		           &used) != 3 ||
		    perms[2] != 'x')
			continue;
		file = used ? line + used : "";
		if (*file == '\n' || *file == '\0' || strncmp(file, "[anon", 5) == 0 ||
		    strncmp(file, "/memfd:", 7) == 0)
			if (add(r, cap, start, end, NULL, 0) != 0)
				break;
	}
	fclose(f);
}

static int by_kind_then_start(const void *a, const void *b)
{
	const struct cb_region *x = a, *y = b;

	if (x->perf_map != y->perf_map)
		return y->perf_map - x->perf_map;
	return x->start < y->start ? -1 : x->start > y->start;
}

void cb_regions_read(struct cb_regions *r, pid_t pid)
{
	size_t cap = 0;

	memset(r, 0, sizeof *r);
	read_perf_map(r, &cap, pid);
	read_anonymous(r, &cap, pid);
	if (r->count)
		qsort(r->items, r->count, sizeof *r->items, by_kind_then_start);
	for (size_t i = 0; i < r->count && r->items[i].perf_map; i++)
		r->n_perf++;
}

/* The region of ITEMS[0..N) (sorted by start) holding PC, or NULL. */
static const struct cb_region *find_in(const struct cb_region *items, size_t n, uint64_t pc)
{
	size_t lo = 0, hi = n;

	while (lo < hi) { /* the first item starting after PC */
		size_t mid = lo + (hi - lo) / 2;
		if (items[mid].start <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && pc < items[lo - 1].end ? &items[lo - 1] : NULL;
}

const struct cb_region *cb_regions_find(const struct cb_regions *r, uint64_t pc)
{
	const struct cb_region *found = find_in(r->items, r->n_perf, pc);

	return found ? found : find_in(r->items + r->n_perf, r->count - r->n_perf, pc);
}

void cb_regions_free(struct cb_regions *r)
{
	for (size_t i = 0; i < r->count; i++)
		free(r->items[i].name);
	free(r->items);
	memset(r, 0, sizeof *r);
}
