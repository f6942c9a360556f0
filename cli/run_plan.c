/* run_plan.c: what a run will do, before it does it (run --dry-run). */
#include "config.h"

#include "cli/run_plan.h"

#include "core/algorithms/algorithm.h"
#include "core/engine/engine.h"
#include "core/base/units.h"
#include "core/run/explain.h"

/* The calibration aims 10% past the trial time (runner.c). */
#define TRIAL_OVERSHOOT 1.1
/* The samples a profiled trial in this process gets per second of CPU time,
 * at most: its timer counts CPU time, which the kernel checks at its
 * scheduler tick, so a rate above the tick gives one sample per tick
 * (core/profile/sampler.h). Debian's kernels tick at 250 Hz; openssl's
 * SHA-256 in process got 309 samples in 1.12 s of CPU at the default 1000 Hz
 * on an AMD EPYC (Zen 4). The ptrace sampler of workers reads the CPU time
 * itself and got 500 to 900 per CPU-second there: for them the estimate is an
 * upper bound. */
#define EXPLAIN_TICK_HZ 250.0

/* The samples per CPU-second profiled trials of PLAN are expected to get. */
static double explain_rate(const struct cb_plan *plan)
{
	double asked = plan->scenario->explain.rate_hz > 0 ? plan->scenario->explain.rate_hz
	                                                   : CB_EXPLAIN_RATE_HZ;

	return asked < EXPLAIN_TICK_HZ ? asked : EXPLAIN_TICK_HZ;
}

struct cb_run_estimate cb_run_estimate(const struct cb_plan *plan)
{
	const struct cb_scenario *s = plan->scenario;
	double trial_s = TRIAL_OVERSHOOT * (double)s->trial_time_ns / 1e9;
	struct cb_run_estimate e = {.trials_s = trial_s * (double)plan->n_slots,
	                            .calibration_s = trial_s * (double)plan->n_cells};

	if (s->explain.samples) {
		/* the samples at the rate they come, within the cap of CPU time, and
		 * never less than the first trial (the cell's calibrated calls) */
		double cap_s = (double)CB_EXPLAIN_CAP_NS / 1e9;
		double cell_s = (double)s->explain.samples / explain_rate(plan);

		e.explain_cell_s = cell_s < cap_s ? cell_s : cap_s;
		if (e.explain_cell_s < trial_s)
			e.explain_cell_s = trial_s;
		e.explain_s = e.explain_cell_s * (double)plan->n_cells;
	}
	e.total_s = e.trials_s + e.calibration_s + e.explain_s;
	return e;
}

const char *cb_format_duration(double s, char buf[32])
{
	long whole = (long)(s + 0.5);

	if (whole >= 3600)
		snprintf(buf, 32, "%ldh %02ldm", whole / 3600, whole / 60 % 60);
	else if (whole >= 60)
		snprintf(buf, 32, "%ldm %02lds", whole / 60, whole % 60);
	else if (s >= 10)
		snprintf(buf, 32, "%lds", whole);
	else if (s >= 0.1)
		snprintf(buf, 32, "%.2fs", s);
	else
		snprintf(buf, 32, "%.0fms", s * 1e3);
	return buf;
}

/* The variables each variant with env runs under: a mask a scenario chose by
 * the machine (cb.host) shows before anything runs. */
static void print_environments(FILE *out, const struct cb_scenario *s)
{
	bool any = false;

	for (size_t v = 0; v < s->n_variants; v++) {
		char **env = s->variants[v].env;

		if (!env || !env[0])
			continue;
		if (!any)
			fputs("\nenvironments:\n", out);
		any = true;
		fprintf(out, "  %-20s", s->variants[v].label);
		for (size_t i = 0; env[i]; i++)
			fprintf(out, " %s", env[i]);
		fputc('\n', out);
	}
}

void cb_run_plan_print(FILE *out, const struct cb_plan *plan, unsigned runs)
{
	const struct cb_scenario *s = plan->scenario;
	struct cb_run_estimate e = cb_run_estimate(plan);
	char a[32], b[32], c[32], size[32];

	fprintf(out, "plan of %s (%s)\n", s->name, s->file);
	if (cb_scenario_sequential(s))
		fprintf(
		    out,
		    "  %zu cells x (%u rounds, then blocks of %u until resolved, at most %u; + %u "
		    "warm-up) = at most %zu trials per run, %s order%s%s\n",
		    plan->n_cells, cb_scenario_first_look(s), s->stop.block,
		    cb_scenario_planned_rounds(s), s->warmup_rounds, plan->n_slots,
		    cb_order_name(s->order), s->stop.budget_s > 0 ? ", budget " : "",
		    s->stop.budget_s > 0 ? cb_format_duration(s->stop.budget_s, a) : "");
	else
		fprintf(out,
		        "  %zu cells x (%u rounds + %u warm-up) = %zu trials per run, %s order\n",
		        plan->n_cells, s->rounds, s->warmup_rounds, plan->n_slots,
		        cb_order_name(s->order));
	fprintf(out, "  trial time %s (calibrated per cell)\n",
	        cb_format_duration((double)s->trial_time_ns / 1e9, a));
	fprintf(out, "  estimated duration: %s per run (trials %s, calibration %s",
	        cb_format_duration(e.total_s, a), cb_format_duration(e.trials_s, b),
	        cb_format_duration(e.calibration_s, c));
	if (s->explain.samples)
		fprintf(out, ", profiled trials %s", cb_format_duration(e.explain_s, a));
	fputc(')', out);
	if (runs > 1)
		fprintf(out, ", %s for %u runs", cb_format_duration(e.total_s * runs, a), runs);
	fputc('\n', out);
	if (s->explain.samples)
		fprintf(out,
		        "  profiled trials (explain): %zu cells x %s: %u samples per cell at about "
		        "%.0f per CPU-second,\n"
		        "    at most %s of CPU per cell (workers' samples come faster; a busy "
		        "machine's wall time\n"
		        "    and building the profiles come on top)\n",
		        plan->n_cells, cb_format_duration(e.explain_cell_s, a), s->explain.samples,
		        explain_rate(plan), cb_format_duration((double)CB_EXPLAIN_CAP_NS / 1e9, b));
	fputs("\ncells:\n", out);
	fprintf(out, "  %-20s %-18s %-15s %8s %7s\n", "engine", "algorithm", "op", "size",
	        "threads");
	for (size_t i = 0; i < plan->n_cells; i++) {
		const struct cb_cell *cell = &plan->cells[i];

		fprintf(out, "  %-20s %-18s %-15s %8s %7u\n", cell->variant->label, cell->alg->name,
		        cb_op_name(cell->op), cb_format_size(cell->size, size), cell->threads);
	}
	if (plan->n_skips)
		fputs("\nskipped:\n", out);
	for (size_t i = 0; i < plan->n_skips; i++)
		fprintf(out, "  %s %s %s: %s\n", plan->skips[i].variant->label,
		        plan->skips[i].alg->name, cb_op_name(plan->skips[i].op),
		        plan->skips[i].reason);
	print_environments(out, s);
}
