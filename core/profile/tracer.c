/* tracer.c: ptrace sampling of another process's threads at a fixed rate of
 * its CPU time. Every ptrace request comes from the one thread that seized
 * (the kernel's rule), so the sampling runs in a thread of its own. */
#include "core/profile/tracer.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/base/errbuf.h"

#define POLL_NS 2000000u        /* longest sleep: a signal waits at most this long */
#define STOP_WAIT_NS 100000000u /* how long a thread may take to stop when asked */
#define RESCAN_TICKS 16         /* look for new threads at every 16th sample */

struct tracee {
	pid_t tid;
	int schedstat; /* /proc/PID/task/TID/schedstat, or -1 */
	uint64_t ran_ns;
	uint64_t credit_ns; /* CPU time run since its last sample */
	int gone;
};

struct cb_tracer {
	pid_t pid;
	int is_parent; /* the target is this process's child: its exit status is not ours */
	clockid_t clock;
	uint64_t period_ns;
	double rate_hz;
	uint64_t *pcs;
	size_t capacity;
	atomic_size_t count;
	uint64_t lost, merged, cpu_start, cpu_last;
	struct tracee *threads;
	size_t n_threads, cap_threads;
	pthread_t thread;
	atomic_int stop, ended;
	pthread_mutex_t lock; /* guards STARTED */
	pthread_cond_t cond;
	int started; /* 0 pending, 1 seized, -1 failed */
	char err[512];
	char note[256];
};

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000u),
	                      .tv_nsec = (long)(ns % 1000000000u)};
	nanosleep(&ts, NULL);
}

static int cpu_now(struct cb_tracer *t, uint64_t *ns)
{
	struct timespec ts;

	if (clock_gettime(t->clock, &ts) != 0)
		return -1; /* the process is gone */
	*ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	t->cpu_last = *ns;
	return 0;
}

/* CPU time TH has used, from its schedstat; UINT64_MAX when unknown (then
 * the thread is sampled at every tick). */
static uint64_t thread_ran_ns(const struct tracee *th)
{
	char buf[96];
	ssize_t n;

	if (th->schedstat < 0 || (n = pread(th->schedstat, buf, sizeof buf - 1, 0)) <= 0)
		return UINT64_MAX;
	buf[n] = '\0';
	return strtoull(buf, NULL, 10);
}

static int known(const struct cb_tracer *t, pid_t tid)
{
	for (size_t i = 0; i < t->n_threads; i++)
		if (t->threads[i].tid == tid && !t->threads[i].gone)
			return 1;
	return 0;
}

/* Seize TID; 0, or the errno of PTRACE_SEIZE. */
static int seize(struct cb_tracer *t, pid_t tid)
{
	char path[96];
	struct tracee *th;

	if (t->n_threads == t->cap_threads) {
		size_t cap = t->cap_threads ? 2 * t->cap_threads : 16;
		struct tracee *more = realloc(t->threads, cap * sizeof *more);
		if (!more)
			return ENOMEM;
		t->threads = more;
		t->cap_threads = cap;
	}
	if (ptrace(PTRACE_SEIZE, tid, NULL, (void *)(long)PTRACE_O_TRACEEXEC) != 0)
		return errno;
	th = &t->threads[t->n_threads++];
	snprintf(path, sizeof path, "/proc/%d/task/%d/schedstat", (int)t->pid, (int)tid);
	th->tid = tid;
	th->gone = 0;
	th->schedstat = open(path, O_RDONLY | O_CLOEXEC);
	th->ran_ns = thread_ran_ns(th);
	th->credit_ns = 0;
	return 0;
}

/* Seize the threads of the target not seized yet. At the start (INITIAL),
 * a refusal is an error in ERR; later a thread that exits first is skipped. */
static int seize_new(struct cb_tracer *t, int initial, char *err, size_t err_len)
{
	char path[64], why[256];
	struct dirent *d;
	DIR *dir;
	int rc = 0;

	snprintf(path, sizeof path, "/proc/%d/task", (int)t->pid);
	dir = opendir(path);
	if (!dir)
		return initial ? cb_errorf(err, err_len, "ptrace: no process %d (%s)", (int)t->pid,
		                           strerror(errno))
		               : -1;
	while (rc == 0 && (d = readdir(dir))) {
		pid_t tid = (pid_t)atoi(d->d_name);
		int e;
		if (tid <= 0 || known(t, tid))
			continue;
		e = seize(t, tid);
		if (e == 0 || e == ESRCH || !initial)
			continue;
		if (e == EPERM) {
			cb_tracer_refusal(t->pid, why, sizeof why);
			rc = cb_errorf(err, err_len,
			               "ptrace is not allowed: seizing pid %d was refused (%s): %s",
			               (int)t->pid, strerror(e), why);
		} else {
			rc = cb_errorf(err, err_len, "ptrace: seizing thread %d of pid %d: %s",
			               (int)tid, (int)t->pid, strerror(e));
		}
	}
	closedir(dir);
	if (rc == 0 && initial && t->n_threads == 0)
		rc = cb_errorf(err, err_len, "ptrace: pid %d has no thread left to trace",
		               (int)t->pid);
	return rc;
}

/* Wait for a state change of TH without reaping what is not ours. Returns
 * 1 with STATUS for a stop, 0 when there is none yet (NOHANG), -1 when the
 * thread is gone. */
static int wait_thread(struct cb_tracer *t, struct tracee *th, int nohang, int *status)
{
	siginfo_t si;
	int flags = WEXITED | WSTOPPED | __WALL | WNOWAIT | (nohang ? WNOHANG : 0);

	memset(&si, 0, sizeof si);
	while (waitid(P_PID, (id_t)th->tid, &si, flags) != 0)
		if (errno != EINTR) {
			th->gone = 1;
			return -1;
		}
	if (si.si_pid == 0)
		return 0;
	if (si.si_code == CLD_TRAPPED || si.si_code == CLD_STOPPED) {
		while (waitpid(th->tid, status, __WALL) < 0 && errno == EINTR)
			;
		return 1;
	}
	th->gone = 1;
	if (th->tid == t->pid) {
		atomic_store(&t->ended, 1);
		if (t->is_parent)
			return -1; /* the process's exit status belongs to the code that started it
			            */
	}
	while (waitpid(th->tid, status, __WALL) < 0 && errno == EINTR)
		;
	return -1;
}

/* Resume a stop that is not an interrupt this tracer asked for; returns 1
 * when it is one (the caller reads the registers, then continues). */
static int resume_unless_ours(struct tracee *th, int status)
{
	int event = status >> 16, sig = WSTOPSIG(status);

	if (event == PTRACE_EVENT_STOP) {
		if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU) {
			ptrace(PTRACE_LISTEN, th->tid, NULL, NULL); /* a group-stop: stay stopped */
			return 0;
		}
		return 1;
	}
	/* A signal for the thread (passed on), or an exec (continued). */
	ptrace(PTRACE_CONT, th->tid, NULL, (void *)(long)(event == 0 ? sig : 0));
	return 0;
}

/* Wait for TH to reach the interrupt-stop asked for; 1 when it did. */
static int wait_interrupt(struct cb_tracer *t, struct tracee *th)
{
	uint64_t waited = 0;
	int status;

	while (waited < STOP_WAIT_NS) {
		int r = wait_thread(t, th, 1, &status);
		if (r < 0)
			return 0;
		if (r == 0) {
			sleep_ns(10000);
			waited += 10000;
		} else if (resume_unless_ours(th, status)) {
			return 1;
		}
	}
	return 0;
}

static int read_pc(pid_t tid, uint64_t *pc)
{
#if defined(__x86_64__) || defined(__aarch64__)
	struct user_regs_struct regs;
#else
	struct {
		uint64_t unused;
	} regs;
#endif
	struct iovec io = {.iov_base = &regs, .iov_len = sizeof regs};

	if (ptrace(PTRACE_GETREGSET, tid, (void *)(long)NT_PRSTATUS, &io) != 0)
		return -1;
#if defined(__x86_64__)
	*pc = regs.rip;
#elif defined(__aarch64__)
	*pc = regs.pc;
#else
	*pc = 0;
	return -1;
#endif
	return 0;
}

/* Whether TH is owed a sample at this tick: a thread is sampled once per
 * period of its own CPU time (its schedstat), as the in-process timer samples
 * a thread per period of its CPU clock, so that each thread's share of the
 * samples is its share of the CPU time. A thread that woke for a moment (a
 * runtime's timer or collector thread, mostly waiting) builds up credit and
 * is sampled when its time adds up to a period; periods it ran past without
 * a sample of their own are counted as merged. Without a schedstat, the
 * thread is sampled at every tick, and the ticks the process ran past
 * (LATE) are merged. */
static int owed_sample(struct cb_tracer *t, struct tracee *th, uint64_t late)
{
	uint64_t ran = thread_ran_ns(th), owed;

	if (ran == UINT64_MAX) {
		t->merged += late;
		return 1;
	}
	th->credit_ns += ran >= th->ran_ns ? ran - th->ran_ns : 0;
	th->ran_ns = ran;
	if (th->credit_ns < t->period_ns)
		return 0;
	owed = th->credit_ns / t->period_ns;
	t->merged += owed - 1;
	th->credit_ns -= owed * t->period_ns;
	return 1;
}

static void sample_threads(struct cb_tracer *t, uint64_t late)
{
	for (size_t i = 0; i < t->n_threads; i++) {
		struct tracee *th = &t->threads[i];
		uint64_t pc;
		if (th->gone || !owed_sample(t, th, late))
			continue;
		if (ptrace(PTRACE_INTERRUPT, th->tid, NULL, NULL) != 0 || !wait_interrupt(t, th))
			continue;
		if (read_pc(th->tid, &pc) == 0) {
			size_t n = atomic_load(&t->count);
			if (n < t->capacity) {
				t->pcs[n] = pc;
				atomic_store(&t->count, n + 1);
			} else {
				t->lost++;
			}
		}
		ptrace(PTRACE_CONT, th->tid, NULL, NULL);
	}
}

/* Pass on the signals and stops that arrived while no sample was taken. */
static void pass_stops(struct cb_tracer *t)
{
	for (size_t i = 0; i < t->n_threads; i++) {
		struct tracee *th = &t->threads[i];
		int status;
		while (!th->gone && wait_thread(t, th, 1, &status) == 1)
			if (resume_unless_ours(th, status))
				ptrace(PTRACE_CONT, th->tid, NULL, NULL); /* a stray interrupt */
	}
}

static void sample_loop(struct cb_tracer *t)
{
	uint64_t now, next, late, ticks = 0;

	if (cpu_now(t, &now) != 0)
		return;
	next = now + t->period_ns;
	while (!atomic_load(&t->stop) && !atomic_load(&t->ended)) {
		pass_stops(t);
		if (cpu_now(t, &now) != 0) {
			atomic_store(&t->ended, 1);
			break;
		}
		if (now < next) {
			uint64_t wait = next - now;
			sleep_ns(wait < POLL_NS ? wait : POLL_NS);
			continue;
		}
		late = (now - next) / t->period_ns;
		next += (late + 1) * t->period_ns;
		if (++ticks % RESCAN_TICKS == 0)
			seize_new(t, 0, NULL, 0);
		sample_threads(t, late);
	}
}

static void detach_all(struct cb_tracer *t)
{
	for (size_t i = 0; i < t->n_threads; i++) {
		struct tracee *th = &t->threads[i];
		int status, deliver = 0;
		if (!th->gone && ptrace(PTRACE_INTERRUPT, th->tid, NULL, NULL) == 0) {
			uint64_t waited = 0;
			int r = 0;
			while (waited < STOP_WAIT_NS && (r = wait_thread(t, th, 1, &status)) == 0) {
				sleep_ns(10000);
				waited += 10000;
			}
			if (r == 1 && status >> 16 == 0)
				deliver =
				    WSTOPSIG(status); /* a signal caught on the way: hand it on */
			if (r == 1)
				ptrace(PTRACE_DETACH, th->tid, NULL, (void *)(long)deliver);
		}
		if (th->schedstat >= 0)
			close(th->schedstat);
	}
	t->n_threads = 0;
}

static void announce(struct cb_tracer *t, int started)
{
	pthread_mutex_lock(&t->lock);
	t->started = started;
	pthread_cond_signal(&t->cond);
	pthread_mutex_unlock(&t->lock);
}

static void *trace_main(void *arg)
{
	struct cb_tracer *t = arg;
	int rc;

	/* A sampled thread stays stopped until this thread has seen the stop
	 * and let it go, in sleeps of 10 us (wait_interrupt): with the kernel's
	 * default timer slack of 50 us each of them lasted about 60 us. */
	prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
	rc = seize_new(t, 1, t->err, sizeof t->err);

	if (rc == 0 && clock_getcpuclockid(t->pid, &t->clock) != 0)
		rc = cb_errorf(t->err, sizeof t->err, "ptrace: pid %d has no CPU-time clock",
		               (int)t->pid);
	if (rc == 0 && cpu_now(t, &t->cpu_start) != 0)
		rc = cb_errorf(t->err, sizeof t->err, "ptrace: pid %d exited", (int)t->pid);
	if (rc != 0) {
		detach_all(t);
		announce(t, -1);
		return NULL;
	}
	announce(t, 1);
	sample_loop(t);
	detach_all(t);
	return NULL;
}

static int parent_of(pid_t pid)
{
	char path[64], buf[512], *close_paren;
	int fd, parent = 0;
	ssize_t n;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	close_paren = strrchr(buf, ')'); /* the command name may hold spaces */
	if (close_paren && sscanf(close_paren + 1, " %*c %d", &parent) != 1)
		parent = 0;
	return parent;
}

struct cb_tracer *cb_tracer_start(pid_t pid, double rate_hz, size_t capacity, char *err,
                                  size_t err_len)
{
	struct cb_tracer *t;

	if (pid <= 0 || pid == getpid() || !(rate_hz > 0 && rate_hz <= 1e6) || capacity == 0) {
		cb_errorf(err, err_len, "ptrace: pid %d, rate %g Hz or capacity %zu out of range",
		          (int)pid, rate_hz, capacity);
		return NULL;
	}
	t = calloc(1, sizeof *t);
	if (t)
		t->pcs = calloc(capacity, sizeof *t->pcs);
	if (!t || !t->pcs) {
		if (t)
			free(t);
		cb_errorf(err, err_len, "ptrace: out of memory for %zu samples", capacity);
		return NULL;
	}
	t->pid = pid;
	t->is_parent = parent_of(pid) == getpid();
	t->rate_hz = rate_hz;
	t->period_ns = (uint64_t)(1e9 / rate_hz) ? (uint64_t)(1e9 / rate_hz) : 1;
	t->capacity = capacity;
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->cond, NULL);
	if (pthread_create(&t->thread, NULL, trace_main, t) != 0) {
		cb_errorf(err, err_len, "ptrace: cannot start the sampling thread");
		goto fail;
	}
	pthread_mutex_lock(&t->lock);
	while (t->started == 0)
		pthread_cond_wait(&t->cond, &t->lock);
	pthread_mutex_unlock(&t->lock);
	if (t->started > 0)
		return t;
	pthread_join(t->thread, NULL);
	cb_errorf(err, err_len, "%s", t->err);
fail:
	pthread_mutex_destroy(&t->lock);
	pthread_cond_destroy(&t->cond);
	free(t->threads);
	free(t->pcs);
	free(t);
	return NULL;
}

size_t cb_tracer_count(const struct cb_tracer *t)
{
	return atomic_load((atomic_size_t *)&t->count); /* C11's atomic_load takes no const */
}

int cb_tracer_ended(const struct cb_tracer *t)
{
	return atomic_load((atomic_int *)&t->ended);
}

void cb_tracer_stop(struct cb_tracer *t, struct cb_samples *out)
{
	char note[96];

	atomic_store(&t->stop, 1);
	pthread_join(t->thread, NULL);
	memset(out, 0, sizeof *out);
	out->pcs = t->pcs;
	out->count = atomic_load(&t->count);
	out->lost = t->lost;
	out->merged = t->merged;
	out->cpu_ns = t->cpu_last - t->cpu_start;
	out->rate_hz = t->rate_hz;
	out->sampler = "ptrace";
	if (atomic_load(&t->ended)) {
		snprintf(note, sizeof note, "pid %d exited while it was sampled", (int)t->pid);
		cb_samples_note(out, note);
	}
	if (t->lost > 0)
		cb_samples_note(out, "the sample buffer filled up: later samples were lost");
	pthread_mutex_destroy(&t->lock);
	pthread_cond_destroy(&t->cond);
	free(t->threads);
	free(t);
}
