/* vectors.h: known-answer vectors, read from files (vectors.c, vectors_pk.c)
 * and run through engines (vectors_run.c, vectors_pk.c).
 *
 * The file format is documented in tests/vectors/README.md: blocks of
 * `field = value` lines, one vector per block, with `# source:` comments. A
 * vector is run in message mode through one engine: hashed, or encrypted and
 * decrypted back (and, for AEAD, refused with a forged tag); a public-key
 * vector is signed (a deterministic signature reproduced byte for byte),
 * verified (accepted or rejected as the source says) or derived. */
#ifndef CB_VECTORS_H
#define CB_VECTORS_H

#include <stddef.h>

#include "core/algorithms/algorithm.h"
#include "core/engine/engine.h"
#include "core/algorithms/pk.h"

/* ---- Vectors and files (vectors.c) ---- */

struct cb_vector {
	const struct cb_algorithm *alg;
	/* CB_OP_HASH; ciphers: the direction the source states; public key:
	 * CB_OP_SIGN (a private key and its deterministic signature),
	 * CB_OP_VERIFY (a public key, a signature and `valid`) or CB_OP_DERIVE */
	enum cb_op op;
	char *name;   /* the `name` field, or "line N" */
	char *source; /* the `# source:` text in force, or NULL */
	int line;     /* where the block starts */
	unsigned char key[CB_MAX_KEY];
	unsigned char iv[CB_MAX_IV];
	unsigned char digest[CB_MAX_DIGEST]; /* public key: the message's (cb_pk_digest) */
	unsigned char tag[CB_MAX_TAG];
	unsigned char *aad; /* NULL when the vector has none */
	size_t aad_len;
	unsigned char *msg; /* the message, repeat applied; never NULL */
	size_t msg_len;
	unsigned char *ciphertext; /* ciphers: msg_len bytes; NULL for hashes */
	/* Public key only (NULL, 0 for the rest): sign and derive: the private
	 * key; verify: the public key. */
	struct cb_pk_key *pk_key;
	struct cb_pk_key *pk_peer; /* derive: the peer's public key */
	unsigned char *signature;  /* sign, verify */
	size_t signature_len;
	bool valid;                             /* verify: `result = valid` (else invalid) */
	unsigned char shared[CB_PK_MAX_SECRET]; /* derive: cb_pk_output_len bytes */
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

/* A public-key vector's fields as the reader found them, hex decoded (DATA
 * NULL: absent), for cb_vector_pk_decode (vectors_pk.c). */
struct cb_vector_pk_field {
	const unsigned char *data;
	size_t len;
	int line;
};

struct cb_vector_pk_fields {
	struct cb_vector_pk_field priv, pub, signature, shared;
	const char *result; /* NULL: absent */
	int result_line;
	int line; /* where the block starts */
};

/* Check IN against V's algorithm and fill V's op, keys, digest, signature
 * and answer; V's message is read already. A `private` or `public` key is
 * DER (a PKCS #8 private key, a SubjectPublicKeyInfo) or raw (an elliptic
 * curve's scalar, leading zero bytes allowed, or its point 04 || x || y;
 * Ed25519's and X25519's 32 bytes). 0, or -1 with ERR and the line it is
 * about in *LINE. */
int cb_vector_pk_decode(struct cb_vector *v, const struct cb_vector_pk_fields *in, char *err,
                        size_t err_len, int *line);

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
 * with its first bit flipped (decrypt-forged). A public-key vector: a sign
 * vector's signature must come out byte for byte (and then verify), a verify
 * vector be accepted (CB_OK) or rejected (CB_REJECTED) as its `result` says,
 * a derive vector give `shared`. WHY gets one line for FAIL and SKIPPED, and
 * is emptied otherwise. Never prints. */
enum cb_vector_result cb_vectors_run(const struct cb_engine *engine, const struct cb_vector *v,
                                     char *why, size_t why_len);
/* The public-key half of cb_vectors_run (vectors_pk.c). */
enum cb_vector_result cb_vectors_run_pk(const struct cb_engine *engine, const struct cb_vector *v,
                                        char *why, size_t why_len);

#endif
