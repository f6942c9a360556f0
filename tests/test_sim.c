/* test_sim.c: the runner and results file, end to end, on the sim engine's
 * virtual clock, where the true cost is declared. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "core/measure/plan.h"
#include "core/results/results.h"
#include "core/run/runner.h"
#include "core/lua/load.h"
#include "core/measure/scenario.h"
#include "tests/tap.h"

static const char *srcdir(void)
{
	const char *d = getenv("top_srcdir");

	return d ? d : ".";
}

/* Load, plan, run and read back one scenario. NULL on failure (reported). */
static struct cb_results *run_scenario(const char *name, const struct cb_override *set,
                                       size_t n_set, struct cb_run_totals *totals, size_t *cells)
{
	char path[1024], out[] = "/tmp/cb-test-sim-XXXXXX", err[1024];
	struct cb_load_options load = {.overrides = set, .n_overrides = n_set};
	struct cb_run_options options = {.runs = 1};
	struct cb_scenario *s;
	struct cb_plan *plan = NULL;
	struct cb_run *run = NULL;
	struct cb_writer *w = NULL;
	struct cb_results *r = NULL;
	json_t *header, *end;
	int fd = mkstemp(out);

	close(fd);
	snprintf(path, sizeof path, "%s/tests/scenarios/sim/%s", srcdir(), name);
	if (!(s = cb_scenario_load(path, &load, err, sizeof err)) ||
	    !(plan = cb_plan_build(s, err, sizeof err)) ||
	    !(run = cb_run_prepare(plan, &options, err, sizeof err))) {
		diag("%s", err);
		goto done;
	}
	*cells = plan->n_cells;
	header = cb_run_header(run);
	w = cb_writer_create(out, header, err, sizeof err);
	json_decref(header);
	if (!w || cb_run_write_skips(run, w) != 0 ||
	    cb_run_execute(run, w, totals, err, sizeof err) != 0) {
		diag("%s", err);
		goto done;
	}
	end = cb_run_end(run, totals);
	cb_writer_close(w, end);
	w = NULL;
	json_decref(end);
	if (!(r = cb_results_read(out, err, sizeof err)))
		diag("%s", err);
done:
	if (w)
		cb_writer_close(w, NULL);
	cb_run_free(run);
	cb_plan_free(plan);
	cb_scenario_free(s);
	unlink(out);
	return r;
}

/* Median of the measured (non-warm-up, valid) ns per call of CELL. */
static double median_ns_per_call(const struct cb_results *r, size_t cell, size_t *n)
{
	double v[1024];

	*n = 0;
	for (size_t i = 0; i < r->n_trials && *n < 1024; i++)
		if (r->trials[i].cell == cell && r->trials[i].valid && !r->trials[i].warmup)
			v[(*n)++] = r->trials[i].ns / (double)r->trials[i].calls;
	gsl_sort(v, 1, *n);
	return *n ? gsl_stats_median_from_sorted_data(v, 1, *n) : -1;
}

static void test_declared_cost(void)
{
	struct cb_run_totals totals;
	size_t cells = 0, n;
	struct cb_results *r = run_scenario("cost.lua", NULL, 0, &totals, &cells);

	if (!ok(r != NULL, "sim-cost scenario runs and reads back"))
		return;
	/* 2 variants x (sha256 hash + aes-128-gcm encrypt + decrypt-forged) x 3 sizes */
	is_num(cells, 18, "cells: 2 variants x 3 algorithm-ops x 3 sizes");
	is_num(r->n_cells, cells, "every cell has trials in the file");
	is_num(r->n_trials, (7 + 1) * cells, "trials = (rounds + warm-up) x cells");
	is_num(totals.invalid, 0, "no invalid trial");
	ok(!r->interrupted, "the run is complete");
	ok(json_is_string(json_object_get(json_object_get(r->header, "scenario"), "source")),
	   "header holds the scenario's source");
	is_num(strlen(json_string_value(
	           json_object_get(json_object_get(r->header, "scenario"), "sha256"))),
	       64, "header holds the scenario's sha256");
	is_str(json_string_value(json_object_get(json_object_get(r->header, "input"), "sha256")),
	       "8d08fc073d1a44b439b9b06fb73769587c38e4d02adb22d3a1bd8c304e7ec816",
	       "header holds the SHA-256 of the 1 MiB input");
	for (size_t c = 0; c < r->n_cells; c++) {
		const struct cb_result_cell *cell = &r->cells[c];
		double overhead = strcmp(cell->label, "sim-a") == 0 ? 200 : 50;
		double per_byte = strcmp(cell->label, "sim-a") == 0 ? 0.5 : 2.0;
		double want = overhead + per_byte * (double)cell->size;
		double got = median_ns_per_call(r, c, &n);

		ok(n == 7 && got > 0 && got <= want * 1.01 && got >= want * 0.99,
		   "%s: median %.2f ns/call within 1%% of declared %.2f (n=%zu)", cell->key, got,
		   want, n);
	}
	cb_results_free(r);
}

/* seq of trial I is its position; CELL and ROUND as the order demands. */
static void test_orders(void)
{
	static const char *const orders[] = {"round-robin", "blocked", "randomized"};

	for (int o = 0; o < 3; o++) {
		struct cb_override set[] = {{"order", orders[o]}};
		struct cb_run_totals totals;
		size_t cells = 0, wrong = 0, not_rr = 0;
		struct cb_results *r = run_scenario("cost.lua", set, 1, &totals, &cells);
		unsigned rounds = 8;

		if (!ok(r != NULL, "%s run reads back", orders[o]))
			continue;
		for (size_t i = 0; i < r->n_trials; i++) {
			const struct cb_result_trial *t = &r->trials[i];
			size_t expect_round = i / cells, expect_cell = i % cells;

			wrong += t->seq != i;
			if (o == 1 &&
			    t->round >= 1) { /* blocked after the interleaved warm-up round */
				size_t k = i - cells;
				expect_cell = k / (rounds - 1);
				expect_round = 1 + k % (rounds - 1);
			}
			if (o == 2) {
				not_rr += t->cell != i % cells;
				wrong += t->round != expect_round;
			} else {
				wrong += t->cell != expect_cell || t->round != expect_round;
			}
		}
		is_num(wrong, 0, "%s: seq, cell and round follow the order", orders[o]);
		if (o == 2) {
			ok(not_rr > 0, "randomized: %zu of %zu trials left round-robin position",
			   not_rr, r->n_trials);
			ok(json_integer_value(json_object_get(r->header, "order_seed")) != 0,
			   "randomized: the order seed is recorded");
			/* Each round is a permutation of the cells. */
			size_t bad_rounds = 0;
			for (unsigned rd = 0; rd < rounds; rd++) {
				unsigned char seen[64] = {0};
				for (size_t k = 0; k < cells; k++)
					seen[r->trials[rd * cells + k].cell]++;
				for (size_t k = 0; k < cells; k++)
					bad_rounds += seen[k] != 1;
			}
			is_num(bad_rounds, 0, "randomized: every round runs each cell once");
		}
		cb_results_free(r);
	}
}

static void test_fault_switch(void)
{
	struct cb_run_totals totals;
	size_t cells = 0, timed = 0;
	struct cb_results *r;

	setenv("CRYPTOBENCH_FAULT", "sim", 1);
	r = run_scenario("cost.lua", NULL, 0, &totals, &cells);
	unsetenv("CRYPTOBENCH_FAULT");
	if (!ok(r != NULL, "faulty run still writes a readable file"))
		return;
	/* decrypt-forged outputs nothing, so only hash and encrypt can be caught. */
	for (size_t i = 0; i < r->n_trials; i++)
		timed += r->trials[i].ns >= 0 && !r->trials[i].valid;
	ok(totals.invalid >= 12 * 8, "a corrupted output makes trials invalid (%llu)",
	   (unsigned long long)totals.invalid);
	is_num(timed, 0, "no invalid trial keeps a timing");
	ok(r->n_trials && r->trials[0].error && strstr(r->trials[0].error, "sim output"),
	   "the reason is recorded: %s",
	   r->n_trials && r->trials[0].error ? r->trials[0].error : "(none)");
	cb_results_free(r);
}

int main(void)
{
	tap_plan(40);
	test_declared_cost();
	test_orders();
	test_fault_switch();
	return tap_done();
}
