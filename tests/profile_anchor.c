/* profile_anchor.c: an exported function linked before the loops, so that a
 * stripped copy of tests/profile_loop has an exported symbol below them
 * (the symbolizer's hint). */
#include "tests/profile_loops.h"

__attribute__((noinline)) void cb_loop_anchor(void)
{
	__asm__ volatile("" ::: "memory");
}
