/* sampler.c: a CPU-time timer on the calling thread, whose signal handler
 * stores the interrupted program counter. */
#include "core/profile/sampler.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "core/base/errbuf.h"

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

struct cb_sampler {
	timer_t timer;
	clockid_t clock;
	uint64_t *pcs;
	size_t capacity;
	volatile size_t count; /* written by the handler, read by the thread */
	volatile uint64_t lost;
	volatile uint64_t merged;
	uint64_t cpu_start;
	double rate_hz;
	int was_blocked; /* the signal was blocked in this thread before start */
};

/* The sampler of this thread, read by the handler. initial-exec: the
 * variable sits at a fixed offset from the thread pointer, so reading it in
 * a signal handler calls nothing (no __tls_get_addr). */
static __thread struct cb_sampler *current __attribute__((tls_model("initial-exec")));

static pthread_mutex_t install_lock = PTHREAD_MUTEX_INITIALIZER;
static int installed; /* samplers running */
static struct sigaction previous;

static uint64_t context_pc(const void *context)
{
	const ucontext_t *uc = context;
#if defined(__x86_64__)
	return (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
	return (uint64_t)uc->uc_mcontext.pc;
#else
	(void)uc;
	return 0;
#endif
}

static void on_tick(int sig, siginfo_t *info, void *context)
{
	struct cb_sampler *s = current;

	(void)sig;
	if (!s || info->si_code != SI_TIMER)
		return; /* a stray signal, or one sent by another program */
	if (s->count < s->capacity)
		s->pcs[s->count++] = context_pc(context);
	else
		s->lost++;
	if (info->si_overrun > 0)
		s->merged += (uint64_t)info->si_overrun;
}

static uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	if (clock_gettime(clock, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int install(char *err, size_t err_len)
{
	struct sigaction sa;
	int rc = 0;

	pthread_mutex_lock(&install_lock);
	if (installed == 0) {
		memset(&sa, 0, sizeof sa);
		sa.sa_sigaction = on_tick;
		sa.sa_flags = SA_SIGINFO | SA_RESTART;
		sigemptyset(&sa.sa_mask);
		if (sigaction(CB_SAMPLER_SIGNAL, &sa, &previous) != 0)
			rc = cb_errorf(err, err_len, "sampler: sigaction: %s", strerror(errno));
	}
	if (rc == 0)
		installed++;
	pthread_mutex_unlock(&install_lock);
	return rc;
}

static void uninstall(void)
{
	pthread_mutex_lock(&install_lock);
	if (--installed == 0)
		sigaction(CB_SAMPLER_SIGNAL, &previous, NULL);
	pthread_mutex_unlock(&install_lock);
}

/* Unblock the signal in this thread; 1 when it was blocked. */
static int unblock_signal(void)
{
	sigset_t set, old;

	sigemptyset(&set);
	sigaddset(&set, CB_SAMPLER_SIGNAL);
	pthread_sigmask(SIG_UNBLOCK, &set, &old);
	return sigismember(&old, CB_SAMPLER_SIGNAL) == 1;
}

static int arm(struct cb_sampler *s, char *err, size_t err_len)
{
	struct sigevent event;
	struct itimerspec period;
	uint64_t ns = (uint64_t)(1e9 / s->rate_hz);

	if (pthread_getcpuclockid(pthread_self(), &s->clock) != 0)
		return cb_errorf(err, err_len, "sampler: this thread has no CPU-time clock");
	memset(&event, 0, sizeof event);
	event.sigev_notify = SIGEV_THREAD_ID;
	event.sigev_signo = CB_SAMPLER_SIGNAL;
	event.sigev_notify_thread_id = (pid_t)syscall(SYS_gettid);
	if (timer_create(s->clock, &event, &s->timer) != 0)
		return cb_errorf(err, err_len,
		                 "sampler: no timer on this thread's CPU clock (timer_create: %s)",
		                 strerror(errno));
	if (ns == 0)
		ns = 1;
	period.it_interval.tv_sec = (time_t)(ns / 1000000000u);
	period.it_interval.tv_nsec = (long)(ns % 1000000000u);
	period.it_value = period.it_interval;
	s->cpu_start = clock_ns(s->clock);
	if (timer_settime(s->timer, 0, &period, NULL) != 0) {
		int saved = errno;
		timer_delete(s->timer);
		return cb_errorf(err, err_len, "sampler: timer_settime: %s", strerror(saved));
	}
	return 0;
}

struct cb_sampler *cb_sampler_start(double rate_hz, size_t capacity, char *err, size_t err_len)
{
	struct cb_sampler *s;

	if (!(rate_hz > 0 && rate_hz <= 1e6) || capacity == 0) {
		cb_errorf(err, err_len, "sampler: rate %g Hz or capacity %zu out of range", rate_hz,
		          capacity);
		return NULL;
	}
	if (current) {
		cb_errorf(err, err_len, "sampler: this thread is sampled already");
		return NULL;
	}
	s = calloc(1, sizeof *s);
	if (s)
		s->pcs = calloc(capacity, sizeof *s->pcs); /* zeroed: its pages are there */
	if (!s || !s->pcs) {
		if (s)
			free(s);
		cb_errorf(err, err_len, "sampler: out of memory for %zu samples", capacity);
		return NULL;
	}
	s->capacity = capacity;
	s->rate_hz = rate_hz;
	if (install(err, err_len) != 0)
		goto fail;
	current = s;
	s->was_blocked = unblock_signal();
	if (arm(s, err, err_len) != 0) {
		current = NULL;
		uninstall();
		goto fail;
	}
	return s;
fail:
	free(s->pcs);
	free(s);
	return NULL;
}

size_t cb_sampler_count(const struct cb_sampler *s)
{
	return s->count;
}

int cb_sampler_stop(struct cb_sampler *s, struct cb_samples *out, char *err, size_t err_len)
{
	int rc = 0;

	/* After timer_delete no expiry is left: a signal already pending for
	 * this thread was delivered on the way back from the call, while the
	 * handler and CURRENT were still in place. */
	if (timer_delete(s->timer) != 0)
		rc = cb_errorf(err, err_len, "sampler: timer_delete: %s", strerror(errno));
	memset(out, 0, sizeof *out);
	out->cpu_ns = clock_ns(s->clock) - s->cpu_start;
	current = NULL;
	if (s->was_blocked) {
		sigset_t set;
		sigemptyset(&set);
		sigaddset(&set, CB_SAMPLER_SIGNAL);
		pthread_sigmask(SIG_BLOCK, &set, NULL);
	}
	uninstall();
	out->pcs = s->pcs;
	out->count = s->count;
	out->lost = s->lost;
	out->merged = s->merged;
	out->rate_hz = s->rate_hz;
	out->sampler = "timer";
	if (s->lost > 0)
		cb_samples_note(out, "the sample buffer filled up: later samples were lost");
	free(s);
	return rc;
}
