/* test_profile.c: the profiler on code of known content.
 *
 * Two loops (tests/profile_loops.c: AESENC and PXOR; scalar IMUL) are
 * sampled in this process (the CPU-time timer) and in a child running
 * tests/profile_loop (ptrace); each must get at least 95% of its samples in
 * its own function and in its own instruction classes, and the IMUL loop
 * keeps its share beside a thread that wakes every 2 ms (each thread is
 * sampled per period of its own CPU time, not at every tick it ran). The symbolizer names
 * the function in a binary with symbols, and in a stripped copy gives the
 * same range from the unwind tables with a hint instead of a name. Each
 * decoder built in sorts fixed instructions into classes, on any host (the
 * A64 one on x86-64 too, where capstone is installed), and the profiler
 * uses the one of the architecture it runs on. A refused ptrace says why.
 * No check is about time: the loops run until enough samples are taken. */
#include "config.h"

#include "core/profile/decode.h"
#include "core/profile/profile.h"
#include "core/profile/sampler.h"
#include "core/profile/symbols.h"
#include "core/profile/tracer.h"
#include "tests/profile_loops.h"
#include "tests/tap.h"

#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RATE_HZ 1000.0
#define CAPACITY 8192
#define WANTED 300     /* samples to judge a loop on */
#define AT_LEAST 50    /* fewer says the sampler does not work */
#define MAX_SECONDS 10 /* of CPU (in process) or wall time (ptrace) */
#define IN_PROCESS_POINTS 10
#define PTRACE_POINTS 8
#define REFUSAL_POINTS 1
#define SYMBOL_POINTS 5
#define DECODER_CASES 17
#define A64_CASES 29
#define CHUNK_ROUNDS 20000 /* about a millisecond: the harness between chunks is < 1% */
#define PLAN                                                                                       \
	(IN_PROCESS_POINTS + PTRACE_POINTS + REFUSAL_POINTS + SYMBOL_POINTS + DECODER_CASES + 2 +  \
	 A64_CASES + 2 + 2)

static volatile uint64_t sink;

static double share(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / (double)whole : 0.0;
}

static uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Whether /proc/cpuinfo lists FLAG. */
static int cpu_has(const char *flag)
{
	char line[8192], word[64];
	FILE *f = fopen("/proc/cpuinfo", "r");
	int found = 0;

	if (!f)
		return 0;
	snprintf(word, sizeof word, " %s", flag);
	while (!found && fgets(line, sizeof line, f))
		if (strncmp(line, "flags", 5) == 0) {
			char *at = strstr(line, word);
			found = at && (at[strlen(word)] == ' ' || at[strlen(word)] == '\n');
		}
	fclose(f);
	return found;
}

static const struct cb_profile_function *named(const struct cb_profile *p, const char *name)
{
	for (size_t i = 0; i < p->n_functions; i++)
		if (p->functions[i].name && strcmp(p->functions[i].name, name) == 0)
			return &p->functions[i];
	return NULL;
}

static void show(const struct cb_profile *p)
{
	for (size_t i = 0; i < p->n_functions && i < 4; i++)
		diag("%" PRIu64 " samples in %s %s+0x%" PRIx64 " (%s)", p->functions[i].samples,
		     p->functions[i].name ? p->functions[i].name : "?", p->functions[i].object,
		     p->functions[i].offset, p->functions[i].range);
	if (p->degraded[0])
		diag("degraded: %s", p->degraded);
}

/* ---- in process ---------------------------------------------------------- */

static int sample_here(int aes, struct cb_profile *p)
{
	char err[256];
	struct cb_samples s;
	struct cb_sampler *sampler = cb_sampler_start(RATE_HZ, CAPACITY, err, sizeof err);
	uint64_t start = clock_ns(CLOCK_THREAD_CPUTIME_ID);

	if (!sampler) {
		diag("%s", err);
		return -1;
	}
	while (cb_sampler_count(sampler) < WANTED &&
	       clock_ns(CLOCK_THREAD_CPUTIME_ID) - start < MAX_SECONDS * 1000000000ull) {
		if (aes)
			cb_loop_aes(CHUNK_ROUNDS);
		else
			sink = cb_loop_imul(CHUNK_ROUNDS);
	}
	if (cb_sampler_stop(sampler, &s, err, sizeof err) != 0)
		diag("%s", err);
	if (cb_profile_build(0, &s, p, err, sizeof err) != 0) {
		diag("%s", err);
		cb_samples_free(&s);
		return -1;
	}
	cb_samples_free(&s);
	show(p);
	return 0;
}

static void on_marker(int sig)
{
	(void)sig;
}

static void test_in_process(int loops_run)
{
	struct cb_profile p;
	struct sigaction marker, after;
	const struct cb_profile_function *f;
	json_t *json;
	char *text;

	if (!loops_run) {
		tap_skip(IN_PROCESS_POINTS, "the AES loop needs x86-64 with AES-NI");
		return;
	}
	memset(&marker, 0, sizeof marker);
	marker.sa_handler = on_marker;
	sigaction(CB_SAMPLER_SIGNAL, &marker, NULL);

	if (sample_here(1, &p) != 0)
		memset(&p, 0, sizeof p);
	ok(p.samples >= AT_LEAST, "in process, AES loop: %" PRIu64 " samples", p.samples);
	ok(share(cb_profile_samples_in(&p, "cb_loop_aes"), p.samples) >= 0.95,
	   "in process: >= 95%% of the samples in cb_loop_aes");
	ok(share(p.classes[CB_ISA_AES_NI] + p.classes[CB_ISA_SSE], p.samples) >= 0.95,
	   "in process: >= 95%% at aes-ni or sse instructions (aes-ni %" PRIu64 ", sse %" PRIu64
	   ")",
	   p.classes[CB_ISA_AES_NI], p.classes[CB_ISA_SSE]);
	ok(share(p.classes_before[CB_ISA_AES_NI] + p.classes_before[CB_ISA_SSE], p.samples) >= 0.95,
	   "in process: >= 95%% just after aes-ni or sse instructions (aes-ni %" PRIu64
	   ", sse %" PRIu64 ")",
	   p.classes_before[CB_ISA_AES_NI], p.classes_before[CB_ISA_SSE]);
	f = named(&p, "cb_loop_aes");
	ok(f && f->decoded && (f->present >> CB_ISA_AES_NI & 1) && (f->present >> CB_ISA_SSE & 1) &&
	       !(f->present >> CB_ISA_AVX & 1),
	   "cb_loop_aes's code holds aes-ni and sse, and no avx");
	json = cb_profile_json(&p);
	text = json ? json_dumps(json, JSON_COMPACT) : NULL;
	ok(text && strstr(text, "\"name\":\"cb_loop_aes\"") && strstr(text, "\"aes-ni\":") &&
	       strstr(text, "\"sampler\":\"timer\"") && strstr(text, "\"classes_before\":"),
	   "the profile as JSON names the function, the class and the sampler");
	free(text);
	json_decref(json);
	cb_profile_free(&p);

	if (sample_here(0, &p) != 0)
		memset(&p, 0, sizeof p);
	ok(p.samples >= AT_LEAST, "in process, IMUL loop: %" PRIu64 " samples", p.samples);
	ok(share(cb_profile_samples_in(&p, "cb_loop_imul"), p.samples) >= 0.95,
	   "in process: >= 95%% of the samples in cb_loop_imul");
	ok(share(p.classes[CB_ISA_BASE], p.samples) >= 0.95,
	   "in process: >= 95%% at base instructions (%" PRIu64 " of %" PRIu64 ")",
	   p.classes[CB_ISA_BASE], p.samples);
	cb_profile_free(&p);

	sigaction(CB_SAMPLER_SIGNAL, NULL, &after);
	ok(after.sa_handler == on_marker, "the signal's previous disposition is back after stop");
	signal(CB_SAMPLER_SIGNAL, SIG_DFL);
}

/* ---- children ------------------------------------------------------------ */

static void program_path(char *path, size_t len, const char *name)
{
	const char *build = getenv("top_builddir");

	snprintf(path, len, "%s/tests/%s", build ? build : CB_BUILDDIR, name);
}

/* Start PROGRAM MODE; ADDRS gets the addresses it prints. Returns its pid. */
static pid_t spawn(const char *program, const char *mode, uint64_t addrs[2])
{
	int fds[2];
	pid_t pid;
	FILE *f;

	if (pipe(fds) != 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		execl(program, program, mode, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	f = fdopen(fds[0], "r");
	if (!f || fscanf(f, "%" SCNx64 " %" SCNx64, &addrs[0], &addrs[1]) != 2) {
		diag("%s %s printed no addresses", program, mode);
		if (pid > 0)
			kill(pid, SIGKILL);
		pid = -1;
	}
	if (f)
		fclose(f);
	else
		close(fds[0]);
	return pid;
}

static void reap(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/* The state letter and tracer of PID, from /proc. */
static void proc_state(pid_t pid, char *state, long *tracer)
{
	char path[64], line[256];
	FILE *f;

	*state = '?';
	*tracer = -1;
	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	if (!(f = fopen(path, "r")))
		return;
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, "State:", 6) == 0)
			sscanf(line + 6, " %c", state);
		if (strncmp(line, "TracerPid:", 10) == 0)
			*tracer = strtol(line + 10, NULL, 10);
	}
	fclose(f);
}

/* The CPU time PID's threads other than its first have run (schedstat);
 * *ALL gets all its threads'. */
static uint64_t others_ran_ns(pid_t pid, uint64_t *all)
{
	char path[320];
	uint64_t others = 0, ran;
	struct dirent *d;
	DIR *dir;
	FILE *f;

	*all = 0;
	snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
	if (!(dir = opendir(path)))
		return 0;
	while ((d = readdir(dir)) != NULL) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "/proc/%d/task/%s/schedstat", (int)pid, d->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		if (fscanf(f, "%" SCNu64, &ran) == 1) {
			*all += ran;
			if (atoi(d->d_name) != pid)
				others += ran;
		}
		fclose(f);
	}
	closedir(dir);
	return others;
}

/* Sample child PID through ptrace; -1 with WHY when refused. */
static int sample_child(pid_t pid, struct cb_profile *p, char *why, size_t why_len)
{
	char err[256];
	struct cb_samples s;
	struct cb_tracer *t = cb_tracer_start(pid, RATE_HZ, CAPACITY, why, why_len);
	uint64_t start = clock_ns(CLOCK_MONOTONIC);
	struct timespec pause_ms = {.tv_nsec = 10000000};

	memset(p, 0, sizeof *p);
	if (!t)
		return -1;
	while (cb_tracer_count(t) < WANTED && !cb_tracer_ended(t) &&
	       clock_ns(CLOCK_MONOTONIC) - start < MAX_SECONDS * 1000000000ull)
		nanosleep(&pause_ms, NULL);
	cb_tracer_stop(t, &s);
	if (cb_profile_build(pid, &s, p, err, sizeof err) != 0)
		diag("%s", err);
	cb_samples_free(&s);
	show(p);
	return 0;
}

static void test_ptrace(int loops_run)
{
	char program[4096], why[512], state;
	uint64_t addrs[2];
	struct cb_profile p;
	long tracer;
	pid_t pid;

	if (!loops_run) {
		tap_skip(PTRACE_POINTS, "the AES loop needs x86-64 with AES-NI");
		return;
	}
	program_path(program, sizeof program, "profile_loop");
	pid = spawn(program, "aes", addrs);
	if (pid < 0 || sample_child(pid, &p, why, sizeof why) != 0) {
		reap(pid);
		tap_skip(PTRACE_POINTS, "%s", pid < 0 ? "tests/profile_loop did not start" : why);
		return;
	}
	ok(p.samples >= AT_LEAST, "ptrace, AES loop: %" PRIu64 " samples", p.samples);
	ok(share(cb_profile_samples_in(&p, "cb_loop_aes"), p.samples) >= 0.95,
	   "ptrace: >= 95%% of the samples in cb_loop_aes");
	ok(share(p.classes[CB_ISA_AES_NI] + p.classes[CB_ISA_SSE], p.samples) >= 0.95,
	   "ptrace: >= 95%% at aes-ni or sse instructions (aes-ni %" PRIu64 ", sse %" PRIu64 ")",
	   p.classes[CB_ISA_AES_NI], p.classes[CB_ISA_SSE]);
	ok(strcmp(p.sampler, "ptrace") == 0, "the profile says it was taken through ptrace");
	proc_state(pid, &state, &tracer);
	ok(tracer == 0 && state != 't' && state != 'T',
	   "after stop the child runs on, untraced (state %c, tracer %ld)", state, tracer);
	cb_profile_free(&p);
	reap(pid);

	pid = spawn(program, "imul", addrs);
	if (pid < 0 || sample_child(pid, &p, why, sizeof why) != 0)
		memset(&p, 0, sizeof p);
	ok(share(cb_profile_samples_in(&p, "cb_loop_imul"), p.samples) >= 0.95,
	   "ptrace: >= 95%% of %" PRIu64 " samples in cb_loop_imul", p.samples);
	ok(share(p.classes[CB_ISA_BASE], p.samples) >= 0.95,
	   "ptrace: >= 95%% at base instructions (%" PRIu64 ")", p.classes[CB_ISA_BASE]);
	cb_profile_free(&p);
	reap(pid);

	/* The waker's share of the samples is its share of the CPU time,
	 * measured around the sampling (its wakes and the stops it was sampled
	 * in): within 3 points of it, and the IMUL loop keeps the rest. Sampled
	 * at every tick it ran, as the sampler once did, it would take about a
	 * third. */
	pid = spawn(program, "imul-waker", addrs);
	uint64_t all0, all1, waker0 = others_ran_ns(pid, &all0), waker1;
	if (pid < 0 || sample_child(pid, &p, why, sizeof why) != 0)
		memset(&p, 0, sizeof p);
	waker1 = others_ran_ns(pid, &all1);
	double cpu = all1 > all0 ? share(waker1 - waker0, all1 - all0) : 1;
	double imul = share(cb_profile_samples_in(&p, "cb_loop_imul"), p.samples);
	diag("the waker ran %.1f%% of the CPU time", 100 * cpu);
	ok(p.samples >= AT_LEAST && imul >= 1 - cpu - 0.03 && imul >= 0.9,
	   "ptrace, beside a thread that wakes every 2 ms: %.1f%% of %" PRIu64
	   " samples in cb_loop_imul, the rest's CPU share %.1f%% (within 3 points, >= 90%%)",
	   100 * imul, p.samples, 100 * cpu);
	cb_profile_free(&p);
	reap(pid);
}

/* A process without the right to trace tries: as root, a child that becomes
 * nobody tries another child of root's; otherwise this process tries pid 1. */
static void test_refusal(void)
{
	char err[512] = "", program[4096];
	uint64_t addrs[2];
	pid_t victim, prober;
	int fds[2];
	ssize_t n;

	if (geteuid() != 0) {
		struct cb_tracer *t = cb_tracer_start(1, RATE_HZ, 16, err, sizeof err);
		if (t) {
			struct cb_samples s;
			cb_tracer_stop(t, &s);
			cb_samples_free(&s);
			tap_skip(REFUSAL_POINTS,
			         "this process may trace pid 1: no refusal to check");
			return;
		}
		ok(strstr(err, "ptrace is not allowed") != NULL, "a refusal says why: %s", err);
		return;
	}
	program_path(program, sizeof program, "profile_loop");
	victim = spawn(program, "wait", addrs);
	if (victim < 0 || pipe(fds) != 0) {
		reap(victim);
		ok(0, "a refusal says why (no process to refuse)");
		return;
	}
	prober = fork();
	if (prober == 0) {
		struct cb_tracer *t;
		close(fds[0]);
		if (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0)
			_exit(3);
		t = cb_tracer_start(victim, RATE_HZ, 16, err, sizeof err);
		if (t)
			snprintf(err, sizeof err, "seized: no refusal");
		n = write(fds[1], err, strlen(err));
		_exit(n < 0 ? 4 : 0);
	}
	close(fds[1]);
	n = read(fds[0], err, sizeof err - 1);
	err[n > 0 ? n : 0] = '\0';
	close(fds[0]);
	waitpid(prober, NULL, 0);
	reap(victim);
	ok(strstr(err, "ptrace is not allowed") && strstr(err, "uid 0"), "a refusal says why: %s",
	   err);
}

/* ---- symbols ------------------------------------------------------------- */

static int lookup_in(pid_t pid, uint64_t pc, struct cb_symbol *out, char *copy[4])
{
	char err[256];
	struct cb_symbols *s = cb_symbols_open(pid, err, sizeof err);

	memset(copy, 0, 4 * sizeof *copy);
	memset(out, 0, sizeof *out);
	out->build_id = out->range = "";
	if (!s) {
		diag("%s", err);
		return -1;
	}
	cb_symbols_lookup(s, pc, out);
	/* the strings live as long as the snapshot: keep copies */
	copy[0] = out->name ? strdup(out->name) : NULL;
	copy[1] = out->hint ? strdup(out->hint) : NULL;
	copy[2] = strdup(out->build_id);
	copy[3] = strdup(out->range);
	out->name = copy[0];
	out->hint = copy[1];
	out->build_id = copy[2];
	out->range = copy[3];
	out->object = NULL;
	cb_symbols_close(s);
	return 0;
}

static void test_symbols(void)
{
	char program[4096], stripped[] = "/tmp/cb-profile-stripped.XXXXXX", command[8400];
	char *kept[4], *kept_stripped[4];
	struct cb_symbol full, bare;
	uint64_t addrs[2] = {0, 0}, bare_addrs[2] = {0, 0};
	pid_t pid, bare_pid;
	int fd;

	program_path(program, sizeof program, "profile_loop");
	fd = mkstemp(stripped);
	if (fd >= 0)
		close(fd);
	snprintf(command, sizeof command, "strip -o '%s' '%s' 2>/dev/null", stripped, program);
	if (fd < 0 || system(command) != 0) {
		unlink(stripped);
		tap_skip(SYMBOL_POINTS, "strip is not there to make a stripped copy");
		return;
	}
	pid = spawn(program, "wait", addrs);
	bare_pid = spawn(stripped, "wait", bare_addrs);
	lookup_in(pid, addrs[0] + 4, &full, kept);
	lookup_in(bare_pid, bare_addrs[0] + 4, &bare, kept_stripped);
	reap(pid);
	reap(bare_pid);
	unlink(stripped);

	ok(full.name && strcmp(full.name, "cb_loop_aes") == 0 && strcmp(full.range, "cfi") == 0,
	   "with symbols: the function is cb_loop_aes, its range from the unwind tables");
	ok(bare.name == NULL, "stripped: no name (got %s)", bare.name ? bare.name : "none");
	ok(bare.size > 0 && bare.start == full.start && bare.size == full.size,
	   "stripped: the same range from the unwind tables (0x%" PRIx64 "+%" PRIu64 ")",
	   bare.start, bare.size);
	ok(bare.hint && strcmp(bare.hint, "cb_loop_anchor") == 0,
	   "stripped: the nearest exported function below is a hint (%s)",
	   bare.hint ? bare.hint : "none");
	ok(full.build_id && full.build_id[0] && strcmp(full.build_id, bare.build_id) == 0,
	   "both copies give the same build id (%s)", full.build_id ? full.build_id : "none");
	for (int i = 0; i < 4; i++) {
		free(kept[i]);
		free(kept_stripped[i]);
	}
}

/* ---- decoder ------------------------------------------------------------- */

static const struct {
	const char *what;
	uint8_t bytes[8];
	size_t len;
	enum cb_isa_class want;
} decoder_cases[DECODER_CASES] = {
    {"aesenc xmm0, xmm1", {0x66, 0x0f, 0x38, 0xdc, 0xc1}, 5, CB_ISA_AES_NI},
    {"vaesenc xmm0, xmm1, xmm2 (VEX.128)", {0xc4, 0xe2, 0x71, 0xdc, 0xc2}, 5, CB_ISA_AES_NI},
    {"vaesenc ymm0, ymm1, ymm2 (VEX.256)", {0xc4, 0xe2, 0x75, 0xdc, 0xc2}, 5, CB_ISA_VAES},
    {"vaesenc zmm0, zmm1, zmm2 (EVEX)", {0x62, 0xf2, 0x75, 0x48, 0xdc, 0xc2}, 6, CB_ISA_VAES},
    {"pclmulqdq xmm0, xmm1, 0", {0x66, 0x0f, 0x3a, 0x44, 0xc1, 0x00}, 6, CB_ISA_PCLMUL},
    {"vpclmulqdq xmm0, xmm1, xmm2, 0 (VEX.128)",
     {0xc4, 0xe3, 0x71, 0x44, 0xc2, 0x00},
     6,
     CB_ISA_PCLMUL},
    {"vpclmulqdq ymm0, ymm1, ymm2, 0 (VEX.256)",
     {0xc4, 0xe3, 0x75, 0x44, 0xc2, 0x00},
     6,
     CB_ISA_VPCLMULQDQ},
    {"sha256rnds2 xmm1, xmm2", {0x0f, 0x38, 0xcb, 0xca}, 4, CB_ISA_SHA_NI},
    {"pxor xmm0, xmm1", {0x66, 0x0f, 0xef, 0xc1}, 4, CB_ISA_SSE},
    {"pshufb xmm0, xmm1", {0x66, 0x0f, 0x38, 0x00, 0xc1}, 5, CB_ISA_SSE4},
    {"vpxor xmm0, xmm1, xmm2", {0xc5, 0xf1, 0xef, 0xc2}, 4, CB_ISA_AVX},
    {"vpaddd ymm0, ymm1, ymm2", {0xc5, 0xf5, 0xfe, 0xc2}, 4, CB_ISA_AVX2},
    {"vpxord zmm0, zmm1, zmm2", {0x62, 0xf1, 0x75, 0x48, 0xef, 0xc2}, 6, CB_ISA_AVX512},
    {"imul rax, rcx", {0x48, 0x0f, 0xaf, 0xc1}, 4, CB_ISA_BASE},
    {"mulx rax, rcx, rdx", {0xc4, 0xe2, 0xf3, 0xf6, 0xc2}, 5, CB_ISA_BMI},
    {"adcx rax, rcx", {0x66, 0x48, 0x0f, 0x38, 0xf6, 0xc1}, 6, CB_ISA_ADX},
    {"0x06 (push es: invalid in 64-bit mode)", {0x06}, 1, CB_ISA_UNKNOWN},
};

/* sha256rnds2, vaesenc ymm, vpclmulqdq ymm, pxor: one range */
static const int range_cases[] = {7, 2, 6, 8};

static void test_x86(void)
{
	const struct cb_decoder *d = NULL;
	uint8_t code[32];
	size_t len = 0, undecoded;
	cb_isa_set found;

#ifdef HAVE_ZYDIS
	d = &cb_decoder_x86;
#endif
	if (!d) {
		tap_skip(DECODER_CASES + 2, "no x86-64 decoder built in (Zydis, on x86-64 only)");
		return;
	}
	for (int i = 0; i < DECODER_CASES; i++) {
		char text[160];
		enum cb_isa_class got =
		    d->class_of(decoder_cases[i].bytes, decoder_cases[i].len, NULL);
		d->describe(decoder_cases[i].bytes, decoder_cases[i].len, text, sizeof text);
		if (!ok(got == decoder_cases[i].want, "%s is %s", decoder_cases[i].what,
		        cb_isa_name(decoder_cases[i].want)))
			diag("got %s (%s)", cb_isa_name(got), text);
	}
	for (size_t i = 0; i < sizeof range_cases / sizeof range_cases[0]; i++) {
		int at = range_cases[i];
		memcpy(code + len, decoder_cases[at].bytes, decoder_cases[at].len);
		len += decoder_cases[at].len;
	}
	found = cb_decoder_range(d, code, len, &undecoded);
	ok(found == (1u << CB_ISA_SHA_NI | 1u << CB_ISA_VAES | 1u << CB_ISA_VPCLMULQDQ |
	             1u << CB_ISA_SSE) &&
	       undecoded == 0,
	   "a range of sha256rnds2, vaesenc ymm, vpclmulqdq ymm, pxor holds those four "
	   "classes");
	ok(cb_decoder_before(d, code, len, 4) == CB_ISA_SHA_NI &&
	       cb_decoder_before(d, code, len, 9) == CB_ISA_VAES &&
	       cb_decoder_before(d, code, len, 2) == CB_ISA_UNKNOWN &&
	       cb_decoder_before(d, code, len, 0) == CB_ISA_UNKNOWN,
	   "the instruction before an offset: sha-ni at 4, vaes at 9, none inside one or "
	   "at 0");
}

/* A64 words as the Arm ARM encodes them (checked against GNU as); each
 * class by one instruction at least, the crypto ones by all their kinds. */
static const struct {
	const char *what;
	uint32_t word;
	size_t len; /* 4, or fewer: a word cut short */
	enum cb_isa_class want;
} a64_cases[A64_CASES] = {
    {"aese v0.16b, v1.16b", 0x4e284820, 4, CB_ISA_AES},
    {"aesd v0.16b, v1.16b", 0x4e285820, 4, CB_ISA_AES},
    {"aesmc v0.16b, v0.16b", 0x4e286800, 4, CB_ISA_AES},
    {"aesimc v0.16b, v0.16b", 0x4e287800, 4, CB_ISA_AES},
    {"pmull v0.1q, v1.1d, v2.1d", 0x0ee2e020, 4, CB_ISA_PMULL},
    {"pmull2 v0.1q, v1.2d, v2.2d", 0x4ee2e020, 4, CB_ISA_PMULL},
    {"pmull v0.8h, v1.8b, v2.8b (bytes: Advanced SIMD)", 0x0e22e020, 4, CB_ISA_ASIMD},
    {"sha1c q0, s1, v2.4s", 0x5e020020, 4, CB_ISA_SHA1},
    {"sha1h s0, s1", 0x5e280820, 4, CB_ISA_SHA1},
    {"sha256h q0, q1, v2.4s", 0x5e024020, 4, CB_ISA_SHA2},
    {"sha256h2 q0, q1, v2.4s", 0x5e025020, 4, CB_ISA_SHA2},
    {"sha256su0 v0.4s, v1.4s", 0x5e282820, 4, CB_ISA_SHA2},
    {"sha512h q0, q1, v2.2d", 0xce628020, 4, CB_ISA_SHA512},
    {"sha512su0 v0.2d, v1.2d", 0xcec08020, 4, CB_ISA_SHA512},
    {"eor3 v0.16b, v1.16b, v2.16b, v3.16b", 0xce020c20, 4, CB_ISA_SHA3},
    {"rax1 v0.2d, v1.2d, v2.2d", 0xce628c20, 4, CB_ISA_SHA3},
    {"xar v0.2d, v1.2d, v2.2d, #1", 0xce820420, 4, CB_ISA_SHA3},
    {"bcax v0.16b, v1.16b, v2.16b, v3.16b", 0xce220c20, 4, CB_ISA_SHA3},
    {"add z0.d, z1.d, z2.d (SVE)", 0x04e20020, 4, CB_ISA_SVE},
    {"eor v0.16b, v1.16b, v2.16b", 0x6e221c20, 4, CB_ISA_ASIMD},
    {"fadd d0, d1, d2", 0x1e622820, 4, CB_ISA_ASIMD},
    {"ldr q0, [x1]", 0x3dc00020, 4, CB_ISA_ASIMD},
    {"add x0, x1, x2", 0x8b020020, 4, CB_ISA_BASE},
    {"ldr x0, [x1]", 0xf9400020, 4, CB_ISA_BASE},
    {"ret", 0xd65f03c0, 4, CB_ISA_BASE},
    {"crc32b w0, w1, w2", 0x1ac24020, 4, CB_ISA_OTHER},
    {"sm4e v0.4s, v1.4s", 0xcec08420, 4, CB_ISA_OTHER},
    {"0x00000000 (udf #0: undefined)", 0x00000000, 4, CB_ISA_UNKNOWN},
    {"3 bytes of add x0, x1, x2 (a word cut short)", 0x8b020020, 3, CB_ISA_UNKNOWN},
};

/* WORD's bytes in memory: A64 instructions are little-endian. */
static void a64_bytes(uint32_t word, uint8_t out[4])
{
	for (int i = 0; i < 4; i++)
		out[i] = (uint8_t)(word >> 8 * i);
}

static void test_a64(void)
{
	const struct cb_decoder *d = NULL;
	/* sha256h, an undefined word, aese, eor v: one range */
	const uint32_t range[] = {0x5e024020, 0x00000000, 0x4e284820, 0x6e221c20};
	uint8_t code[sizeof range];
	size_t undecoded;
	cb_isa_set found;

#ifdef HAVE_CAPSTONE
	d = &cb_decoder_a64;
#endif
	if (!d) {
		tap_skip(A64_CASES + 2,
		         "no A64 decoder built in (capstone not found: Debian libcapstone-dev; "
		         "tests/arm64.sh checks it under emulation)");
		return;
	}
	for (int i = 0; i < A64_CASES; i++) {
		uint8_t bytes[4];
		char text[160];
		size_t n;
		enum cb_isa_class got;

		a64_bytes(a64_cases[i].word, bytes);
		got = d->class_of(bytes, a64_cases[i].len, &n);
		d->describe(bytes, a64_cases[i].len, text, sizeof text);
		if (!ok(got == a64_cases[i].want && n == (got == CB_ISA_UNKNOWN ? 0 : 4),
		        "A64 %s is %s", a64_cases[i].what, cb_isa_name(a64_cases[i].want)))
			diag("got %s, length %zu (%s)", cb_isa_name(got), n, text);
	}
	for (size_t i = 0; i < sizeof range / sizeof range[0]; i++)
		a64_bytes(range[i], code + 4 * i);
	found = cb_decoder_range(d, code, sizeof code, &undecoded);
	if (!ok(found == (1u << CB_ISA_SHA2 | 1u << CB_ISA_AES | 1u << CB_ISA_ASIMD) &&
	            undecoded == 4,
	        "A64: a range of sha256h, an undefined word, aese, eor holds sha2, aes, asimd, "
	        "4 bytes undecoded"))
		diag("classes 0x%x, %zu undecoded", (unsigned)found, undecoded);
	ok(cb_decoder_before(d, code, sizeof code, 4) == CB_ISA_SHA2 &&
	       cb_decoder_before(d, code, sizeof code, 8) == CB_ISA_UNKNOWN &&
	       cb_decoder_before(d, code, sizeof code, 12) == CB_ISA_AES &&
	       cb_decoder_before(d, code, sizeof code, 16) == CB_ISA_ASIMD &&
	       cb_decoder_before(d, code, sizeof code, 6) == CB_ISA_UNKNOWN &&
	       cb_decoder_before(d, code, sizeof code, 0) == CB_ISA_UNKNOWN,
	   "A64: the instruction before an offset: sha2 at 4, none at 8 (undefined), aes at 12 "
	   "(past it), asimd at 16, none inside one or at 0");
}

static void test_decoder(void)
{
	int names_ok = 1;

	test_x86();
	test_a64();
	/* Through decode.h, the profiler's way: this architecture's decoder. */
#if defined(__x86_64__)
	if (!cb_decode_available())
		tap_skip(1, "no decoder for x86-64 built in");
	else
		ok(cb_decode_class(decoder_cases[0].bytes, decoder_cases[0].len, NULL) ==
		       CB_ISA_AES_NI,
		   "the profiler decodes with x86-64's decoder: aesenc is aes-ni");
#elif defined(__aarch64__)
	uint8_t aese[4];

	a64_bytes(0x4e284820, aese);
	if (!cb_decode_available())
		tap_skip(1, "no decoder for AArch64 built in");
	else
		ok(cb_decode_class(aese, sizeof aese, NULL) == CB_ISA_AES,
		   "the profiler decodes with AArch64's decoder: aese is aes");
#else
	tap_skip(1, "no decoder for this architecture");
#endif
	for (int c = 0; c < CB_ISA_COUNT; c++)
		names_ok &= cb_isa_from_name(cb_isa_name(c)) == c;
	ok(names_ok && cb_isa_from_name("nonsense") == -1, "every class has a name of its own");
}

int main(void)
{
	int loops_run = 0;

#if defined(__x86_64__)
	loops_run = cpu_has("aes");
#endif
	tap_plan(PLAN);
	test_in_process(loops_run);
	test_ptrace(loops_run);
	test_refusal();
	test_symbols();
	test_decoder();
	return tap_done();
}
