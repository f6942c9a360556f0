/* verify.c: known-answer vectors and cross-engine agreement, as a matrix. */
#include "core/check/verify.h"

#include "core/engine/engine.h"
#include "core/base/errbuf.h"
#include "core/algorithms/input.h"
#include "core/check/vectors.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The outputs every library agreed on for the 1 MiB generated input (seed
 * 20260804, key 00 01 .., IV 00 .. 0f, nonce 00 .. 0b, no AAD), each
 * measured with every library that offers the algorithm (doc/method.md,
 * "Measuring"). */
static const struct cb_verify_reference references[] = {
    {"md5", "5c3bd9249358fd39", NULL, NULL},
    {"sha1", "2eefecbc3d41ac79", NULL, NULL},
    {"sha256", "8d08fc073d1a44b4", NULL, NULL},
    {"sha512", "859206e0ac479b7f", NULL, NULL},
    {"blake2b-512", "0404f6923b04c2b8", NULL, NULL},
    {"sha3-256", "e499970a9e37cacd", NULL, NULL},
    {"aes-128-cbc", "452baef136354a6d", "3e4a94f488fb20dd", NULL},
    {"aes-256-cbc", "d1116f3ff5fe721a", "53825567cd7aab57", NULL},
    {"aes-128-ctr", "6879c50fd38a3b41", "f28b47cd1054f145", NULL},
    {"aes-256-ctr", "3883caed9a1fba92", "1d32747792c1708b", NULL},
    {"aes-128-gcm", "f1816974f4ff3c50", "f0353839401b6a27", "114ab9c70e339fc7"},
    {"aes-256-gcm", "25ef18a15701091f", "43fde20d6c098915", "76ef61f961bffbe7"},
    {"chacha20-poly1305", "eb16c6babbf36e44", "430a03139e0fd3f0", "f01b24c83c97c7d7"},
};

#define N_REFERENCES (sizeof references / sizeof references[0])

const struct cb_verify_reference *cb_verify_reference(const char *algorithm)
{
	for (size_t i = 0; i < N_REFERENCES; i++)
		if (strcmp(references[i].algorithm, algorithm) == 0)
			return &references[i];
	return NULL;
}

/* ---- State of one run ---- */

struct cell {
	bool offered;
	bool failed;
	bool agreement_done;
	bool reference_ok;
	char fingerprint[65]; /* SHA-256 of the 1 MiB output (digest, or ciphertext and tag) */
};

struct column {
	const struct cb_engine *engine;
	bool usable;
	const char *why;
	/* Public key: its vectors, and its operations on the fixed keys. */
	unsigned pk_passed, pk_failed, pk_checked, pk_wrong;
};

struct lines {
	char **text;
	size_t count, capacity;
};

struct run {
	struct column *columns;
	size_t n_columns;
	struct cell *cells; /* [algorithm][column] */
	struct lines failures, notes;
	unsigned vectors_passed, vectors_failed, vectors_skipped;
	unsigned agreement_checked, agreement_failed;
	bool out_of_memory;
};

static struct cell *cell_at(struct run *r, size_t alg, size_t col)
{
	return &r->cells[alg * r->n_columns + col];
}

static void add_line(struct run *r, struct lines *l, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (l->count == l->capacity) {
		size_t n = l->capacity ? 2 * l->capacity : 16;
		char **grown = realloc(l->text, n * sizeof *grown);

		if (!grown) {
			r->out_of_memory = true;
			return;
		}
		l->text = grown;
		l->capacity = n;
	}
	l->text[l->count] = strdup(buf);
	if (l->text[l->count])
		l->count++;
	else
		r->out_of_memory = true;
}

static void free_lines(struct lines *l)
{
	for (size_t i = 0; i < l->count; i++)
		free(l->text[i]);
	free(l->text);
}

/* The built-ins and baselines (the `true` command): their output is not the
 * algorithm's, so they check it themselves. */
static bool is_builtin(const struct cb_engine *engine)
{
	return strcmp(engine->kind, "builtin") == 0 || engine->self_check != NULL;
}

static bool offers_any(const struct cb_engine *engine, const struct cb_algorithm *alg)
{
	for (int op = 0; op < CB_OP_COUNT; op++)
		if (cb_op_applies(alg, op) && cb_engine_supports(engine, alg, op, CB_MODE_MESSAGE))
			return true;
	return false;
}

/* The engines to verify: those named, or every compiled-in crypto engine. */
static int select_columns(struct run *r, const char *const *names, size_t n_names, char *err,
                          size_t err_len)
{
	size_t n = n_names ? n_names : cb_engine_count();

	r->columns = calloc(n ? n : 1, sizeof *r->columns);
	if (!r->columns) {
		cb_errorf(err, err_len, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct cb_engine *e = n_names ? cb_engine_find(names[i]) : cb_engine_at(i);
		bool seen = false;

		if (!e) {
			cb_errorf(err, err_len, "unknown engine '%s' (see `cryptobench engines`)",
			          names[i]);
			return -1;
		}
		for (size_t c = 0; c < r->n_columns; c++)
			seen = seen || r->columns[c].engine == e;
		if (seen)
			continue;
		if (is_builtin(e)) {
			if (n_names)
				add_line(r, &r->notes,
				         "%s is a builtin whose output is not the algorithm's: not "
				         "verified",
				         e->name);
			continue;
		}
		r->columns[r->n_columns].engine = e;
		r->columns[r->n_columns].usable =
		    cb_engine_usable(e, &r->columns[r->n_columns].why);
		r->n_columns++;
	}
	return 0;
}

/* ---- Known-answer vectors ---- */

static size_t algorithm_index(const struct cb_algorithm *alg)
{
	size_t i = 0;

	while (cb_algorithm_at(i) && cb_algorithm_at(i) != alg)
		i++;
	return i;
}

static void run_vectors(struct run *r, const struct cb_vector_set *set)
{
	char why[512];

	for (size_t c = 0; c < r->n_columns; c++) {
		const struct cb_engine *e = r->columns[c].engine;

		if (!r->columns[c].usable)
			continue;
		for (size_t f = 0; f < set->count; f++) {
			const struct cb_vector_file *file = &set->files[f];

			for (size_t i = 0; i < file->count; i++) {
				const struct cb_vector *v = &file->vectors[i];

				enum cb_vector_result result =
				    cb_vectors_run(e, v, why, sizeof why);

				if (cb_alg_is_pk(v->alg)) {
					r->columns[c].pk_passed += result == CB_VECTOR_PASS;
					r->columns[c].pk_failed += result == CB_VECTOR_FAIL;
				}
				switch (result) {
				case CB_VECTOR_PASS:
					r->vectors_passed++;
					break;
				case CB_VECTOR_FAIL:
					r->vectors_failed++;
					cell_at(r, algorithm_index(v->alg), c)->failed = true;
					add_line(r, &r->failures, "%s %s: %s:%d (%s): %s", e->name,
					         v->alg->name, file->path, v->line, v->name, why);
					break;
				case CB_VECTOR_SKIPPED:
					r->vectors_skipped++;
					add_line(r, &r->notes, "%s %s: %s:%d (%s) skipped: %s",
					         e->name, v->alg->name, file->path, v->line,
					         v->name, why);
					break;
				case CB_VECTOR_UNSUPPORTED:
					break;
				}
			}
		}
	}
}

/* ---- Agreement on the generated input ---- */

/* Run ALG over INPUT through column C and compare with the reference table. */
static void agreement_one(struct run *r, size_t a, size_t c, const struct cb_input *input,
                          unsigned char *out)
{
	static const struct cb_engine_config config = {.mode = CB_MODE_MESSAGE};
	const struct cb_algorithm *alg = cb_algorithm_at(a);
	const struct cb_engine *e = r->columns[c].engine;
	const struct cb_engine_calls calls = cb_engine_calls_for(e, alg);
	const struct cb_verify_reference *ref = cb_verify_reference(alg->name);
	struct cell *cell = cell_at(r, a, c);
	enum cb_op op = alg->kind == CB_KIND_HASH ? CB_OP_HASH : CB_OP_ENCRYPT;
	unsigned char key[CB_MAX_KEY], iv[CB_MAX_IV];
	struct cb_cell_setup setup = {
	    .alg = alg,
	    .op = op,
	    .len = input->len,
	    .key = key,
	    .iv = iv,
	    .config = &config,
	};
	size_t out_len = cb_output_len(alg, op, input->len);
	char err[256] = "", head[17], tail[17], tag[17];
	const char *fault;
	int status;
	void *ctx;

	if (!cb_engine_supports(e, alg, op, CB_MODE_MESSAGE))
		return;
	if (e->max_len && e->max_len(alg, op) && input->len > e->max_len(alg, op)) {
		add_line(r, &r->notes,
		         "%s %s: agreement not checked: one message holds at most %zu bytes, "
		         "the input %zu",
		         e->name, alg->name, e->max_len(alg, op), input->len);
		return;
	}
	cb_standard_key(alg, key);
	cb_standard_iv(alg, iv);
	cell->agreement_done = true;
	r->agreement_checked++;
	ctx = cb_engine_open(e, &setup, err, sizeof err);
	if (!ctx) {
		add_line(r, &r->failures, "%s %s: agreement: open failed: %s", e->name, alg->name,
		         err);
		return;
	}
	status = calls.call(ctx, input->data, input->len, out);
	calls.close(ctx);
	fault = cb_fault_engine();
	if (fault && strcmp(fault, e->name) == 0)
		out[0] ^= 1; /* the test-only fault switch of engine.h */
	if (status != CB_OK) {
		add_line(r, &r->failures, "%s %s: agreement: call on 1 MiB returned %d", e->name,
		         alg->name, status);
		return;
	}
	cb_hex(out, 8, head);
	cb_hex(out + input->len - 8, 8, tail);
	cb_hex(out + input->len, 8, tag);
	cb_sha256_hex(out, out_len, cell->fingerprint);
	if (!ref) {
		cell->reference_ok = true; /* nothing published: agreement between engines only */
	} else if (strcmp(head, ref->head) != 0) {
		add_line(r, &r->failures, "%s %s: agreement: output starts %s, the reference %s",
		         e->name, alg->name, head, ref->head);
	} else if (ref->tail && strcmp(tail, ref->tail) != 0) {
		add_line(r, &r->failures, "%s %s: agreement: ciphertext ends %s, the reference %s",
		         e->name, alg->name, tail, ref->tail);
	} else if (ref->tag && strcmp(tag, ref->tag) != 0) {
		add_line(r, &r->failures, "%s %s: agreement: tag starts %s, the reference %s",
		         e->name, alg->name, tag, ref->tag);
	} else {
		cell->reference_ok = true;
	}
}

/* Engines that match the reference must also match each other over the whole
 * output; the largest group of equal outputs wins, a tie fails everyone. */
static void agreement_compare(struct run *r, size_t a)
{
	size_t best = 0, best_count = 0;
	bool tie = false;

	for (size_t c = 0; c < r->n_columns; c++) {
		size_t count = 0;

		if (!cell_at(r, a, c)->reference_ok)
			continue;
		for (size_t d = 0; d < r->n_columns; d++)
			count += cell_at(r, a, d)->reference_ok &&
			         strcmp(cell_at(r, a, c)->fingerprint,
			                cell_at(r, a, d)->fingerprint) == 0;
		if (count > best_count) {
			best = c;
			best_count = count;
			tie = false;
		} else if (count == best_count && strcmp(cell_at(r, a, c)->fingerprint,
		                                         cell_at(r, a, best)->fingerprint) != 0) {
			tie = true;
		}
	}
	for (size_t c = 0; c < r->n_columns; c++) {
		struct cell *cell = cell_at(r, a, c);

		if (!cell->reference_ok)
			continue;
		if (!tie && strcmp(cell->fingerprint, cell_at(r, a, best)->fingerprint) == 0)
			continue;
		cell->reference_ok = false;
		add_line(r, &r->failures,
		         "%s %s: agreement: output SHA-256 %.16s.. differs from %s's %.16s..",
		         r->columns[c].engine->name, cb_algorithm_at(a)->name, cell->fingerprint,
		         r->columns[best].engine->name, cell_at(r, a, best)->fingerprint);
	}
}

/* A public-key algorithm: each operation column C offers, on the fixed keys. */
static void agreement_pk(struct run *r, size_t a, size_t c)
{
	const struct cb_algorithm *alg = cb_algorithm_at(a);
	struct column *col = &r->columns[c];
	char why[512];

	for (int op = 0; op < CB_OP_COUNT; op++) {
		if (!cb_op_applies(alg, op) ||
		    !cb_engine_supports(col->engine, alg, op, CB_MODE_MESSAGE))
			continue;
		r->agreement_checked++;
		col->pk_checked++;
		if (cb_verify_pk_cell(col->engine, alg, op, why, sizeof why) == 0)
			continue;
		r->agreement_failed++;
		col->pk_wrong++;
		cell_at(r, a, c)->failed = true;
		add_line(r, &r->failures, "%s %s %s: fixed keys: %s", col->engine->name, alg->name,
		         cb_op_name(op), why);
	}
}

static int run_agreement(struct run *r, char *err, size_t err_len)
{
	struct cb_input input;
	unsigned char *out;
	void *allocation;

	if (cb_input_create(&input, CB_INPUT_UNIT, CB_INPUT_DEFAULT_SEED, 0) < 0) {
		cb_errorf(err, err_len, "out of memory for the 1 MiB input");
		return -1;
	}
	out = cb_aligned_alloc(CB_INPUT_UNIT + CB_OUTPUT_SLACK, 0, &allocation);
	if (!out) {
		cb_input_free(&input);
		cb_errorf(err, err_len, "out of memory for the 1 MiB output");
		return -1;
	}
	for (size_t a = 0; a < cb_algorithm_count(); a++) {
		if (cb_alg_is_pk(cb_algorithm_at(a))) {
			for (size_t c = 0; c < r->n_columns; c++)
				if (r->columns[c].usable)
					agreement_pk(r, a, c);
			continue;
		}
		for (size_t c = 0; c < r->n_columns; c++)
			if (r->columns[c].usable)
				agreement_one(r, a, c, &input, out);
		agreement_compare(r, a);
		for (size_t c = 0; c < r->n_columns; c++) {
			struct cell *cell = cell_at(r, a, c);

			if (cell->agreement_done && !cell->reference_ok) {
				cell->failed = true;
				r->agreement_failed++;
			}
		}
	}
	free(allocation);
	cb_input_free(&input);
	return 0;
}

/* ---- Report ---- */

/* A cell as wide as its column's engine name (at least "FAIL"); the last
 * column unpadded, so lines carry no trailing blanks. */
static void print_cell(FILE *out, const struct run *r, size_t c, const char *text)
{
	int width = (int)strlen(r->columns[c].engine->name);

	if (c + 1 == r->n_columns)
		fprintf(out, " %s", text);
	else
		fprintf(out, " %-*s", width < 4 ? 4 : width, text);
}

static void print_report(FILE *out, struct run *r, const struct cb_vector_set *set, const char *dir)
{
	size_t usable = 0;

	fprintf(out, "known-answer vectors: %zu in %zu files (%s)\n\n", cb_vectors_total(set),
	        set->count, dir);
	fprintf(out, "%-19s", "algorithm");
	for (size_t c = 0; c < r->n_columns; c++) {
		print_cell(out, r, c, r->columns[c].engine->name);
		usable += r->columns[c].usable;
	}
	fputc('\n', out);
	for (size_t a = 0; a < cb_algorithm_count(); a++) {
		fprintf(out, "%-19s", cb_algorithm_at(a)->name);
		for (size_t c = 0; c < r->n_columns; c++) {
			const struct cell *cell = cell_at(r, a, c);
			const char *text = !r->columns[c].usable ? "n/a"
			                   : !cell->offered      ? "-"
			                   : cell->failed        ? "FAIL"
			                                         : "ok";

			print_cell(out, r, c, text);
		}
		fputc('\n', out);
	}
	fprintf(out, "\nok: vectors and agreement passed; FAIL: see below; -: not offered; "
	             "n/a: engine unusable here\n");
	for (size_t c = 0; c < r->n_columns; c++)
		if (!r->columns[c].usable)
			fprintf(out, "unusable: %s: %s\n", r->columns[c].engine->name,
			        r->columns[c].why);
	for (size_t c = 0; c < r->n_columns; c++) {
		const struct column *col = &r->columns[c];

		if (col->pk_checked || col->pk_passed || col->pk_failed)
			fprintf(out,
			        "public key: %s: vectors %u passed, %u failed; fixed keys: %u "
			        "operations checked, %u failed\n",
			        col->engine->name, col->pk_passed, col->pk_failed, col->pk_checked,
			        col->pk_wrong);
	}
	for (size_t i = 0; i < r->notes.count; i++)
		fprintf(out, "note: %s\n", r->notes.text[i]);
	if (r->failures.count)
		fprintf(out, "\nfailures:\n");
	for (size_t i = 0; i < r->failures.count; i++)
		fprintf(out, "  %s\n", r->failures.text[i]);
	fprintf(out,
	        "\nverify: %zu of %zu engines usable; vectors: %u passed, %u failed, %u skipped; "
	        "agreement: %u checked, %u failed: %s\n",
	        usable, r->n_columns, r->vectors_passed, r->vectors_failed, r->vectors_skipped,
	        r->agreement_checked, r->agreement_failed,
	        usable == 0         ? "nothing verified"
	        : r->failures.count ? "FAILED"
	                            : "all passed");
}

int cb_verify_run(FILE *out, const char *vectors_dir, const char *const *names, size_t n_names,
                  char *err, size_t err_len)
{
	struct cb_vector_set set;
	struct run r = {0};
	int status = CB_VERIFY_BAD_INPUT;
	size_t usable = 0;

	if (cb_vectors_load_dir(vectors_dir, &set, err, err_len) < 0)
		return CB_VERIFY_BAD_INPUT;
	if (select_columns(&r, names, n_names, err, err_len) < 0)
		goto done;
	r.cells = calloc(cb_algorithm_count() * (r.n_columns ? r.n_columns : 1), sizeof *r.cells);
	if (!r.cells) {
		cb_errorf(err, err_len, "out of memory");
		goto done;
	}
	for (size_t a = 0; a < cb_algorithm_count(); a++)
		for (size_t c = 0; c < r.n_columns; c++)
			cell_at(&r, a, c)->offered =
			    r.columns[c].usable &&
			    offers_any(r.columns[c].engine, cb_algorithm_at(a));
	run_vectors(&r, &set);
	if (run_agreement(&r, err, err_len) < 0)
		goto done;
	if (r.out_of_memory) {
		cb_errorf(err, err_len, "out of memory");
		goto done;
	}
	print_report(out, &r, &set, vectors_dir);
	for (size_t c = 0; c < r.n_columns; c++)
		usable += r.columns[c].usable;
	status = usable && r.failures.count == 0 ? CB_VERIFY_PASSED : CB_VERIFY_FAILED;
done:
	free_lines(&r.failures);
	free_lines(&r.notes);
	free(r.cells);
	free(r.columns);
	cb_vectors_free_set(&set);
	return status;
}
