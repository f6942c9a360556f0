/* file_alias.c: files this process mapped under another name
 * (file_alias.h). */
#include "config.h"

#include "core/base/file_alias.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
	char *copy, *original;
} aliases[CB_FILE_ALIAS_MAX];
static size_t n_aliases;
static pthread_mutex_t aliases_lock = PTHREAD_MUTEX_INITIALIZER;

int cb_file_alias_add(const char *copy, const char *original)
{
	int rc = -1;

	pthread_mutex_lock(&aliases_lock);
	if (n_aliases < CB_FILE_ALIAS_MAX && (aliases[n_aliases].copy = strdup(copy)) &&
	    (aliases[n_aliases].original = strdup(original))) {
		n_aliases++;
		rc = 0;
	} else if (n_aliases < CB_FILE_ALIAS_MAX) {
		free(aliases[n_aliases].copy);
		aliases[n_aliases].copy = NULL;
	}
	pthread_mutex_unlock(&aliases_lock);
	return rc;
}

bool cb_file_alias_of(const char *copy, char *out, size_t out_len)
{
	bool found = false;

	pthread_mutex_lock(&aliases_lock);
	for (size_t i = 0; i < n_aliases && !found; i++)
		if (strcmp(aliases[i].copy, copy) == 0) {
			snprintf(out, out_len, "%s", aliases[i].original);
			found = true;
		}
	pthread_mutex_unlock(&aliases_lock);
	return found;
}

bool cb_file_alias_any(void)
{
	bool any;

	pthread_mutex_lock(&aliases_lock);
	any = n_aliases > 0;
	pthread_mutex_unlock(&aliases_lock);
	return any;
}
