/* test_clock.c: properties the clocks must have on any machine.
 *
 * No check compares a duration with an expected figure: the machines these
 * run on are shared and noisy. What is checked holds however loaded the
 * machine is (monotonicity, CPU time never far ahead of wall time, sleeping
 * burning no CPU, two clocks agreeing over the same interval, a core clock
 * within any plausible range). */
#include "core/machine/clock.h"
#include "tests/tap.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#define GHZ 1e9
/* An invariant TSC runs near the nominal core clock; the AArch64 generic
 * timer at what the board chose, 1 GHz down to a few MHz (19.2 MHz, 54 MHz). */
#if defined(__aarch64__)
#define MIN_TSC_HZ 1e6
#else
#define MIN_TSC_HZ (0.2 * GHZ)
#endif

static volatile uint64_t sink;

static void busy_ns(uint64_t ns)
{
	uint64_t start = cb_wall_ns();
	while (cb_wall_ns() - start < ns)
		for (int i = 0; i < 1000; i++)
			sink += (uint64_t)i;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000u),
	                      .tv_nsec = (long)(ns % 1000000000u)};
	while (nanosleep(&ts, &ts) != 0)
		;
}

#if defined(__x86_64__)
static bool cpuinfo_has_flag(const char *flag, bool *readable)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	*readable = false;
	if (!f)
		return false;
	char *line = NULL;
	size_t cap = 0;
	bool found = false;
	while (getline(&line, &cap, f) > 0) {
		if (strncmp(line, "flags", 5) != 0)
			continue;
		*readable = true;
		char pattern[64];
		snprintf(pattern, sizeof pattern, " %s", flag);
		for (char *p = line; (p = strstr(p, pattern)) != NULL; p++) {
			char next = p[strlen(pattern)];
			if (next == ' ' || next == '\n' || next == '\0')
				found = true;
		}
		break;
	}
	free(line);
	fclose(f);
	return found;
}
#endif

static void test_wall(void)
{
	uint64_t prev = cb_wall_ns(), backwards = 0, advanced = 0;
	ok(prev > 0, "wall clock reads nonzero");
	for (int i = 0; i < 200000; i++) {
		uint64_t now = cb_wall_ns();
		backwards += now < prev;
		advanced += now > prev;
		prev = now;
	}
	is_num(backwards, 0, "wall clock never goes backwards over 200000 reads");
	ok(advanced > 0, "wall clock advances");

	struct timespec res;
	uint64_t reported = clock_getres(CLOCK_MONOTONIC_RAW, &res) == 0
	                        ? (uint64_t)res.tv_sec * 1000000000u + (uint64_t)res.tv_nsec
	                        : 1;
	uint64_t resolution = cb_wall_resolution_ns();
	diag("wall resolution %llu ns (clock_getres %llu ns)", (unsigned long long)resolution,
	     (unsigned long long)reported);
	ok(resolution > 0, "resolution is positive");
	ok(resolution >= reported, "resolution is at least what clock_getres reports");
	ok(resolution < 1000000, "resolution is finer than 1 ms");
}

static void test_thread_cpu(void)
{
	uint64_t prev = cb_thread_cpu_ns(), backwards = 0;
	for (int i = 0; i < 100000; i++) {
		uint64_t now = cb_thread_cpu_ns();
		backwards += now < prev;
		prev = now;
	}
	is_num(backwards, 0, "thread CPU time never goes backwards");

	uint64_t wall0 = cb_wall_ns(), cpu0 = cb_thread_cpu_ns();
	busy_ns(50000000);
	uint64_t wall = cb_wall_ns() - wall0, cpu = cb_thread_cpu_ns() - cpu0;
	diag("busy loop: wall %.2f ms, cpu %.2f ms", wall / 1e6, cpu / 1e6);
	ok(cpu > 0, "a busy loop consumes CPU time");
	/* Both clocks tick from the same source; CPU time is only accounted at
	 * ticks and context switches, hence the slack. */
	ok(cpu <= wall + wall / 20 + 2000000,
	   "CPU time of a busy loop does not exceed its wall time");

	wall0 = cb_wall_ns();
	cpu0 = cb_thread_cpu_ns();
	sleep_ns(30000000);
	wall = cb_wall_ns() - wall0;
	cpu = cb_thread_cpu_ns() - cpu0;
	diag("sleep: wall %.2f ms, cpu %.3f ms", wall / 1e6, cpu / 1e6);
	/* nanosleep runs on CLOCK_MONOTONIC, which NTP may slew against the raw clock. */
	ok(wall >= 29000000, "sleeping 30 ms takes about 30 ms of wall time or more");
	ok(cpu < wall / 2, "sleeping burns little CPU time");
}

static void *tsc_hz_thread(void *arg)
{
	*(double *)arg = cb_tsc_hz();
	return NULL;
}

static void test_tsc(void)
{
	bool present = cb_tsc_present();
	diag("invariant TSC %s", present ? "present" : "absent");
#if defined(__x86_64__)
	bool readable;
	bool nonstop = cpuinfo_has_flag("nonstop_tsc", &readable);
	/* The kernel sets nonstop_tsc from the same CPUID bit (and may force it
	 * on some hypervisors, so only one direction must hold). */
	if (readable && present)
		ok(nonstop, "invariant TSC is also the kernel's nonstop_tsc");
	else
		tap_skip(1, "%s: nothing to compare nonstop_tsc with",
		         present ? "/proc/cpuinfo has no flags line" : "no invariant TSC");
#elif defined(__aarch64__)
	ok(present, "the generic timer's count (CNTVCT_EL0) stands for the TSC on AArch64");
#else
	ok(!present, "no TSC outside x86-64 and AArch64");
#endif
	if (!present) {
		is_num(cb_tsc_read(), 0, "absent TSC reads 0");
		is_num(cb_tsc_hz(), 0.0, "absent TSC has no rate");
		tap_skip(2, "no invariant TSC: its rate and monotonicity are not checked");
		return;
	}

	/* Several threads asking first at once must all see the one measurement. */
	pthread_t threads[4];
	double rates[4];
	for (int i = 0; i < 4; i++)
		pthread_create(&threads[i], NULL, tsc_hz_thread, &rates[i]);
	for (int i = 0; i < 4; i++)
		pthread_join(threads[i], NULL);
	double hz = cb_tsc_hz();
	int same = 1;
	for (int i = 0; i < 4; i++)
		same &= rates[i] == hz;
	ok(same, "TSC rate is measured once and shared by all threads");
	diag("TSC %.6f GHz", hz / GHZ);
	ok(hz >= MIN_TSC_HZ && hz <= 10 * GHZ, "TSC rate within [%g, 10] GHz", MIN_TSC_HZ / GHZ);

	uint64_t prev = cb_tsc_read(), backwards = 0;
	for (int i = 0; i < 100000; i++) {
		uint64_t now = cb_tsc_read();
		backwards += now < prev;
		prev = now;
	}
	is_num(backwards, 0, "TSC never goes backwards on this thread");

	/* Over the same interval the TSC and the wall clock must agree with the
	 * measured rate; the slack covers a preemption between paired reads. */
	uint64_t wall0 = cb_wall_ns(), tsc0 = cb_tsc_read();
	sleep_ns(50000000);
	uint64_t tsc1 = cb_tsc_read(), wall1 = cb_wall_ns();
	double implied = (double)(tsc1 - tsc0) * 1e9 / (double)(wall1 - wall0);
	diag("TSC rate over a 50 ms sleep %.6f GHz", implied / GHZ);
	near(implied / hz, 1.0, 0.25, "TSC ticks over 50 ms agree with the measured rate");
}

static void test_cycles(void)
{
	struct cb_cycles c;
	cb_cycles_open(&c);
	diag("cycle counter: %s%s%s", c.kind, c.why[0] ? " - " : "", c.why);
	ok(strcmp(c.kind, "perf-cycles") == 0 || strcmp(c.kind, "estimate") == 0,
	   "counter kind is perf-cycles or estimate");
	if (strcmp(c.kind, "estimate") == 0) {
		is_num(c.fd, -1, "estimate has no file descriptor");
		ok(c.why[0] != '\0', "estimate says why perf cycles are not used");
		ok(strncmp(c.why, "perf_event_open", 15) == 0, "the reason names perf_event_open");
		if (strstr(c.why, "errno"))
			ok(strstr(c.why, "perf_event_paranoid") != NULL,
			   "a refused open reports perf_event_paranoid");
		else
			tap_skip(1, "perf_event_open was not refused with an errno: %s", c.why);
		is_num(cb_cycles_read(&c), 0, "estimate reads 0");
	} else {
		ok(c.fd >= 0, "perf counter has a file descriptor");
		is_str(c.why, "", "perf counter needs no reason");
		uint64_t before = cb_cycles_read(&c);
		busy_ns(10000000);
		uint64_t after = cb_cycles_read(&c);
		ok(after > before, "perf cycles advance over a busy loop");
		tap_skip(2,
		         "perf cycles in use: the estimate's reason and zero reads do not apply");
	}
	cb_cycles_close(&c);
	is_num(c.fd, -1, "close leaves no descriptor");
	cb_cycles_close(&c);
	is_num(c.fd, -1, "closing twice is harmless: still no descriptor");
	is_num(cb_cycles_read(&c), 0, "...and a closed counter reads 0");
}

static void test_core_hz(void)
{
	double hz = cb_core_hz_estimate(50000000);
	diag("core clock estimate %.4f GHz", hz / GHZ);
	ok(hz >= 0.2 * GHZ && hz <= 10 * GHZ, "core clock estimate within [0.2, 10] GHz");

	double quick = cb_core_hz_estimate(0);
	diag("core clock estimate with no time budget %.4f GHz", quick / GHZ);
	ok(quick >= 0.2 * GHZ && quick <= 10 * GHZ, "a zero budget still gives a plausible figure");
}

int main(void)
{
	tap_plan(27);
	test_wall();
	test_thread_cpu();
	test_tsc();
	test_cycles();
	test_core_hz();
	return tap_done();
}
