/* vectors_dir.c: a folder of known-answer vector files, read in the order
 * of their names (vectors.h); one file is vectors.c's. */
#include "core/check/vectors.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/errbuf.h"

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* The paths of DIR's `*.vec` files, sorted. */
static int list_vector_files(const char *dir, char ***names_out, size_t *n_out, char *err,
                             size_t err_len)
{
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *entry;
	DIR *d = opendir(dir);

	if (!d) {
		cb_errorf(err, err_len, "%s: %s", dir, strerror(errno));
		return -1;
	}
	while ((entry = readdir(d)) != NULL) {
		size_t len = strlen(entry->d_name);

		if (len <= 4 || strcmp(entry->d_name + len - 4, ".vec") != 0 ||
		    entry->d_name[0] == '.')
			continue;
		if (n == cap) {
			size_t grown_cap = cap ? 2 * cap : 16;
			char **grown = realloc(names, grown_cap * sizeof *names);

			if (!grown)
				goto out_of_memory;
			names = grown;
			cap = grown_cap;
		}
		names[n] = malloc(strlen(dir) + len + 2);
		if (!names[n])
			goto out_of_memory;
		sprintf(names[n++], "%s/%s", dir, entry->d_name);
	}
	closedir(d);
	if (n == 0) {
		cb_errorf(err, err_len, "%s: no *.vec vector files", dir);
		free(names);
		return -1;
	}
	qsort(names, n, sizeof *names, compare_names);
	*names_out = names;
	*n_out = n;
	return 0;
out_of_memory:
	closedir(d);
	free_names(names, n);
	cb_errorf(err, err_len, "%s: out of memory", dir);
	return -1;
}

int cb_vectors_load_dir(const char *dir, struct cb_vector_set *set, char *err, size_t err_len)
{
	char **names;
	size_t n;
	int status = 0;

	memset(set, 0, sizeof *set);
	if (list_vector_files(dir, &names, &n, err, err_len) < 0)
		return -1;
	set->files = calloc(n, sizeof *set->files);
	if (!set->files) {
		cb_errorf(err, err_len, "%s: out of memory", dir);
		status = -1;
	}
	for (size_t i = 0; status == 0 && i < n; i++) {
		status = cb_vectors_load(names[i], &set->files[i], err, err_len);
		if (status == 0)
			set->count++;
	}
	free_names(names, n);
	if (status != 0)
		cb_vectors_free_set(set);
	return status;
}

void cb_vectors_free_set(struct cb_vector_set *set)
{
	for (size_t i = 0; i < set->count; i++)
		cb_vectors_free(&set->files[i]);
	free(set->files);
	memset(set, 0, sizeof *set);
}

size_t cb_vectors_total(const struct cb_vector_set *set)
{
	size_t total = 0;

	for (size_t i = 0; i < set->count; i++)
		total += set->files[i].count;
	return total;
}
