/* stack-placement.c: Mbed TLS AES-128-GCM encryption of 16 KiB with the
 * stack moved in 16-byte steps over a page, in one process: does its speed
 * follow where the stack falls? (tests/bench/stack-placement.sh builds and
 * runs it; analysis/README.md has the figures.)
 *
 *   stack-placement IN_OFFSET OUT_OFFSET CALLS
 *
 * Per step, the best of five runs of CALLS calls on the thread's CPU time
 * (preemption left out): "step stack%4096 MB/s", after a line giving where
 * the input, the output and the context fall in their pages. */
#include <alloca.h>
#include <mbedtls/gcm.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LEN 16384

static mbedtls_gcm_context gcm;
static unsigned char *in, *out, iv[12], key[16];
static int calls;

static uint64_t cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static __attribute__((noinline)) uint64_t timed_calls(void)
{
	uint64_t t0 = cpu_ns();

	for (int i = 0; i < calls; i++)
		mbedtls_gcm_crypt_and_tag(&gcm, MBEDTLS_GCM_ENCRYPT, LEN, iv, 12, NULL, 0, in, out,
		                          16, out + LEN);
	return cpu_ns() - t0;
}

/* timed_calls with the stack moved down by SHIFT bytes; *WHERE: the pad. */
static __attribute__((noinline)) uint64_t placed(size_t shift, uintptr_t *where)
{
	// cppcheck-suppress allocaCalled
	volatile unsigned char *pad = alloca(shift + 1);

	pad[0] = 0;
	*where = (uintptr_t)pad;
	return timed_calls();
}

int main(int argc, char **argv)
{
	void *a, *b;
	uintptr_t where;

	if (argc != 4) {
		fprintf(stderr, "usage: stack-placement IN_OFFSET OUT_OFFSET CALLS\n");
		return 2;
	}
	calls = atoi(argv[3]);
	if (posix_memalign(&a, 4096, LEN + 8192) != 0 || posix_memalign(&b, 4096, LEN + 8192) != 0)
		return 1;
	memset(a, 7, LEN + 8192);
	memset(b, 0, LEN + 8192);
	in = (unsigned char *)a + atoi(argv[1]) % 4096;
	out = (unsigned char *)b + atoi(argv[2]) % 4096;
	mbedtls_gcm_init(&gcm);
	mbedtls_gcm_setkey(&gcm, MBEDTLS_CIPHER_ID_AES, key, 128);
	placed(0, &where);
	printf("# input %lu, output %lu, context %lu, stack %lu (offsets in their pages)\n",
	       (unsigned long)((uintptr_t)in % 4096), (unsigned long)((uintptr_t)out % 4096),
	       (unsigned long)((uintptr_t)&gcm % 4096), (unsigned long)(where % 4096));
	for (size_t shift = 0; shift < 4096; shift += 16) {
		uint64_t best = UINT64_MAX;

		for (int rep = 0; rep < 5; rep++) {
			uint64_t t = placed(shift, &where);

			best = t < best ? t : best;
		}
		printf("%zu %lu %.1f\n", shift / 16, (unsigned long)(where % 4096),
		       (double)LEN * calls / ((double)best / 1e9) / 1e6);
	}
	mbedtls_gcm_free(&gcm);
	free(a);
	free(b);
	return 0;
}
