/* buildenv.c: the environment another build's C library sees
 * (buildenv.h). */
#include "config.h"

#include "core/builds/buildenv.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

/* ENV's pairs joined, to tell builds apart. */
char *cb_buildenv_key(char *const *env)
{
	size_t len = 1;
	char *key;

	for (size_t i = 0; env && env[i]; i++)
		len += strlen(env[i]) + 1;
	if (!(key = calloc(1, len)))
		return NULL;
	for (size_t i = 0; env && env[i]; i++)
		strcat(strcat(key, env[i]), "\n");
	return key;
}

/* The process's environment with copies of ENV's pairs over it, NULL-ended;
 * *OWN is the index of the first copy (the process's own strings are never
 * freed: setenv leaks the old ones). */
char **cb_buildenv_over(char *const *env, size_t *own)
{
	size_t n = 0, m = 0, k = 0;
	char **out;

	while (environ && environ[n])
		n++;
	while (env && env[m])
		m++;
	if (!(out = calloc(n + m + 1, sizeof *out)))
		return NULL;
	for (size_t i = 0; i < n; i++) {
		bool replaced = false;

		for (size_t j = 0; j < m; j++) {
			size_t name_len = strcspn(env[j], "=");

			replaced |= strncmp(environ[i], env[j], name_len + 1) == 0;
		}
		if (!replaced)
			out[k++] = environ[i];
	}
	*own = k;
	for (size_t j = 0; j < m; j++)
		if (!(out[k++] = strdup(env[j]))) {
			while (k-- > *own)
				free(out[k]);
			free(out);
			return NULL;
		}
	return out;
}
