/* clock.c: wall, CPU, TSC and core-cycle clocks, and the core-clock estimate.
 *
 * The "TSC" is the processor's constant-rate counter: the time-stamp counter
 * on x86-64, the generic timer's virtual count (CNTVCT_EL0) on AArch64. */
#include "core/machine/clock.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

#define NS_PER_S 1000000000ull

static uint64_t timespec_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * NS_PER_S + (uint64_t)ts->tv_nsec;
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;
	if (clock_gettime(id, &ts) != 0)
		return 0;
	return timespec_ns(&ts);
}

uint64_t cb_wall_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC_RAW);
}

uint64_t cb_thread_cpu_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

/* clock_getres reports 1 ns for any high-resolution clock, which says nothing
 * of what a caller can resolve: successive reads cost tens of ns, so the
 * smallest step actually seen is the honest floor. */
#define RESOLUTION_READS 20000

uint64_t cb_wall_resolution_ns(void)
{
	struct timespec res;
	uint64_t reported = 1;
	if (clock_getres(CLOCK_MONOTONIC_RAW, &res) == 0 && timespec_ns(&res) > 0)
		reported = timespec_ns(&res);

	uint64_t observed = 0;
	uint64_t prev = cb_wall_ns();
	for (int i = 0; i < RESOLUTION_READS; i++) {
		uint64_t now = cb_wall_ns();
		if (now > prev && (observed == 0 || now - prev < observed))
			observed = now - prev;
		prev = now;
	}
	return observed > reported ? observed : reported;
}

/* ---- Time-stamp counter ---- */

static bool tsc_invariant;
static pthread_once_t tsc_probe_once = PTHREAD_ONCE_INIT;

static void tsc_probe(void)
{
#if defined(__x86_64__)
	unsigned int eax, ebx, ecx, edx;
	if (__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) && eax >= 0x80000007u &&
	    __get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx))
		tsc_invariant = (edx >> 8) & 1; /* constant rate in all P-, C- and T-states */
#elif defined(__aarch64__)
	/* ARMv8-A requires the generic timer, whose count runs at one rate in
	 * every power state; Linux lets EL0 read it (or traps and emulates the
	 * read on cores with errata), as its own vDSO clock does. */
	tsc_invariant = true;
#endif
}

bool cb_tsc_present(void)
{
	pthread_once(&tsc_probe_once, tsc_probe);
	return tsc_invariant;
}

/* Plain rdtsc is not ordered against the code around it; the trials it
 * brackets last milliseconds, so the few dozen cycles of skew do not matter
 * and rdtscp's wait would only add cost. */
uint64_t cb_tsc_read(void)
{
#if defined(__x86_64__)
	if (cb_tsc_present())
		return __rdtsc();
#elif defined(__aarch64__)
	/* Not ordered by an isb, for the same reason as rdtsc above. */
	uint64_t ticks;
	__asm__ volatile("mrs %0, cntvct_el0" : "=r"(ticks));
	return ticks;
#endif
	return 0;
}

#define TSC_CALIBRATION_NS 20000000ull
#define TSC_PAIR_TRIES 8

static double tsc_hz_cached;
static pthread_once_t tsc_hz_once = PTHREAD_ONCE_INIT;

/* A TSC reading and the wall time at the same instant: the wall reads that
 * bracket it most tightly, taking their midpoint. */
static void tsc_wall_pair(uint64_t *tsc, uint64_t *wall)
{
	uint64_t best_span = UINT64_MAX;
	for (int i = 0; i < TSC_PAIR_TRIES; i++) {
		uint64_t before = cb_wall_ns();
		uint64_t ticks = cb_tsc_read();
		uint64_t after = cb_wall_ns();
		if (after - before < best_span) {
			best_span = after - before;
			*tsc = ticks;
			*wall = before + (after - before) / 2;
		}
	}
}

static void tsc_measure(void)
{
	if (!cb_tsc_present())
		return;
#if defined(__aarch64__)
	/* The architecture states the count's rate in CNTFRQ_EL0, which the
	 * kernel's own clock is built on; firmware that left it 0 gets the
	 * measurement below. */
	uint64_t frequency;
	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(frequency));
	if (frequency != 0) {
		tsc_hz_cached = (double)frequency;
		return;
	}
#endif
	uint64_t tsc0, wall0, tsc1, wall1;
	tsc_wall_pair(&tsc0, &wall0);
	do
		tsc_wall_pair(&tsc1, &wall1);
	while (wall1 - wall0 < TSC_CALIBRATION_NS);
	tsc_hz_cached = (double)(tsc1 - tsc0) * 1e9 / (double)(wall1 - wall0);
}

double cb_tsc_hz(void)
{
	pthread_once(&tsc_hz_once, tsc_measure);
	return tsc_hz_cached;
}

/* ---- Core cycles ---- */

static void read_paranoid(char *out, size_t size)
{
	snprintf(out, size, "unreadable");
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	if (!f)
		return;
	int level;
	if (fscanf(f, "%d", &level) == 1)
		snprintf(out, size, "%d", level);
	fclose(f);
}

static uint64_t perf_count(int fd)
{
	uint64_t count;
	if (read(fd, &count, sizeof count) != (ssize_t)sizeof count)
		return 0;
	return count;
}

void cb_cycles_open(struct cb_cycles *c)
{
	struct perf_event_attr attr;
	memset(&attr, 0, sizeof attr);
	attr.size = sizeof attr;
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	/* User-space counting of one's own thread is what paranoid level 2 allows,
	 * and kernel time is not the engine's work anyway. */
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;

	c->fd = -1;
	c->kind = "estimate";
	c->why[0] = '\0';

	long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		int err = errno;
		char msg[96], paranoid[16];
		const char *text = strerror_r(err, msg, sizeof msg);
		read_paranoid(paranoid, sizeof paranoid);
		snprintf(c->why, sizeof c->why,
		         "perf_event_open: %s (errno %d); kernel.perf_event_paranoid=%s", text, err,
		         paranoid);
		return;
	}

	/* Some hypervisors hand out a counter that never counts; an idle counter
	 * would report every trial as zero cycles. */
	uint64_t before = perf_count((int)fd);
	volatile uint64_t spin = 0;
	for (int i = 0; i < 100000; i++)
		spin += (uint64_t)i;
	(void)spin; /* the loop is the work: the sum is not needed */
	uint64_t after = perf_count((int)fd);
	if (after <= before) {
		close((int)fd);
		snprintf(c->why, sizeof c->why, "perf_event_open: cycle counter does not advance");
		return;
	}
	c->fd = (int)fd;
	c->kind = "perf-cycles";
}

uint64_t cb_cycles_read(const struct cb_cycles *c)
{
	return c->fd >= 0 ? perf_count(c->fd) : 0;
}

void cb_cycles_close(struct cb_cycles *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

/* ---- Core-clock estimate ----
 *
 * A chain of additions each of which needs the previous result runs at one
 * addition per core cycle on every out-of-order core of the last two decades,
 * so additions per second is the core clock. The loop counter is a separate
 * chain the core runs in parallel, and the dec between the last add and the
 * branch keeps any add from fusing with it. Register-register adds rather
 * than add-immediate, which some cores can fold at rename. */

#define ADDS_PER_BLOCK 256
#define STRINGIFY(x) #x
#define STR(x) STRINGIFY(x)
#define ESTIMATE_REPEATS 5
#define MIN_MEASURE_NS 200000ull

#if defined(__x86_64__)
#define ADD_BLOCK ".rept " STR(ADDS_PER_BLOCK) "\n\taddq %[one], %[acc]\n\t.endr\n\t"

static uint64_t add_chain(uint64_t blocks)
{
	uint64_t acc = 0, one = 1;
	__asm__ volatile(".p2align 5\n"
	                 "1:\n\t" ADD_BLOCK "decq %[n]\n\t"
	                 "jnz 1b"
	                 : [acc] "+r"(acc), [n] "+r"(blocks)
	                 : [one] "r"(one)
	                 : "cc");
	return acc;
}
#elif defined(__aarch64__)
/* The same chain in A64: register-register adds, each on the one before, and
 * the loop counter's subs between the last add and the branch. */
#define ADD_BLOCK ".rept " STR(ADDS_PER_BLOCK) "\n\tadd %[acc], %[acc], %[one]\n\t.endr\n\t"

static uint64_t add_chain(uint64_t blocks)
{
	uint64_t acc = 0, one = 1;
	__asm__ volatile(".p2align 5\n"
	                 "1:\n\t" ADD_BLOCK "subs %[n], %[n], #1\n\t"
	                 "b.ne 1b"
	                 : [acc] "+r"(acc), [n] "+r"(blocks)
	                 : [one] "r"(one)
	                 : "cc");
	return acc;
}
#else
/* Portable fallback, a weaker guarantee: the empty asm makes each addition
 * depend on the one before and stops the compiler from merging them, but the
 * instructions around them are the compiler's. Unrolled, an optimised build
 * gives the same figure as the x86-64 chain on x86-64; an unoptimised one
 * keeps the accumulator in memory and reads about a quarter, and an in-order
 * core pays for the loop branches, so the figure can only read low. With no
 * GNU asm the volatile accumulator costs a store and a load per step and the
 * figure is a lower bound at best. */
static uint64_t add_chain(uint64_t blocks)
{
#if defined(__GNUC__)
	uint64_t acc = 0;
	for (uint64_t b = 0; b < blocks; b++)
#pragma GCC unroll 64 /* one loop branch per add would bound the rate on its own */
		for (int i = 0; i < ADDS_PER_BLOCK; i++) {
			acc += 1;
			__asm__ volatile("" : "+r"(acc));
		}
	return acc;
#else
	volatile uint64_t acc = 0;
	for (uint64_t b = 0; b < blocks; b++)
		for (int i = 0; i < ADDS_PER_BLOCK; i++)
			acc += 1;
	return acc;
#endif
}
#endif

static uint64_t time_chain(uint64_t blocks)
{
	uint64_t start = cb_wall_ns();
	add_chain(blocks);
	uint64_t elapsed = cb_wall_ns() - start;
	return elapsed ? elapsed : 1;
}

double cb_core_hz_estimate(uint64_t duration_ns)
{
	uint64_t target = duration_ns / ESTIMATE_REPEATS;
	if (target < MIN_MEASURE_NS)
		target = MIN_MEASURE_NS;

	/* Grow until a run is long enough to scale from without the clock's
	 * granularity mattering; the growth also wakes the core from idle. */
	uint64_t blocks = 16, elapsed;
	while ((elapsed = time_chain(blocks)) < target / 8 && blocks < (UINT64_MAX >> 4))
		blocks *= 2;
	double scaled = (double)blocks * (double)target / (double)elapsed;
	blocks = scaled < 1.0 ? 1 : (uint64_t)scaled;

	/* Interruptions and a core still ramping up only lengthen a run, so the
	 * fastest repetition is the least disturbed. */
	double best = 0.0;
	for (int r = 0; r < ESTIMATE_REPEATS; r++) {
		double hz = (double)blocks * ADDS_PER_BLOCK * 1e9 / (double)time_chain(blocks);
		if (hz > best)
			best = hz;
	}
	return best;
}
