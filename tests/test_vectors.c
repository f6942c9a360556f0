/* test_vectors.c: the known-answer vector files, their reader, and every
 * vector through every compiled-in crypto engine.
 *
 * Usage: test_vectors [VECTORS_DIR] (default: where `verify` reads them,
 * core/datadir.h). */
#include "config.h"

#include "tests/tap.h"

#include "core/datadir.h"
#include "core/engine.h"
#include "core/vectors.h"
#include "core/verify.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct {
	const char *file;
	size_t count;
} expected_counts[] = {
    {"fips180-sha.vec", 9},   {"fips202-sha3.vec", 3},    {"gcm-spec.vec", 8},
    {"rfc1321-md5.vec", 7},   {"rfc7693-blake2b.vec", 1}, {"rfc8439-chacha20-poly1305.vec", 1},
    {"sp800-38a-aes.vec", 8},
};

#define N_FILES (sizeof expected_counts / sizeof expected_counts[0])

static char scratch[] = "/tmp/test_vectors.XXXXXX";

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static const struct cb_vector *find_vector(const struct cb_vector_set *set, const char *name)
{
	for (size_t f = 0; f < set->count; f++)
		for (size_t i = 0; i < set->files[f].count; i++)
			if (strcmp(set->files[f].vectors[i].name, name) == 0)
				return &set->files[f].vectors[i];
	return NULL;
}

/* tap.h's is_str tests its pointer for NULL; an array would always pass. */
static const char *text_of(const char *buffer)
{
	return buffer;
}

static bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Show a report as TAP diagnostics. */
static void diag_text(const char *text)
{
	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n');
		int len = end ? (int)(end - line) : (int)strlen(line);

		printf("# %.*s\n", len, line);
		line = end ? end + 1 : NULL;
	}
}

static bool all_bytes(const unsigned char *buf, size_t len, unsigned char byte)
{
	for (size_t i = 0; i < len; i++)
		if (buf[i] != byte)
			return false;
	return true;
}

static void check_files(const struct cb_vector_set *set)
{
	is_num(set->count, N_FILES, "%zu vector files", N_FILES);
	for (size_t f = 0; f < set->count && f < N_FILES; f++) {
		const struct cb_vector_file *file = &set->files[f];
		bool sourced = true;

		is_str(base_name(file->path), expected_counts[f].file, "file %zu is %s", f,
		       expected_counts[f].file);
		is_num(file->count, expected_counts[f].count, "%s holds %zu vectors",
		       expected_counts[f].file, expected_counts[f].count);
		for (size_t i = 0; i < file->count; i++)
			sourced = sourced && file->vectors[i].source && file->vectors[i].source[0];
		ok(sourced, "every vector of %s names its source", expected_counts[f].file);
	}
	is_num(cb_vectors_total(set), 37, "37 vectors in all");
}

/* What the reader made of the less plain fields. */
static void check_parsed(const struct cb_vector_set *set)
{
	const struct cb_vector *v;

	v = find_vector(set, "SHA-256 one million 'a'");
	ok(v && v->msg_len == 1000000 && all_bytes(v->msg, v->msg_len, 'a'),
	   "text = \"a\" with repeat = 1000000 is one million 'a'");
	v = find_vector(set, "SHA3-256 1600-bit message");
	ok(v && v->msg_len == 200 && all_bytes(v->msg, v->msg_len, 0xa3), "msg = a3, repeat = 200");
	v = find_vector(set, "SHA3-256 empty message");
	ok(v && v->msg_len == 0 && v->msg != NULL, "an empty msg is zero bytes, not NULL");
	v = find_vector(set, "SHA-512 \"abc\"");
	ok(v && v->digest[0] == 0xdd && v->digest[63] == 0x9f,
	   "a digest continued on the next line");
	v = find_vector(set, "F.2.2 CBC-AES128.Decrypt");
	ok(v && v->op == CB_OP_DECRYPT && v->msg_len == 64 && v->ciphertext[63] == 0xa7,
	   "op = decrypt, 64 bytes over four lines");
	v = find_vector(set, "GCM Test Case 4");
	ok(v && cb_vector_has_aad(v) && v->aad_len == 20 && v->aad[19] == 0xd2 && v->msg_len == 60,
	   "GCM test case 4: 20 bytes of aad, 60 of message");
	v = find_vector(set, "GCM Test Case 3");
	ok(v && !cb_vector_has_aad(v) && v->aad == NULL, "GCM test case 3 has no aad");
	v = find_vector(set, "RFC 8439 2.8.2 AEAD example");
	ok(v && v->msg_len == 114 && v->iv[0] == 0x07 && v->iv[4] == 0x40 && v->aad_len == 12 &&
	       memcmp(v->msg, "Ladies and Gentlemen", 20) == 0 && v->tag[15] == 0x91,
	   "RFC 8439: spaced hex, nonce 07000000 || IV, 114-byte plaintext");
	ok(v && v->source && strstr(v->source, "RFC 8439, Section 2.8.2"), "its source is kept");
}

/* Write TEXT to a file in the scratch folder and try to load it. */
static void check_bad(const char *file, const char *text, const char *message)
{
	char path[256], err[512] = "", want[512];
	struct cb_vector_file parsed;
	FILE *f;
	int rc;

	snprintf(path, sizeof path, "%s/%s", scratch, file);
	f = fopen(path, "w");
	if (!f) {
		ok(0, "cannot write %s", path);
		return;
	}
	fputs(text, f);
	fclose(f);
	rc = cb_vectors_load(path, &parsed, err, sizeof err);
	snprintf(want, sizeof want, "%s:%s", path, message);
	ok(rc == -1 && parsed.count == 0 && parsed.vectors == NULL, "%s is refused", file);
	is_str(text_of(err), want, "%s: FILE:LINE: message", file);
	unlink(path);
}

static void check_malformed(void)
{
	char err[512] = "", want[512], path[256];
	struct cb_vector_file parsed;
	struct cb_vector_set set;

	check_bad("hex.vec",
	          "# source: here\nalgorithm = sha256\ntext = \"abc\"\ndigest = ba78zz\n",
	          "4: bad hex digit 'z' in 'digest'");
	check_bad("odd.vec", "algorithm = md5\nmsg = 616\ndigest = 00\n",
	          "2: odd number of hex digits in 'msg'");
	check_bad("field.vec", "algorithm = md5\nmessage = 61\n", "2: unknown field 'message'");
	check_bad("noeq.vec", "algorithm = md5\nmsg 61\n", "2: expected 'field = value'");
	check_bad("twice.vec", "algorithm = md5\nmsg = 61\nmsg = 62\n",
	          "3: 'msg' given twice (first at line 2)");
	check_bad("alg.vec", "\n\nalgorithm = sha3-512\nmsg =\n",
	          "3: unknown algorithm 'sha3-512'");
	check_bad("len.vec",
	          "algorithm = md5\ntext = \"\"\ndigest = d41d8cd98f00b204e9800998ecf842\n",
	          "3: 'digest' is 15 bytes; md5 needs 16");
	check_bad("missing.vec",
	          "algorithm = md5\ntext = \"\"\n\nalgorithm = sha1\n# no digest\nmsg = 00\n",
	          "1: md5 vector has no 'digest'");
	check_bad("second.vec",
	          "algorithm = md5\ntext = \"\"\ndigest = d41d8cd98f00b204e9800998ecf8427e\n\n"
	          "name = no algorithm\nmsg = 00\n",
	          "5: vector has no 'algorithm'");
	check_bad("apply.vec",
	          "algorithm = aes-128-cbc\nkey = 00000000000000000000000000000000\n"
	          "iv = 00000000000000000000000000000000\nmsg =\nciphertext =\ntag = 00\n",
	          "6: 'tag' does not apply to aes-128-cbc");
	check_bad("indent.vec", "  algorithm = md5\n",
	          "1: indented line does not continue a hex field");
	check_bad("quote.vec", "algorithm = md5\ntext = abc\ndigest = 00\n",
	          "2: 'text' must be a double-quoted string");
	check_bad("both.vec", "algorithm = md5\nmsg = 61\ntext = \"a\"\ndigest = 00\n",
	          "3: 'msg' and 'text' both given");
	check_bad("repeat.vec", "algorithm = md5\ntext = \"a\"\nrepeat = 0\ndigest = 00\n",
	          "3: 'repeat' must be a whole number from 1 up to a 67108864-byte message");
	check_bad("op.vec",
	          "algorithm = aes-128-ctr\nop = both\nkey = 00000000000000000000000000000000\n"
	          "iv = 00000000000000000000000000000000\nmsg =\nciphertext =\n",
	          "2: 'op' must be encrypt or decrypt");
	check_bad("ctlen.vec",
	          "algorithm = aes-128-ctr\nkey = 00000000000000000000000000000000\n"
	          "iv = 00000000000000000000000000000000\nmsg = 00\nciphertext = 0000\n",
	          "5: 'ciphertext' is 2 bytes; the message is 1");
	check_bad(
	    "cbc.vec",
	    "# source: none\nalgorithm = aes-128-cbc\nkey = 00000000000000000000000000000000\n"
	    "iv = 00000000000000000000000000000000\nmsg = 00\nciphertext = 00\n",
	    "2: the message is 1 bytes, not a multiple of 16 (aes-128-cbc is run without padding)");
	check_bad("nonce.vec",
	          "algorithm = aes-128-gcm\nkey = 00000000000000000000000000000000\n"
	          "iv = 00000000000000000000000000000000\nmsg =\nciphertext =\n"
	          "tag = 58e2fccefa7e3061367f1d57a4e7455a\n",
	          "3: 'iv' is 16 bytes; aes-128-gcm needs 12");

	snprintf(want, sizeof want, "%s/absent.vec: No such file or directory", scratch);
	snprintf(path, sizeof path, "%s/absent.vec", scratch);
	ok(cb_vectors_load(path, &parsed, err, sizeof err) == -1, "a missing file is refused");
	is_str(text_of(err), want, "with the system's reason");
	ok(cb_vectors_load_dir(scratch, &set, err, sizeof err) == -1 && set.count == 0,
	   "a folder without vector files is refused");
	snprintf(want, sizeof want, "%s: no *.vec vector files", scratch);
	is_str(text_of(err), want, "and says so");
}

/* An engine that wraps a real one and misbehaves as told: accepts forged
 * tags, or changes its output on the second call of a context. */
static const struct cb_engine *inner;
static int misbehaviour;

struct wrapped {
	void *ctx;
	enum cb_op op;
	unsigned calls;
};

static void *wrap_open(const struct cb_cell_setup *cell, const struct cb_engine_setup *setup,
                       char *err, size_t err_len)
{
	struct wrapped *w = calloc(1, sizeof *w);

	if (!w || !(w->ctx = inner->open(cell, setup, err, err_len))) {
		free(w);
		return NULL;
	}
	w->op = setup->op;
	return w;
}

static int wrap_call(void *ctx, const unsigned char *in, size_t len, unsigned char *out)
{
	struct wrapped *w = ctx;
	int status = inner->call(w->ctx, in, len, out);

	if (misbehaviour == 1 && w->op == CB_OP_DECRYPT_FORGED)
		return CB_OK;
	if (misbehaviour == 2 && w->calls++ == 1)
		out[0] ^= 0x80;
	return status;
}

static void wrap_close(void *ctx)
{
	struct wrapped *w = ctx;

	inner->close(w->ctx);
	free(w);
}

static bool wrap_supports(const struct cb_algorithm *alg, enum cb_op op, enum cb_mode mode)
{
	return inner->supports(alg, op, mode);
}

static const struct cb_engine wrapper = {
    .name = "wrapper",
    .kind = "library",
    .supports = wrap_supports,
    .open = wrap_open,
    .call = wrap_call,
    .close = wrap_close,
};

/* The runner must see wrong answers, not only report right ones. */
static void check_runner_fails(const struct cb_vector_set *set)
{
	const struct cb_vector *sha = find_vector(set, "SHA-256 \"abc\"");
	const struct cb_vector *gcm = find_vector(set, "GCM Test Case 2");
	enum cb_vector_result result;
	char why[512];

	result = cb_vectors_run(cb_engine_find("null"), sha, why, sizeof why);
	is_num(result, CB_VECTOR_FAIL, "the null engine fails SHA-256 \"abc\"");
	ok(starts_with(why, "digest differs at byte 0: got "), "with the place: %s", why);
	if (!inner) {
		tap_skip(5, "no usable crypto engine: forged-tag and context-reuse failures "
		            "not exercised");
		return;
	}
	if (inner->supports(gcm->alg, CB_OP_DECRYPT_FORGED, CB_MODE_MESSAGE)) {
		misbehaviour = 1;
		result = cb_vectors_run(&wrapper, gcm, why, sizeof why);
		is_num(result, CB_VECTOR_FAIL, "an engine accepting a forged tag fails (%s inside)",
		       inner->name);
		is_str(text_of(why), "decrypt-forged: a tag with one bit flipped was accepted",
		       "and says so");
	} else {
		tap_skip(2, "%s has no AES-GCM decrypt-forged: a forged tag is not exercised",
		         inner->name);
	}
	misbehaviour = 2;
	result = cb_vectors_run(&wrapper, sha, why, sizeof why);
	is_num(result, CB_VECTOR_FAIL, "an engine whose second call differs fails");
	ok(starts_with(why, "second call on the same context: digest differs at byte 0"),
	   "and says so: %s", why);
	misbehaviour = 0;
	result = cb_vectors_run(&wrapper, sha, why, sizeof why);
	is_num(result, CB_VECTOR_PASS, "the same wrapper behaving passes");
}

/* Every vector through every compiled-in crypto engine. */
static size_t check_engines(const struct cb_vector_set *set)
{
	size_t engines = 0;

	for (size_t e = 0; e < cb_engine_count(); e++) {
		const struct cb_engine *engine = cb_engine_at(e);
		unsigned passed = 0, unsupported = 0, skipped = 0;
		const char *why_unusable;
		char why[512];

		if (strcmp(engine->kind, "builtin") == 0 || engine->self_check)
			continue; /* built-ins and baselines: their output is not the algorithm's */
		if (!cb_engine_usable(engine, &why_unusable)) {
			tap_skip(1, "%s: unusable here (%s): its vectors are not run", engine->name,
			         why_unusable);
			continue;
		}
		engines++;
		if (!inner)
			inner = engine;
		for (size_t f = 0; f < set->count; f++) {
			const struct cb_vector_file *file = &set->files[f];

			for (size_t i = 0; i < file->count; i++) {
				const struct cb_vector *v = &file->vectors[i];
				enum cb_vector_result r =
				    cb_vectors_run(engine, v, why, sizeof why);

				if (r == CB_VECTOR_UNSUPPORTED) {
					unsupported++;
					continue;
				}
				passed += r == CB_VECTOR_PASS;
				skipped += r == CB_VECTOR_SKIPPED;
				ok(r != CB_VECTOR_FAIL, "%s: %s %s%s%s", engine->name,
				   base_name(file->path), v->name, why[0] ? ": " : "", why);
			}
		}
		ok(passed > 0, "%s passes some vectors", engine->name);
		diag("%s: %u passed, %u skipped, %u not supported", engine->name, passed, skipped,
		     unsupported);
	}
	/* configure's engines that are not compiled in: a SKIP line each */
	char names[] = CB_ENGINES_CONFIGURED;
	for (char *save = NULL, *name = strtok_r(names, " ", &save); name;
	     name = strtok_r(NULL, " ", &save)) {
		char dashed[64];

		snprintf(dashed, sizeof dashed, "%s", name);
		for (char *p = dashed; *p; p++)
			if (*p == '_')
				*p = '-';
		if (!cb_engine_find(name) && !cb_engine_find(dashed))
			tap_skip(1,
			         "%s: not compiled in (configure did not find its library, or "
			         "--without-%s): its vectors are not run",
			         name, name);
	}
	if (engines == 0)
		diag("no crypto engine compiled in: only the vector files and the reader are "
		     "tested");
	return engines;
}

/* Run verify into a string: its status, and the report in *TEXT (to free). */
static int verify_into(char **text, const char *dir, const char *const *names, size_t n_names,
                       char *err, size_t err_len)
{
	size_t size = 0;
	FILE *out;
	int status;

	*text = NULL;
	out = open_memstream(text, &size);
	if (!out)
		return -1;
	status = cb_verify_run(out, dir, names, n_names, err, err_len);
	fclose(out);
	return status;
}

static void check_verify(const char *dir, size_t engines)
{
	const char *unknown[] = {"no-such-engine"};
	const char *builtin[] = {"null"};
	char err[512] = "", *text;
	int status;

	status = verify_into(&text, dir, unknown, 1, err, sizeof err);
	is_num(status, CB_VERIFY_BAD_INPUT, "verify refuses an unknown engine");
	is_str(text_of(err), "unknown engine 'no-such-engine' (see `cryptobench engines`)",
	       "naming it");
	ok(text && text[0] == '\0', "and prints nothing");
	free(text);
	status = verify_into(&text, scratch, NULL, 0, err, sizeof err);
	is_num(status, CB_VERIFY_BAD_INPUT, "verify refuses a folder without vectors");
	ok(strstr(err, ": no *.vec vector files") != NULL, "saying so: %s", err);
	free(text);
	status = verify_into(&text, dir, builtin, 1, err, sizeof err);
	is_num(status, CB_VERIFY_FAILED, "verify of a builtin alone verifies nothing: failed");
	ok(text && strstr(text, "note: null is a builtin") && strstr(text, ": nothing verified\n"),
	   "the builtin is named in a note");
	free(text);
	ok(cb_verify_reference("chacha20-poly1305") &&
	       strcmp(cb_verify_reference("chacha20-poly1305")->tag, "f01b24c83c97c7d7") == 0,
	   "the reference table is embedded");
	for (size_t a = 0; a < cb_algorithm_count(); a++)
		ok(cb_verify_reference(cb_algorithm_at(a)->name) != NULL, "reference for %s",
		   cb_algorithm_at(a)->name);
	if (engines == 0)
		return;
	status = verify_into(&text, dir, NULL, 0, err, sizeof err);
	is_num(status, CB_VERIFY_PASSED, "verify passes every compiled-in engine");
	ok(text && strstr(text, ": all passed\n"), "its summary says so");
	diag_text(text);
	free(text);

	/* The fault switch flips a bit of the named engine's output: verify must fail it. */
	setenv("CRYPTOBENCH_FAULT", inner->name, 1);
	status = verify_into(&text, dir, &inner->name, 1, err, sizeof err);
	is_num(status, CB_VERIFY_FAILED, "verify fails %s when its output is corrupted",
	       inner->name);
	ok(text && strstr(text, "agreement: output starts") && strstr(text, ": FAILED\n"),
	   "the agreement check and the summary report it");
	free(text);
	unsetenv("CRYPTOBENCH_FAULT");
}

int main(int argc, char **argv)
{
	char datadir[4096];
	const char *dir = argc > 1 ? argv[1] : cb_datadir(CB_DATA_VECTORS, datadir, sizeof datadir);
	struct cb_vector_set set;
	char err[512];
	size_t engines;

	if (!mkdtemp(scratch)) {
		perror("mkdtemp");
		return 1;
	}
	diag("vectors from %s", dir);
	if (!ok(cb_vectors_load_dir(dir, &set, err, sizeof err) == 0, "the vector files load")) {
		diag("%s", err);
		rmdir(scratch);
		return tap_done();
	}
	check_files(&set);
	check_parsed(&set);
	check_malformed();
	engines = check_engines(&set);
	check_runner_fails(&set);
	check_verify(dir, engines);
	cb_vectors_free_set(&set);
	rmdir(scratch);
	return tap_done();
}
