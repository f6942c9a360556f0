/* mask_classes.c: the capability bits of the mask variables this analysis
 * knows, and the instruction-set class each bit stands for (mask_classes.h).
 * A variable is one row of `variables`, its bits rows of its own table. */
#include "analysis/verdicts/mask_classes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/verdicts/attribution.h"

struct cap_bit {
	int word, bit;
	const char *class; /* a name of cb_attribution_classes */
};

/* OpenSSL's capability words on x86-64: word 0 is CPUID.1 (EDX | ECX << 32),
 * word 1 CPUID.7 (EBX | ECX << 32); the same bits the openssl engine names
 * in its header (core/engines/openssl.c). */
static const struct cap_bit ia32cap_bits[] = {
    {0, 25, "sse"},        /* SSE */
    {0, 26, "sse"},        /* SSE2 */
    {0, 33, "pclmul"},     /* PCLMULQDQ */
    {0, 41, "ssse3/sse4"}, /* SSSE3 */
    {0, 51, "ssse3/sse4"}, /* SSE4.1 */
    {0, 52, "ssse3/sse4"}, /* SSE4.2 */
    {0, 57, "aes-ni"},     /* AES */
    {0, 60, "avx"},        /* AVX */
    {1, 3, "bmi"},         /* BMI1 */
    {1, 5, "avx2"},        /* AVX2 */
    {1, 8, "bmi"},         /* BMI2 */
    {1, 16, "avx512"},     /* AVX512F */
    {1, 19, "adx"},        /* ADX */
    {1, 29, "sha-ni"},     /* SHA */
    {1, 41, "vaes"},       /* VAES */
    {1, 42, "vpclmulqdq"}, /* VPCLMULQDQ */
};

/* The bits OPENSSL_ia32cap's VALUE clears in each of the two words, as
 * OpenSSL reads it: "[~]WORD0[:[~]WORD1]", each word a number in C's
 * notation; "~X" clears X's bits, a plain X replaces the word (clearing
 * every bit X lacks), an empty word leaves it alone. */
static void ia32cap_cleared(const char *value, uint64_t cleared[2])
{
	const char *word = value;

	for (int w = 0; w < 2 && word; w++) {
		bool clear = *word == '~';

		if (clear)
			word++;
		if (*word == ':' || *word == '\0')
			cleared[w] = 0;
		else
			cleared[w] = clear ? strtoull(word, NULL, 0) : ~strtoull(word, NULL, 0);
		word = strchr(word, ':');
		if (word)
			word++;
	}
}

static const struct mask_variable {
	const char *name;
	void (*cleared)(const char *value, uint64_t cleared[2]);
	const struct cap_bit *bits;
	size_t n_bits;
} variables[] = {
    {"OPENSSL_ia32cap", ia32cap_cleared, ia32cap_bits,
     sizeof ia32cap_bits / sizeof ia32cap_bits[0]},
};

static uint32_t class_bit(const char *name)
{
	for (int i = 0; cb_attribution_classes[i]; i++)
		if (strcmp(cb_attribution_classes[i], name) == 0)
			return 1u << i;
	return 0;
}

uint32_t cb_mask_classes(json_t *env, bool *known, char *unknown, size_t len)
{
	const char *name;
	json_t *value;
	uint32_t classes = 0;
	size_t used = 0;

	*known = false;
	unknown[0] = '\0';
	json_object_foreach(env, name, value)
	{
		const struct mask_variable *v = NULL;
		uint64_t cleared[2] = {0, 0};

		for (size_t i = 0; i < sizeof variables / sizeof variables[0] && !v; i++)
			if (strcmp(variables[i].name, name) == 0)
				v = &variables[i];
		if (!v || !json_is_string(value)) {
			if (used < len)
				used += (size_t)snprintf(unknown + used, len - used, "%s%s",
				                         used ? " " : "", name);
			continue;
		}
		*known = true;
		v->cleared(json_string_value(value), cleared);
		for (size_t b = 0; b < v->n_bits; b++)
			if (cleared[v->bits[b].word] >> v->bits[b].bit & 1)
				classes |= class_bit(v->bits[b].class);
	}
	return classes;
}
