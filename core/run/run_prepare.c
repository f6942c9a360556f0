/* run_prepare.c: preparing a run (the input, the decrypt cells' ciphertext,
 * each cell's reference and keys, the buffers, the clocks, the layout seed),
 * freeing it, and the header and skip lines it hands to the results module
 * (results_schema.h). Running it is runner.c. */
#include "config.h"

#include "core/run/runner.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "core/algorithms/input.h"
#include "core/base/errbuf.h"
#include "core/machine/clock.h"
#include "core/measure/trial.h"
#include "core/results/results_schema.h"
#include "core/run/explain.h"
#include "core/run/run_state.h"

/* A trial shorter than this many clock resolutions is mostly clock. */
#define RESOLUTIONS_PER_TRIAL 1000
#define MIN_TRIAL_NS 1000000ull

/* Ciphertext of the generated input, for the decrypt cells of one algorithm. */
struct ciphertext {
	const struct cb_algorithm *alg;
	unsigned char *data;
	void *allocation;
	size_t len;
};

static size_t max_size(const struct cb_plan *plan, const struct cb_algorithm *alg, int decrypt_only)
{
	size_t m = 0;

	for (size_t i = 0; i < plan->n_cells; i++) {
		const struct cb_cell *c = &plan->cells[i];

		if (alg && c->alg != alg)
			continue;
		if (decrypt_only && c->op != CB_OP_DECRYPT && c->op != CB_OP_DECRYPT_FORGED)
			continue;
		if (c->size > m)
			m = c->size;
	}
	return m;
}

/* The largest payload of a cell whose calls run in this process, up to
 * CB_STAGE_MAX: what the per-trial input's stage must hold. */
static size_t staged_len(const struct cb_plan *plan, const struct cb_cell_state *states)
{
	size_t m = 0;

	for (size_t i = 0; i < plan->n_cells; i++)
		if (!states[i].engine->remote && plan->cells[i].size <= CB_STAGE_MAX &&
		    plan->cells[i].size > m)
			m = plan->cells[i].size;
	return m;
}

/* Whether some cell reads the plaintext input (hashes, encryptions). */
static bool plaintext_read(const struct cb_plan *plan)
{
	for (size_t i = 0; i < plan->n_cells; i++)
		if (plan->cells[i].op != CB_OP_DECRYPT && plan->cells[i].op != CB_OP_DECRYPT_FORGED)
			return true;
	return false;
}

static const struct ciphertext *ciphertext_for(struct cb_run *run, const struct cb_algorithm *alg,
                                               char *err, size_t err_len)
{
	unsigned char key[CB_MAX_KEY], iv[CB_MAX_IV], tag[CB_MAX_TAG];
	struct ciphertext *ct, *grown;

	for (size_t i = 0; i < run->n_ciphertexts; i++)
		if (run->ciphertexts[i].alg == alg)
			return &run->ciphertexts[i];
	grown = realloc(run->ciphertexts, (run->n_ciphertexts + 1) * sizeof *grown);
	if (!grown)
		return NULL;
	run->ciphertexts = grown;
	ct = &grown[run->n_ciphertexts];
	memset(ct, 0, sizeof *ct);
	ct->alg = alg;
	ct->len = max_size(run->plan, alg, 1);
	ct->data = cb_aligned_alloc(ct->len, run->input.offset, &ct->allocation);
	if (!ct->data) {
		cb_errorf(err, err_len, "out of memory for the %s ciphertext", alg->name);
		return NULL;
	}
	run->n_ciphertexts++;
	cb_standard_key(alg, key);
	cb_standard_iv(alg, iv);
	/* Every mode used here encrypts a prefix to a prefix of the ciphertext,
	 * so one ciphertext of the largest size serves every size. */
	if (cb_reference_encrypt(alg, key, iv, run->input.data, ct->len, ct->data, tag, err,
	                         err_len) != 0)
		return NULL;
	return ct;
}

static int prepare_cell(struct cb_run *run, struct cb_cell_state *s, const struct cb_cell *cell,
                        char *err, size_t err_len)
{
	const struct cb_algorithm *alg = cell->alg;
	int self_checked = cell->variant->engine->self_check != NULL;

	memset(s, 0, sizeof *s);
	s->cell = cell;
	cb_standard_key(alg, s->key);
	cb_standard_iv(alg, s->iv);
	s->setup = (struct cb_cell_setup){.alg = alg,
	                                  .op = cell->op,
	                                  .len = cell->size,
	                                  .key = s->key,
	                                  .iv = s->iv,
	                                  .tag = s->tag,
	                                  .config = &cell->variant->config,
	                                  .input_seed = run->plan->scenario->input_seed,
	                                  .input_offset = run->plan->scenario->input_offset};
	s->in = run->input.data;
	s->engine = cell->variant->config.in_worker ? &cb_engine_in_worker : cell->variant->engine;
	if (s->engine->remote) /* a worker proves it read the same bytes */
		cb_sha256_hex(run->input.data, cell->size, s->input_sha256);
	s->expect_status = cell->op == CB_OP_DECRYPT_FORGED || cell->op == CB_OP_VERIFY_FORGED
	                       ? CB_REJECTED
	                       : CB_OK;
	if (cb_alg_is_pk(alg)) {
		s->pk = malloc(sizeof *s->pk);
		if (!s->pk) {
			cb_errorf(err, err_len, "out of memory for the %s keys", alg->name);
			return -1;
		}
		if (cb_pk_expect(s->pk, alg, cell->op, s->in, cell->size, err, err_len) != 0)
			return -1;
		s->setup.pk = &s->pk->setup;
		return 0;
	}
	if (cell->op == CB_OP_DECRYPT || cell->op == CB_OP_DECRYPT_FORGED) {
		const struct ciphertext *ct = ciphertext_for(run, alg, err, err_len);

		if (!ct)
			return -1;
		s->in = ct->data;
		if (alg->kind == CB_KIND_AEAD) {
			struct cb_expected e;

			if (cb_reference_message(alg, s->key, s->iv, run->input.data, cell->size,
			                         &e, err, err_len) != 0)
				return -1;
			memcpy(s->tag, e.tag, sizeof s->tag);
			if (cell->op == CB_OP_DECRYPT_FORGED)
				s->tag[0] ^= 0x01; /* one bit: the smallest forgery */
		}
		cb_sha256_hex(run->input.data, cell->size, s->expected.output_sha256);
		return 0;
	}
	if (self_checked || cell->variant->config.mode == CB_MODE_STREAM)
		return 0; /* stream references depend on the calibrated calls */
	return cb_reference_message(alg, s->key, s->iv, run->input.data, cell->size, &s->expected,
	                            err, err_len);
}

struct cb_run *cb_run_prepare(const struct cb_plan *plan, const struct cb_run_options *options,
                              char *err, size_t err_len)
{
	struct cb_run *run = calloc(1, sizeof *run);
	const struct cb_scenario *sc = plan->scenario;
	size_t biggest = max_size(plan, NULL, 0), biggest_output = 0;
	unsigned threads = 1;

	if (!run)
		goto oom;
	run->plan = plan;
	run->options = options;
	run->started_ns = cb_wall_ns();
	if (cb_input_create(&run->input, biggest, sc->input_seed, sc->input_offset) != 0)
		goto oom;
	run->input_len = run->input.len;
	cb_sha256_hex(run->input.data, run->input.len, run->input_sha256);
	cb_sha256_hex(run->input.data, biggest < CB_INPUT_UNIT ? biggest : CB_INPUT_UNIT,
	              run->unit_sha256);
	run->states = calloc(plan->n_cells, sizeof *run->states);
	if (!run->states)
		goto oom;
	for (size_t i = 0; i < plan->n_cells; i++) {
		const struct cb_cell *c = &plan->cells[i];
		/* Built-ins write up to the payload whatever the algorithm. */
		size_t out = c->variant->engine->self_check ? c->size
		                                            : cb_output_len(c->alg, c->op, c->size);

		if (c->threads > threads)
			threads = c->threads;
		if (out > biggest_output)
			biggest_output = out;
		if (prepare_cell(run, &run->states[i], &plan->cells[i], err, err_len) != 0)
			goto fail;
	}
	/* Output buffers as large as the largest output, not the largest
	 * payload: a 128 MiB hash run needs no second 128 MiB. */
	if (!plaintext_read(plan)) {
		/* Only decryptions: they read ciphertext and are checked by digest,
		 * so the plaintext would only take memory. */
		run->input_len = run->input.len;
		cb_input_free(&run->input);
	}
	if (cb_trial_buffers_init(&run->buffers, threads, biggest_output + CB_OUTPUT_SLACK,
	                          sc->input_offset) != 0)
		goto oom;
	if (sc->layout_per_trial &&
	    cb_trial_buffers_stage(&run->buffers, staged_len(plan, run->states),
	                           sc->input_offset) != 0)
		goto oom;

	cb_cycles_open(&run->cycles);
	run->tc.count_cycles = run->cycles.fd >= 0;
	run->tc.estimate_core_hz = !run->tc.count_cycles;
	if (cb_fault_from_env(&run->tc.fault, err, err_len) != 0)
		goto fail;
	if (sc->pin_threads) {
		cpu_set_t allowed;

		/* The CPUs this process may use, in order: thread t gets the t-th. */
		if (sched_getaffinity(0, sizeof allowed, &allowed) == 0)
			for (int cpu = 0; cpu < CPU_SETSIZE && run->tc.n_cpus < CB_MAX_THREADS;
			     cpu++)
				if (CPU_ISSET(cpu, &allowed))
					run->tc.cpus[run->tc.n_cpus++] = cpu;
		run->tc.pin = run->tc.n_cpus > 0;
	}
	if (getrandom(&run->layout_seed, sizeof run->layout_seed, 0) !=
	    (ssize_t)sizeof run->layout_seed)
		run->layout_seed = cb_wall_ns();
	run->layout_seed >>= 1; /* recorded as a JSON integer */
	if (options->resume) {  /* a resumed run goes on with the placements it had */
		long long seed = cb_results_layout_seed(options->resume);

		if (seed >= 0)
			run->layout_seed = (uint64_t)seed;
	}
	run->resolution_ns = cb_wall_resolution_ns();
	run->trial_time_ns = sc->trial_time_ns;
	if (run->trial_time_ns < MIN_TRIAL_NS)
		run->trial_time_ns = MIN_TRIAL_NS;
	if (run->trial_time_ns < RESOLUTIONS_PER_TRIAL * run->resolution_ns)
		run->trial_time_ns = RESOLUTIONS_PER_TRIAL * run->resolution_ns;
	/* A plan on virtual clocks only has no core clock to watch. */
	run->real_clock = false;
	for (size_t i = 0; i < plan->n_cells; i++)
		run->real_clock |= plan->cells[i].variant->engine->virtual_ns == NULL;
	run->core_hz_start = run->real_clock ? cb_core_hz_estimate(20000000) : 0;
	if (sc->explain.samples && !(run->explain = cb_explain_new(&sc->explain, plan->n_cells)))
		goto oom;
	run->sequential = cb_scenario_sequential(sc);
	if (run->sequential) {
		if (!options->look) {
			cb_errorf(err, err_len,
			          "a run until resolved needs its looks (no hook given)");
			goto fail;
		}
		if (!(run->open = malloc(plan->n_cells * sizeof *run->open)))
			goto oom;
		for (size_t i = 0; i < plan->n_cells; i++)
			run->open[i] = true;
		run->first_look = cb_scenario_first_look(sc);
		run->stratum_pad = (8 - sc->warmup_rounds % 8) % 8;
	}
	return run;
oom:
	cb_errorf(err, err_len, "out of memory preparing the run (largest payload %zu bytes)",
	          biggest);
fail:
	cb_run_free(run);
	return NULL;
}

void cb_run_free(struct cb_run *run)
{
	if (!run)
		return;
	for (size_t i = 0; i < run->n_ciphertexts; i++)
		free(run->ciphertexts[i].allocation);
	free(run->ciphertexts);
	for (size_t i = 0; run->states && i < run->plan->n_cells; i++)
		free(run->states[i].pk);
	free(run->states);
	free(run->open);
	cb_trial_buffers_free(&run->buffers);
	cb_input_free(&run->input);
	cb_cycles_close(&run->cycles);
	cb_explain_free(run->explain);
	free(run);
}

json_t *cb_run_header(const struct cb_run *run)
{
	struct cb_header_record h = {.plan = run->plan,
	                             .command_line = run->options->command_line,
	                             .host_name = run->options->host_name,
	                             .input_len = run->input_len,
	                             .input_sha256 = run->input_sha256,
	                             .unit_sha256 = run->unit_sha256,
	                             .cycles = &run->cycles,
	                             .resolution_ns = run->resolution_ns,
	                             .core_hz_start = run->core_hz_start,
	                             .trial_time_ns = run->trial_time_ns,
	                             .run_index = run->options->run_index,
	                             .runs = run->options->runs,
	                             .layout_seed = run->layout_seed,
	                             .explain =
	                                 run->explain ? cb_explain_header(run->explain) : NULL};

	return cb_results_header_json(&h);
}

int cb_run_write_skips(const struct cb_run *run, struct cb_writer *w)
{
	const struct cb_plan *plan = run->plan;

	for (size_t i = 0; i < plan->n_skips; i++) {
		if (cb_results_write_skip(w, &plan->skips[i]) != 0)
			return -1;
	}
	return 0;
}
