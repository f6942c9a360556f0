/* clock.h: the clocks a trial is timed with.
 *
 * Wall time is CLOCK_MONOTONIC_RAW; per-thread CPU time runs beside it (a
 * trial whose CPU time is well below its wall time was preempted). Core
 * cycles come from perf_event_open where the kernel allows it; otherwise the
 * core clock is estimated with a calibrated dependency-chain loop before and
 * after each round, and cycles are wall time times that estimate. TSC ticks
 * (CNTVCT_EL0 on AArch64) are recorded where present but never called
 * cycles. */
#ifndef CB_CLOCK_H
#define CB_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

/* CLOCK_MONOTONIC_RAW in nanoseconds. */
uint64_t cb_wall_ns(void);
/* This thread's CPU time in nanoseconds (CLOCK_THREAD_CPUTIME_ID). */
uint64_t cb_thread_cpu_ns(void);
/* Resolution of the wall clock in ns, as clock_getres reports it, but at
 * least the smallest difference two successive reads show. */
uint64_t cb_wall_resolution_ns(void);

/* Time-stamp counter: present (invariant TSC on x86-64; on AArch64 the
 * generic timer's virtual count, CNTVCT_EL0), read, and its rate (once,
 * cached): measured against the wall clock on x86-64, CNTFRQ_EL0 on AArch64.
 * Never called cycles: on AArch64 it runs at tens of MHz to 1 GHz. */
bool cb_tsc_present(void);
uint64_t cb_tsc_read(void);
double cb_tsc_hz(void);

/* Core-cycle counting for one thread. */
struct cb_cycles {
	int fd;           /* perf_event fd, or -1 */
	const char *kind; /* "perf-cycles" or "estimate" */
	char why[160];    /* why perf cycles are not used, when they are not */
};
/* Open a per-thread core-cycle counter for the calling thread; when the
 * kernel refuses, C->kind is "estimate" and C->why says why. Never fails. */
void cb_cycles_open(struct cb_cycles *c);
/* Current count (perf), or 0 for "estimate". */
uint64_t cb_cycles_read(const struct cb_cycles *c);
void cb_cycles_close(struct cb_cycles *c);

/* Estimate the core clock in Hz by timing a dependency chain of N
 * single-cycle additions that cannot be fused or overlapped (the method of
 * libgcrypt's bench-slope). Takes about DURATION_NS; returns the best
 * (highest) of a few repetitions. */
double cb_core_hz_estimate(uint64_t duration_ns);

#endif
