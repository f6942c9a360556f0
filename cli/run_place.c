/* run_place.c: the default builds' place, chosen by starting the process
 * again (run_place.h). */
#include "config.h"

#include "cli/run_place.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <unistd.h>

#include "core/builds/code_copy.h"
#include "core/builds/libbuild.h"
#include "core/engine/worker.h"

#define TRY_VARIABLE "CRYPTOBENCH_PLACEMENT_TRY"
#define TEST_VARIABLE "CRYPTOBENCH_PLACEMENT_TEST_CROSS"
#define NO_TEST UINT_MAX

/* How many processes a run may start, the first included. A start's
 * default libraries cross with a probability of about 1/8 for libcrypto
 * alone (its 2.5 MiB of code lie in a 2 MiB-aligned mapping: one base of
 * eight within 16 MiB) and 0.18 for the seven libraries together (28 and
 * 35 of 200 processes: analysis/README.md), each start drawn anew. After 6
 * starts one run in 260,000 (libcrypto) or about 30,000 (all seven) still
 * crosses, and says so; a start costs a tenth of a second or so (the
 * scenario loaded again), and 1.1-1.2 starts were needed on average. */
#define CB_RUN_PLACE_TRIES 6

/* A count from the environment variable NAME: FALLBACK when it is unset
 * or not a number. */
static unsigned count_of(const char *name, unsigned fallback)
{
	const char *text = getenv(name);
	char *end;
	unsigned long n;

	if (!text || !*text)
		return fallback;
	errno = 0;
	n = strtoul(text, &end, 10);
	return *end || errno || n > 1000 ? fallback : (unsigned)n;
}

unsigned cb_run_place_try(void)
{
	unsigned k = count_of(TRY_VARIABLE, 1);

	return k < 1 ? 1 : k > CB_RUN_PLACE_TRIES ? CB_RUN_PLACE_TRIES : k;
}

static bool listed(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return false;
}

/* The default library of each in-process library engine of PLAN's cells,
 * once each, into PLACE: whether its code crosses, or the test's answer
 * for try TRY. */
static void check_defaults(const struct cb_plan *plan, unsigned try, struct cb_run_place *place)
{
	unsigned test_tries = count_of(TEST_VARIABLE, NO_TEST);

	for (size_t i = 0; i < plan->n_cells; i++) {
		const struct cb_variant *v = plan->cells[i].variant;
		struct cb_libbuild_default d;

		if (v->config.in_worker || !cb_libbuild_default_of(v->engine, &d) ||
		    listed(place->checked, place->n_checked, d.engine) ||
		    place->n_checked == CB_RUN_PLACE_MAX_LIBRARIES)
			continue;
		place->checked[place->n_checked++] = d.engine;
		if (test_tries == NO_TEST ? d.crosses : try <= test_tries)
			place->crossing[place->n_crossing++] = d.engine;
	}
}

/* Whether a new process would land elsewhere: address-space randomisation
 * on, system-wide and for this process (setarch -R turns it off). */
static bool randomised(void)
{
	FILE *f = fopen("/proc/sys/kernel/randomize_va_space", "re");
	int level = 2, persona = personality(0xffffffff);

	if (f) {
		if (fscanf(f, "%d", &level) != 1)
			level = 2; /* unreadable: the kernel's default */
		fclose(f);
	}
	return level != 0 && (persona == -1 || !(persona & ADDR_NO_RANDOMIZE));
}

/* This program again, from its start, as try NEXT: returns only when it
 * cannot be started, with the environment as it was. */
static void start_again(int argc, char **argv, unsigned next)
{
	char **again = calloc((size_t)argc + 2, sizeof *again);
	char text[16];
	int saved;

	if (!again) {
		fprintf(stderr, "warning: cannot start again: out of memory\n");
		return;
	}
	again[0] = program_invocation_name;
	memcpy(again + 1, argv, (size_t)argc * sizeof *argv);
	snprintf(text, sizeof text, "%u", next);
	setenv(TRY_VARIABLE, text, 1);
	cb_workers_stop();     /* any a probe started: the new process starts its own */
	cb_code_copy_remove(); /* and its copies of the builds' files */
	fflush(NULL);
	execv("/proc/self/exe", again);
	saved = errno;
	free(again);
	fprintf(stderr, "warning: cannot start again (/proc/self/exe: %s)\n", strerror(saved));
}

/* Why a default library still crosses, on stderr. */
static void say_crossing(const struct cb_run_place *place)
{
	char names[256], why[128];
	size_t used = 0;

	names[0] = '\0';
	for (size_t i = 0; i < place->n_crossing && used < sizeof names; i++)
		used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
		                         place->crossing[i]);
	if (strcmp(place->defaults, "chosen") == 0)
		snprintf(why, sizeof why, "in each of %u starts", place->tries);
	else
		snprintf(why, sizeof why, "%s",
		         strcmp(place->defaults, "kernel") == 0 ? "where the kernel put it"
		         : strcmp(place->defaults, "fixed") == 0
		             ? "address-space randomisation is off: every start lands alike"
		             : "this program could not start again");
	fprintf(stderr,
	        "note: the default library of %s has its code across a 16 MiB boundary (%s); "
	        "its cells can read a few percent slower than in a run where it does not\n",
	        names, why);
}

void cb_run_place_defaults(const struct cb_plan *plan, bool kernel_place, int argc, char **argv,
                           volatile sig_atomic_t *stop, struct cb_run_place *place)
{
	unsigned try = cb_run_place_try();

	memset(place, 0, sizeof *place);
	place->max_tries = CB_RUN_PLACE_TRIES;
	place->tries = kernel_place ? 0 : try;
	place->defaults = kernel_place ? "kernel" : "chosen";
	check_defaults(plan, try, place);
	/* Interrupted already: the run stops before its first trial. */
	if (!kernel_place && place->n_crossing && try < place->max_tries && !*stop) {
		if (!randomised())
			place->defaults = "fixed";
		else {
			start_again(argc, argv, try + 1);
			place->defaults = "exec_failed";
		}
	}
	unsetenv(TRY_VARIABLE); /* this process measures: nothing it starts is a try */
	if (place->n_crossing && !*stop)
		say_crossing(place);
}

json_t *cb_run_place_json(const struct cb_run_place *place)
{
	json_t *checked = json_array(), *crossing = json_array();

	for (size_t i = 0; i < place->n_checked; i++)
		json_array_append_new(checked, json_string(place->checked[i]));
	for (size_t i = 0; i < place->n_crossing; i++)
		json_array_append_new(crossing, json_string(place->crossing[i]));
	return json_pack("{s:s, s:i, s:i, s:o, s:o}", "defaults", place->defaults, "tries",
	                 (int)place->tries, "max_tries", (int)place->max_tries, "checked", checked,
	                 "crossing", crossing);
}
