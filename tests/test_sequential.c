/* test_sequential.c: measuring until the answer is known, against known truth.
 *
 * Each replication is one run of two sim cells, num and den (sha256, 16 KiB,
 * 64 calls a trial), judged by one derived metric num/den and by their
 * winners group. The trials come from the sim engine itself (its
 * virtual_ns and virtual_cycles: the cost model and the machine noise of
 * core/engines/sim.c, keyed by round, so every design sees the same rounds),
 * go into a results structure, and after every block of 8 rounds the run is
 * analysed (cb_analysis_build) and the stopping rule checked
 * (cb_stop_check), exactly as the run command does; a cell leaves the
 * rotation when the check closes it. With the truth known it counts:
 *
 *   (a) coverage   at the stopping round, the derived ratio's interval holds
 *                  the true ratio, and (on cycles) each cell's c/B median
 *                  interval the true median
 *   (b) A/A        num and den alike: "faster" or "slower" called
 *   (c) power      num 5% slower (ratio 1/1.05): "slower" called within
 *                  max_rounds
 *   (e) rounds     the mean rounds to the stop, and the fewest rounds of a
 *                  fixed design (one look, fixed-n intervals) whose power
 *                  reaches the sequential design's
 *
 * and, as the negative control, the same loop with the fixed-n intervals
 * re-checked after every block, which must fail (a) or (b).
 *
 * The last settings put each engine on its own machine (its own shared
 * seed: an AR(1) term of rho 0.5 to 0.95, or a drift of the clock, that
 * pairing by round does not cancel) and judge on cycles estimated from time,
 * as a VM without counters does: the rounds of the paired series are then
 * dependent, and the intervals must widen for it (stats/dependence.h) or
 * hold the question open.
 *
 *   tests/test_sequential              the small version of make check
 *   tests/test_sequential --full [N [SEED [I[-J] [seq]]]]
 *                                      settings I to J (all), N replications (500);
 *                                      seq: the sequence alone, no fixed designs
 *   (tests/bench/sequential-validation.sh runs the latter)
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_cdf.h>

#include "analysis/stats/confseq.h"
#include "analysis/stats/dependence.h"
#include "analysis/verdicts/analysis.h"
#include "analysis/verdicts/stopping.h"
#include "core/algorithms/algorithm.h"
#include "core/engine/engine.h"
#include "core/results/results.h"
#include "tests/tap.h"

#define LEN 16384
#define CALLS 64
#define CELLS 2 /* num, den */
#define SHIFT 1.05

/* ---- A results structure in memory ---- */

struct run {
	struct cb_results r;
	size_t cap;
};

static const char *const labels[CELLS] = {"num", "den"};
static const char decl[] = "[{\"name\":\"num/den\",\"ratio\":[{\"label\":\"num\"},{\"label\":"
                           "\"den\"}],\"by\":[\"size\"]}]";

/* COUNTED: the cycles are counted (the work's alone), else estimated from
 * time, as the header's counter says. */
static int run_init(struct run *run, const struct cb_stop_rule *rule, bool counted)
{
	json_t *derive = json_loads(decl, 0, NULL);

	memset(run, 0, sizeof *run);
	run->r.header =
	    json_pack("{s:{s:s, s:o}, s:{s:s}}", "scenario", "name", "sequential", "derive", derive,
	              "counter", "cycles", counted ? "perf-cycles" : "estimate");
	if (!run->r.header)
		return -1;
	if (rule)
		json_object_set_new(run->r.header, "stop", cb_stop_rule_json(rule));
	run->r.cells = calloc(CELLS, sizeof *run->r.cells);
	if (!run->r.cells)
		return -1;
	run->r.n_cells = CELLS;
	run->r.header_cells = CELLS;
	for (size_t c = 0; c < CELLS; c++) {
		struct cb_result_cell *x = &run->r.cells[c];
		char key[128];

		snprintf(key, sizeof key, "%s|sha256|hash|%d|1", labels[c], LEN);
		x->engine = x->label = (char *)labels[c];
		x->algorithm = "sha256";
		x->op = "hash";
		x->size = LEN;
		x->threads = 1;
		x->mode = "message";
		x->key = strdup(key);
	}
	return 0;
}

static int run_add(struct run *run, size_t cell, unsigned round, double ns, double cycles)
{
	if (run->r.n_trials == run->cap) {
		size_t cap = run->cap ? 2 * run->cap : 256;
		struct cb_result_trial *t = realloc(run->r.trials, cap * sizeof *t);

		if (!t)
			return -1;
		run->r.trials = t;
		run->cap = cap;
	}
	run->r.trials[run->r.n_trials] = (struct cb_result_trial){
	    .seq = run->r.n_trials,
	    .calls = CALLS,
	    .bytes = (uint64_t)CALLS * LEN,
	    .ns = ns,
	    .cpu_ns = -1,
	    .cycles = cycles,
	    .cell = (uint32_t)cell,
	    .round = round,
	    .valid = true,
	    .layout_stack = -1,
	    .trial_time_reached = 1,
	};
	run->r.n_trials++;
	return 0;
}

static void run_free(struct run *run)
{
	for (size_t c = 0; c < run->r.n_cells; c++)
		free(run->r.cells[c].key);
	free(run->r.cells);
	free(run->r.trials);
	json_decref(run->r.header);
}

/* ---- The sim's rounds ---- */

struct setting {
	const char *name;
	bool cycles; /* judged on bytes per cycle; else the cycles are dropped: MB/s */
	double jitter, spike_rate, spike_factor;
	double round_load, run_load, freq_drift, ar1, ar1_sigma, burst_rate, burst_factor;
	/* Each engine on its own machine (its own shared_seed): the load, the
	 * clock's drift, the AR(1) term and the bursts are no longer the pair's
	 * and pairing by round does not cancel them. Judged on cycles estimated
	 * from time (the sim's cycles_from_time), as on a VM without counters:
	 * the cycles carry all of it. */
	bool own_machine;
};

/* The engines' own noise of tests/scenarios/sim/realistic.lua, on a shared
 * VM as scenarios/paper/validation.lua has it, and a noisier one; then the
 * noisy VM with each engine on its own machine state, its slow part an
 * AR(1) term of rho 0.5, 0.8 or 0.95 or a drift of the clock (period 60
 * rounds), and no run clock (a run-long offset that one side has and the
 * other not is between-run variation: no round of one run can show it). */
static const struct setting settings[] = {
    {"c/B, shared VM", true, 0.01, 0.02, 1.5, 0.03, 0.03, 0.03, 0.8, 0.01, 0.05, 0.5, false},
    {"MB/s, shared VM", false, 0.01, 0.02, 1.5, 0.03, 0.03, 0.03, 0.8, 0.01, 0.05, 0.5, false},
    {"MB/s, noisy VM", false, 0.03, 0.05, 1.5, 0.05, 0.05, 0.05, 0.8, 0.02, 0.2, 1.0, false},
    {"MB/s, v. noisy", false, 0.08, 0.05, 1.5, 0.05, 0.05, 0.05, 0.8, 0.02, 0.3, 1.5, false},
    {"own AR(1) 0.5", true, 0.03, 0.05, 1.5, 0.05, 0, 0, 0.5, 0.02, 0.2, 1.0, true},
    {"own AR(1) 0.8", true, 0.03, 0.05, 1.5, 0.05, 0, 0, 0.8, 0.02, 0.2, 1.0, true},
    {"own AR(1) 0.95", true, 0.03, 0.05, 1.5, 0.05, 0, 0, 0.95, 0.02, 0.2, 1.0, true},
    {"own drift", true, 0.03, 0.05, 1.5, 0.05, 0, 0.05, 0, 0, 0.2, 1.0, true},
    {"quiet own AR .5", true, 0.01, 0.02, 1.5, 0.03, 0, 0, 0.5, 0.01, 0.05, 0.5, true},
    {"quiet own AR .8", true, 0.01, 0.02, 1.5, 0.03, 0, 0, 0.8, 0.01, 0.05, 0.5, true},
    {"quiet own AR .95", true, 0.01, 0.02, 1.5, 0.03, 0, 0, 0.95, 0.01, 0.05, 0.5, true},
    {"quiet own drift", true, 0.01, 0.02, 1.5, 0.03, 0, 0.03, 0, 0, 0.05, 0.5, true},
};
#define N_SETTINGS (sizeof settings / sizeof settings[0])
#define NOISY 2
#define VERY_NOISY 3
#define QUIET_AR5 8
#define QUIET_AR95 10
#define OWN_REPS 60 /* make check's replications of each */

/* Every round's trial of both cells, drawn once per replication. */
struct draws {
	size_t rounds;
	double *ns[CELLS], *cycles[CELLS];
};

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static int by_number(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int draw(const struct setting *s, double shift, uint64_t seed, size_t rounds,
                struct draws *d)
{
	const struct cb_engine *sim = cb_engine_find("sim");
	const struct cb_algorithm *alg = cb_algorithm_find("sha256");
	char err[256];

	d->rounds = rounds;
	for (size_t c = 0; c < CELLS; c++) {
		struct cb_option o[] = {
		    {"overhead_ns", true, 0, NULL},
		    {"ns_per_byte", true, c == 0 ? shift : 1.0, NULL},
		    {"jitter", true, s->jitter, NULL},
		    {"spike_rate", true, s->spike_rate, NULL},
		    {"spike_factor", true, s->spike_factor, NULL},
		    {"round_load", true, s->round_load, NULL},
		    {"run_load", true, s->run_load, NULL},
		    {"freq_drift", true, s->freq_drift, NULL},
		    {"ar1", true, s->ar1, NULL},
		    {"ar1_sigma", true, s->ar1_sigma, NULL},
		    {"burst_rate", true, s->burst_rate, NULL},
		    {"burst_factor", true, s->burst_factor, NULL},
		    {"seed", true, (double)(mix(seed * 2 + c) % 4000000000u), NULL},
		    {"cycles_from_time", true, s->own_machine, NULL},
		    {"shared_seed", true,
		     (double)(mix(s->own_machine ? seed * 2 + c + 1000003 : seed) % 4000000000u),
		     NULL},
		};
		struct cb_engine_config config = {.options = o,
		                                  .n_options = sizeof o / sizeof o[0]};
		struct cb_cell_setup setup = {
		    .alg = alg, .op = CB_OP_HASH, .len = LEN, .config = &config};
		void *ctx = sim && alg ? cb_engine_open(sim, &setup, err, sizeof err) : NULL;

		d->ns[c] = malloc(rounds * sizeof *d->ns[c]);
		d->cycles[c] = malloc(rounds * sizeof *d->cycles[c]);
		if (!ctx || !d->ns[c] || !d->cycles[c]) {
			if (ctx)
				sim->close(ctx);
			return -1;
		}
		for (size_t r = 0; r < rounds; r++) {
			struct cb_trial_info t = {
			    .run = 0, .round = (unsigned)r + 1, .calls = CALLS, .len = LEN};

			d->ns[c][r] = (double)sim->virtual_ns(ctx, &t);
			d->cycles[c][r] = s->cycles ? (double)sim->virtual_cycles(ctx, &t) : -1;
		}
		sim->close(ctx);
	}
	return 0;
}

static void draws_free(struct draws *d)
{
	for (size_t c = 0; c < CELLS; c++) {
		free(d->ns[c]);
		free(d->cycles[c]);
	}
}

/* The median of exp(jitter Z) x (spike_factor with probability spike_rate),
 * the sim's work factor: solves (1-p) Phi(z) + p Phi(z - ln f / s) = 1/2. */
static double true_median_factor(double jitter, double rate, double factor)
{
	double lo = -10, hi = 10;

	for (int i = 0; i < 200; i++) {
		double z = (lo + hi) / 2;
		double cdf = (1 - rate) * gsl_cdf_ugaussian_P(z) +
		             rate * gsl_cdf_ugaussian_P(z - log(factor) / jitter);
		*(cdf < 0.5 ? &lo : &hi) = z;
	}
	return exp(jitter * (lo + hi) / 2);
}

/* ---- One run under a design ---- */

enum design {
	SEQ,         /* the rule, with its confidence sequences */
	FIXED_LOOKS, /* the fixed-n intervals re-checked after every block */
	INDEPENDENT, /* the sequence that counts every round as independent */
};

struct outcome {
	size_t rounds; /* of the longest-running cell at the stop */
	enum cb_ratio_verdict verdict;
	bool ratio_covered;
	bool dependent; /* the ratio's rounds shown dependent, or given a margin, at the stop */
	bool interval;  /* the ratio has an interval at the stop (not held) */
	size_t medians, medians_covered; /* c/B median intervals holding the truth */
	bool ok;
};

static bool holds(const struct cb_stats_interval *ci, double truth)
{
	return ci->available && ci->lo <= truth && truth <= ci->hi;
}

static void judge(const struct cb_analysis *a, const struct setting *s, double shift,
                  struct outcome *o)
{
	const struct cb_derived *m = a->n_derived ? &a->derived[0] : NULL;
	double ratio = 1.0 / shift,
	       factor = true_median_factor(s->jitter, s->spike_rate, s->spike_factor);

	o->verdict = m && m->ok ? m->verdict : CB_RATIO_NOT_RESOLVED;
	o->ratio_covered = m && m->ok && holds(&m->ratio.ci, ratio);
	o->dependent = m && m->ok && cb_dependence_reported(&m->ratio.dependence);
	o->interval = m && m->ok && m->ratio.ci.available;
	o->medians = o->medians_covered = 0;
	/* The work's median: only where the cycles are the work's. */
	for (size_t c = 0; s->cycles && !s->own_machine && c < CELLS; c++) {
		const struct cb_cell_summary *cs = &a->summary->cells[c];

		/* Of the cells with an interval: one widened for dependent rounds
		 * may have none yet at the stop. */
		if (!cs->have_cycles || !cs->cpb.median_ci.available)
			continue;
		o->medians++;
		o->medians_covered += holds(&cs->cpb.median_ci, (c == 0 ? shift : 1.0) * factor);
	}
}

/* The run of D's rounds under RULE, a look after every block: with the
 * confidence sequences when SEQUENTIAL, else with the fixed-n intervals
 * re-checked at every look (the negative control). */
static int run_sequential(const struct draws *d, const struct setting *s, double shift,
                          const struct cb_stop_rule *rule, bool sequential, struct outcome *o)
{
	struct cb_summary_options sopt;
	struct cb_derive_options dopt;
	bool open[CELLS] = {true, true};
	size_t done = 0;
	struct run run;
	int rc = -1;

	memset(o, 0, sizeof *o);
	cb_stop_analysis_options(rule, &sopt, &dopt);
	sopt.sequential = sequential;
	if (run_init(&run, sequential ? rule : NULL, !s->own_machine) != 0)
		goto out;
	while (done < d->rounds) {
		struct cb_analysis *a;
		struct cb_stop_state *st;
		size_t end = done + rule->block < d->rounds ? done + rule->block : d->rounds;

		for (size_t r = done; r < end; r++)
			for (size_t c = 0; c < CELLS; c++)
				if (open[c] && run_add(&run, c, (unsigned)r + 1, d->ns[c][r],
				                       d->cycles[c][r]) != 0)
					goto out;
		done = end;
		if (!(a = cb_analysis_build(&run.r, &sopt, &dopt, NULL, 0)))
			goto out;
		st = cb_stop_check(a, rule, 0, NULL, 0);
		if (!st) {
			cb_analysis_free(a);
			goto out;
		}
		for (size_t c = 0; c < CELLS; c++) {
			open[c] = st->cells[c].open;
			if (st->cells[c].rounds > o->rounds)
				o->rounds = st->cells[c].rounds;
		}
		bool stop = st->n_open_cells == 0 || done == d->rounds;
		cb_stop_state_free(st);
		if (stop) {
			judge(a, s, shift, o);
			cb_analysis_free(a);
			break;
		}
		cb_analysis_free(a);
	}
	o->ok = true;
	rc = 0;
out:
	run_free(&run);
	return rc;
}

/* The fixed design: one look at N rounds with the fixed-n intervals. */
static int run_fixed(const struct draws *d, size_t n, enum cb_ratio_verdict *verdict)
{
	struct run run;
	struct cb_analysis *a;
	int rc = -1;

	*verdict = CB_RATIO_NOT_RESOLVED;
	if (run_init(&run, NULL, true) != 0)
		goto out;
	for (size_t r = 0; r < n && r < d->rounds; r++)
		for (size_t c = 0; c < CELLS; c++)
			if (run_add(&run, c, (unsigned)r + 1, d->ns[c][r], d->cycles[c][r]) != 0)
				goto out;
	if (!(a = cb_analysis_build(&run.r, NULL, NULL, NULL, 0)))
		goto out;
	if (a->n_derived && a->derived[0].ok)
		*verdict = a->derived[0].verdict;
	cb_analysis_free(a);
	rc = 0;
out:
	run_free(&run);
	return rc;
}

/* The negative control of dependent rounds: the same stop with the
 * confidence sequence that counts every round as independent, as the rule
 * did before it widened for dependence (cb_confseq_median on the per-round
 * log ratios). The derived ratio alone: the two cells' winners group asks
 * the same ratio at the same level, so it is answered with it. */
static int run_independent(const struct draws *d, const struct setting *s, double shift,
                           const struct cb_stop_rule *rule, struct outcome *o)
{
	const double *num = s->cycles ? d->cycles[0] : d->ns[0];
	const double *den = s->cycles ? d->cycles[1] : d->ns[1];
	double *logs = malloc(d->rounds * sizeof *logs),
	       *sorted = malloc(d->rounds * sizeof *sorted);
	double truth = log(1.0 / shift);

	memset(o, 0, sizeof *o);
	if (!logs || !sorted) {
		free(logs);
		free(sorted);
		return -1;
	}
	for (size_t r = 0; r < d->rounds; r++)
		logs[r] = log(den[r]) - log(num[r]);
	for (size_t done = rule->block; done <= d->rounds; done += rule->block) {
		struct cb_stats_interval ci;
		double median;

		memcpy(sorted, logs, done * sizeof *sorted);
		qsort(sorted, done, sizeof *sorted, by_number);
		median =
		    done % 2 ? sorted[done / 2] : (sorted[done / 2 - 1] + sorted[done / 2]) / 2;
		cb_confseq_median(logs, done, 1 - rule->alpha, &ci);
		cb_confseq_hold(&ci, sorted, done, median);
		o->rounds = done;
		o->verdict = cb_ratio_verdict(exp(median), exp(ci.lo), exp(ci.hi), rule->delta);
		o->interval = ci.available;
		o->ratio_covered = ci.available && ci.lo <= truth && truth <= ci.hi;
		if ((o->verdict != CB_RATIO_NOT_RESOLVED && done >= rule->min_rounds) ||
		    done + rule->block > d->rounds)
			break;
	}
	free(logs);
	free(sorted);
	o->ok = true;
	return 0;
}

/* ---- Tallies ---- */

#define FIXED_MAX 50 /* fixed designs of 8, 16, ..., 400 rounds */

struct tally {
	size_t reps, failed;
	size_t dependent; /* the ratio's rounds shown dependent at the stop */
	size_t intervals; /* ... with an interval at the stop */
	size_t wrong;     /* faster, or equivalent: a false verdict where the truth is slower */
	double lag1;      /* mean lag-1 of the ranks of the whole series of log ratios */
	size_t covered, medians, medians_covered;
	size_t different, slower, equivalent, resolved;
	double rounds;
	size_t fixed_slower[FIXED_MAX + 1]; /* at 8 k rounds */
	size_t fixed_equivalent[FIXED_MAX + 1];
};

static double share(size_t part, size_t whole)
{
	return whole ? (double)part / (double)whole : NAN;
}

/* The lag-1 of the ranks of D's per-round log ratios over all its rounds:
 * what the setting puts in the paired series. */
static double series_lag1(const struct draws *d)
{
	double *logs = malloc(d->rounds * sizeof *logs);
	struct cb_dependence dep;

	if (!logs)
		return NAN;
	for (size_t r = 0; r < d->rounds; r++)
		logs[r] = d->cycles[0][r] > 0 ? log(d->cycles[1][r] / d->cycles[0][r])
		                              : log(d->ns[1][r] / d->ns[0][r]);
	cb_dependence_of(logs, d->rounds, &dep);
	free(logs);
	return dep.lag1;
}

/* REPS replications of setting S with num SHIFT times slower, under RULE
 * and DESIGN; FIXED: also the fixed designs (planted change only). */
static void replicate(const struct setting *s, double shift, size_t reps, uint64_t seed,
                      const struct cb_stop_rule *rule, enum design design, bool fixed,
                      struct tally *t)
{
	memset(t, 0, sizeof *t);
	t->reps = reps;
	for (size_t i = 0; i < reps; i++) {
		struct draws d = {0};
		struct outcome o;

		if (draw(s, shift, mix(seed + i), rule->max_rounds, &d) != 0 ||
		    (design == INDEPENDENT
		         ? run_independent(&d, s, shift, rule, &o)
		         : run_sequential(&d, s, shift, rule, design == SEQ, &o)) != 0) {
			t->failed++;
			draws_free(&d);
			continue;
		}
		t->covered += o.ratio_covered;
		t->dependent += o.dependent;
		t->intervals += o.interval;
		t->wrong += o.verdict == CB_RATIO_FASTER || o.verdict == CB_RATIO_EQUIVALENT;
		t->lag1 += series_lag1(&d);
		t->medians += o.medians;
		t->medians_covered += o.medians_covered;
		t->different += o.verdict == CB_RATIO_FASTER || o.verdict == CB_RATIO_SLOWER;
		t->slower += o.verdict == CB_RATIO_SLOWER;
		t->equivalent += o.verdict == CB_RATIO_EQUIVALENT;
		t->resolved += o.verdict != CB_RATIO_NOT_RESOLVED;
		t->rounds += (double)o.rounds;
		for (size_t k = 1; fixed && k <= FIXED_MAX && 8 * k <= rule->max_rounds; k++) {
			enum cb_ratio_verdict v;

			if (run_fixed(&d, 8 * k, &v) != 0)
				t->failed++;
			t->fixed_slower[k] += v == CB_RATIO_SLOWER;
			t->fixed_equivalent[k] += v == CB_RATIO_EQUIVALENT;
		}
		draws_free(&d);
	}
	t->rounds /= (double)(reps - t->failed ? reps - t->failed : 1);
	t->lag1 /= (double)(reps - t->failed ? reps - t->failed : 1);
}

/* The fewest rounds of a fixed design whose rate of COUNT reaches RATE
 * (and is not 0); 0: none up to max_rounds. */
static size_t fixed_rounds_for(const struct tally *t, const size_t *count, double rate,
                               size_t max_rounds)
{
	for (size_t k = 1; k <= FIXED_MAX && 8 * k <= max_rounds; k++)
		if (rate > 0 && share(count[k], t->reps) >= rate)
			return 8 * k;
	return 0;
}

/* ---- The table ---- */

struct row {
	struct tally aa, planted;
	size_t fixed_n;    /* the fixed design with the sequential power */
	size_t fixed_aa_n; /* ... with the sequential rate of equivalence in A/A */
};

static void print_header(void)
{
	printf("# %-16s %-6s %6s %7s %8s %6s %6s %6s %7s %7s %7s %5s %5s %5s %5s\n", "setting",
	       "design", "cover", "c/B med", "A/A diff", "A/A eq", "power", "rounds", "fixed n",
	       "A/A rds", "fixed n", "wrong", "held", "dep", "lag-1");
}

static void print_row(const struct setting *s, const char *design, const struct row *w)
{
	char med[32] = "-", fixed[32] = "-", fixed_aa[32] = "-";

	if (w->aa.medians + w->planted.medians)
		snprintf(med, sizeof med, "%.3f",
		         share(w->aa.medians_covered + w->planted.medians_covered,
		               w->aa.medians + w->planted.medians));
	bool seq = strcmp(design, "seq") == 0;

	if (w->fixed_n || (seq && w->planted.slower))
		snprintf(fixed, sizeof fixed, w->fixed_n ? "%zu" : ">max", w->fixed_n);
	if (w->fixed_aa_n || (seq && w->aa.equivalent))
		snprintf(fixed_aa, sizeof fixed_aa, w->fixed_aa_n ? "%zu" : ">max", w->fixed_aa_n);
	size_t reps = w->aa.reps + w->planted.reps;

	printf("# %-16s %-6s %6.3f %7s %8.3f %6.3f %6.3f %6.1f %7s %7.1f %7s %5.3f %5.3f %5.3f "
	       "%5.2f\n",
	       s->name, design,
	       share(w->aa.covered + w->planted.covered, w->aa.intervals + w->planted.intervals),
	       med, share(w->aa.different, w->aa.reps), share(w->aa.equivalent, w->aa.reps),
	       share(w->planted.slower, w->planted.reps), w->planted.rounds, fixed, w->aa.rounds,
	       fixed_aa, share(w->planted.wrong, w->planted.reps),
	       1 - share(w->aa.intervals + w->planted.intervals, reps),
	       share(w->aa.dependent + w->planted.dependent, reps), w->aa.lag1);
}

/* Under DESIGN, with the fixed designs beside the sequence unless SEQ_ONLY. */
static void measure(const struct setting *s, size_t reps, uint64_t seed,
                    const struct cb_stop_rule *rule, enum design design, bool seq_only,
                    struct row *w)
{
	bool fixed = design == SEQ && !seq_only;

	replicate(s, 1.0, reps, seed, rule, design, fixed, &w->aa);
	replicate(s, SHIFT, reps, seed + 7777777, rule, design, fixed, &w->planted);
	w->fixed_n = w->fixed_aa_n = 0;
	if (fixed) {
		w->fixed_n = fixed_rounds_for(&w->planted, w->planted.fixed_slower,
		                              share(w->planted.slower, reps), rule->max_rounds);
		w->fixed_aa_n = fixed_rounds_for(&w->aa, w->aa.fixed_equivalent,
		                                 share(w->aa.equivalent, reps), rule->max_rounds);
	}
}

/* Settings FIRST..LAST (indices into settings[]); SEQ_ONLY: the sequence
 * alone, without the fixed designs and the negative control. */
static int full(size_t reps, uint64_t seed, size_t first, size_t last, bool seq_only)
{
	struct cb_stop_rule rule;
	struct row w;
	clock_t start = clock();

	cb_stop_defaults(&rule);
	rule.until_resolved = true;
	printf("# %zu replications per setting and design, seed %llu; alpha 5%%, delta 2%%, "
	       "blocks of %zu, %zu to %zu rounds\n",
	       reps, (unsigned long long)seed, rule.block, rule.min_rounds, rule.max_rounds);
	print_header();
	for (size_t i = first; i <= last && i < N_SETTINGS; i++) {
		measure(&settings[i], reps, seed, &rule, SEQ, seq_only, &w);
		print_row(&settings[i], "seq", &w);
		fflush(stdout);
		if (settings[i].own_machine) { /* the rule as it was: rounds independent */
			measure(&settings[i], reps, seed, &rule, INDEPENDENT, true, &w);
			print_row(&settings[i], "indep*", &w);
			fflush(stdout);
		}
		if (seq_only)
			continue;
		measure(&settings[i], reps, seed, &rule, FIXED_LOOKS, true, &w);
		print_row(&settings[i], "fixed*", &w);
		fflush(stdout);
	}
	printf("# cover: the derived ratio's interval holds the truth at the stop (A/A and "
	       "planted, of the runs with an interval); c/B med: the cells' c/B median intervals; "
	       "A/A diff: faster or slower "
	       "called with no change; A/A eq: equivalent called; power: a %.0f%% slower num "
	       "called slower within %zu rounds; rounds: mean rounds to the stop (planted; A/A "
	       "rds for A/A); fixed n: the fewest rounds of one fixed look (fixed-n intervals) "
	       "whose power (A/A: rate of equivalent) reaches the sequential design's. fixed*: the "
	       "fixed-n intervals "
	       "re-checked after every block (the negative control); wrong: the planted change "
	       "called faster or equivalent; held: no interval at the stop (dependence shown, "
	       "too few rounds to size it); dep: the ratio named at the stop (rounds shown "
	       "dependent, or a margin for own slow noise); "
	       "lag-1: the mean lag-1 of the ranks of the A/A log ratios over %zu rounds\n",
	       (SHIFT - 1) * 100, rule.max_rounds, rule.max_rounds);
	printf("# %.0f s of CPU\n", (double)(clock() - start) / CLOCKS_PER_SEC);
	return 0;
}

/* ---- make check: 100 replications ---- */

/* Each engine on its own quiet machine, judged on cycles estimated from
 * time. AR(1) 0.5: the bounds of independent rounds hold (coverage 95%,
 * A/A different at most 5%) and a 5% change is found. AR(1) 0.95 (a lag-1
 * of about 0.27 in the paired series): the rule that counts rounds as
 * independent calls an A/A pair different in most runs (the negative
 * control); with the margin for each side's own slow noise (the sides share
 * little), at most 10% and coverage of 90%, and the report names it
 * (analysis/README.md, "Dependent rounds"). */
static void check_own(uint64_t seed, const struct cb_stop_rule *rule, size_t reps)
{
	const struct setting *ar5 = &settings[QUIET_AR5], *ar95 = &settings[QUIET_AR95];
	struct row w;
	struct tally indep;

	replicate(ar5, 1.0, reps, seed, rule, SEQ, false, &w.aa);
	replicate(ar5, SHIFT, reps, seed + 7777777, rule, SEQ, false, &w.planted);
	w.fixed_n = w.fixed_aa_n = 0;
	print_row(ar5, "seq", &w);
	double cover =
	    share(w.aa.covered + w.planted.covered, w.aa.intervals + w.planted.intervals);
	ok(share(w.aa.different, reps) <= 0.05 && share(w.planted.wrong, reps) <= 0.05,
	   "%s: A/A different in %.1f%%, the change faster or equivalent in %.1f%% (<= 5%%)",
	   ar5->name, share(w.aa.different, reps) * 100, share(w.planted.wrong, reps) * 100);
	ok(cover >= 0.95, "%s: the intervals at the stop cover in %.1f%% (>= 95%%)", ar5->name,
	   cover * 100);
	ok(share(w.planted.slower, reps) >= 0.90, "%s: the change called slower in %.1f%%",
	   ar5->name, share(w.planted.slower, reps) * 100);

	replicate(ar95, 1.0, reps, seed, rule, SEQ, false, &w.aa);
	replicate(ar95, 1.0, reps, seed, rule, INDEPENDENT, false, &indep);
	diag("%s, A/A: different called by the widened sequence in %zu of %zu, by the one that "
	     "counts rounds as independent in %zu; dependence named at the stop in %zu",
	     ar95->name, w.aa.different, reps, indep.different, w.aa.dependent);
	ok(share(indep.different, reps) > 0.40,
	   "negative control: counting the rounds as independent, %s A/A is called different "
	   "in %.1f%% (> 40%%)",
	   ar95->name, share(indep.different, reps) * 100);
	ok(share(w.aa.different, reps) <= 0.10 && share(w.aa.covered, w.aa.intervals) >= 0.90,
	   "with the margin for each side's own slow noise: different in %.1f%% (<= 10%%), "
	   "covered in %.1f%% of %zu intervals (>= 90%%)",
	   share(w.aa.different, reps) * 100, share(w.aa.covered, w.aa.intervals) * 100,
	   w.aa.intervals);
	ok(w.aa.dependent >= reps / 5,
	   "the dependence or the margin named at the stop in %zu of %zu (>= 20%%)", w.aa.dependent,
	   reps);
}

/* The noisy VM: (a), (b), (c) and (e) with the sequence. The very noisy
 * one, A/A, where equivalence within delta is out of reach and every look
 * is another chance of a false "different": the sequence against the
 * fixed-n intervals re-checked at every look. */
static void check(uint64_t seed)
{
	struct cb_stop_rule rule;
	struct row seq;
	struct tally aa_seq, aa_fixed;
	const struct setting *s = &settings[NOISY], *v = &settings[VERY_NOISY];
	size_t reps = 100;

	cb_stop_defaults(&rule);
	rule.until_resolved = true;
	rule.max_rounds = 240;
	measure(s, reps, seed, &rule, SEQ, false, &seq);
	replicate(v, 1.0, reps, seed, &rule, SEQ, false, &aa_seq);
	replicate(v, 1.0, reps, seed, &rule, FIXED_LOOKS, false, &aa_fixed);
	print_header();
	print_row(s, "seq", &seq);
	diag("%s, A/A, up to %zu rounds: different called by the sequence in %zu of %zu, by the "
	     "fixed-n intervals re-checked at every look in %zu",
	     v->name, rule.max_rounds, aa_seq.different, reps, aa_fixed.different);
	is_num(seq.aa.failed + seq.planted.failed + aa_seq.failed + aa_fixed.failed, 0,
	       "every replication ran");
	double cover = share(seq.aa.covered + seq.planted.covered, 2 * reps);
	ok(cover >= 0.93, "(a) the sequence covers the true ratio at the stop in %.1f%% (>= 93%%)",
	   cover * 100);
	ok(share(seq.aa.different, reps) <= 0.06, "(b) A/A: different called in %.1f%% (<= 6%%)",
	   share(seq.aa.different, reps) * 100);
	ok(share(seq.planted.slower, reps) >= 0.85,
	   "(c) a 5%% change called slower in %.1f%% within %zu rounds (>= 85%%)",
	   share(seq.planted.slower, reps) * 100, rule.max_rounds);
	ok(seq.aa.equivalent >= reps * 8 / 10,
	   "A/A answered equivalent in %zu of %zu, after %.0f rounds on average", seq.aa.equivalent,
	   reps, seq.aa.rounds);
	ok(seq.fixed_n > seq.planted.rounds,
	   "(e) one fixed look needs %zu rounds for the sequential power (%.0f%%); the sequence "
	   "stops after %.0f on average",
	   seq.fixed_n, share(seq.planted.slower, reps) * 100, seq.planted.rounds);
	ok(share(aa_seq.different, reps) <= 0.06 && share(aa_seq.covered, reps) >= 0.93,
	   "very noisy A/A: the sequence calls different in %.1f%% (<= 6%%), covers in %.1f%%",
	   share(aa_seq.different, reps) * 100, share(aa_seq.covered, reps) * 100);
	ok(share(aa_fixed.different, reps) > 0.10,
	   "negative control: the fixed-n intervals re-checked after every block call different "
	   "in %.1f%% (> 10%%)",
	   share(aa_fixed.different, reps) * 100);
	check_own(seed, &rule, OWN_REPS);
}

int main(int argc, char **argv)
{
	uint64_t seed = 20260804;

	if (argc > 1 && strcmp(argv[1], "--full") == 0) {
		size_t first = 0, last = N_SETTINGS - 1;

		if (argc > 4 && sscanf(argv[4], "%zu-%zu", &first, &last) < 1)
			return 2;
		if (argc > 4 && !strchr(argv[4], '-'))
			last = first;
		return full(argc > 2 ? strtoul(argv[2], NULL, 0) : 500,
		            argc > 3 ? strtoull(argv[3], NULL, 0) : seed, first, last,
		            argc > 5 && strcmp(argv[5], "seq") == 0);
	}
	tap_plan(14);
	check(seed);
	return tap_done();
}
