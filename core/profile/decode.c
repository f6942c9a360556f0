/* decode.c: the classes' names, and decode.h's functions with the decoder
 * of the architecture this program runs on (decode.h). */
#include "config.h"

#include "core/profile/decode.h"

#include <stdio.h>
#include <string.h>

static const char *const class_names[CB_ISA_COUNT] = {
    [CB_ISA_BASE] = "base",       [CB_ISA_SSE] = "sse",
    [CB_ISA_SSE4] = "ssse3/sse4", [CB_ISA_AVX] = "avx",
    [CB_ISA_AVX2] = "avx2",       [CB_ISA_AVX512] = "avx512",
    [CB_ISA_AES_NI] = "aes-ni",   [CB_ISA_VAES] = "vaes",
    [CB_ISA_PCLMUL] = "pclmul",   [CB_ISA_VPCLMULQDQ] = "vpclmulqdq",
    [CB_ISA_SHA_NI] = "sha-ni",   [CB_ISA_BMI] = "bmi",
    [CB_ISA_ADX] = "adx",         [CB_ISA_ASIMD] = "asimd",
    [CB_ISA_SVE] = "sve",         [CB_ISA_AES] = "aes",
    [CB_ISA_PMULL] = "pmull",     [CB_ISA_SHA1] = "sha1",
    [CB_ISA_SHA2] = "sha2",       [CB_ISA_SHA512] = "sha512",
    [CB_ISA_SHA3] = "sha3",       [CB_ISA_OTHER] = "other",
    [CB_ISA_UNKNOWN] = "unknown",
};

const char *cb_isa_name(enum cb_isa_class c)
{
	return (unsigned)c < CB_ISA_COUNT ? class_names[c] : "unknown";
}

int cb_isa_from_name(const char *name)
{
	for (int c = 0; c < CB_ISA_COUNT; c++)
		if (strcmp(class_names[c], name) == 0)
			return c;
	return -1;
}

/* Only the host's decoder is referenced here, so that the program links
 * only its library; a test may use the other one (decode.h). */
const struct cb_decoder *cb_decoder_host(void)
{
#if defined(__x86_64__) && defined(HAVE_ZYDIS)
	return &cb_decoder_x86;
#elif defined(__aarch64__) && defined(HAVE_CAPSTONE)
	return &cb_decoder_a64;
#else
	return NULL;
#endif
}

enum cb_isa_class cb_decode_class(const uint8_t *code, size_t len, size_t *insn_len)
{
	const struct cb_decoder *d = cb_decoder_host();

	if (d)
		return d->class_of(code, len, insn_len);
	if (insn_len)
		*insn_len = 0;
	return CB_ISA_UNKNOWN;
}

int cb_decode_describe(const uint8_t *code, size_t len, char *text, size_t text_len)
{
	const struct cb_decoder *d = cb_decoder_host();

	if (d)
		return d->describe(code, len, text, text_len);
	snprintf(text, text_len, "undecodable: no decoder for this architecture");
	return -1;
}

int cb_decode_available(void)
{
	return cb_decoder_host() != NULL;
}

cb_isa_set cb_decoder_range(const struct cb_decoder *d, const uint8_t *code, size_t len,
                            size_t *undecoded)
{
	cb_isa_set found = 0;
	size_t at = 0, skipped = 0;
	/* Past what does not decode: the next byte, or the next word where
	 * every instruction is one. */
	size_t step = d && d->fixed_length ? d->fixed_length : 1;

	while (at < len) {
		size_t n = 0;
		enum cb_isa_class c = d ? d->class_of(code + at, len - at, &n) : CB_ISA_UNKNOWN;
		if (n == 0) {
			n = len - at < step ? len - at : step;
			skipped += n;
			at += n;
			continue;
		}
		found |= 1u << c;
		at += n;
	}
	if (undecoded)
		*undecoded = skipped;
	return found;
}

enum cb_isa_class cb_decoder_before(const struct cb_decoder *d, const uint8_t *code, size_t len,
                                    size_t at)
{
	size_t pos = 0;

	if (!d || at > len)
		return CB_ISA_UNKNOWN;
	if (d->fixed_length) /* the instruction before starts one length back */
		return at >= d->fixed_length && at % d->fixed_length == 0
		           ? d->class_of(code + at - d->fixed_length, d->fixed_length, NULL)
		           : CB_ISA_UNKNOWN;
	while (pos < at) {
		size_t n;
		enum cb_isa_class c = d->class_of(code + pos, len - pos, &n);
		if (n == 0)
			return CB_ISA_UNKNOWN; /* no way to know where instructions start again */
		if (pos + n == at)
			return c;
		pos += n;
	}
	return CB_ISA_UNKNOWN;
}

cb_isa_set cb_decode_range(const uint8_t *code, size_t len, size_t *undecoded)
{
	return cb_decoder_range(cb_decoder_host(), code, len, undecoded);
}

enum cb_isa_class cb_decode_before(const uint8_t *code, size_t len, size_t at)
{
	return cb_decoder_before(cb_decoder_host(), code, len, at);
}
