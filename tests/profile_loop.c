/* profile_loop.c: a program that runs one of two loops of known content
 * until it is killed, for the ptrace sampler's tests.
 *
 *   profile_loop aes|imul|imul-waker|wait
 *
 * It first prints the addresses of cb_loop_aes and cb_loop_imul (hex, one
 * line), then runs the loop (or waits: `wait`). `imul-waker` runs the IMUL
 * loop beside a thread that wakes every 2 ms and sleeps again at once, as
 * a runtime's timer thread does: it uses little CPU time, so it must get few
 * samples. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/profile_loops.h"

static volatile uint64_t sink;

static void *waker(void *arg)
{
	struct timespec tick = {.tv_nsec = 2000000};

	(void)arg;
	for (;;)
		nanosleep(&tick, NULL);
	return NULL;
}

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
	if (strcmp(mode, "imul-waker") == 0) {
		pthread_t t;
		if (pthread_create(&t, NULL, waker, NULL) != 0)
			return 1;
		for (;;)
			sink = cb_loop_imul(1000);
	}
	if (strcmp(mode, "wait") == 0)
		for (;;)
			pause();
	fprintf(stderr, "usage: profile_loop aes|imul|imul-waker|wait\n");
	return 2;
}
