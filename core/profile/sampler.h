/* sampler.h: sampling the calling thread's program counter, in process.
 *
 * A per-thread CPU-time timer (timer_create on the clock of
 * pthread_getcpuclockid, delivered to this very thread by SIGEV_THREAD_ID)
 * raises CB_SAMPLER_SIGNAL after each period of the thread's CPU time; the
 * handler stores the interrupted instruction pointer in a buffer allocated
 * beforehand and does nothing else (it is async-signal-safe: no allocation,
 * no lock, no call). Idle time is never sampled: the clock only runs while
 * the thread does.
 *
 * Several threads may each run a sampler at once; the signal handler is
 * installed by the first start and the disposition found then is restored
 * by the last stop. The kernel checks CPU-time timers at its scheduler
 * tick, so a rate above the kernel's HZ yields one sample per tick: the
 * periods that pass without one are counted in `merged`. */
#ifndef CB_PROFILE_SAMPLER_H
#define CB_PROFILE_SAMPLER_H

#include <signal.h>
#include <stddef.h>

#include "core/profile/samples.h"

/* A real-time signal, clear of SIGPROF (the scenario loader's watchdog) and
 * of the first real-time signals that libraries tend to take. */
#define CB_SAMPLER_SIGNAL (SIGRTMIN + 4)

struct cb_sampler;

/* Start sampling the calling thread at RATE_HZ per second of its CPU time,
 * keeping at most CAPACITY samples. Returns the sampler, or NULL with ERR
 * saying why (no timer on this thread's CPU clock, bad arguments, memory). */
struct cb_sampler *cb_sampler_start(double rate_hz, size_t capacity, char *err, size_t err_len);
/* Samples stored so far (read from the sampled thread, or by a test). */
size_t cb_sampler_count(const struct cb_sampler *s);
/* Stop sampling, from the thread that started S; fills OUT (which owns the
 * program counters from then on), frees S and, when it was the last
 * sampler, restores the signal's previous disposition. Returns 0, or -1
 * with ERR set when the timer could not be deleted (OUT is filled anyway). */
int cb_sampler_stop(struct cb_sampler *s, struct cb_samples *out, char *err, size_t err_len);

#endif
