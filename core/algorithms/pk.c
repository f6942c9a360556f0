/* pk.c: public-key cells' fixed keys, and what their outputs must be. Their
 * sizes are pk_sizes.c's; the cryptography itself is the reference's
 * (core/algorithms/pk_reference.c). */
#include "core/algorithms/pk.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/errbuf.h"
#include "core/algorithms/input.h"
#include "core/algorithms/pk_keys.h"

/* ---- Fixed keys ---- */

/* The fixed key of ALG: its size's in its scheme's row (core/algorithms/pk_scheme.c),
 * or NULL. */
static const struct cb_pk_fixed *fixed_of(const struct cb_algorithm *alg)
{
	const struct cb_pk_scheme_info *info = cb_pk_info(alg);

	for (size_t k = 0; info && k < CB_PK_MAX_SIZES && info->sizes[k].name; k++)
		if (strcmp(info->sizes[k].name, alg->name) == 0)
			return info->sizes[k].key;
	return NULL;
}

const char *cb_pk_key_source(const struct cb_algorithm *alg)
{
	const struct cb_pk_fixed *f = fixed_of(alg);

	return f ? f->source : "(none)";
}

/* HEX decoded into a new buffer (*LEN bytes), or NULL. */
static unsigned char *unhex(const char *hex, size_t *len)
{
	size_t n = strlen(hex) / 2;
	unsigned char *out = malloc(n ? n : 1);

	for (size_t i = 0; out && i < n; i++) {
		unsigned v;

		if (sscanf(hex + 2 * i, "%2x", &v) != 1) {
			free(out);
			return NULL;
		}
		out[i] = (unsigned char)v;
	}
	*len = n;
	return out;
}

enum form { DER, RAW_PRIVATE, RAW_PUBLIC };

/* A key of ALG from the fixed table's HEX in FORM. */
static struct cb_pk_key *decode_fixed(const struct cb_algorithm *alg, const char *hex,
                                      enum form form, char *err, size_t err_len)
{
	size_t len;
	unsigned char *bytes = unhex(hex, &len);
	struct cb_pk_key *key;

	if (!bytes) {
		cb_errorf(err, err_len, "out of memory for the %s key", alg->name);
		return NULL;
	}
	key = form == DER           ? cb_pk_key_from_der(alg, bytes, len, err, err_len)
	      : form == RAW_PRIVATE ? cb_pk_key_from_raw(alg, bytes, len, err, err_len)
	                            : cb_pk_key_from_public(alg, bytes, len, err, err_len);
	free(bytes);
	return key;
}

static pthread_mutex_t fixed_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	const struct cb_algorithm *alg;
	struct cb_pk_key *key, *peer;
} made[32];
static size_t n_made;

static const struct cb_pk_key *make_fixed(const struct cb_algorithm *alg, bool peer, char *err,
                                          size_t err_len)
{
	const struct cb_pk_fixed *f = fixed_of(alg);
	struct cb_pk_key *key, *other = NULL;

	for (size_t i = 0; i < n_made; i++)
		if (made[i].alg == alg)
			return peer ? made[i].peer : made[i].key;
	if (!f || n_made == sizeof made / sizeof made[0]) {
		cb_errorf(err, err_len, "%s: no fixed key", alg->name);
		return NULL;
	}
	key = decode_fixed(alg, f->key_hex, f->der ? DER : RAW_PRIVATE, err, err_len);
	if (key && f->peer_hex && (alg->kind == CB_KIND_KEX)) {
		/* A peer's public key: SubjectPublicKeyInfo, raw for the raw family. */
		other = decode_fixed(alg, f->peer_hex,
		                     cb_pk_info(alg)->family == CB_PK_FAMILY_RAW ? RAW_PUBLIC : DER,
		                     err, err_len);
		if (!other) {
			cb_pk_key_free(key);
			return NULL;
		}
	}
	if (!key)
		return NULL;
	made[n_made].alg = alg;
	made[n_made].key = key;
	made[n_made].peer = other;
	n_made++;
	if (peer && !other)
		cb_errorf(err, err_len, "%s: no peer key", alg->name);
	return peer ? other : key;
}

const struct cb_pk_key *cb_pk_fixed_key(const struct cb_algorithm *alg, bool peer, char *err,
                                        size_t err_len)
{
	const struct cb_pk_key *key;

	pthread_mutex_lock(&fixed_lock);
	key = make_fixed(alg, peer, err, err_len);
	pthread_mutex_unlock(&fixed_lock);
	return key;
}

/* ---- Expected outputs ---- */

int cb_pk_expect(struct cb_pk_expected *e, const struct cb_algorithm *alg, enum cb_op op,
                 const unsigned char *msg, size_t len, char *err, size_t err_len)
{
	struct cb_pk_setup *s = &e->setup;

	memset(e, 0, sizeof *e);
	if (op == CB_OP_KEYGEN)
		return 0; /* a new key each call: checked for what it is */
	s->key = cb_pk_fixed_key(alg, false, err, err_len);
	if (!s->key)
		return -1;
	if (op == CB_OP_DERIVE) {
		s->peer = cb_pk_fixed_key(alg, true, err, err_len);
		return s->peer ? cb_pk_derive(s->key, s->peer, e->secret, err, err_len) : -1;
	}
	s->digest_len = cb_pk_digest_len(alg);
	if (s->digest_len) {
		if (cb_pk_digest(alg, msg, len, e->digest, err, err_len) != 0)
			return -1;
		s->digest = e->digest;
	}
	if (cb_pk_sign(s->key, msg, len, s->digest, e->sig, &e->sig_len, err, err_len) != 0)
		return -1;
	memcpy(e->forged, e->sig, e->sig_len);
	/* One bit of the middle byte: inside r (ECDSA's DER), the signature's
	 * value (RSA), R (Ed25519), never the encoding's framing. */
	e->forged[e->sig_len / 2 - 1] ^= 0x10;
	s->sig = op == CB_OP_VERIFY_FORGED ? e->forged : e->sig;
	s->sig_len = e->sig_len;
	return 0;
}

int cb_pk_check(const struct cb_pk_expected *e, const struct cb_algorithm *alg, enum cb_op op,
                const unsigned char *msg, size_t len, const unsigned char *out, char *why,
                size_t why_len)
{
	size_t n, secret_len = cb_pk_output_len(alg, CB_OP_DERIVE);
	char got[17], want[17], err[256] = "";
	int ok;

	switch (op) {
	case CB_OP_SIGN:
		n = cb_pk_sig_len(alg, out, cb_pk_output_len(alg, op));
		if (!n) {
			cb_hex(out, 8, got);
			snprintf(why, why_len, "not a %s signature: %s...", alg->name, got);
			return -1;
		}
		if (cb_pk_deterministic(alg) && (n != e->sig_len || memcmp(out, e->sig, n) != 0)) {
			cb_hex(out, 8, got);
			cb_hex(e->sig, 8, want);
			snprintf(why, why_len,
			         "signature mismatch: got %s..., the reference's is %s... "
			         "(the scheme is deterministic)",
			         got, want);
			return -1;
		}
		ok = cb_pk_verify(e->setup.key, msg, len, e->setup.digest, out, n, err, sizeof err);
		if (ok == 1)
			return 0;
		snprintf(why, why_len, "%s", ok < 0 ? err : "the reference rejects the signature");
		return -1;
	case CB_OP_DERIVE:
		if (memcmp(out, e->secret, secret_len) == 0)
			return 0;
		cb_hex(out, 8, got);
		cb_hex(e->secret, 8, want);
		snprintf(why, why_len, "shared secret mismatch: got %s..., expected %s...", got,
		         want);
		return -1;
	case CB_OP_KEYGEN:
		return cb_pk_check_keygen(alg, out, why, why_len);
	default:
		return 0; /* verify: the status was the result */
	}
}
