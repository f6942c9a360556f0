/* profile_loops.c: two loops of known content, for the profiler's tests. */
#include "tests/profile_loops.h"

__attribute__((noinline)) void cb_loop_aes(uint64_t rounds)
{
	for (uint64_t i = 0; i < rounds; i++) {
#if defined(__x86_64__)
		__asm__ volatile(".rept 32\n\t"
		                 "aesenc %%xmm1, %%xmm0\n\t"
		                 "pxor %%xmm2, %%xmm0\n\t"
		                 ".endr" ::
		                     : "xmm0", "xmm1", "xmm2");
#endif
	}
}

__attribute__((noinline)) uint64_t cb_loop_imul(uint64_t rounds)
{
	uint64_t x = 3;

	for (uint64_t i = 0; i < rounds; i++) {
#if defined(__x86_64__)
		__asm__ volatile(".rept 32\n\t"
		                 "imul %0, %0\n\t"
		                 ".endr"
		                 : "+r"(x));
#endif
	}
	return x;
}
