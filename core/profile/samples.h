/* samples.h: program counters taken from running code, what both samplers return.
 *
 * The in-process sampler (sampler.h) and the ptrace sampler (tracer.h) fill
 * the same struct; the aggregation (profile.h) turns it into a profile. A
 * sample is the address of the instruction a thread was about to execute when
 * it was interrupted, after it had used one more period of CPU time. */
#ifndef CB_PROFILE_SAMPLES_H
#define CB_PROFILE_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

struct cb_samples {
	uint64_t *pcs;       /* COUNT program counters in the order taken; owned */
	size_t count;        /* samples kept */
	uint64_t lost;       /* samples dropped because the buffer was full */
	uint64_t merged;     /* periods that passed without a sample of their own (a
	                        timer's overruns, or a ptrace tick that came late) */
	uint64_t cpu_ns;     /* CPU time the sampled threads used while sampled */
	double rate_hz;      /* the rate asked for, per second of CPU time */
	const char *sampler; /* "timer" (in-process) or "ptrace" */
	char note[256];      /* what degraded while sampling, "" when nothing did */
};

/* Free S->pcs and zero S; S may be zeroed already. */
void cb_samples_free(struct cb_samples *s);
/* Append a note to S->note ("; " between notes, truncated to fit). */
void cb_samples_note(struct cb_samples *s, const char *note);

#endif
