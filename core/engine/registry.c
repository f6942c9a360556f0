/* registry.c: the engines compiled in, probed once, and the checks before
 * every open. */
#include "config.h"

#include "core/engine/engine.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/errbuf.h"

/* The optional engines come from configure: each CB_ENGINE line of
 * configure.ac whose library was found adds CB_ENGINE_ENTRY(name) to
 * CB_ENGINES_BUILT in config.h (m4/cb_engine.m4). The built-ins always. */
#define CB_ENGINE_ENTRY(name) extern const struct cb_engine cb_engine_##name;
CB_ENGINES_BUILT
#undef CB_ENGINE_ENTRY
extern const struct cb_engine cb_engine_null;
extern const struct cb_engine cb_engine_memcpy;
extern const struct cb_engine cb_engine_sim;

/* Left as written: clang-format reads CB_ENGINES_BUILT as an expression. */
/* clang-format off */
static const struct cb_engine *const engines[] = {
#define CB_ENGINE_ENTRY(name) &cb_engine_##name,
    CB_ENGINES_BUILT
#undef CB_ENGINE_ENTRY
    &cb_engine_null,
    &cb_engine_memcpy,
    &cb_engine_sim,
};
/* clang-format on */

#define N_BUILT (sizeof engines / sizeof engines[0])
#define N_ENGINES (N_BUILT + CB_MAX_ADDED_ENGINES)

/* Engines added while running (core/engine/extern.h: external workers, plug-ins),
 * after the compiled-in ones. */
static const struct cb_engine *added[CB_MAX_ADDED_ENGINES];
static size_t n_added;

/* Engines standing in for a listed one under its name (cb_engine_add_stand_in). */
#define CB_MAX_STAND_INS 8
static const struct cb_engine *stand_ins[CB_MAX_STAND_INS];
static size_t n_stand_ins;

/* Probe results, filled once each (a probe may initialise a library): the
 * listed engines', then the stand-ins'. */
static struct {
	int done;
	int status;
	char why[256];
} probes[N_ENGINES + CB_MAX_STAND_INS];
static pthread_mutex_t probe_lock = PTHREAD_MUTEX_INITIALIZER;

size_t cb_engine_count(void)
{
	return N_BUILT + n_added;
}

const struct cb_engine *cb_engine_at(size_t i)
{
	return i < N_BUILT ? engines[i] : i < N_BUILT + n_added ? added[i - N_BUILT] : NULL;
}

const struct cb_engine *cb_engine_find(const char *name)
{
	for (size_t i = 0; i < cb_engine_count(); i++)
		if (strcmp(cb_engine_at(i)->name, name) == 0)
			return cb_engine_at(i);
	return NULL;
}

int cb_engine_add(const struct cb_engine *engine, char *err, size_t err_len)
{
	if (cb_engine_find(engine->name))
		return cb_errorf(err, err_len, "an engine named '%s' exists already", engine->name);
	if (n_added == CB_MAX_ADDED_ENGINES)
		return cb_errorf(err, err_len, "more than %d engines added", CB_MAX_ADDED_ENGINES);
	added[n_added++] = engine;
	return 0;
}

int cb_engine_add_stand_in(const struct cb_engine *engine, char *err, size_t err_len)
{
	if (!cb_engine_find(engine->name))
		return cb_errorf(err, err_len, "no engine '%s' to stand in for", engine->name);
	if (n_stand_ins == CB_MAX_STAND_INS)
		return cb_errorf(err, err_len, "more than %d engines stand in for others",
		                 CB_MAX_STAND_INS);
	stand_ins[n_stand_ins++] = engine;
	return 0;
}

/* ENGINE's row of probes[]: N_ENGINES + CB_MAX_STAND_INS when it is neither
 * listed nor a stand-in. */
static size_t probe_row(const struct cb_engine *engine)
{
	for (size_t i = 0; i < cb_engine_count(); i++)
		if (cb_engine_at(i) == engine)
			return i;
	for (size_t k = 0; k < n_stand_ins; k++)
		if (stand_ins[k] == engine)
			return N_ENGINES + k;
	return N_ENGINES + CB_MAX_STAND_INS;
}

bool cb_engine_is_reference(const char *name)
{
	const struct cb_engine *e = cb_engine_find(name);

	return e && e->reference;
}

bool cb_engine_usable(const struct cb_engine *engine, const char **why)
{
	size_t i = probe_row(engine);

	if (i == N_ENGINES + CB_MAX_STAND_INS) {
		if (why)
			*why = "not compiled in";
		return false;
	}
	pthread_mutex_lock(&probe_lock);
	if (!probes[i].done) {
		probes[i].why[0] = '\0';
		probes[i].status =
		    engine->probe ? engine->probe(probes[i].why, sizeof probes[i].why) : 0;
		if (probes[i].status != 0 && probes[i].why[0] == '\0')
			strcpy(probes[i].why, "probe failed");
		probes[i].done = 1;
	}
	pthread_mutex_unlock(&probe_lock);
	if (why)
		*why = probes[i].status == 0 ? NULL : probes[i].why;
	return probes[i].status == 0;
}

/* Whether ALG goes to E's public-key half. */
static bool to_pk_half(const struct cb_engine *e, const struct cb_algorithm *alg)
{
	return e->pk && cb_alg_is_pk(alg);
}

bool cb_engine_supports(const struct cb_engine *engine, const struct cb_algorithm *alg,
                        enum cb_op op, enum cb_mode mode)
{
	if (to_pk_half(engine, alg))
		return mode == CB_MODE_MESSAGE && engine->pk->supports(alg, op);
	return engine->supports(alg, op, mode);
}

struct cb_engine_calls cb_engine_calls_for(const struct cb_engine *engine,
                                           const struct cb_algorithm *alg)
{
	const struct cb_pk_ops *pk = engine->pk;

	if (to_pk_half(engine, alg))
		return (struct cb_engine_calls){pk->call, pk->loop, NULL, pk->close};
	return (struct cb_engine_calls){engine->call, engine->loop, engine->finish, engine->close};
}

/* Why SETUP cannot be opened by ENGINE, in ERR; 0 when it can. */
static int setup_refused(const struct cb_engine *e, const struct cb_cell_setup *setup, char *err,
                         size_t err_len)
{
	const struct cb_engine_config *config = setup->config;
	const struct cb_algorithm *alg = setup->alg;
	bool aead = alg && alg->kind == CB_KIND_AEAD;

	if (!alg || !config) {
		cb_errorf(err, err_len, "%s: open without %s", e->name,
		          alg ? "a configuration" : "an algorithm");
		return -1;
	}
	if (!cb_engine_supports(e, alg, setup->op, config->mode)) {
		cb_errorf(err, err_len, "%s: %s %s%s not offered", e->name, alg->name,
		          cb_op_name(setup->op),
		          config->mode == CB_MODE_STREAM ? " in stream mode" : "");
		return -1;
	}
	if (config->recreate && config->mode == CB_MODE_STREAM) {
		cb_errorf(err, err_len, "%s: recreate applies to message mode only", e->name);
		return -1;
	}
	if (config->chunk && alg->kind != CB_KIND_HASH) {
		cb_errorf(err, err_len, "%s: chunk applies to hashes only", e->name);
		return -1;
	}
	if (cb_alg_is_pk(alg)) {
		const struct cb_pk_setup *pk = setup->pk;
		bool needs_key = setup->op != CB_OP_KEYGEN;

		if (config->recreate || config->chunk) {
			cb_errorf(err, err_len, "%s: %s is a public-key cell: no recreate or chunk",
			          e->name, alg->name);
			return -1;
		}
		if (needs_key &&
		    (!pk || !pk->key || (setup->op == CB_OP_DERIVE && !pk->peer) ||
		     ((setup->op == CB_OP_VERIFY || setup->op == CB_OP_VERIFY_FORGED) &&
		      !pk->sig) ||
		     (cb_pk_digest_len(alg) && setup->op != CB_OP_DERIVE && !pk->digest))) {
			cb_errorf(err, err_len, "%s: %s %s needs its keys (core/algorithms/pk.h)",
			          e->name, alg->name, cb_op_name(setup->op));
			return -1;
		}
		return 0;
	}
	if (alg->kind != CB_KIND_HASH && (!setup->key || !setup->iv)) {
		cb_errorf(err, err_len, "%s: %s needs a key and an IV", e->name, alg->name);
		return -1;
	}
	if (aead && setup->op != CB_OP_ENCRYPT && !setup->tag) {
		cb_errorf(err, err_len, "%s: decryption needs the tag", e->name);
		return -1;
	}
	if (aead && setup->aad_len && !setup->aad) {
		cb_errorf(err, err_len, "%s: %zu bytes of AAD without a buffer", e->name,
		          setup->aad_len);
		return -1;
	}
	if (aead && e->max_aad && setup->aad_len > e->max_aad) {
		cb_errorf(err, err_len, "%s: %zu bytes of AAD exceed its limit of %zu", e->name,
		          setup->aad_len, e->max_aad);
		return -1;
	}
	return 0;
}

/* What every library engine keeps of CELL, which setup_refused accepted: the
 * derived flags once, and the key material copied, so no engine repeats them. */
static void engine_setup_fill(struct cb_engine_setup *s, const struct cb_cell_setup *cell)
{
	const struct cb_algorithm *alg = cell->alg;
	const struct cb_engine_config *config = cell->config;

	memset(s, 0, sizeof *s);
	s->alg = alg;
	s->op = cell->op;
	s->aead = alg->kind == CB_KIND_AEAD;
	s->encrypt = cell->op == CB_OP_ENCRYPT;
	s->stream = config->mode == CB_MODE_STREAM;
	s->recreate = config->recreate;
	s->chunk = config->chunk;
	s->len = cell->len;
	s->pk = cell->pk;
	if (alg->kind == CB_KIND_CIPHER || alg->kind == CB_KIND_AEAD) {
		memcpy(s->key, cell->key, alg->key_len);
		memcpy(s->iv, cell->iv, alg->iv_len);
	}
	if (s->aead && !s->encrypt)
		memcpy(s->tag, cell->tag, alg->tag_len);
	if (s->aead && cell->aad_len) {
		s->aad = cell->aad;
		s->aad_len = cell->aad_len;
	}
}

void *cb_engine_open(const struct cb_engine *engine, const struct cb_cell_setup *setup, char *err,
                     size_t err_len)
{
	struct cb_engine_setup kept;
	void *ctx;

	if (err_len)
		err[0] = '\0';
	if (setup_refused(engine, setup, err, err_len) != 0)
		return NULL;
	engine_setup_fill(&kept, setup);
	ctx = to_pk_half(engine, setup->alg) ? engine->pk->open(setup, &kept, err, err_len)
	                                     : engine->open(setup, &kept, err, err_len);
	if (!ctx && err_len && err[0] == '\0')
		cb_errorf(err, err_len, "%s: open failed", engine->name);
	/* open copies KEPT (the contract in engine.h); cppcheck cannot know
	 * that the context it returns holds no pointer to it. */
	// cppcheck-suppress returnDanglingLifetime
	return ctx;
}

static const char *const fault_kinds[] = {
    [CB_FAULT_WRONG] = "wrong", [CB_FAULT_NOTHING] = "nothing", [CB_FAULT_ERROR] = "error",
    [CB_FAULT_SLOW] = "slow",   [CB_FAULT_HANG] = "hang",       [CB_FAULT_CRASH] = "crash",
};

int cb_fault_from_env(struct cb_fault *fault, char *err, size_t err_len)
{
	const char *spec = getenv("CRYPTOBENCH_FAULT");
	size_t name_len, kind_len;
	const char *kind, *at;
	char *end;

	memset(fault, 0, sizeof *fault);
	fault->round = -1;
	if (!spec || !*spec)
		return 0;
	/* A build's engine is named ENGINE@LABEL (core/builds/libbuild.h): without a
	 * KIND, only an '@' followed by digits alone starts the ROUND. */
	name_len = strcspn(spec, ":");
	if (spec[name_len] == '\0' && (at = strrchr(spec, '@')) != NULL && at[1] &&
	    strspn(at + 1, "0123456789") == strlen(at + 1))
		name_len = (size_t)(at - spec);
	if (name_len == 0 || name_len >= sizeof fault->engine)
		goto bad;
	memcpy(fault->engine, spec, name_len);
	kind = spec[name_len] == ':' ? spec + name_len + 1 : spec + name_len;
	kind_len = strcspn(kind, "@");
	at = kind + kind_len;
	fault->kind = kind_len ? CB_FAULT_NONE : CB_FAULT_WRONG;
	for (size_t k = 1; k < sizeof fault_kinds / sizeof fault_kinds[0]; k++)
		if (kind_len && strlen(fault_kinds[k]) == kind_len &&
		    strncmp(kind, fault_kinds[k], kind_len) == 0)
			fault->kind = (enum cb_fault_kind)k;
	if (fault->kind == CB_FAULT_NONE)
		goto bad;
	if (*at == '@') {
		fault->round = strtol(at + 1, &end, 10);
		if (end == at + 1 || *end || fault->round < 0)
			goto bad;
	}
	return 0;
bad:
	cb_errorf(err, err_len,
	          "CRYPTOBENCH_FAULT=%s: expected ENGINE[:KIND[@ROUND]], KIND one of wrong, "
	          "nothing, error, slow, hang, crash",
	          spec);
	fault->kind = CB_FAULT_NONE;
	return -1;
}

bool cb_fault_hits(const struct cb_fault *fault, const struct cb_engine *engine, long round)
{
	return fault->kind != CB_FAULT_NONE && strcmp(fault->engine, engine->name) == 0 &&
	       (fault->round < 0 || fault->round == round);
}

const char *cb_fault_engine(void)
{
	static struct cb_fault fault;
	char err[256];

	if (cb_fault_from_env(&fault, err, sizeof err) != 0 || fault.kind != CB_FAULT_WRONG)
		return NULL;
	return fault.engine;
}
