/* tracer.h: sampling another process's threads through ptrace.
 *
 * For engines that run in another process (workers, command engines): a
 * thread of this process seizes every thread of the target (PTRACE_SEIZE,
 * which neither stops nor signals it), and after each period of the
 * target's CPU time (its process CPU clock, clock_getcpuclockid) interrupts
 * each thread that has run a period of its own CPU time since its previous
 * sample (its schedstat; PTRACE_INTERRUPT), reads its registers, and lets
 * it continue: each thread's share of the samples is about its share of the
 * CPU time. Threads the target starts are seized within 16 samples. Signals
 * the target receives meanwhile are passed on within about 2 ms. Stopping
 * detaches every thread and leaves the process running; a process that
 * exits ends the sampling, and its exit status is left for its parent.
 * While it is sampled, no other thread of this process may wait for it
 * (waitpid would take the sampler's stops).
 *
 * When the kernel refuses to trace (Yama's ptrace_scope, a container's
 * seccomp filter or missing CAP_SYS_PTRACE, another user's process, a
 * process traced already), start fails with an error that begins "ptrace is
 * not allowed" and says which of these applies. */
#ifndef CB_PROFILE_TRACER_H
#define CB_PROFILE_TRACER_H

#include <stddef.h>
#include <sys/types.h>

#include "core/profile/samples.h"

struct cb_tracer;

/* Seize every thread of PID and sample at RATE_HZ per second of the
 * process's CPU time, keeping at most CAPACITY samples. Returns the tracer
 * once all threads are seized, or NULL with ERR saying why. */
struct cb_tracer *cb_tracer_start(pid_t pid, double rate_hz, size_t capacity, char *err,
                                  size_t err_len);
/* Samples stored so far. */
size_t cb_tracer_count(const struct cb_tracer *t);
/* Whether the sampling has ended by itself (the process exited). */
int cb_tracer_ended(const struct cb_tracer *t);
/* Detach from every thread and fill OUT (which owns the program counters);
 * frees T. Never fails: what went wrong while sampling is in OUT->note. */
void cb_tracer_stop(struct cb_tracer *t, struct cb_samples *out);

/* Why the kernel may have refused this process to trace PID: one line in
 * WHY (Yama, seccomp, capabilities, ownership, a tracer already there). */
void cb_tracer_refusal(pid_t pid, char *why, size_t why_len);

#endif
