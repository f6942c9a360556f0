/* run_oneline.c: a scenario from command-line flags, and --only. */
#include "config.h"

#include "cli/run_oneline.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/algorithms/algorithm.h"
#include "core/engine/engine.h"
#include "core/base/errbuf.h"
#include "core/base/units.h"

int cb_oneline_given(const struct cb_oneline *o)
{
	return o->engines || o->algorithms || o->sizes || o->ops || o->rounds || o->trial_time;
}

/* Names, sizes and durations use only these: nothing to escape in Lua. */
static int plain(const char *text)
{
	return text[0] && strspn(text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	                               "0123456789._-,") == strlen(text);
}

/* "  KEY = { "a", "b" },\n" from "a,b". */
static void write_list(FILE *f, const char *key, const char *list)
{
	fprintf(f, "  %-10s = { ", key);
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");

		if (len)
			fprintf(f, "%s\"%.*s\"", p == list ? "" : ", ", (int)len, p);
		p += len;
		p += *p == ',';
	}
	fputs(" },\n", f);
}

/* Whether every name of the list ALGORITHMS is a public-key algorithm, whose
 * message size hardly matters (a digest of it is signed): such a run may
 * leave --sizes out. An unknown name is not: the scenario's check names it. */
static int all_public_key(const char *algorithms)
{
	for (const char *p = algorithms; *p;) {
		size_t len = strcspn(p, ",");
		char name[64];
		const struct cb_algorithm *alg;

		snprintf(name, sizeof name, "%.*s", (int)len, p);
		if (len && (!(alg = cb_algorithm_find(name)) || !cb_alg_is_pk(alg)))
			return 0;
		p += len;
		p += *p == ',';
	}
	return 1;
}

int cb_oneline_write(const struct cb_oneline *o, char *path, size_t path_len, char *err,
                     size_t err_len)
{
	const char *values[] = {o->engines, o->algorithms, o->sizes,
	                        o->ops,     o->rounds,     o->trial_time};
	const char *names[] = {"--engines", "--algorithms", "--sizes",
	                       "--ops",     "--rounds",     "--trial-time"};
	const char *tmp = getenv("TMPDIR");
	FILE *f;
	int fd;

	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
		if (values[i] && !plain(values[i])) {
			cb_errorf(err, err_len,
			          "%s '%s': names and sizes use letters, digits, '.', '-' "
			          "and '_', separated by commas",
			          names[i], values[i]);
			return -1;
		}
	if (!o->engines || !o->algorithms || (!o->sizes && !all_public_key(o->algorithms))) {
		cb_errorf(
		    err, err_len,
		    "a one-line run needs --engines, --algorithms and --sizes (--sizes may be "
		    "left out when every algorithm is public-key)");
		return -1;
	}
	snprintf(path, path_len, "%s/cryptobench-run-XXXXXX.lua", tmp && *tmp ? tmp : "/tmp");
	if ((fd = mkstemps(path, 4)) < 0 || !(f = fdopen(fd, "w"))) {
		cb_errorf(err, err_len, "%s: cannot write: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	fputs("-- A one-line run: the scenario of cryptobench run", f);
	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
		if (values[i])
			fprintf(f, " %s %s", names[i], values[i]);
	fputs("\nlocal cb = require \"cryptobench\"\n\ncb.scenario {\n", f);
	fputs("  name       = \"one-line\",\n", f);
	write_list(f, "engines", o->engines);
	write_list(f, "algorithms", o->algorithms);
	if (o->ops)
		write_list(f, "ops", o->ops);
	write_list(f, "sizes", o->sizes ? o->sizes : CB_ONELINE_PK_SIZE);
	if (o->rounds)
		fprintf(f, "  rounds     = %s,\n", o->rounds);
	if (o->trial_time)
		fprintf(f, "  trial_time = \"%s\",\n", o->trial_time);
	fputs("}\n", f);
	if (fclose(f) != 0) {
		cb_errorf(err, err_len, "%s: cannot write: %s", path, strerror(errno));
		unlink(path);
		return -1;
	}
	return 0;
}

/* ---- --only ---- */

static const char *const only_keys[] = {"engine", "label", "algorithm", "op", "size", "threads"};
#define N_ONLY_KEYS (sizeof only_keys / sizeof only_keys[0])

static int matches(const struct cb_cell *c, size_t key, const char *value, size_t len)
{
	char text[64], size[32];

	snprintf(text, sizeof text, "%.*s", (int)len, value);
	switch (key) {
	case 0:
		return strcmp(c->variant->engine->name, text) == 0;
	case 1:
		return strcmp(c->variant->label, text) == 0;
	case 2:
		return strcmp(c->alg->name, text) == 0;
	case 3:
		return strcmp(cb_op_name(c->op), text) == 0;
	case 4: {
		size_t bytes;
		return cb_parse_size(text, &bytes) == 0 && bytes == c->size;
	}
	default:
		snprintf(size, sizeof size, "%u", c->threads);
		return strcmp(size, text) == 0;
	}
}

/* SPEC read as (key, value) pairs: "engine=a,b,size=64B" is engine a,
 * engine b, size 64B: a bare value continues the key before it. */
struct only_term {
	size_t key;
	const char *value;
	size_t len;
};

static int parse_spec(const char *spec, struct only_term *terms, size_t max, size_t *n, char *err,
                      size_t err_len)
{
	size_t key = N_ONLY_KEYS;

	*n = 0;
	for (const char *p = spec; *p;) {
		size_t len = strcspn(p, ","), key_len = strcspn(p, "="), value_at = 0;

		if (key_len < len) {
			for (key = 0; key < N_ONLY_KEYS; key++)
				if (key_len == strlen(only_keys[key]) &&
				    strncmp(p, only_keys[key], key_len) == 0)
					break;
			value_at = key_len + 1;
		}
		if (key == N_ONLY_KEYS || value_at >= len || *n == max) {
			snprintf(
			    err, err_len,
			    "--only '%.*s': want KEY=VALUE[,VALUE][,KEY=VALUE]... with KEY one "
			    "of engine, label, algorithm, op, size, threads",
			    (int)len, p);
			return -1;
		}
		terms[(*n)++] = (struct only_term){key, p + value_at, len - value_at};
		p += len;
		p += *p == ',';
	}
	return 0;
}

/* Whether CELL matches every key named (any of its values). */
static int cell_matches(const struct cb_cell *cell, const struct only_term *terms, size_t n)
{
	for (size_t k = 0; k < N_ONLY_KEYS; k++) {
		int named = 0, hit = 0;

		for (size_t i = 0; i < n; i++)
			if (terms[i].key == k) {
				named = 1;
				hit |= matches(cell, k, terms[i].value, terms[i].len);
			}
		if (named && !hit)
			return 0;
	}
	return 1;
}

/* Whether some cell of PLAN has VALUE as its engine's name (KEY 0) or its
 * variant's label (KEY 1). */
static int plan_has(const struct cb_plan *plan, size_t key, const char *value, size_t len)
{
	for (size_t i = 0; i < plan->n_cells; i++)
		if (matches(&plan->cells[i], key, value, len))
			return 1;
	return 0;
}

/* engine= is the engine's name and label= the variant's label, as in
 * cb.derive selectors: a value that is the other key's is said so. A size
 * needs its unit, as in --set sizes=: "size=16384" is refused, not left to
 * match nothing. */
static int check_keys(const struct cb_plan *plan, const struct only_term *terms, size_t n,
                      char *err, size_t err_len)
{
	for (size_t i = 0; i < n; i++) {
		const struct only_term *t = &terms[i];
		size_t other = t->key == 0 ? 1 : 0, bytes;
		char text[64];

		snprintf(text, sizeof text, "%.*s", (int)t->len, t->value);
		if (t->key == 4 && cb_parse_size(text, &bytes) != 0)
			return cb_errorf(err, err_len,
			                 "--only size=%s: not a size (write it like 64B or 16KiB; "
			                 "units: %s)",
			                 text, CB_SIZE_UNITS);
		if (t->key > 1 || plan_has(plan, t->key, t->value, t->len) ||
		    !plan_has(plan, other, t->value, t->len))
			continue;
		return cb_errorf(err, err_len, "--only %s=%.*s: '%.*s' is %s: write %s=%.*s",
		                 only_keys[t->key], (int)t->len, t->value, (int)t->len, t->value,
		                 other == 1 ? "a label" : "an engine", only_keys[other],
		                 (int)t->len, t->value);
	}
	return 0;
}

int cb_plan_only(struct cb_plan *plan, const char *spec, char *err, size_t err_len)
{
	struct only_term terms[64];
	size_t kept = 0, n;

	if (parse_spec(spec, terms, 64, &n, err, err_len) != 0 ||
	    check_keys(plan, terms, n, err, err_len) != 0)
		return -1;
	for (size_t i = 0; i < plan->n_cells; i++)
		if (cell_matches(&plan->cells[i], terms, n)) {
			plan->cells[kept] = plan->cells[i];
			plan->cells[kept].index = kept;
			kept++;
		}
	if (kept == 0) {
		cb_errorf(err, err_len, "--only %s: no cell of the scenario matches", spec);
		return -1;
	}
	plan->n_cells = kept;
	plan->n_slots =
	    (size_t)(plan->scenario->warmup_rounds + cb_scenario_planned_rounds(plan->scenario)) *
	    kept;
	cb_plan_schedule(plan);
	return 0;
}
