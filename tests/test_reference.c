/* test_reference.c: the reference that every engine is checked against
 * agrees with the published outputs on the generated input. */
#include <string.h>

#include "core/algorithms/input.h"
#include "core/algorithms/reference.h"
#include "tests/tap.h"

/* First 8 bytes of the output and of the tag on the 1 MiB input: what all
 * the libraries that offer each algorithm agree on (references[] of
 * core/check/verify.c; doc/method.md, "Measuring"). */
static const struct agreed_output {
	const char *alg, *head, *tag;
} agreed[] = {
    {"md5", "5c3bd9249358fd39", NULL},
    {"sha1", "2eefecbc3d41ac79", NULL},
    {"sha256", "8d08fc073d1a44b4", NULL},
    {"sha512", "859206e0ac479b7f", NULL},
    {"blake2b-512", "0404f6923b04c2b8", NULL},
    {"sha3-256", "e499970a9e37cacd", NULL},
    {"aes-128-cbc", "452baef136354a6d", NULL},
    {"aes-256-cbc", "d1116f3ff5fe721a", NULL},
    {"aes-128-ctr", "6879c50fd38a3b41", NULL},
    {"aes-256-ctr", "3883caed9a1fba92", NULL},
    {"aes-128-gcm", "f1816974f4ff3c50", "114ab9c70e339fc7"},
    {"aes-256-gcm", "25ef18a15701091f", "76ef61f961bffbe7"},
    {"chacha20-poly1305", "eb16c6babbf36e44", "f01b24c83c97c7d7"},
};

/* The test points of one algorithm of the table. */
static int points_of(const struct agreed_output *entry, const struct cb_algorithm *alg)
{
	int points = 2 + (entry->tag != NULL); /* computes, head, tag */

	if (alg->kind == CB_KIND_AEAD)
		return points;
	return points + 1 + (alg->kind == CB_KIND_HASH ? 1 : 4); /* stream, then its checks */
}

/* 2, then per algorithm of the table: 6 hashes x 4, 4 ciphers x 7, 3 AEADs x 3. */
#define PLANNED 63

int main(void)
{
	struct cb_input in;
	char err[256], hex[129];

	tap_plan(PLANNED);
	if (cb_input_create(&in, 3 * CB_INPUT_UNIT, CB_INPUT_DEFAULT_SEED, 0) != 0)
		return 99;
	cb_hex(in.data, 8, hex);
	is_str(hex, "62edceba92e4cb04", "the generator's first bytes");
	ok(memcmp(in.data, in.data + CB_INPUT_UNIT, CB_INPUT_UNIT) == 0, "the 1 MiB unit repeats");

	for (size_t i = 0; i < sizeof agreed / sizeof agreed[0]; i++) {
		const struct cb_algorithm *alg = cb_algorithm_find(agreed[i].alg);
		unsigned char key[CB_MAX_KEY], iv[CB_MAX_IV];
		struct cb_expected e;

		cb_standard_key(alg, key);
		cb_standard_iv(alg, iv);
		if (!ok(cb_reference_message(alg, key, iv, in.data, CB_INPUT_UNIT, &e, err,
		                             sizeof err) == 0,
		        "%s: reference computes", alg->name)) {
			diag("%s", err);
			tap_skip(points_of(&agreed[i], alg) - 1, "%s: no reference output",
			         alg->name);
			continue;
		}
		cb_hex(e.head, e.head_len, hex);
		is_str(hex, agreed[i].head, "%s: first 8 bytes agree with every library",
		       alg->name);
		if (agreed[i].tag) {
			cb_hex(e.tag, 8, hex);
			is_str(hex, agreed[i].tag, "%s: tag agrees", alg->name);
		}
		if (alg->kind == CB_KIND_AEAD)
			continue;
		/* Stream of 3 calls vs one message of 3 MiB. */
		struct cb_expected s, m;
		int rc = cb_reference_stream(alg, CB_OP_ENCRYPT, key, iv, in.data, CB_INPUT_UNIT, 3,
		                             &s, err, sizeof err);
		if (!ok(rc == 0, "%s: the reference streams 3 x 1 MiB", alg->name)) {
			diag("%s", err);
			tap_skip(points_of(&agreed[i], alg) - 3 - !!agreed[i].tag,
			         "%s: no stream output", alg->name);
			continue;
		}
		if (alg->kind == CB_KIND_HASH) {
			rc = cb_reference_message(alg, key, iv, in.data, 3 * CB_INPUT_UNIT, &m, err,
			                          sizeof err);
			ok(rc == 0 && memcmp(s.digest, m.digest, alg->digest_len) == 0,
			   "%s: stream of 3 x 1 MiB = digest of 3 MiB%s%s", alg->name,
			   rc ? ": " : "", rc ? err : "");
		} else {
			/* The third call's output is the last MiB of a 3 MiB encryption. */
			static unsigned char ct[3 * CB_INPUT_UNIT];
			unsigned char tag[CB_MAX_TAG];
			char sha[65];

			rc = cb_reference_encrypt(alg, key, iv, in.data, 3 * CB_INPUT_UNIT, ct, tag,
			                          err, sizeof err);
			ok(rc == 0, "%s: the reference encrypts 3 MiB in one message%s%s",
			   alg->name, rc ? ": " : "", rc ? err : "");
			cb_sha256_hex(ct + 2 * CB_INPUT_UNIT, CB_INPUT_UNIT, sha);
			is_str(s.output_sha256, sha,
			       "%s: stream's last call = last MiB of one message", alg->name);
			/* Decrypting the 3 MiB ciphertext as a stream gives the input back. */
			int rc_last =
			    cb_reference_stream(alg, CB_OP_DECRYPT, key, iv, ct + 2 * CB_INPUT_UNIT,
			                        CB_INPUT_UNIT, 1, &m, err, sizeof err);
			rc = cb_reference_stream(alg, CB_OP_DECRYPT, key, iv, ct, 3 * CB_INPUT_UNIT,
			                         1, &s, err, sizeof err);
			cb_sha256_hex(in.data, CB_INPUT_UNIT, sha);
			ok(rc_last == 0 &&
			       (alg->block_len == 1 || strcmp(m.output_sha256, sha) != 0),
			   "%s: the last MiB decrypted alone is not the plaintext: the chain "
			   "carries over",
			   alg->name);
			cb_sha256_hex(in.data, 3 * CB_INPUT_UNIT, sha);
			ok(rc == 0 && strcmp(s.output_sha256, sha) == 0,
			   "%s: the reference decrypts its own ciphertext%s%s", alg->name,
			   rc ? ": " : "", rc ? err : "");
		}
	}
	cb_input_free(&in);
	return tap_done();
}
