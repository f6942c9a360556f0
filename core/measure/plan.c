/* plan.c: from a scenario to cells and an order of trials. */
#include "core/measure/plan.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "core/base/errbuf.h"
#include "core/base/units.h"

static int add_skip(struct cb_plan *plan, const struct cb_variant *v,
                    const struct cb_algorithm *alg, enum cb_op op, const char *fmt, ...)
{
	struct cb_skip *grown = realloc(plan->skips, (plan->n_skips + 1) * sizeof *grown);
	char reason[256];
	va_list ap;

	if (!grown)
		return -1;
	plan->skips = grown;
	va_start(ap, fmt);
	vsnprintf(reason, sizeof reason, fmt, ap);
	va_end(ap);
	grown[plan->n_skips].variant = v;
	grown[plan->n_skips].alg = alg;
	grown[plan->n_skips].op = op;
	grown[plan->n_skips].reason = strdup(reason);
	plan->n_skips++;
	return 0;
}

/* Why VARIANT cannot run ALG/OP here, or NULL when it can. */
static const char *why_not(const struct cb_variant *v, const struct cb_algorithm *alg,
                           enum cb_op op, char *buf, size_t len)
{
	const char *unusable;

	if (!cb_engine_usable(v->engine, &unusable)) {
		snprintf(buf, len, "%s is not usable here: %s", v->engine->name, unusable);
		return buf;
	}
	if (!cb_engine_supports(v->engine, alg, op, v->config.mode)) {
		snprintf(buf, len, "%s has no %s %s%s", v->engine->name, alg->name, cb_op_name(op),
		         v->config.mode == CB_MODE_STREAM ? " in stream mode" : "");
		return buf;
	}
	if (v->config.chunk && alg->kind != CB_KIND_HASH) {
		snprintf(buf, len, "chunked feeding applies to hashes only, not %s", alg->name);
		return buf;
	}
	return NULL;
}

static int add_cells(struct cb_plan *plan, const struct cb_scenario *s)
{
	size_t capacity = s->n_variants * s->n_algorithms * s->n_ops * s->n_sizes * s->n_threads;
	char why[256], size_text[32];

	plan->cells = calloc(capacity ? capacity : 1, sizeof *plan->cells);
	if (!plan->cells)
		return -1;
	for (size_t v = 0; v < s->n_variants; v++)
		for (size_t a = 0; a < s->n_algorithms; a++)
			for (size_t o = 0; o < s->n_ops; o++) {
				const struct cb_variant *variant = &s->variants[v];
				const struct cb_algorithm *alg = s->algorithms[a];
				enum cb_op op = s->ops[o];

				if (!cb_op_applies(alg, op))
					continue; /* "hash" of a cipher: not a combination at all */
				if (why_not(variant, alg, op, why, sizeof why)) {
					if (add_skip(plan, variant, alg, op, "%s", why) != 0)
						return -1;
					continue;
				}
				for (size_t z = 0; z < s->n_sizes; z++) {
					if (s->sizes[z] % alg->block_len != 0) {
						if (add_skip(
						        plan, variant, alg, op,
						        "%s needs a multiple of %zu bytes, not %s",
						        alg->name, alg->block_len,
						        cb_format_size(s->sizes[z], size_text)) !=
						    0)
							return -1;
						continue;
					}
					for (size_t t = 0; t < s->n_threads; t++) {
						struct cb_cell *c = &plan->cells[plan->n_cells];

						c->index = plan->n_cells++;
						c->variant = variant;
						c->alg = alg;
						c->op = op;
						c->size = s->sizes[z];
						c->threads = s->threads[t];
					}
				}
			}
	return 0;
}

void cb_plan_schedule(struct cb_plan *plan)
{
	const struct cb_scenario *s = plan->scenario;
	unsigned rounds = s->warmup_rounds + cb_scenario_planned_rounds(s);
	size_t k = 0;

	if (s->order == CB_ORDER_BLOCKED) {
		/* Warm-up stays interleaved: it exists to warm every cell alike. */
		for (unsigned r = 0; r < s->warmup_rounds; r++)
			for (size_t c = 0; c < plan->n_cells; c++)
				plan->slots[k++] =
				    (struct cb_slot){.cell = c, .round = r, .warmup = 1};
		for (size_t c = 0; c < plan->n_cells; c++)
			for (unsigned r = s->warmup_rounds; r < rounds; r++)
				plan->slots[k++] = (struct cb_slot){.cell = c, .round = r};
		return;
	}
	for (unsigned r = 0; r < rounds; r++)
		for (size_t c = 0; c < plan->n_cells; c++)
			plan->slots[k++] =
			    (struct cb_slot){.cell = c, .round = r, .warmup = r < s->warmup_rounds};
	if (s->order == CB_ORDER_RANDOMIZED) {
		/* A fresh permutation per round, reproducible from the seed. */
		gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

		gsl_rng_set(rng, (unsigned long)s->order_seed);
		for (unsigned r = 0; r < rounds; r++)
			gsl_ran_shuffle(rng, plan->slots + (size_t)r * plan->n_cells, plan->n_cells,
			                sizeof *plan->slots);
		gsl_rng_free(rng);
	}
}

struct cb_plan *cb_plan_build(const struct cb_scenario *scenario, char *err, size_t err_len)
{
	struct cb_plan *plan = calloc(1, sizeof *plan);

	if (!plan)
		goto oom;
	plan->scenario = scenario;
	if (add_cells(plan, scenario) != 0)
		goto oom;
	if (plan->n_cells == 0) {
		cb_errorf(err, err_len, "%s: no cell can run here (%zu combination%s skipped%s%s)",
		          scenario->file, plan->n_skips, plan->n_skips == 1 ? "" : "s",
		          plan->n_skips ? ", first: " : "",
		          plan->n_skips ? plan->skips[0].reason : "");
		cb_plan_free(plan);
		return NULL;
	}
	if (cb_scenario_sequential(scenario) && scenario->order == CB_ORDER_BLOCKED) {
		cb_errorf(err, err_len,
		          "%s: order \"blocked\" runs each cell's rounds at once, so it cannot "
		          "measure in blocks until resolved (use round-robin or randomized)",
		          scenario->file);
		cb_plan_free(plan);
		return NULL;
	}
	plan->n_slots = (size_t)(scenario->warmup_rounds + cb_scenario_planned_rounds(scenario)) *
	                plan->n_cells;
	plan->slots = calloc(plan->n_slots, sizeof *plan->slots);
	if (!plan->slots)
		goto oom;
	cb_plan_schedule(plan);
	return plan;
oom:
	cb_errorf(err, err_len, "out of memory building the plan");
	cb_plan_free(plan);
	return NULL;
}

void cb_plan_free(struct cb_plan *plan)
{
	if (!plan)
		return;
	for (size_t i = 0; i < plan->n_skips; i++)
		free(plan->skips[i].reason);
	free(plan->skips);
	free(plan->cells);
	free(plan->slots);
	free(plan);
}

void cb_cell_key(const struct cb_cell *cell, char *buf, size_t len)
{
	snprintf(buf, len, "%s|%s|%s|%zu|%u", cell->variant->label, cell->alg->name,
	         cb_op_name(cell->op), cell->size, cell->threads);
}

json_t *cb_cell_to_json(const struct cb_cell *cell)
{
	const struct cb_variant *v = cell->variant;

	return json_pack("{s:s, s:s, s:s, s:s, s:I, s:i, s:s}", "engine", v->engine->name, "label",
	                 v->label, "algorithm", cell->alg->name, "op", cb_op_name(cell->op), "size",
	                 (json_int_t)cell->size, "threads", (int)cell->threads, "mode",
	                 v->config.mode == CB_MODE_STREAM ? "stream" : "message");
}
