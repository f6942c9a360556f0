/* vectors.h: known-answer vectors, read from files (vectors.c) and run through
 * engines (vectors_run.c).
 *
 * The file format is documented in tests/vectors/README.md: blocks of
 * `field = value` lines, one vector per block, with `# source:` comments. A
 * vector is run in message mode through one engine: hashed, or encrypted and
 * decrypted back (and, for AEAD, refused with a forged tag). */
#ifndef CB_VECTORS_H
#define CB_VECTORS_H

#include <stddef.h>

#include "core/algorithm.h"
#include "core/engine.h"

/* ---- Vectors and files (vectors.c) ---- */

struct cb_vector {
	const struct cb_algorithm *alg;
	enum cb_op op; /* CB_OP_HASH; ciphers: the direction the source states */
	char *name;    /* the `name` field, or "line N" */
	char *source;  /* the `# source:` text in force, or NULL */
	int line;      /* where the block starts */
	unsigned char key[CB_MAX_KEY];
	unsigned char iv[CB_MAX_IV];
	unsigned char digest[CB_MAX_DIGEST];
	unsigned char tag[CB_MAX_TAG];
	unsigned char *aad; /* NULL when the vector has none */
	size_t aad_len;
	unsigned char *msg; /* the message, repeat applied; never NULL */
	size_t msg_len;
	unsigned char *ciphertext; /* ciphers: msg_len bytes; NULL for hashes */
};

struct cb_vector_file {
	char *path;
	struct cb_vector *vectors;
	size_t count;
};

/* Every `*.vec` file of a folder, in name order. */
struct cb_vector_set {
	struct cb_vector_file *files;
	size_t count;
};

/* Read the vector file PATH into FILE. 0 on success; -1 on error, with ERR
 * holding "PATH:LINE: message" (or "PATH: message" when the file cannot be
 * read) and FILE left empty. */
int cb_vectors_load(const char *path, struct cb_vector_file *file, char *err, size_t err_len);
void cb_vectors_free(struct cb_vector_file *file);

/* Read every `*.vec` file of DIR, sorted by name. 0, or -1 with ERR as above
 * (the first bad file stops the load; SET is left empty). A folder without
 * vector files is an error. */
int cb_vectors_load_dir(const char *dir, struct cb_vector_set *set, char *err, size_t err_len);
void cb_vectors_free_set(struct cb_vector_set *set);

/* Number of vectors in SET, over all files. */
size_t cb_vectors_total(const struct cb_vector_set *set);

/* Whether V carries associated data. */
int cb_vector_has_aad(const struct cb_vector *v);

/* ---- Running (vectors_run.c) ---- */

enum cb_vector_result {
	CB_VECTOR_PASS,
	CB_VECTOR_FAIL,        /* WHY says which step and how */
	CB_VECTOR_UNSUPPORTED, /* the engine does not offer the algorithm in message mode */
	CB_VECTOR_SKIPPED,     /* not run (no case today; verify still counts "skipped") */
};

/* Run V through ENGINE (probed usable by the caller): open a context with the
 * vector's key and IV, call twice in message mode and compare with the known
 * answer; ciphers are then run the other way (decrypt after encrypt, or the
 * reverse when the source states a decryption), and AEAD must refuse the tag
 * with its first bit flipped (decrypt-forged). WHY gets one line for FAIL and
 * SKIPPED, and is emptied otherwise. Never prints. */
enum cb_vector_result cb_vectors_run(const struct cb_engine *engine, const struct cb_vector *v,
                                     char *why, size_t why_len);

#endif
