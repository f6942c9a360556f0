/* decode_a64.c: instruction-set extension classes of A64 instructions
 * (AArch64), decoded by capstone (decode.h).
 *
 * Capstone tells a defined instruction from an undefined word, names it
 * for a diagnostic and identifies the Armv8.0 cryptographic instructions
 * (AES, PMULL, SHA-1, SHA-256) and CRC32. Capstone 4 (Debian 12's) predates
 * the SHA-512, SHA-3, SM3 and SM4 instructions of Armv8.2 and SVE: those
 * are classed by their encoding (Arm ARM, "A64 instruction set encoding"),
 * before capstone is asked, so that the class does not depend on the
 * version. Every other word capstone 4 does not decode (the atomics of
 * Armv8.1, the dot products, ...) is `unknown`, still 4 bytes long. */
#include "config.h"

#include "core/profile/decode.h"

#ifdef HAVE_CAPSTONE
#include <stdio.h>

#include <capstone/capstone.h>

#define A64_WORD 4

/* Encodings capstone 4 does not decode: (word & mask) == value. */
static const struct {
	uint32_t mask, value;
	enum cb_isa_class cls;
	const char *name;
} encodings[] = {
    {0x1e000000, 0x04000000, CB_ISA_SVE, "an SVE instruction"}, /* op0 = 0010 */
    {0xffe0fc00, 0xce608000, CB_ISA_SHA512, "sha512h"},
    {0xffe0fc00, 0xce608400, CB_ISA_SHA512, "sha512h2"},
    {0xffe0fc00, 0xce608800, CB_ISA_SHA512, "sha512su1"},
    {0xfffffc00, 0xcec08000, CB_ISA_SHA512, "sha512su0"},
    {0xffe0fc00, 0xce608c00, CB_ISA_SHA3, "rax1"},
    {0xffe08000, 0xce000000, CB_ISA_SHA3, "eor3"},
    {0xffe08000, 0xce200000, CB_ISA_SHA3, "bcax"},
    {0xffe00000, 0xce800000, CB_ISA_SHA3, "xar"},
    {0xffe08000, 0xce400000, CB_ISA_OTHER, "sm3ss1"},
    {0xffe0c000, 0xce408000, CB_ISA_OTHER, "sm3tt1a, sm3tt1b, sm3tt2a or sm3tt2b"},
    {0xffe0f800, 0xce60c000, CB_ISA_OTHER, "sm3partw1 or sm3partw2"},
    {0xffe0fc00, 0xce60c800, CB_ISA_OTHER, "sm4ekey"},
    {0xfffffc00, 0xcec08400, CB_ISA_OTHER, "sm4e"},
};

/* Capstone's instructions of the cryptographic extensions, by its id. */
static const struct {
	unsigned id;
	enum cb_isa_class cls;
} id_classes[] = {
    {ARM64_INS_AESE, CB_ISA_AES},       {ARM64_INS_AESD, CB_ISA_AES},
    {ARM64_INS_AESMC, CB_ISA_AES},      {ARM64_INS_AESIMC, CB_ISA_AES},
    {ARM64_INS_SHA1C, CB_ISA_SHA1},     {ARM64_INS_SHA1H, CB_ISA_SHA1},
    {ARM64_INS_SHA1M, CB_ISA_SHA1},     {ARM64_INS_SHA1P, CB_ISA_SHA1},
    {ARM64_INS_SHA1SU0, CB_ISA_SHA1},   {ARM64_INS_SHA1SU1, CB_ISA_SHA1},
    {ARM64_INS_SHA256H, CB_ISA_SHA2},   {ARM64_INS_SHA256H2, CB_ISA_SHA2},
    {ARM64_INS_SHA256SU0, CB_ISA_SHA2}, {ARM64_INS_SHA256SU1, CB_ISA_SHA2},
};

static uint32_t word_of(const uint8_t code[A64_WORD])
{
	return (uint32_t)code[0] | (uint32_t)code[1] << 8 | (uint32_t)code[2] << 16 |
	       (uint32_t)code[3] << 24;
}

static int encoding_row(uint32_t word)
{
	for (size_t i = 0; i < sizeof encodings / sizeof encodings[0]; i++)
		if ((word & encodings[i].mask) == encodings[i].value)
			return (int)i;
	return -1;
}

/* Decode the word at CODE into *INSN (cs_free it) with its groups; a
 * handle is set up in microseconds: one per call keeps this free of shared
 * state. 0, or -1 when capstone does not decode it. */
static int decode_one(const uint8_t code[A64_WORD], csh *handle, cs_insn **insn)
{
	if (cs_open(CS_ARCH_ARM64, CS_MODE_LITTLE_ENDIAN, handle) != CS_ERR_OK)
		return -1;
	cs_option(*handle, CS_OPT_DETAIL, CS_OPT_ON);
	if (cs_disasm(*handle, code, A64_WORD, 0, 1, insn) == 1)
		return 0;
	cs_close(handle);
	return -1;
}

static int in_group(const cs_insn *insn, unsigned group)
{
	for (int i = 0; insn->detail && i < insn->detail->groups_count; i++)
		if (insn->detail->groups[i] == group)
			return 1;
	return 0;
}

static enum cb_isa_class classify(const cs_insn *insn, uint32_t word)
{
	for (size_t i = 0; i < sizeof id_classes / sizeof id_classes[0]; i++)
		if (id_classes[i].id == insn->id)
			return id_classes[i].cls;
	/* PMULL{2} of 64-bit polynomials (size 11) is FEAT_PMULL; of bytes, Advanced SIMD. */
	if ((insn->id == ARM64_INS_PMULL || insn->id == ARM64_INS_PMULL2) && (word >> 22 & 3) == 3)
		return CB_ISA_PMULL;
	if (in_group(insn, ARM64_GRP_CRC) || in_group(insn, ARM64_GRP_CRYPTO))
		return CB_ISA_OTHER;
	/* Bits 27 and 26 set: SIMD and floating-point data processing (op0
	 * x111), or a load or store of their registers (op0 x1x0 with V, bit
	 * 26). Capstone's groups miss some of the loads and stores. */
	if ((word & 0x0c000000) == 0x0c000000 || in_group(insn, ARM64_GRP_NEON) ||
	    in_group(insn, ARM64_GRP_FPARMV8))
		return CB_ISA_ASIMD;
	return CB_ISA_BASE;
}

static enum cb_isa_class a64_class(const uint8_t *code, size_t len, size_t *insn_len)
{
	enum cb_isa_class c = CB_ISA_UNKNOWN;
	size_t n = 0;
	uint32_t word;
	cs_insn *insn;
	csh handle;
	int row;

	if (len >= A64_WORD) {
		word = word_of(code);
		if ((row = encoding_row(word)) >= 0) {
			c = encodings[row].cls;
			n = A64_WORD;
		} else if (decode_one(code, &handle, &insn) == 0) {
			c = classify(insn, word);
			n = A64_WORD;
			cs_free(insn, 1);
			cs_close(&handle);
		}
	}
	if (insn_len)
		*insn_len = n;
	return c;
}

static int a64_describe(const uint8_t *code, size_t len, char *text, size_t text_len)
{
	size_t used;
	uint32_t word;
	cs_insn *insn;
	csh handle;
	int row, major, minor;

	if (len < A64_WORD) {
		snprintf(text, text_len, "undecodable: %zu bytes, not a 4-byte word", len);
		return -1;
	}
	word = word_of(code);
	cs_version(&major, &minor);
	if ((row = encoding_row(word)) >= 0) {
		snprintf(text, text_len,
		         "%s (0x%08x): classed by its encoding, before capstone %d.%d",
		         encodings[row].name, word, major, minor);
		return 0;
	}
	if (decode_one(code, &handle, &insn) != 0) {
		snprintf(text, text_len,
		         "undecodable: 0x%08x, which capstone %d.%d does not decode", word, major,
		         minor);
		return -1;
	}
	used = (size_t)snprintf(text, text_len, "%s%s%s: capstone groups", insn->mnemonic,
	                        insn->op_str[0] ? " " : "", insn->op_str);
	for (int i = 0; insn->detail && i < insn->detail->groups_count && used < text_len; i++) {
		const char *group = cs_group_name(handle, insn->detail->groups[i]);
		used += (size_t)snprintf(text + used, text_len - used, " %s", group ? group : "?");
	}
	if (insn->detail && insn->detail->groups_count == 0 && used < text_len)
		snprintf(text + used, text_len - used, " none");
	cs_free(insn, 1);
	cs_close(&handle);
	return 0;
}

const struct cb_decoder cb_decoder_a64 = {
    .arch = "aarch64",
    .fixed_length = A64_WORD,
    .class_of = a64_class,
    .describe = a64_describe,
};

#endif
