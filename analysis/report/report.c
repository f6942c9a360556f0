/* report.c: one run at a time: its title, then its sections
 * (report_sections.c), as text, Markdown or HTML (report_csv.c: as CSV,
 * report_json.c: as JSON). */
#include "analysis/report/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats/confseq.h"
#include "analysis/report/tables.h"
#include "analysis/verdicts/hosts.h"
#include "analysis/verdicts/masks.h"
#include "core/base/errbuf.h"
#include "core/base/units.h"

void cb_report_defaults(struct cb_report_options *opt)
{
	opt->format = CB_FORMAT_TEXT;
	opt->statistic = CB_STAT_AUTO;
	opt->table = NULL;
	opt->details = false;
	opt->part = CB_REPORT_ALL;
	opt->explain_figures = NULL;
	opt->explain_figures_arg = NULL;
	cb_summary_defaults(&opt->summary);
	cb_derive_defaults(&opt->derive);
}

/* ---- Text and Markdown ---- */

/* The output mode the scenario gave variant LABEL ("reuse" by default). */
static const char *variant_output(const struct cb_results *r, const char *label)
{
	json_t *variants = json_object_get(json_object_get(r->header, "scenario"), "engines"), *v;
	size_t i;

	json_array_foreach(variants, i, v)
	{
		const char *mode =
		    json_string_value(json_object_get(json_object_get(v, "options"), "output"));

		if (strcmp(json_string_value(json_object_get(v, "label")) ?: "", label) == 0)
			return mode ? mode : "reuse";
	}
	return "reuse";
}

/* What each cell of worker ENGINE (features F) called in its timed loop:
 * its hello's call for the variant's output mode, or the allocating call
 * where the runtime has none writing into a buffer. One line per variant,
 * algorithm and op. */
static void print_worker_calls(FILE *out, const struct cb_results *r, const char *engine, json_t *f)
{
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct cb_result_cell *c = &r->cells[i];
		json_t *by_op = json_object_get(
		    json_object_get(json_object_get(f, "calls"), c->algorithm), c->op);
		const char *mode = variant_output(r, c->label), *api;
		bool seen = false;
		char line[1024];

		if (strcmp(c->engine, engine) != 0 || !by_op)
			continue;
		for (size_t k = 0; k < i && !seen; k++) /* one line for all sizes */
			seen = strcmp(r->cells[k].label, c->label) == 0 &&
			       strcmp(r->cells[k].algorithm, c->algorithm) == 0 &&
			       strcmp(r->cells[k].op, c->op) == 0;
		if (seen)
			continue;
		api = json_string_value(json_object_get(by_op, mode));
		if (!api && strcmp(mode, "reuse") == 0)
			snprintf(line, sizeof line,
			         "%s %s %s: %s (output fresh: no call writes into a buffer)",
			         c->label, c->algorithm, c->op,
			         json_string_value(json_object_get(by_op, "fresh")) ?: "?");
		else
			snprintf(line, sizeof line, "%s %s %s: %s (output %s)", c->label,
			         c->algorithm, c->op, api ? api : "?", mode);
		cb_report_wrapped(out, "  ", line);
	}
}

/* Engines in other processes: which runtime and crypto library ran them,
 * and what each cell's timed loop called. */
static void print_workers(FILE *out, const struct cb_results *r, enum cb_report_format fmt)
{
	json_t *engines = json_object_get(r->header, "engines"), *e;
	size_t i;

	json_array_foreach(engines, i, e)
	{
		json_t *f = json_object_get(e, "features");
		const char *exe = json_string_value(json_object_get(f, "executable"));
		char line[1024];

		if (!json_is_string(json_object_get(f, "runtime")))
			continue;
		snprintf(line, sizeof line, "worker %s: %s%s%s",
		         json_string_value(json_object_get(e, "name")),
		         json_string_value(json_object_get(e, "version")),
		         exe ? "; executable " : "", exe ? exe : "");
		cb_report_wrapped(out, cb_report_lead(fmt), line);
		print_worker_calls(out, r, json_string_value(json_object_get(e, "name")), f);
	}
}

/* The names of ENGINES' other builds whose library's placement is KIND,
 * comma-separated, into BUF; how many; *CROSSING counts those whose code
 * crosses a 16 MiB boundary. */
static size_t placed_as(json_t *engines, const char *kind, char *buf, size_t len, size_t *crossing)
{
	size_t i, n = 0, used = 0;
	json_t *e;

	buf[0] = '\0';
	*crossing = 0;
	json_array_foreach(engines, i, e)
	{
		json_t *lib = json_object_get(e, "library");
		const char *placement = json_string_value(json_object_get(lib, "placement"));

		if (!placement || strcmp(placement, kind) != 0)
			continue;
		*crossing += json_is_true(json_object_get(lib, "crosses_16mib"));
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", n ? ", " : "",
			                         json_string_value(json_object_get(e, "name")));
		n++;
	}
	return n;
}

/* Files with each build's placement (core/builds/placement.h): each in a 2
 * MiB slot of its own, crossing a 16 MiB boundary as the default does; the
 * builds that fell back to the default's address modulo 1 GiB, or were not
 * placed, named. Whether any build says it. */
static bool print_slots(FILE *out, json_t *engines, enum cb_report_format fmt)
{
	char slotted[512], alike[512], kernel[512], line[1800];
	size_t crossing, ignored, used = 0;
	size_t n_slot = placed_as(engines, "slot", slotted, sizeof slotted, &crossing);
	size_t n_alike = placed_as(engines, "alike", alike, sizeof alike, &ignored);
	size_t n_kernel = placed_as(engines, "kernel", kernel, sizeof kernel, &ignored);

	if (n_slot + n_alike + n_kernel == 0)
		return false;
	if (n_slot)
		used = (size_t)snprintf(
		    line, sizeof line,
		    "builds placed apart: each in its own 2 MiB slot, %s across a 16 MiB "
		    "boundary, like the default%s%s",
		    crossing == 0        ? "none"
		    : crossing == n_slot ? "all"
		                         : "each as its default",
		    n_alike ? "; placed alike instead (the default's address modulo 1 GiB, no "
		              "slot left): "
		            : "",
		    n_alike ? alike : "");
	else if (n_alike)
		used = (size_t)snprintf(
		    line, sizeof line,
		    "builds placed alike: at the default's address modulo 1 GiB, no 2 MiB "
		    "slot of their own crossing a 16 MiB boundary as the default does (placed "
		    "alike they can slow each other a little: up to 3%% at small messages)");
	else
		used = (size_t)snprintf(line, sizeof line, "builds not placed like the default");
	if (n_kernel && used < sizeof line)
		used += (size_t)snprintf(line + used, sizeof line - used,
		                         "%s%s, where the kernel put them",
		                         n_slot + n_alike ? "; not placed: " : ": ", kernel);
	if (used < sizeof line)
		snprintf(line + used, sizeof line - used,
		         "; compare the builds with each other, and a difference of a few percent "
		         "over several runs (--runs N, then compare): each process draws the "
		         "place anew");
	cb_report_wrapped(out, cb_report_lead(fmt), line);
	return true;
}

/* Whether the builds were placed like the default (core/builds/placement.h):
 * where a library's code lands moved a cell by up to 5% between processes
 * of one A/A (analysis/README.md, "Two builds of one library: where a
 * build's code lands"). Files from before placement say nothing of it, and
 * files from before slots only whether each build was placed alike. */
static void print_placement(FILE *out, json_t *engines, enum cb_report_format fmt)
{
	char unplaced[1024] = "";
	size_t i, n = 0, known = 0, len = 0;
	json_t *e;

	if (print_slots(out, engines, fmt))
		return;
	json_array_foreach(engines, i, e)
	{
		json_t *placed =
		    json_object_get(json_object_get(e, "library"), "placed_like_default");

		if (!placed)
			continue;
		known++;
		if (json_is_false(placed) && len < sizeof unplaced)
			len += (size_t)snprintf(unplaced + len, sizeof unplaced - len, "%s%s",
			                        n++ ? ", " : "",
			                        json_string_value(json_object_get(e, "name")));
	}
	if (known == 0)
		cb_report_wrapped(
		    out, cb_report_lead(fmt),
		    "builds in one process: one layout of each; a few percent between "
		    "them can be where their code landed, so judge them over several "
		    "runs (--runs N, then compare)");
	else if (n == 0)
		cb_report_wrapped(out, cb_report_lead(fmt),
		                  "builds placed alike: each build's library at the default's "
		                  "address modulo 1 GiB, so compare the builds with each other "
		                  "(placed alike they can slow each other a little, as in an A/A "
		                  "of copies: up to 3% at small messages), and a difference of a "
		                  "few percent over several runs (--runs N, then compare): each "
		                  "process draws the place anew");
	else {
		char line[1400];

		snprintf(
		    line, sizeof line,
		    "builds not placed like the default: %s, where the kernel put them; a few "
		    "percent between builds can be where their code landed, so judge them over "
		    "several runs (--runs N, then compare)",
		    unplaced);
		cb_report_wrapped(out, cb_report_lead(fmt), line);
	}
}

/* When a run holds another build of a library (a variant's lib), every
 * library engine's library, one line each: which build each label ran. */
static void print_builds(FILE *out, const struct cb_results *r, enum cb_report_format fmt)
{
	json_t *engines = json_object_get(r->header, "engines"), *e;
	bool other = false;
	size_t i;

	json_array_foreach(engines, i, e)
	{
		json_t *lib = json_object_get(e, "library");

		other |= lib && json_is_false(json_object_get(lib, "default"));
	}
	if (!other)
		return;
	json_array_foreach(engines, i, e)
	{
		json_t *lib = json_object_get(e, "library");
		const char *build_id = json_string_value(json_object_get(lib, "build_id"));
		const char *code = json_string_value(json_object_get(lib, "engine_code"));
		const char *from = json_string_value(json_object_get(lib, "code_from"));
		char line[2048];

		if (!lib)
			continue;
		snprintf(
		    line, sizeof line,
		    "library of %s%s: %s, %s; sha256 %.16s..., build id %.16s%s%s",
		    json_string_value(json_object_get(e, "name")),
		    !json_is_true(json_object_get(lib, "default")) ? ""
		    : code && strcmp(code, "object") == 0 ? " (linked, through the engine's object)"
		                                          : " (linked)",
		    json_string_value(json_object_get(lib, "path")),
		    json_string_value(json_object_get(lib, "version")),
		    json_string_value(json_object_get(lib, "sha256")),
		    build_id && *build_id ? build_id : "none",
		    build_id && strlen(build_id) > 16 ? "..." : "",
		    from && strcmp(from, "copy") == 0 ? "; its code ran from a copy of the file"
		                                      : "");
		cb_report_wrapped(out, cb_report_lead(fmt), line);
	}
	print_placement(out, engines, fmt);
}

/* Where the run's process found the libraries it linked (the header's
 * placement, cli/run_place.h), said when it matters: a default library's
 * code across a 16 MiB boundary, some cells a few percent slower than in a
 * run where it is not (analysis/README.md, "Two builds of one library:
 * where a build's code lands"), or a process started again to avoid it.
 * Files from before say nothing. */
static void print_default_place(FILE *out, const struct cb_results *r, enum cb_report_format f,
                                char *line, size_t len)
{
	json_t *place = json_object_get(r->header, "placement"), *name;
	json_t *crossing = json_object_get(place, "crossing");
	const char *defaults = json_string_value(json_object_get(place, "defaults"));
	long long tries = json_integer_value(json_object_get(place, "tries"));
	char names[256] = "", why[128];
	size_t i, used = 0;

	if (!defaults || (json_array_size(crossing) == 0 && tries <= 1))
		return;
	json_array_foreach(crossing, i, name)
	{
		if (used < sizeof names)
			used += (size_t)snprintf(names + used, sizeof names - used, "%s%s",
			                         i ? ", " : "", json_string_value(name));
	}
	if (!used) {
		snprintf(line, len,
		         "linked libraries placed: the process started %lld times until no "
		         "default library's code lay across a 16 MiB boundary",
		         tries);
		cb_report_wrapped(out, cb_report_lead(f), line);
		return;
	}
	if (strcmp(defaults, "chosen") == 0)
		snprintf(why, sizeof why, "in each of %lld starts", tries);
	else
		snprintf(why, sizeof why, "%s",
		         strcmp(defaults, "kernel") == 0  ? "run --kernel-place"
		         : strcmp(defaults, "fixed") == 0 ? "address-space randomisation off"
		                                          : "the process could not start again");
	snprintf(line, len,
	         "default library across a 16 MiB boundary: %s (%s); its cells can read a few "
	         "percent slower than in a run where it is not",
	         names, why);
	cb_report_wrapped(out, cb_report_lead(f), line);
}

/* A run made under an emulator (host.virtualization "qemu-user" or
 * "emulated": core/machine/host_arm.h) says so under its host: its timings are
 * the emulator's, whatever its tables show. */
static void print_emulated(FILE *out, const struct cb_results *r, enum cb_report_format f,
                           char *line, size_t len)
{
	const char *virt = cb_results_header_string(r, "host", "virtualization");
	const json_t *kernel = json_object_get(json_object_get(r->header, "host"), "kernel");
	const char *machine = json_string_value(json_object_get(kernel, "machine"));

	if (strcmp(virt, "qemu-user") != 0 && strcmp(virt, "emulated") != 0)
		return;
	snprintf(line, len,
	         "emulated (%s): the timings are the emulator's and say nothing of any %s CPU; "
	         "outputs and known answers are what such a run proves",
	         virt, machine ? machine : "real");
	cb_report_wrapped(out, cb_report_lead(f), line);
}

static void print_title(FILE *out, const struct cb_analysis *a, enum cb_report_format f)
{
	const struct cb_results *r = a->results;
	const char *counter = a->summary->counter;
	char line[1024];

	if (f == CB_FORMAT_HTML) {
		fputs("<h2>", out);
		cb_html_escape(out, r->path);
		fputs(r->interrupted ? " (INTERRUPTED: partial)</h2>\n" : "</h2>\n", out);
	} else
		fprintf(out, "%s%s%s\n", f == CB_FORMAT_MARKDOWN ? "## " : "", r->path,
		        r->interrupted ? " (INTERRUPTED: partial)" : "");
	if (f == CB_FORMAT_MARKDOWN)
		fputc('\n', out);
	snprintf(line, sizeof line, "scenario %s, run %s (run index %lld), started %s",
	         cb_results_header_string(r, "scenario", "name"),
	         cb_results_header_string(r, NULL, "run_id"),
	         cb_results_header_int(r, NULL, "run_index"),
	         cb_results_header_string(r, NULL, "started"));
	cb_report_wrapped(out, cb_report_lead(f), line);
	snprintf(line, sizeof line,
	         "host: %s, %lld logical cores; input %s seed %lld (sha256 %.16s...)",
	         cb_results_header_string(r, "host", "cpu"),
	         cb_results_header_int(r, "host", "logical_cores"),
	         cb_results_header_string(r, "input", "generator"),
	         cb_results_header_int(r, "input", "seed"),
	         cb_results_header_string(r, "input", "sha256"));
	cb_report_wrapped(out, cb_report_lead(f), line);
	print_emulated(out, r, f, line, sizeof line);
	snprintf(line, sizeof line, "order %s (seed %lld), %zu measured rounds; cycles: %s%s",
	         cb_results_header_string(r, NULL, "order"),
	         cb_results_header_int(r, NULL, "order_seed"), a->summary->n_rounds,
	         counter ? counter : "none",
	         a->summary->virtual_clock ? "; clock: virtual (sim engine)" : "");
	cb_report_wrapped(out, cb_report_lead(f), line);
	print_workers(out, r, f);
	print_builds(out, r, f);
	print_default_place(out, r, f, line, sizeof line);
}

/* A run that stopped by its rule: its intervals are not the legend's. */
static void print_sequential(FILE *out, const struct cb_analysis *a, enum cb_report_format f)
{
	if (a->summary->options.sequential && f == CB_FORMAT_HTML)
		fprintf(out,
		        "<p>Intervals: %s at %.0f%%, valid at the round the stop rule stopped at "
		        "(wider than a fixed-round run's fixed-n intervals).</p>\n",
		        cb_confseq_method, a->summary->options.level * 100);
	else if (a->summary->options.sequential)
		fprintf(out,
		        "Intervals: %s at %.0f%%, valid at the round the stop rule stopped\nat "
		        "(wider than a fixed-round run's fixed-n intervals).\n",
		        cb_confseq_method, a->summary->options.level * 100);
}

static void print_legend(FILE *out, const struct cb_report_options *o)
{
	fprintf(out,
	        "\nheadline: the median throughput unless median/min-1 of the time exceeds %.0f%%, "
	        "then the\nminimum time (maximum MB/s), labelled (--statistic chooses). Median "
	        "intervals: exact\ndistribution-free %.0f%% intervals from order statistics. "
	        "MiB/s = 2^20 bytes/s. Robust CV =\n1.4826 MAD/median. Outliers (Tukey fences at "
	        "1.5 and 3 IQR) are counted, never dropped.\n",
	        o->summary.contamination_max * 100, o->summary.level * 100);
	if (!o->details)
		fputs("--details adds the spread of each cell (quantiles, MiB/s, robust CV, "
		      "outliers, drift,\nlag-1, harness share) and names every flagged cell.\n",
		      out);
}

/* ---- Entry ---- */

/* Files of several hosts are reported host by host: FILES in that order
 * into SORTED, each one's host's label into LABELS. */
static int by_host(struct cb_results *const *files, size_t n, struct cb_host **hosts,
                   size_t *n_hosts, struct cb_results **sorted, const char **labels)
{
	size_t i = 0;

	if (cb_hosts_group(files, n, hosts, n_hosts) != 0)
		return -1;
	for (size_t h = 0; h < *n_hosts; h++)
		for (size_t k = 0; k < (*hosts)[h].k; k++, i++) {
			sorted[i] = (*hosts)[h].files[k];
			labels[i] = (*hosts)[h].label;
		}
	return 0;
}

/* The heading of host H before its first run, when there are several. */
static void print_host(FILE *out, const struct cb_host *hosts, size_t n_hosts, size_t i,
                       const struct cb_results *file, enum cb_report_format f)
{
	char title[CB_HOST_LABEL_LEN + 64];

	for (size_t h = 0; n_hosts > 1 && h < n_hosts; h++)
		if (hosts[h].files[0] == file) {
			snprintf(title, sizeof title, "host %s: %zu run%s", hosts[h].label,
			         hosts[h].k, hosts[h].k == 1 ? "" : "s");
			if (i)
				fputc('\n', out);
			if (f == CB_FORMAT_HTML)
				cb_report_heading(out, f, title);
			else
				fprintf(out, "%s%s\n\n", f == CB_FORMAT_MARKDOWN ? "# " : "",
				        title);
		}
}

int cb_report_print(FILE *out, struct cb_results *const *given, size_t n,
                    const struct cb_report_options *o, char *err, size_t err_len)
{
	struct cb_analysis **as = calloc(n ? n : 1, sizeof *as);
	struct cb_results **files = calloc(n ? n : 1, sizeof *files);
	const char **labels = calloc(n ? n : 1, sizeof *labels);
	struct cb_host *hosts = NULL;
	size_t n_hosts = 0;
	enum cb_report_format f = o->format;
	int problems = 0, rc = -1;

	if (!as || !files || !labels || by_host(given, n, &hosts, &n_hosts, files, labels) != 0) {
		cb_errorf(err, err_len, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < n; i++) {
		char why[512];

		if (!(as[i] =
		          cb_analysis_build(files[i], &o->summary, &o->derive, why, sizeof why))) {
			cb_errorf(err, err_len, "%s: %s", files[i]->path, why);
			goto done;
		}
		for (size_t c = 0; c < as[i]->summary->n_cells; c++)
			problems |= as[i]->summary->cells[c].invalid > 0;
	}
	if (f == CB_FORMAT_CSV) {
		cb_report_csv(out, as, n, o);
	} else if (f == CB_FORMAT_JSON) {
		json_t *all = json_array();

		for (size_t i = 0; i < n; i++) {
			json_t *run = cb_report_run_json(as[i], o);

			json_object_set_new(run, "host", json_string(labels[i]));
			json_array_append_new(all, run);
		}
		json_dumpf(all, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', out);
		json_decref(all);
	} else {
		for (size_t i = 0; i < n; i++) {
			if (o->part == CB_REPORT_WINNERS) {
				/* several runs: each table says whose it is */
				if (n > 1 && as[i]->winners)
					cb_report_heading(out, f, files[i]->path);
				cb_report_winners(out, as[i], o);
				continue;
			}
			if (i)
				fputc('\n', out);
			print_host(out, hosts, n_hosts, i, files[i], f);
			print_title(out, as[i], f);
			print_sequential(out, as[i], f);
			for (size_t s = 0; s < cb_n_report_sections; s++) {
				const struct cb_report_section *sec = &cb_report_sections[s];

				if (sec->text && !(o->part == CB_REPORT_NOT_WINNERS && sec->answer))
					sec->text(out, as[i], o);
			}
		}
		if (f == CB_FORMAT_TEXT && o->part != CB_REPORT_WINNERS)
			print_legend(out, o);
	}
	rc = problems;
done:
	for (size_t i = 0; as && i < n; i++)
		cb_analysis_free(as[i]);
	free(as);
	free(files);
	free(labels);
	cb_hosts_group_free(hosts, n_hosts);
	return rc;
}
