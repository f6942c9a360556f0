/* buildenv.h: the environment another build's C library sees, a
 * variant's `env` over the process's (libbuild.h). */
#ifndef CB_BUILDENV_H
#define CB_BUILDENV_H

#include <stddef.h>

/* ENV's pairs ("NAME=value", NULL-ended; NULL: none) joined, to tell builds
 * apart. NULL when out of memory; free it. */
char *cb_buildenv_key(char *const *env);

/* The process's environment with copies of ENV's pairs over it, NULL-ended;
 * *OWN is the index of the first copy: free those and the array (the
 * process's own strings are never freed: setenv leaks the old ones). NULL
 * when out of memory. */
char **cb_buildenv_over(char *const *env, size_t *own);

#endif
