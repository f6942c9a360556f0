/* run_recorded.c: load the scenario a results file records. */
#include "cli/run_recorded.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/errbuf.h"
#include "core/algorithms/input.h"
#include "core/results/results.h"

void cb_recorded_free(struct cb_recorded *rec)
{
	for (size_t i = 0; i < rec->n_overrides; i++) {
		free((char *)rec->overrides[i].key);
		free((char *)rec->overrides[i].value);
	}
	free(rec->overrides);
	free(rec->path);
	free(rec->file);
	free(rec->source);
	free(rec->only);
	memset(rec, 0, sizeof *rec);
}

static char *copy(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* The --set values: the params the header says came from the command line,
 * in their order; --quick is recorded as the param "quick". */
static int read_overrides(json_t *params, struct cb_recorded *rec)
{
	const char *name;
	json_t *p;

	rec->overrides = calloc(json_object_size(params) + 1, sizeof *rec->overrides);
	if (!rec->overrides)
		return -1;
	json_object_foreach(params, name, p)
	{
		const char *from = json_string_value(json_object_get(p, "from"));
		const char *value = json_string_value(json_object_get(p, "value"));

		if (!from || strcmp(from, "command-line") != 0 || !value)
			continue;
		if (strcmp(name, "quick") == 0) {
			rec->quick = true;
			continue;
		}
		struct cb_override *o = &rec->overrides[rec->n_overrides++];
		o->key = strdup(name);
		o->value = strdup(value);
		if (!o->key || !o->value)
			return -1;
	}
	return 0;
}

int cb_recorded_read(const char *path, struct cb_recorded *rec, char *err, size_t err_len)
{
	struct cb_results *r = cb_results_read(path, err, err_len);
	json_t *scenario;
	const char *sha, *source;
	int rc = -1;

	memset(rec, 0, sizeof *rec);
	if (!r)
		return -1;
	scenario = json_object_get(r->header, "scenario");
	sha = json_string_value(json_object_get(scenario, "sha256"));
	source = json_string_value(json_object_get(scenario, "source"));
	if (!sha || strlen(sha) != 64 || !source) {
		cb_errorf(err, err_len,
		          "%s:1: the header does not hold the scenario's text and digest: give the "
		          "scenario too (cryptobench run SCENARIO --resume %s)",
		          path, path);
		goto out;
	}
	memcpy(rec->sha256, sha, 65);
	rec->path = copy(path);
	rec->file = copy(json_string_value(json_object_get(scenario, "file")));
	rec->source = copy(source);
	rec->only = copy(json_string_value(json_object_get(r->header, "only")));
	if (!rec->path || !rec->file || !rec->source ||
	    read_overrides(json_object_get(scenario, "params"), rec) != 0) {
		cb_errorf(err, err_len, "%s: not enough memory", path);
		goto out;
	}
	rc = 0;
out:
	cb_results_free(r);
	if (rc != 0)
		cb_recorded_free(rec);
	return rc;
}

/* Whether PATH holds text whose sha256 is SHA. */
static bool holds(const char *path, const char *sha)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL, digest[65];
	size_t len = 0, cap = 0, n;
	bool same = false;

	if (!f)
		return false;
	do {
		if (len == cap) {
			char *bigger =
			    cap < ((size_t)16 << 20) ? realloc(text, cap = cap * 2 + 4096) : NULL;
			if (!bigger)
				goto out;
			text = bigger;
		}
		n = fread(text + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	cb_sha256_hex((const unsigned char *)text, len, digest);
	same = strcmp(digest, sha) == 0;
out:
	free(text);
	fclose(f);
	return same;
}

/* ERR names TMP where the script's name belongs: put NAME there. */
static void rename_in_error(char *err, size_t err_len, const char *tmp, const char *name)
{
	char *at = strstr(err, tmp);
	char rest[1024];

	if (!at)
		return;
	snprintf(rest, sizeof rest, "%s", at + strlen(tmp));
	snprintf(at, err_len - (size_t)(at - err), "%s%s", name, rest);
}

struct cb_scenario *cb_recorded_load(const struct cb_recorded *rec,
                                     const struct cb_load_options *given, char *err, size_t err_len)
{
	const struct cb_override *extra = given->overrides;
	size_t n_extra = given->n_overrides;
	struct cb_override *all = calloc(rec->n_overrides + n_extra + 1, sizeof *all);
	struct cb_load_options load = {.overrides = all,
	                               .n_overrides = rec->n_overrides + n_extra,
	                               .quick = given->quick || rec->quick,
	                               .budget_s = given->budget_s,
	                               .budget_text = given->budget_text};
	const char *tmpdir = getenv("TMPDIR");
	struct cb_scenario *s = NULL;
	char tmp[4096];
	FILE *f;
	int fd;

	if (!all) {
		cb_errorf(err, err_len, "%s: not enough memory", rec->path);
		return NULL;
	}
	memcpy(all, rec->overrides, rec->n_overrides * sizeof *all);
	if (n_extra)
		memcpy(all + rec->n_overrides, extra, n_extra * sizeof *all);
	if (holds(rec->file, rec->sha256)) {
		s = cb_scenario_load(rec->file, &load, err, err_len);
		free(all);
		return s;
	}
	/* The file is gone or changed: its recorded text, from a temporary file
	 * whose name no message shows. */
	snprintf(tmp, sizeof tmp, "%s/cryptobench-resume-XXXXXX.lua",
	         tmpdir && *tmpdir ? tmpdir : "/tmp");
	if ((fd = mkstemps(tmp, 4)) < 0 || !(f = fdopen(fd, "w"))) {
		cb_errorf(err, err_len, "%s: cannot write: %s", tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		free(all);
		return NULL;
	}
	fputs(rec->source, f);
	if (fclose(f) != 0) {
		cb_errorf(err, err_len, "%s: cannot write: %s", tmp, strerror(errno));
		unlink(tmp);
		free(all);
		return NULL;
	}
	s = cb_scenario_load(tmp, &load, err, err_len);
	unlink(tmp);
	free(all);
	if (!s) {
		rename_in_error(err, err_len, tmp, rec->file);
		return NULL;
	}
	if (strcmp(s->sha256, rec->sha256) != 0) {
		cb_errorf(err, err_len,
		          "%s:1: the recorded text of %s is not the text the run read (it was not "
		          "UTF-8): give the scenario too (cryptobench run %s --resume %s)",
		          rec->path, rec->file, rec->file, rec->path);
		cb_scenario_free(s);
		return NULL;
	}
	char *name = strdup(rec->file);
	if (name) {
		free(s->file);
		s->file = name;
	}
	return s;
}
