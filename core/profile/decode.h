/* decode.h: which instruction-set extension an instruction belongs to.
 *
 * Instructions are decoded by the decoder of the architecture this program
 * runs on and sorted into classes with stable short names a report prints:
 *
 *   x86-64 (Zydis, decode_x86.c): wide vector AES and carry-less
 *   multiplication (VAES, VPCLMULQDQ: 256 and 512 bits, several blocks per
 *   instruction) are told apart from their one-block forms (AES-NI, PCLMUL,
 *   legacy or VEX.128 encoded); EVEX-encoded AVX-512 instructions are
 *   `avx512` unless they belong to one of those.
 *   AArch64 (capstone, decode_a64.c): the Armv8 cryptographic extensions
 *   each have a class (FEAT_AES, FEAT_PMULL, FEAT_SHA1, FEAT_SHA256,
 *   FEAT_SHA512, FEAT_SHA3), as do Advanced SIMD and SVE.
 *
 * `base` is the general-purpose integer code of either. Where no decoder is
 * built in (another architecture), every instruction is `unknown`. */
#ifndef CB_PROFILE_DECODE_H
#define CB_PROFILE_DECODE_H

#include <stddef.h>
#include <stdint.h>

enum cb_isa_class {
	CB_ISA_BASE,       /* "base": general-purpose integer, control flow */
	CB_ISA_SSE,        /* "sse": SSE, SSE2, SSE3 */
	CB_ISA_SSE4,       /* "ssse3/sse4": SSSE3, SSE4.1, SSE4.2 */
	CB_ISA_AVX,        /* "avx": AVX (and FMA, F16C) */
	CB_ISA_AVX2,       /* "avx2" */
	CB_ISA_AVX512,     /* "avx512": EVEX-encoded, and the mask instructions */
	CB_ISA_AES_NI,     /* "aes-ni": AESENC and kin, legacy or VEX.128 */
	CB_ISA_VAES,       /* "vaes": AES on 256- or 512-bit vectors, or EVEX */
	CB_ISA_PCLMUL,     /* "pclmul": PCLMULQDQ, legacy or VEX.128 */
	CB_ISA_VPCLMULQDQ, /* "vpclmulqdq": carry-less multiply on wide vectors */
	CB_ISA_SHA_NI,     /* "sha-ni": SHA1* and SHA256* */
	CB_ISA_BMI,        /* "bmi": BMI1, BMI2 (MULX, RORX, ANDN, ...) */
	CB_ISA_ADX,        /* "adx": ADCX, ADOX */
	/* A64 */
	CB_ISA_ASIMD,  /* "asimd": Advanced SIMD (NEON) and floating point, their
	                * registers' loads and stores too */
	CB_ISA_SVE,    /* "sve": SVE and SVE2 */
	CB_ISA_AES,    /* "aes": AESE, AESD, AESMC, AESIMC */
	CB_ISA_PMULL,  /* "pmull": PMULL, PMULL2 of 64-bit polynomials (the 8-bit
	                * forms are asimd) */
	CB_ISA_SHA1,   /* "sha1": SHA1C, SHA1H, SHA1M, SHA1P, SHA1SU0, SHA1SU1 */
	CB_ISA_SHA2,   /* "sha2": SHA256H, SHA256H2, SHA256SU0, SHA256SU1 */
	CB_ISA_SHA512, /* "sha512": SHA512H, SHA512H2, SHA512SU0, SHA512SU1 */
	CB_ISA_SHA3,   /* "sha3": EOR3, BCAX, RAX1, XAR */
	/* Both */
	CB_ISA_OTHER,   /* "other": every other extension (x87, MMX, GFNI, CRC32,
	                 * SM3, SM4, ...) */
	CB_ISA_UNKNOWN, /* "unknown": not decoded (unreadable, invalid, no decoder) */
	CB_ISA_COUNT
};

/* A set of classes: bit (1u << class). */
typedef uint32_t cb_isa_set;

/* The class's short name ("aes-ni"); "unknown" for a value out of range. */
const char *cb_isa_name(enum cb_isa_class c);
/* The class named NAME, or -1. */
int cb_isa_from_name(const char *name);

/* Decode the one instruction at the start of CODE (LEN bytes readable) and
 * return its class; *INSN_LEN gets its length, 0 when it did not decode
 * (then the class is CB_ISA_UNKNOWN). INSN_LEN may be NULL. On AArch64 an
 * instruction is the 4-byte little-endian word CODE starts with. */
enum cb_isa_class cb_decode_class(const uint8_t *code, size_t len, size_t *insn_len);
/* Decode CODE from its first byte to its end, instruction after
 * instruction (a function's range), and return the set of classes found;
 * *UNDECODED (may be NULL) gets the bytes skipped because they did not
 * decode (each skipped one at a time on x86-64, a word at a time where
 * every instruction has one length, as on AArch64). */
cb_isa_set cb_decode_range(const uint8_t *code, size_t len, size_t *undecoded);
/* The class of the instruction of CODE (a function's range, decoded from
 * its first byte) that ends at offset AT: the instruction a sample at AT
 * follows. A sampled program counter is the next instruction to run, so a
 * sample tends to land just after the instruction that held the thread up
 * (a long-latency one such as SHA256RNDS2 or AESENC); this names that one.
 * It is the instruction before in address order: at a branch target (a
 * loop's first instruction) the one that ran before may be elsewhere.
 * CB_ISA_UNKNOWN when AT is 0, beyond LEN, or inside an instruction (on
 * x86-64 also after bytes that do not decode: where instructions start
 * again is not known). */
enum cb_isa_class cb_decode_before(const uint8_t *code, size_t len, size_t at);
/* Describe the instruction at CODE as the decoder names it, for diagnostics:
 * "vaesenc: ISA set AVX512_VAES_512, extension AVX512EVEX", "aese
 * v0.16b, v1.16b: capstone groups crypto neon". Returns 0, or -1 (with
 * "undecodable" in TEXT) when it does not decode. */
int cb_decode_describe(const uint8_t *code, size_t len, char *text, size_t text_len);
/* Whether a decoder is built in for this architecture. */
int cb_decode_available(void);

/* ---- The decoders, one file each ----
 *
 * A decoder of one architecture fills one table: decode_x86.c (Zydis),
 * decode_a64.c (capstone). decode.c uses the one of the architecture this
 * program runs on, and links only its library; a test may use another one
 * built in (tests/test_profile.c checks the A64 classes on x86-64 where
 * capstone is installed, and links it). */
struct cb_decoder {
	const char *arch; /* "x86-64", "aarch64" */
	/* Every instruction's length in bytes where the architecture has one
	 * (4 on AArch64), else 0: after a word that does not decode the next
	 * one still starts an instruction. */
	size_t fixed_length;
	/* cb_decode_class and cb_decode_describe, for this architecture. */
	enum cb_isa_class (*class_of)(const uint8_t *code, size_t len, size_t *insn_len);
	int (*describe)(const uint8_t *code, size_t len, char *text, size_t text_len);
};

/* Defined where their library was found (config.h: HAVE_ZYDIS, on x86-64
 * only, HAVE_CAPSTONE, on any host where capstone is installed). */
extern const struct cb_decoder cb_decoder_x86;
extern const struct cb_decoder cb_decoder_a64;

/* The decoder of the architecture this program runs on, or NULL. */
const struct cb_decoder *cb_decoder_host(void);

/* cb_decode_range and cb_decode_before with decoder D. */
cb_isa_set cb_decoder_range(const struct cb_decoder *d, const uint8_t *code, size_t len,
                            size_t *undecoded);
enum cb_isa_class cb_decoder_before(const struct cb_decoder *d, const uint8_t *code, size_t len,
                                    size_t at);

#endif
