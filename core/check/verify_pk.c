/* verify_pk.c: `verify`'s check of one public-key cell on the fixed keys,
 * made as a run makes it (cb_pk_expect in core/run/run_prepare.c, then the
 * engine's call and cb_pk_check in core/measure/trial.c), outside any
 * timing. */
#include "core/check/verify.h"

#include "core/engine/engine.h"
#include "core/base/errbuf.h"
#include "core/algorithms/input.h"
#include "core/algorithms/pk.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The message: as long as the shortest size a run is given by default. */
#define MESSAGE_LEN 32

static const char *status_name(int status)
{
	return status == CB_OK ? "CB_OK" : status == CB_REJECTED ? "CB_REJECTED" : "CB_FAILED";
}

/* Check one call's STATUS and OUT; 0, or -1 with WHY. */
static int check_call(const struct cb_pk_expected *e, const struct cb_algorithm *alg, enum cb_op op,
                      const struct cb_input *msg, int status, const unsigned char *out, char *why,
                      size_t why_len)
{
	int want = op == CB_OP_VERIFY_FORGED ? CB_REJECTED : CB_OK;

	if (status == want)
		return cb_pk_check(e, alg, op, msg->data, msg->len, out, why, why_len);
	if (op == CB_OP_VERIFY_FORGED && status == CB_OK)
		snprintf(why, why_len, "FORGED SIGNATURE ACCEPTED (one bit flipped)");
	else if (op == CB_OP_VERIFY && status == CB_REJECTED)
		snprintf(why, why_len, "the reference's valid signature was rejected");
	else
		snprintf(why, why_len, "call returned %s, expected %s", status_name(status),
		         status_name(want));
	return -1;
}

int cb_verify_pk_cell(const struct cb_engine *engine, const struct cb_algorithm *alg, enum cb_op op,
                      char *why, size_t why_len)
{
	static const struct cb_engine_config config = {.mode = CB_MODE_MESSAGE};
	struct cb_pk_expected *e = malloc(sizeof *e);
	unsigned char out[CB_PK_MAX_KEYGEN + CB_OUTPUT_SLACK];
	const char *fault = cb_fault_engine();
	bool faulty = fault && strcmp(fault, engine->name) == 0;
	const struct cb_engine_calls engine_calls = cb_engine_calls_for(engine, alg);
	/* keygen of RSA-4096 takes seconds: one is enough to check */
	int calls = op == CB_OP_KEYGEN ? 1 : 2, rc = -1;
	struct cb_cell_setup setup = {.alg = alg, .op = op, .len = MESSAGE_LEN, .config = &config};
	struct cb_input msg;
	char err[256] = "";
	void *ctx;

	if (!e || cb_input_create(&msg, MESSAGE_LEN, CB_INPUT_DEFAULT_SEED, 0) < 0) {
		free(e);
		snprintf(why, why_len, "out of memory");
		return -1;
	}
	if (cb_pk_expect(e, alg, op, msg.data, msg.len, err, sizeof err) != 0) {
		snprintf(why, why_len, "%s", err);
		goto done;
	}
	setup.pk = &e->setup;
	ctx = cb_engine_open(engine, &setup, err, sizeof err);
	if (!ctx) {
		snprintf(why, why_len, "open failed: %s", err[0] ? err : "no reason given");
		goto done;
	}
	rc = 0;
	for (int i = 0; i < calls && rc == 0; i++) {
		int status;

		memset(out, 0xa5, sizeof out);
		status = engine_calls.call(ctx, msg.data, msg.len, out);
		if (faulty) { /* the test-only fault switch (engine.h): a wrong output */
			bool verdict = op == CB_OP_VERIFY || op == CB_OP_VERIFY_FORGED;

			if (verdict && status != CB_FAILED)
				status = status == CB_OK ? CB_REJECTED : CB_OK;
			/* keygen's bit 4: X25519 clears a private key's low
			 * three bits, so a pair with bit 0 flipped is still valid */
			out[0] ^= op == CB_OP_KEYGEN ? 0x10 : 1;
		}
		rc = check_call(e, alg, op, &msg, status, out, why, why_len);
	}
	engine_calls.close(ctx);
done:
	cb_input_free(&msg);
	free(e);
	return rc;
}
