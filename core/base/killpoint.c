/* killpoint.c: the CRYPTOBENCH_KILL_AT test switch (killpoint.h). */
#include "core/base/killpoint.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct {
	bool read;
	char point[32]; /* empty: no kill asked for */
	unsigned long nth;
	unsigned long passes;
} kill_at;

static void read_spec(void)
{
	const char *spec = getenv("CRYPTOBENCH_KILL_AT");
	size_t len;
	char *end;

	kill_at.read = true;
	if (!spec || !*spec)
		return;
	len = strcspn(spec, ":");
	kill_at.nth = 1;
	if (spec[len] == ':')
		kill_at.nth = strtoul(spec + len + 1, &end, 10);
	if (len == 0 || len >= sizeof kill_at.point || kill_at.nth == 0 ||
	    (spec[len] == ':' && *end)) {
		fprintf(stderr, "warning: CRYPTOBENCH_KILL_AT=%s ignored (POINT[:N], N from 1)\n",
		        spec);
		return;
	}
	memcpy(kill_at.point, spec, len);
}

bool cb_kill_due(const char *point)
{
	if (!kill_at.read)
		read_spec();
	return kill_at.point[0] && strcmp(point, kill_at.point) == 0 &&
	       ++kill_at.passes == kill_at.nth;
}

void cb_kill_now(void)
{
	raise(SIGKILL);
	_exit(137); /* not reached */
}

void cb_kill_point(const char *point)
{
	if (cb_kill_due(point))
		cb_kill_now();
}
