/* profile_loop.c: a program that runs one of two loops of known content
 * until it is killed, for the ptrace sampler's tests.
 *
 *   profile_loop aes|imul|wait
 *
 * It first prints the addresses of cb_loop_aes and cb_loop_imul (hex, one
 * line), then runs the loop (or waits: `wait`). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tests/profile_loops.h"

static volatile uint64_t sink;

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	printf("%" PRIxPTR " %" PRIxPTR "\n", (uintptr_t)cb_loop_aes, (uintptr_t)cb_loop_imul);
	fflush(stdout);
	cb_loop_anchor();
	if (strcmp(mode, "aes") == 0)
		for (;;)
			cb_loop_aes(1000);
	if (strcmp(mode, "imul") == 0)
		for (;;)
			sink = cb_loop_imul(1000);
	if (strcmp(mode, "wait") == 0)
		for (;;)
			pause();
	fprintf(stderr, "usage: profile_loop aes|imul|wait\n");
	return 2;
}
