/* decode_x86.c: instruction-set extension classes of x86-64 instructions,
 * decoded by Zydis (decode.h). */
#include "config.h"

#include "core/profile/decode.h"

#ifdef HAVE_ZYDIS
#include <stdio.h>

#include <Zydis/Zydis.h>

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

static enum cb_isa_class x86_class(const uint8_t *code, size_t len, size_t *insn_len)
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

static int x86_describe(const uint8_t *code, size_t len, char *text, size_t text_len)
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

const struct cb_decoder cb_decoder_x86 = {
    .arch = "x86-64",
    .fixed_length = 0,
    .class_of = x86_class,
    .describe = x86_describe,
};

#endif
