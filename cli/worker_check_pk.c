/* worker_check_pk.c: worker-check's public-key checks (cmd_worker_check.c):
 * one cell of each public-key op a worker offers per scheme, checked by the
 * reference (core/algorithms/pk.h), and one known-answer call with a key of its own. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli/worker_check.h"
#include "core/algorithms/input.h"
#include "core/algorithms/pk.h"
#include "core/engine/process.h"

#define PK_LEN 32 /* the message a public-key check signs: a digest's worth */

/* One trial of two calls of the public-key cell ALG/OP, opened with the
 * fixed keys (cb_pk_expect: what a run gives): its output checked by the
 * reference (a signature verified with cb_pk_verify, a secret compared, a
 * key pair checked), verify's status ok, verify-forged's rejected, and the
 * input the worker says it read the generator's. */
static void check_pk(struct cb_check_tally *t, const struct cb_engine *e,
                     const struct cb_algorithm *alg, enum cb_op op, const unsigned char *input)
{
	static struct cb_pk_expected want;
	struct cb_engine_config config = {.mode = CB_MODE_MESSAGE};
	struct cb_trial_info info = {.calls = 2, .len = PK_LEN, .unwarmed = true};
	struct cb_cell_setup s = {.alg = alg,
	                          .op = op,
	                          .len = PK_LEN,
	                          .config = &config,
	                          .input_seed = CB_INPUT_DEFAULT_SEED,
	                          .pk = &want.setup};
	unsigned char out[CB_PK_MAX_KEYGEN + CB_OUTPUT_SLACK] = {0};
	int expect = op == CB_OP_VERIFY_FORGED ? CB_REJECTED : CB_OK, status = CB_FAILED;
	struct cb_remote_times times;
	char check[96], why[512], sha[65];
	void *ctx;

	snprintf(check, sizeof check, "%s %s", cb_op_name(op), alg->name);
	cb_sha256_hex(input, PK_LEN, sha);
	if (cb_pk_expect(&want, alg, op, input, PK_LEN, why, sizeof why) != 0) {
		cb_check_report(t, false, check, "no reference: %s", why);
		return;
	}
	ctx = cb_engine_open(e, &s, why, sizeof why);
	if (ctx) {
		status = e->remote(ctx, &info, out, &times, why, sizeof why);
		cb_engine_calls_for(e, alg).close(ctx);
	}
	if (!ctx || status == CB_FAILED)
		cb_check_report(t, false, check, "%s", why);
	else if (status != expect)
		cb_check_report(t, false, check, "%s",
		                op == CB_OP_VERIFY_FORGED
		                    ? "accepted a signature with one bit flipped"
		                    : "rejected the reference's signature");
	else if (strcmp(times.input_sha256, sha) != 0)
		cb_check_report(t, false, check, "input_sha256 %.16s.., the generator's is %.16s..",
		                times.input_sha256, sha);
	else if (cb_pk_check(&want, alg, op, input, PK_LEN, out, why, sizeof why) != 0)
		cb_check_report(t, false, check, "%s", why);
	else
		cb_check_report(t, true, check, "%s",
		                op == CB_OP_SIGN     ? "the reference verifies the signature"
		                : op == CB_OP_DERIVE ? "the reference's shared secret"
		                : op == CB_OP_KEYGEN ? "a key pair the reference checks"
		                : expect == CB_OK    ? "accepted"
		                                     : "rejected");
}

/* A known-answer request of a public-key cell (`call`, as verify makes
 * them) carries the key the cell was opened with: ALG signs with a key that
 * is not the fixed one (the scalar or seed 01 02 03 ...), and the reference
 * verifies the signature with that key. */
static void check_pk_call(struct cb_check_tally *t, const struct cb_engine *e,
                          const struct cb_algorithm *alg, const unsigned char *input)
{
	struct cb_engine_config config = {.mode = CB_MODE_MESSAGE};
	unsigned char raw[CB_PK_MAX_SECRET], digest[CB_PK_MAX_DIGEST] = {0};
	unsigned char out[CB_PK_MAX_SIG + CB_OUTPUT_SLACK] = {0};
	struct cb_pk_setup pk = {.digest = digest, .digest_len = cb_pk_digest_len(alg)};
	struct cb_cell_setup s = {
	    .alg = alg, .op = CB_OP_SIGN, .len = PK_LEN, .config = &config, .pk = &pk};
	size_t field = cb_pk_info(alg)->family == CB_PK_FAMILY_RAW ? cb_pk_info(alg)->raw_len
	                                                           : cb_pk_field_len(alg),
	       n;
	char check[96], why[512];
	struct cb_pk_key *key;
	void *ctx = NULL;
	int rc = CB_FAILED;

	snprintf(check, sizeof check, "known answer sign %s", alg->name);
	for (size_t i = 0; i < field; i++)
		raw[i] = (unsigned char)(i + 1);
	key = cb_pk_key_from_raw(alg, raw, field, why, sizeof why);
	pk.key = key;
	if (key &&
	    (!pk.digest_len || cb_pk_digest(alg, input, PK_LEN, digest, why, sizeof why) == 0) &&
	    (ctx = cb_engine_open(e, &s, why, sizeof why)) != NULL) {
		rc = cb_engine_calls_for(e, alg).call(ctx, input, PK_LEN, out);
		cb_engine_calls_for(e, alg).close(ctx);
	}
	n = cb_pk_sig_len(alg, out, cb_pk_output_len(alg, CB_OP_SIGN));
	if (rc != CB_OK)
		cb_check_report(t, false, check, "%s", ctx ? cb_process_call_error() : why);
	else if (!n || cb_pk_verify(key, input, PK_LEN, pk.digest_len ? digest : NULL, out, n, why,
	                            sizeof why) != 1)
		cb_check_report(t, false, check,
		                "the reference rejects its signature under the key it was given");
	else
		cb_check_report(t, true, check,
		                "signed with the key it was given (not the fixed one)");
	cb_pk_key_free(key);
}

/* Every public-key op a worker offers, on the first algorithm it offers of
 * each scheme (RSA-2048 rather than 4096: a check, not a benchmark). */
void cb_worker_check_pk(struct cb_check_tally *t, const struct cb_engine *e,
                        const unsigned char *input)
{
	bool seen[CB_PK_COUNT] = {false};

	for (size_t a = 0; a < cb_algorithm_count(); a++) {
		const struct cb_algorithm *alg = cb_algorithm_at(a);
		bool offered = false;

		if (!cb_alg_is_pk(alg) || seen[alg->scheme])
			continue;
		for (int op = 0; op < CB_OP_COUNT; op++)
			if (cb_op_applies(alg, (enum cb_op)op) &&
			    cb_engine_supports(e, alg, (enum cb_op)op, CB_MODE_MESSAGE)) {
				check_pk(t, e, alg, (enum cb_op)op, input);
				offered = true;
			}
		seen[alg->scheme] = offered;
	}
	for (size_t a = 0; a < cb_algorithm_count(); a++) {
		const struct cb_algorithm *alg = cb_algorithm_at(a);

		/* a signature whose key is made from its raw private part */
		if (alg->kind == CB_KIND_SIGN && cb_pk_info(alg)->family != CB_PK_FAMILY_RSA &&
		    cb_engine_supports(e, alg, CB_OP_SIGN, CB_MODE_MESSAGE)) {
			check_pk_call(t, e, alg, input);
			return;
		}
	}
}
