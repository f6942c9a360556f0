/* engine.h: the interface every engine implements, and the registry.
 *
 * An engine is a const table of function pointers. Only `call` is timed; all
 * allocation and key scheduling happen in `open`. One context is used by one
 * thread at a time: a trial with T threads opens T contexts. */
#ifndef CB_ENGINE_H
#define CB_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/algorithms/algorithm.h"
#include "core/algorithms/pk.h"

/* Status of one call. */
#define CB_OK 0
#define CB_REJECTED 1 /* AEAD decryption refused the tag, verify the signature (the forged ops) */
#define CB_FAILED (-1)

enum cb_mode {
	CB_MODE_MESSAGE, /* init, update, final per message: the per-message cost */
	CB_MODE_STREAM,  /* one context, update per call, final once per trial */
};

/* One engine-specific option of a variant, as the scenario wrote it
 * ({ "sim", overhead_ns = 150 }): a number or a string. */
struct cb_option {
	const char *key;
	bool is_number;
	double number;
	const char *string;
};

/* How a variant runs the engine. Defaults: message mode, context reused, whole
 * messages. */
struct cb_engine_config {
	enum cb_mode mode;
	bool recreate; /* re-create the context for every message (no reuse) */
	size_t chunk;  /* hash fed in chunks of this many bytes (0: one update) */
	const struct cb_option *options;
	size_t n_options;
	char *const *env; /* "NAME=value" pairs the engine's process runs with (NULL: none) */
	/* An in-process engine that runs inside `cryptobench worker` (a variant
	 * with env): the runner uses cb_engine_in_worker for its cells. */
	const struct cb_engine *in_worker;
};

/* What `open` gets: everything about the cell that is fixed for a trial. */
struct cb_cell_setup {
	const struct cb_algorithm *alg;
	enum cb_op op;
	size_t len;               /* bytes per message */
	const unsigned char *key; /* alg->key_len bytes */
	const unsigned char *iv;  /* alg->iv_len bytes (nonce for AEAD) */
	const unsigned char *tag; /* decrypt, decrypt-forged: the tag to check */
	const unsigned char *aad; /* AEAD associated data (NULL: none, the default) */
	size_t aad_len;
	const struct cb_engine_config *config;
	uint32_t input_seed; /* the generator's seed (engines that regenerate the input) */
	size_t input_offset; /* bytes past a page boundary the run's input starts at (workers) */
	/* Public-key cells (cb_alg_is_pk): the keys, the digest, the signature
	 * to verify (core/algorithms/pk.h). NULL for the rest. */
	const struct cb_pk_setup *pk;
};

/* What every library engine keeps of its cell, filled once by cb_engine_open
 * from the cb_cell_setup it checked and handed to the engine's `open`, which
 * copies it into its context (`c->setup = *setup`): an engine file declares
 * only its library's own state. Reading a field of it from `call` costs what
 * reading one of the engine's own fields does. */
struct cb_engine_setup {
	const struct cb_algorithm *alg;
	enum cb_op op;
	bool aead;                     /* alg->kind == CB_KIND_AEAD */
	bool encrypt;                  /* op == CB_OP_ENCRYPT */
	bool stream;                   /* config->mode == CB_MODE_STREAM */
	bool recreate;                 /* config->recreate (message mode only) */
	size_t chunk;                  /* config->chunk (hashes only; 0: one update) */
	size_t len;                    /* the cell's message length */
	unsigned char key[CB_MAX_KEY]; /* ciphers: alg->key_len bytes (hashes: zero) */
	unsigned char iv[CB_MAX_IV];   /* ciphers: alg->iv_len bytes, the nonce for AEAD */
	unsigned char tag[CB_MAX_TAG]; /* AEAD decrypt, decrypt-forged: the tag to check */
	/* AEAD only: the caller's AAD, alive until close; NULL exactly when
	 * aad_len is 0 (no AAD, the default of every measurement). */
	const unsigned char *aad;
	size_t aad_len; /* within the engine's max_aad */
	/* Public-key cells: what `open` imports and `call` uses (core/algorithms/pk.h:
	 * what one call does per operation), alive until close; NULL for the
	 * rest. A public-key cell has no key, IV or tag above. */
	const struct cb_pk_setup *pk;
};

/* What a virtual clock needs to know about the trial it times. */
struct cb_trial_info {
	unsigned run;   /* index of this run among --runs */
	unsigned round; /* 0-based; warm-up rounds are negative-free: counted first */
	uint64_t seq;   /* trial's position in the run */
	uint64_t calls;
	size_t len;
	unsigned thread;
	size_t stack, out; /* this trial's placement (trial.h's cb_trial_layout), for workers */
	bool unwarmed;     /* worker-check's: its output checked, never timed (no warm-up) */
};

/* What an engine whose calls run in another process reports about a trial. */
struct cb_remote_times {
	uint64_t ns;     /* the worker's own monotonic time for the calls */
	uint64_t cpu_ns; /* its CPU time for them, when has_cpu */
	bool has_cpu;
	uint64_t round_trip_ns; /* request written to answer read, seen from here */
	unsigned restarts;      /* times the worker was started again before this trial */
	char input_sha256[65];  /* SHA-256 of the input the worker says it read */
	char output[8];         /* what its calls did with outputs: "reuse" or "fresh" */
	/* Where the worker placed its input and its calls' outputs and stack,
	 * as asked (-1: the runtime cannot place it). */
	int placed_input_offset, placed_out, placed_stack;
};

/* The table every engine fills. Compiled-in engines and plug-ins (shared
 * objects loaded by `{ "plugin", path = ... }`, below) share it, so its
 * layout is an ABI: a field is only ever added at the end, after `remote`,
 * optional (NULL or 0 keeps the old behaviour), and it bumps nothing; any
 * other change (a field removed, moved or retyped, a changed meaning) bumps
 * CB_ENGINE_ABI, and plug-ins of the old ABI are refused. */
struct cb_pk_ops;

struct cb_engine {
	const char *name;
	const char *kind; /* "library", "builtin", "process", "command", "plugin" */
	/* A reference line, not a contender (memcpy: the memory ceiling; null:
	 * the empty call): drawn and reported as such, never ranked, never in
	 * the winners, the rank flips or a chart's "over the fastest". */
	bool reference;

	/* Runtime version of the library, e.g. "OpenSSL 3.0.19 27 Jan 2026". */
	const char *(*version)(void);
	/* 0 when usable here; otherwise nonzero and WHY says why in one line. */
	int (*probe)(char *why, size_t why_len);
	/* Whether the engine offers ALG with OP in MODE. */
	bool (*supports)(const struct cb_algorithm *alg, enum cb_op op, enum cb_mode mode);

	/* Prepare a context (allocation, key schedule: not timed). NULL on
	 * failure, with ERR filled ("NAME: reason"). Called only through
	 * cb_engine_open, so CELL has passed the shared checks: the engine
	 * offers its algorithm and op in its mode, cell->config is not NULL,
	 * recreate comes with message mode, chunk with a hash, a cipher has its
	 * key and IV, AEAD decryption its tag, AAD its buffer (within max_aad).
	 * SETUP is what of CELL a library engine keeps, already derived and
	 * copied (valid during the call only: copy it); CELL stays for the
	 * engine's options (cell->config) and what else only some engines use. */
	void *(*open)(const struct cb_cell_setup *cell, const struct cb_engine_setup *setup,
	              char *err, size_t err_len);
	/* One message of LEN bytes from IN; output to OUT (cb_output_len bytes;
	 * OUT has room for LEN + CB_OUTPUT_SLACK). The only timed code (through
	 * `loop`). Returns CB_OK, CB_REJECTED or CB_FAILED. In stream mode only
	 * the update. */
	int (*call)(void *ctx, const unsigned char *in, size_t len, unsigned char *out);
	/* What the runner times: CALLS calls of `call` with the same arguments,
	 * in the engine's own loop, so that `call` is called directly (or
	 * inlined) rather than through this table once per message: the loop a
	 * library's own speed test runs. Returns how many calls did not return
	 * EXPECT and leaves the last such status in *LAST. Every in-process
	 * engine defines it with cb_engine_loop (below), so the harness costs
	 * every engine the same; without it the runner loops over `call`. */
	uint64_t (*loop)(void *ctx, const unsigned char *in, size_t len, unsigned char *out,
	                 uint64_t calls, int expect, int *last);
	/* Stream mode: after the trial's calls, write the final output (digest
	 * or tag) to OUT. NULL when the engine has no stream mode. */
	int (*finish)(void *ctx, unsigned char *out);
	void (*close)(void *ctx);

	/* Optional. The most bytes of AAD the library takes in one piece (0: no
	 * limit); cb_engine_open refuses more. */
	size_t max_aad;
	/* Optional. Engine-specific option names a variant may set (NULL-ended),
	 * so a scenario's misspelt option gets a "did you mean". */
	const char *const *options;
	/* Optional. Checks a variant's options when its scenario loads: 0, or
	 * -1 with WHY (one line), which the load reports at the option's line. */
	int (*check_options)(const struct cb_engine_config *config, const char **key, char *why,
	                     size_t why_len);
	/* Optional. Adds to OBJ what the engine uses or has been told about the
	 * hardware: features, masks in force. */
	void (*describe)(json_t *obj);
	/* Optional. The longest message in bytes that one call takes for ALG and
	 * OP, when the library or the kernel has such a limit (0: none); `open`
	 * refuses a longer one. verify notes the limit rather than failing its
	 * agreement on the 1 MiB input. */
	size_t (*max_len)(const struct cb_algorithm *alg, enum cb_op op);
	/* Optional. A virtual clock: the nanoseconds the trial just run took.
	 * When present, the runner uses it instead of the wall clock. */
	uint64_t (*virtual_ns)(void *ctx, const struct cb_trial_info *trial);
	/* Optional, with virtual_ns: the core cycles of that trial on the virtual
	 * clock (its work: what moves time but not cycles is left out). */
	uint64_t (*virtual_cycles)(void *ctx, const struct cb_trial_info *trial);
	/* Optional. Built-ins whose output is not the algorithm's check it
	 * themselves: 0 when OUT is right for IN, else nonzero with WHY. */
	int (*self_check)(void *ctx, const unsigned char *in, size_t len, const unsigned char *out,
	                  char *why, size_t why_len);
	/* Optional. Calls that run and are timed elsewhere (a worker process,
	 * core/engines/workers/PROTOCOL.md): run TRIAL->calls messages of the
	 * cell CTX was opened for on the generated input (setup->input_seed),
	 * and write the last call's output to OUT. Returns CB_OK or CB_REJECTED
	 * (what every call gave), or CB_FAILED with WHY. The runner takes T->ns
	 * as the trial's time (threads: 1) and checks OUT and T->input_sha256
	 * like any engine's output. `call` stays for single messages (verify). */
	int (*remote)(void *ctx, const struct cb_trial_info *trial, unsigned char *out,
	              struct cb_remote_times *t, char *why, size_t why_len);
	/* Optional (after ABI 1). The public-key half (below): public-key
	 * algorithms go to it, everything else to the functions above. NULL:
	 * the functions above take every algorithm (workers, plug-ins). */
	const struct cb_pk_ops *pk;
};

/* ---- A library's public-key half ----
 *
 * A library engine's public-key operations (kinds sign and kex: core/algorithms/pk.h)
 * live in their own file, core/engines/NAME_pk.c, which fills one of these;
 * the engine's table points at it (`.pk`). The registry and the trial
 * dispatch to it (cb_engine_supports, cb_engine_open, cb_engine_calls_for):
 * the engine's own functions never see a public-key algorithm. Message mode
 * only, no stream; its contexts begin with their cb_engine_setup like every
 * library engine's. */
struct cb_pk_ops {
	bool (*supports)(const struct cb_algorithm *alg, enum cb_op op); /* message mode */
	void *(*open)(const struct cb_cell_setup *cell, const struct cb_engine_setup *setup,
	              char *err, size_t err_len);
	int (*call)(void *ctx, const unsigned char *in, size_t len, unsigned char *out);
	uint64_t (*loop)(void *ctx, const unsigned char *in, size_t len, unsigned char *out,
	                 uint64_t calls, int expect, int *last);
	void (*close)(void *ctx);
};

/* ---- Plug-ins ----
 *
 * A plug-in is a shared object that exports one `const struct cb_plugin
 * cb_plugin`, most simply with CB_PLUGIN(its_engine_table) after the table.
 * cryptobench loads it (only when `--allow-external` names its file),
 * refuses another ABI or a table smaller than ABI 1's, copies the table (a
 * shorter one from an older header leaves the later fields NULL) and opens
 * it through cb_engine_open like a compiled-in engine. A plug-in may use
 * this header's types and its inline cb_engine_loop; the functions declared
 * here belong to cryptobench, which does not export them to plug-ins. */
#define CB_ENGINE_ABI 1
/* The bytes of struct cb_engine at ABI 1: up to and with `remote`. */
#define CB_ENGINE_ABI_1_SIZE                                                                       \
	(offsetof(struct cb_engine, remote) + sizeof(((struct cb_engine *)0)->remote))

struct cb_plugin {
	unsigned abi;       /* CB_ENGINE_ABI of the header it was built with */
	size_t struct_size; /* sizeof(struct cb_engine) in that header */
	const struct cb_engine *engine;
};

#define CB_PLUGIN(table)                                                                           \
	const struct cb_plugin cb_plugin = {CB_ENGINE_ABI, sizeof(struct cb_engine), &(table)}

/* The engine that runs config->in_worker inside `cryptobench worker NAME`,
 * started with config->env (core/engine/process.c). */
extern const struct cb_engine cb_engine_in_worker;

/* ---- Registry ---- */

/* The engines compiled in, in a fixed order. */
size_t cb_engine_count(void);
const struct cb_engine *cb_engine_at(size_t i);
/* The engine called NAME, or NULL. */
const struct cb_engine *cb_engine_find(const char *name);
/* Add ENGINE (which must outlive every use) after the compiled-in ones:
 * an external worker or a plug-in (core/engine/extern.h). 0, or -1 with ERR when
 * its name is taken or CB_MAX_ADDED_ENGINES are added already. */
#define CB_MAX_ADDED_ENGINES 32
int cb_engine_add(const struct cb_engine *engine, char *err, size_t err_len);

/* ENGINE made usable in place of the listed engine of its name, which
 * cb_engine_find still returns and cb_engine_at still lists: it runs the
 * same engine another way (core/builds/libbuild.h: a library's default
 * build through the engine's shared object). 0, or -1 with ERR when no
 * engine has its name or 8 stand in already. */
int cb_engine_add_stand_in(const struct cb_engine *engine, char *err, size_t err_len);
/* Whether the engine called NAME is a reference (see `reference` above); an
 * engine not compiled in is not. */
bool cb_engine_is_reference(const char *name);

/* The one way to open a context: the checks every engine shares (see
 * `open` above), with one wording; then SETUP's cb_engine_setup, filled once
 * for every engine, and ENGINE->open. NULL on failure with ERR ("NAME:
 * reason"). The runner, verify, the worker command and the tests all open
 * here. */
void *cb_engine_open(const struct cb_engine *engine, const struct cb_cell_setup *setup, char *err,
                     size_t err_len);

/* Whether ENGINE offers ALG with OP in MODE: its public-key half's answer
 * for a public-key algorithm (message mode only), else its own. Ask here,
 * never `supports` directly. */
bool cb_engine_supports(const struct cb_engine *engine, const struct cb_algorithm *alg,
                        enum cb_op op, enum cb_mode mode);

/* The functions that serve a context cb_engine_open opened for ALG on
 * ENGINE: its public-key half's for a public-key algorithm (no finish),
 * else its own. Chosen once per cell or trial, not per call. */
struct cb_engine_calls {
	int (*call)(void *ctx, const unsigned char *in, size_t len, unsigned char *out);
	uint64_t (*loop)(void *ctx, const unsigned char *in, size_t len, unsigned char *out,
	                 uint64_t calls, int expect, int *last);
	int (*finish)(void *ctx, unsigned char *out);
	void (*close)(void *ctx);
};
struct cb_engine_calls cb_engine_calls_for(const struct cb_engine *engine,
                                           const struct cb_algorithm *alg);

/* Probe ENGINE once per process and remember the answer: true when usable;
 * otherwise WHY (if not NULL) points at the reason. */
bool cb_engine_usable(const struct cb_engine *engine, const char **why);

/* ---- Helpers for engines ---- */

typedef int cb_call_fn(void *ctx, const unsigned char *in, size_t len, unsigned char *out);

/* The body of an engine's `loop`: CALLS calls of CALL, counting those that
 * do not return EXPECT. Always inlined, so that in an engine's own file,
 * where CALL is the engine's static call function, every call is direct:
 *
 *   static uint64_t x_loop(void *ctx, const unsigned char *in, size_t len,
 *                          unsigned char *out, uint64_t calls, int expect, int *last)
 *   {
 *           return cb_engine_loop(x_call, ctx, in, len, out, calls, expect, last);
 *   }
 */
static inline __attribute__((always_inline)) uint64_t
cb_engine_loop(cb_call_fn *call, void *ctx, const unsigned char *in, size_t len, unsigned char *out,
               uint64_t calls, int expect, int *last)
{
	uint64_t bad = 0;

	for (uint64_t i = 0; i < calls; i++) {
		int status = call(ctx, in, len, out);

		if (status != expect) {
			*last = status;
			bad++;
		}
	}
	return bad;
}

/* The option KEY of CONFIG as a number, or FALLBACK when absent. */
double cb_option_number(const struct cb_engine_config *config, const char *key, double fallback);
/* The option KEY of CONFIG as a string: FALLBACK when absent, NULL when it is a number. */
const char *cb_option_string(const struct cb_engine_config *config, const char *key,
                             const char *fallback);

/* ---- Test-only fault switch ----
 *
 * CRYPTOBENCH_FAULT=ENGINE[:KIND[@ROUND]] makes ENGINE misbehave on purpose,
 * so tests can prove that each kind of failure is caught and leaves the rest
 * of a run intact. ROUND (0-based, warm-up rounds first) limits the fault to
 * the trials of one round; without it every trial is hit. The runner applies
 * every kind; verify and the known-answer vectors only "wrong". An engine
 * under `env` runs in `cryptobench worker ENGINE`, which applies the switch to
 * the requests of ROUND itself: there "hang" and "crash" stop the worker
 * process, not the run. ENGINE may be a build's ENGINE@LABEL (a variant's
 * lib): there an '@' starts ROUND only when digits alone follow it. */
enum cb_fault_kind {
	CB_FAULT_NONE,
	CB_FAULT_WRONG,   /* "wrong" (the default): a bit of the output flipped after the calls */
	CB_FAULT_NOTHING, /* "nothing": calls return success and write nothing */
	CB_FAULT_ERROR,   /* "error": calls return CB_FAILED */
	CB_FAULT_SLOW,    /* "slow": calls take ten times as long */
	CB_FAULT_HANG,    /* "hang": the first call never returns */
	CB_FAULT_CRASH,   /* "crash": the first call kills its process (SIGSEGV) */
};

struct cb_fault {
	enum cb_fault_kind kind;
	char engine[64];
	long round; /* -1: every round */
};

/* The fault CRYPTOBENCH_FAULT asks for (kind CB_FAULT_NONE when unset). 0, or
 * -1 with ERR when the variable cannot be read. */
int cb_fault_from_env(struct cb_fault *fault, char *err, size_t err_len);
/* Whether FAULT hits ENGINE in ROUND. */
bool cb_fault_hits(const struct cb_fault *fault, const struct cb_engine *engine, long round);
/* The engine whose outputs the switch corrupts ("wrong" only), or NULL. */
const char *cb_fault_engine(void);

#endif
