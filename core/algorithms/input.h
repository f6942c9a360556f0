/* input.h: the deterministic input every engine is fed.
 *
 * xorshift32 from the seed (default 20260804): for each byte,
 * x ^= x << 13; x ^= x >> 17; x ^= x << 5; emit x & 0xff. A 1 MiB unit is
 * generated and repeated to the payload size; a shorter payload is a prefix.
 * So one buffer of the largest size serves every size of a run. */
#ifndef CB_INPUT_H
#define CB_INPUT_H

#include <stddef.h>
#include <stdint.h>

#define CB_INPUT_DEFAULT_SEED 20260804u
#define CB_INPUT_UNIT (1024u * 1024u)

struct cb_input {
	unsigned char *data; /* the payload: data[0 .. len) */
	size_t len;
	size_t offset; /* bytes past a page boundary data starts at */
	uint32_t seed;
	void *allocation; /* what to free */
};

/* Fill BUF with LEN bytes of the generator's stream (the unit repeated). */
void cb_input_fill(unsigned char *buf, size_t len, uint32_t seed);

/* Allocate and fill an input of LEN bytes, starting OFFSET bytes past a page
 * boundary. 0, or -1 when memory is short. */
int cb_input_create(struct cb_input *input, size_t len, uint32_t seed, size_t offset);
void cb_input_free(struct cb_input *input);

/* Allocate LEN bytes (plus SLACK) starting OFFSET bytes past a page
 * boundary, untouched: *ALLOCATION is what to free. NULL when short. */
unsigned char *cb_aligned_alloc(size_t len, size_t offset, void **allocation);

/* SHA-256 of BUF as 64 hex digits plus NUL, and the first 8 bytes as 16 hex
 * digits (the form published tables use). */
void cb_sha256_hex(const unsigned char *buf, size_t len, char hex[65]);
/* SHA-256 of the file PATH in HEX ("" when it cannot be read). */
void cb_sha256_file(const char *path, char hex[65]);
void cb_hex(const unsigned char *buf, size_t len, char *hex);

#endif
