/* decode.c: instruction-set extension classes of x86-64 instructions,
 * decoded by Zydis. */
#include "config.h"

#include "core/profile/decode.h"

#include <stdio.h>
#include <string.h>

#if defined(HAVE_ZYDIS) && defined(__x86_64__)
#include <Zydis/Zydis.h>
#define CB_DECODER 1
#endif

static const char *const class_names[CB_ISA_COUNT] = {
    [CB_ISA_BASE] = "base",       [CB_ISA_SSE] = "sse",
    [CB_ISA_SSE4] = "ssse3/sse4", [CB_ISA_AVX] = "avx",
    [CB_ISA_AVX2] = "avx2",       [CB_ISA_AVX512] = "avx512",
    [CB_ISA_AES_NI] = "aes-ni",   [CB_ISA_VAES] = "vaes",
    [CB_ISA_PCLMUL] = "pclmul",   [CB_ISA_VPCLMULQDQ] = "vpclmulqdq",
    [CB_ISA_SHA_NI] = "sha-ni",   [CB_ISA_BMI] = "bmi",
    [CB_ISA_ADX] = "adx",         [CB_ISA_OTHER] = "other",
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

#ifdef CB_DECODER

/* Zydis's extension (XED's EXTENSION) of an instruction, to a class; what
 * is not here is "other". */
static const struct {
	ZydisISAExt ext;
	enum cb_isa_class cls;
} ext_classes[] = {
    {ZYDIS_ISA_EXT_BASE, CB_ISA_BASE},
    {ZYDIS_ISA_EXT_LONGMODE, CB_ISA_BASE},
    {ZYDIS_ISA_EXT_SSE, CB_ISA_SSE},
    {ZYDIS_ISA_EXT_SSE2, CB_ISA_SSE},
    {ZYDIS_ISA_EXT_SSE3, CB_ISA_SSE},
    {ZYDIS_ISA_EXT_SSSE3, CB_ISA_SSE4},
    {ZYDIS_ISA_EXT_SSE4, CB_ISA_SSE4},
    {ZYDIS_ISA_EXT_AVX, CB_ISA_AVX},
    {ZYDIS_ISA_EXT_FMA, CB_ISA_AVX},
    {ZYDIS_ISA_EXT_F16C, CB_ISA_AVX},
    {ZYDIS_ISA_EXT_AVX2, CB_ISA_AVX2},
    {ZYDIS_ISA_EXT_AVX2GATHER, CB_ISA_AVX2},
    {ZYDIS_ISA_EXT_AVX512EVEX, CB_ISA_AVX512},
    {ZYDIS_ISA_EXT_AVX512VEX, CB_ISA_AVX512},
    {ZYDIS_ISA_EXT_AES, CB_ISA_AES_NI},
    {ZYDIS_ISA_EXT_AVXAES, CB_ISA_AES_NI},
    {ZYDIS_ISA_EXT_VAES, CB_ISA_VAES},
    {ZYDIS_ISA_EXT_PCLMULQDQ, CB_ISA_PCLMUL},
    {ZYDIS_ISA_EXT_VPCLMULQDQ, CB_ISA_VPCLMULQDQ},
    {ZYDIS_ISA_EXT_SHA, CB_ISA_SHA_NI},
    {ZYDIS_ISA_EXT_BMI1, CB_ISA_BMI},
    {ZYDIS_ISA_EXT_BMI2, CB_ISA_BMI},
    {ZYDIS_ISA_EXT_ADOX_ADCX, CB_ISA_ADX},
};

/* The AES and carry-less multiply mnemonics whose class depends on the
 * width: one block (128 bits, legacy or VEX) or several (wider, or EVEX,
 * which needs the VAES or VPCLMULQDQ feature at any width). */
static const struct {
	ZydisMnemonic mnemonic;
	enum cb_isa_class narrow, wide;
} width_classes[] = {
    {ZYDIS_MNEMONIC_VAESENC, CB_ISA_AES_NI, CB_ISA_VAES},
    {ZYDIS_MNEMONIC_VAESENCLAST, CB_ISA_AES_NI, CB_ISA_VAES},
    {ZYDIS_MNEMONIC_VAESDEC, CB_ISA_AES_NI, CB_ISA_VAES},
    {ZYDIS_MNEMONIC_VAESDECLAST, CB_ISA_AES_NI, CB_ISA_VAES},
    {ZYDIS_MNEMONIC_VPCLMULQDQ, CB_ISA_PCLMUL, CB_ISA_VPCLMULQDQ},
};

/* A decoder is a few fields set up in no time: one per call keeps this
 * free of shared state. */
static int decode_one(const uint8_t *code, size_t len, ZydisDecodedInstruction *in)
{
	ZydisDecoder decoder;

	if (ZYAN_FAILED(
	        ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64)))
		return -1;
	return ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&decoder, NULL, code, len, in)) ? 0 : -1;
}

static enum cb_isa_class classify(const ZydisDecodedInstruction *in)
{
	for (size_t i = 0; i < sizeof width_classes / sizeof width_classes[0]; i++)
		if (width_classes[i].mnemonic == in->mnemonic)
			return in->encoding == ZYDIS_INSTRUCTION_ENCODING_EVEX ||
			               in->avx.vector_length > 128
			           ? width_classes[i].wide
			           : width_classes[i].narrow;
	for (size_t i = 0; i < sizeof ext_classes / sizeof ext_classes[0]; i++)
		if (ext_classes[i].ext == in->meta.isa_ext)
			return ext_classes[i].cls;
	return CB_ISA_OTHER;
}

enum cb_isa_class cb_decode_class(const uint8_t *code, size_t len, size_t *insn_len)
{
	ZydisDecodedInstruction in;

	if (decode_one(code, len, &in) != 0) {
		if (insn_len)
			*insn_len = 0;
		return CB_ISA_UNKNOWN;
	}
	if (insn_len)
		*insn_len = in.length;
	return classify(&in);
}

int cb_decode_describe(const uint8_t *code, size_t len, char *text, size_t text_len)
{
	ZydisDecodedInstruction in;

	if (decode_one(code, len, &in) != 0) {
		snprintf(text, text_len, "undecodable");
		return -1;
	}
	snprintf(text, text_len, "%s: ISA set %s, extension %s",
	         ZydisMnemonicGetString(in.mnemonic), ZydisISASetGetString(in.meta.isa_set),
	         ZydisISAExtGetString(in.meta.isa_ext));
	return 0;
}

int cb_decode_available(void)
{
	return 1;
}

#else

enum cb_isa_class cb_decode_class(const uint8_t *code, size_t len, size_t *insn_len)
{
	(void)code;
	(void)len;
	if (insn_len)
		*insn_len = 0;
	return CB_ISA_UNKNOWN;
}

int cb_decode_describe(const uint8_t *code, size_t len, char *text, size_t text_len)
{
	(void)code;
	(void)len;
	snprintf(text, text_len, "undecodable: no decoder for this architecture");
	return -1;
}

int cb_decode_available(void)
{
	return 0;
}

#endif

cb_isa_set cb_decode_range(const uint8_t *code, size_t len, size_t *undecoded)
{
	cb_isa_set found = 0;
	size_t at = 0, skipped = 0;

	while (at < len) {
		size_t n;
		enum cb_isa_class c = cb_decode_class(code + at, len - at, &n);
		if (n == 0) {
			skipped++;
			at++;
			continue;
		}
		found |= 1u << c;
		at += n;
	}
	if (undecoded)
		*undecoded = skipped;
	return found;
}

enum cb_isa_class cb_decode_before(const uint8_t *code, size_t len, size_t at)
{
	size_t pos = 0;

	if (at > len)
		return CB_ISA_UNKNOWN;
	while (pos < at) {
		size_t n;
		enum cb_isa_class c = cb_decode_class(code + pos, len - pos, &n);
		if (n == 0)
			return CB_ISA_UNKNOWN; /* no way to know where instructions start again */
		if (pos + n == at)
			return c;
		pos += n;
	}
	return CB_ISA_UNKNOWN;
}
