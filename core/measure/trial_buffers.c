/* trial_buffers.c: the buffers a trial reads and writes, one set per
 * thread, and where in them each trial's input, output and stack are placed
 * (the layout drawn per trial: trial.h). */
#include "core/measure/trial.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/algorithms/input.h"

int cb_trial_buffers_init(struct cb_trial_buffers *b, unsigned n, size_t len, size_t offset)
{
	memset(b, 0, sizeof *b);
	if (n > CB_MAX_THREADS)
		return -1;
	for (unsigned i = 0; i < n; i++) {
		b->base[i] = cb_aligned_alloc(len + CB_LAYOUT_SPAN, offset, &b->allocation[i]);
		if (!b->base[i]) {
			cb_trial_buffers_free(b);
			return -1;
		}
		/* fault every page in now, not while timed */
		memset(b->base[i], 0, len + CB_LAYOUT_SPAN);
		b->out[i] = b->base[i];
		b->n = i + 1;
	}
	b->out_len = len;
	return 0;
}

int cb_trial_buffers_stage(struct cb_trial_buffers *b, size_t len, size_t offset)
{
	free(b->stage_allocation);
	b->stage = NULL;
	b->stage_allocation = NULL;
	b->stage_len = 0;
	b->in = NULL;
	if (len == 0)
		return 0;
	b->stage = cb_aligned_alloc(len + CB_LAYOUT_SPAN, offset, &b->stage_allocation);
	if (!b->stage)
		return -1;
	memset(b->stage, 0, len + CB_LAYOUT_SPAN); /* fault every page in now */
	b->stage_len = len;
	return 0;
}

void cb_trial_place(struct cb_trial_buffers *b, struct cb_trial_layout layout)
{
	layout.out = layout.out % CB_LAYOUT_SPAN / 64 * 64;
	layout.stack = layout.stack % CB_LAYOUT_SPAN / 16 * 16;
	layout.input = layout.input % CB_LAYOUT_SPAN / 64 * 64;
	layout.input_placed = false; /* until cb_trial_stage copies it there */
	b->layout = layout;
	b->in = NULL;
	for (unsigned i = 0; i < b->n; i++)
		b->out[i] = b->base[i] + layout.out;
}

void cb_trial_stage(struct cb_trial_buffers *b, const unsigned char *in, size_t len)
{
	b->in = NULL;
	b->layout.input_placed = false;
	if (!in || !b->stage || len > b->stage_len)
		return;
	memcpy(b->stage + b->layout.input, in, len);
	b->in = b->stage + b->layout.input;
	b->layout.input_placed = true;
}

/* splitmix64's finaliser */
static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* The class of ROUND within its block of eight: the block's order of the
 * eight classes, Fisher-Yates on the block's draw. */
static unsigned block_class(uint64_t draw, unsigned round)
{
	unsigned perm[8];

	for (unsigned i = 0; i < 8; i++)
		perm[i] = i;
	for (unsigned i = 7; i > 0; i--) {
		unsigned k = (unsigned)((draw >> (4 * i)) % (i + 1)), t = perm[i];

		perm[i] = perm[k];
		perm[k] = t;
	}
	return perm[round % 8];
}

struct cb_trial_layout cb_trial_layout_draw(uint64_t seed, size_t cell, unsigned round)
{
	uint64_t block = mix64(seed ^ mix64((uint64_t)cell << 32 ^ round / 8));
	uint64_t own = mix64(block ^ mix64((uint64_t)round + 1));
	size_t out = (size_t)((own >> 8) & 63) * 64;
	/* the input's distance below the output, in 64-byte steps: its eighth
	 * of the page from the block's second order, the step within drawn */
	size_t below = (block_class(mix64(block), round) * 8 + (size_t)((own >> 16) & 7)) * 64;

	return (struct cb_trial_layout){.stack = ((own & 31) * 8 + block_class(block, round)) * 16,
	                                .out = out,
	                                .input = (out + CB_LAYOUT_SPAN - below) % CB_LAYOUT_SPAN};
}

void cb_trial_buffers_free(struct cb_trial_buffers *b)
{
	for (unsigned i = 0; i < b->n; i++)
		free(b->allocation[i]);
	free(b->stage_allocation);
	memset(b, 0, sizeof *b);
}
