/* input.c: the xorshift32 input generator and aligned buffers. */
#include "core/algorithms/input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

void cb_input_fill(unsigned char *buf, size_t len, uint32_t seed)
{
	uint32_t x = seed;
	size_t unit = len < CB_INPUT_UNIT ? len : CB_INPUT_UNIT;

	for (size_t i = 0; i < unit; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		buf[i] = (unsigned char)(x & 0xff);
	}
	for (size_t done = unit; done < len;) { /* repeat the unit */
		size_t n = len - done < unit ? len - done : unit;
		memcpy(buf + done, buf, n);
		done += n;
	}
}

unsigned char *cb_aligned_alloc(size_t len, size_t offset, void **allocation)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p = NULL;

	if (page <= 0)
		page = 4096;
	offset %= (size_t)page;
	if (posix_memalign(&p, (size_t)page, len + offset + 64) != 0)
		return NULL;
	*allocation = p;
	return (unsigned char *)p + offset;
}

int cb_input_create(struct cb_input *input, size_t len, uint32_t seed, size_t offset)
{
	memset(input, 0, sizeof *input);
	input->data = cb_aligned_alloc(len, offset, &input->allocation);
	if (!input->data)
		return -1;
	input->len = len;
	input->offset = offset;
	input->seed = seed;
	cb_input_fill(input->data, len, seed);
	return 0;
}

void cb_input_free(struct cb_input *input)
{
	free(input->allocation);
	memset(input, 0, sizeof *input);
}

void cb_hex(const unsigned char *buf, size_t len, char *hex)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < len; i++) {
		hex[2 * i] = digits[buf[i] >> 4];
		hex[2 * i + 1] = digits[buf[i] & 15];
	}
	hex[2 * len] = '\0';
}

void cb_sha256_hex(const unsigned char *buf, size_t len, char hex[65])
{
	unsigned char md[32];
	unsigned int md_len = 0;

	EVP_Digest(buf, len, md, &md_len, EVP_sha256(), NULL);
	cb_hex(md, 32, hex);
}

/* SHA-256 of the file PATH in HEX ("" when it cannot be read). */
void cb_sha256_file(const char *path, char hex[65])
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	long size;

	hex[0] = '\0';
	if (!f)
		return;
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)size + 1)) != NULL &&
	    fread(buf, 1, (size_t)size, f) == (size_t)size)
		cb_sha256_hex(buf, (size_t)size, hex);
	free(buf);
	fclose(f);
}
