/* run_output.c: where a run writes, and what --resume continues. */
#include "cli/run_output.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/results/results.h"

int cb_make_dirs(const char *path)
{
	char buf[4096];

	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(buf, 0777) != 0 && errno != EEXIST)
				return -1;
			*p = '/';
		}
	return mkdir(buf, 0777) == 0 || errno == EEXIST ? 0 : -1;
}

/* Whether PATH names something -o must not replace: an existing file, or a
 * folder with anything in it. */
static int occupied(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	int used = 0;

	if (stat(path, &st) != 0)
		return 0;
	if (!S_ISDIR(st.st_mode))
		return 1;
	if (!(d = opendir(path)))
		return 1;
	while (!used && (e = readdir(d)))
		used = strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return used;
}

/* Refuse an -o that would replace what is there, unless --force. */
int cb_run_check_output(const struct cb_run_args *a, const char *path, int folder)
{
	struct stat st;

	if (!path || !occupied(path))
		return 0;
	if (stat(path, &st) == 0 && !folder != !S_ISDIR(st.st_mode))
		return cb_usage_error("run",
		                      folder ? "%s is a file; with --runs, -o wants a folder"
		                             : "%s is a folder; -o wants a file (or use --runs N)",
		                      path);
	if (a->force)
		return 0;
	return cb_usage_error("run",
	                      folder ? "%s is not empty: give a new folder, or --force to "
	                               "write over its runs"
	                             : "%s exists: give another -o, or --force to replace it",
	                      path);
}

/* results/NAME-YYYYmmdd-HHMMSS plus SUFFIX, made unique with -2, -3, ...
 * and reserved by creating it (a file when SUFFIX is set, else a folder), so
 * two runs started in the same second never share a name. */
int cb_run_default_output(const struct cb_scenario *s, const char *suffix, char *buf, size_t len)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	if (cb_make_dirs("results") != 0)
		return -1;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	for (unsigned k = 1; k < 10000; k++) {
		char tail[16] = "";
		int fd;

		if (k > 1)
			snprintf(tail, sizeof tail, "-%u", k);
		snprintf(buf, len, "results/%s-%s%s%s", s->name, stamp, tail, suffix);
		if (!*suffix) {
			if (mkdir(buf, 0777) == 0)
				return 0;
		} else if ((fd = open(buf, O_WRONLY | O_CREAT | O_EXCL, 0666)) >= 0) {
			close(fd);
			return 0;
		}
		if (errno != EEXIST)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

/* The command that continues PATH: the file (or each file of a --runs
 * folder) records the scenario, its --set values, --quick and --only. */
void cb_run_resume_hint(FILE *out, const char *path)
{
	fputs("cryptobench run --resume ", out);
	cb_shell_word(out, path);
	fputc('\n', out);
}

/* Append "; PATH THEN (this run: NOW)" to OUT for each setting that
 * differs, descending into objects ("params.rounds.value") and into arrays
 * of one length ("engines[1].ns_per_byte"), so that the setting that
 * differs is named and both its values are given in full: two numbers
 * that differ in their 16th digit must not read alike. */
static void describe_difference(const char *path, json_t *then, json_t *now, char *out, size_t len)
{
	char name[256];
	const char *key;
	json_t *value;
	void *tmp;

	if (json_is_object(then) && json_is_object(now)) {
		json_object_foreach_safe(then, tmp, key, value)
		{
			json_t *other = json_object_get(now, key);

			snprintf(name, sizeof name, "%s%s%s", path, *path ? "." : "", key);
			if (!other || !json_equal(value, other))
				describe_difference(name, value, other ? other : json_null(), out,
				                    len);
		}
		json_object_foreach_safe(now, tmp, key, value) if (!json_object_get(then, key))
		{
			snprintf(name, sizeof name, "%s%s%s", path, *path ? "." : "", key);
			describe_difference(name, json_null(), value, out, len);
		}
		return;
	}
	if (json_is_array(then) && json_is_array(now) &&
	    json_array_size(then) == json_array_size(now)) {
		for (size_t i = 0; i < json_array_size(then); i++)
			if (!json_equal(json_array_get(then, i), json_array_get(now, i))) {
				snprintf(name, sizeof name, "%s[%zu]", path, i);
				describe_difference(name, json_array_get(then, i),
				                    json_array_get(now, i), out, len);
			}
		return;
	}
	{
		char *a = json_dumps(then, JSON_COMPACT | JSON_ENCODE_ANY);
		char *b = json_dumps(now, JSON_COMPACT | JSON_ENCODE_ANY);
		size_t used = strlen(out);

		snprintf(out + used, len - used, "%s %s %s (this run: %s)", used ? ";" : "", path,
		         a ? a : "?", b ? b : "?");
		free(a);
		free(b);
	}
}

/* Check that FILE is an interrupted run of this very scenario. */
struct cb_results *cb_run_open_resume(const char *path, const struct cb_scenario *s,
                                      const char *only)
{
	char err[512];
	struct cb_results *old = cb_results_read(path, err, sizeof err);
	json_t *scenario;
	const char *sha;

	if (!old) {
		fprintf(stderr, "%s\n", err);
		return NULL;
	}
	if (old->compression) {
		fprintf(stderr,
		        "%s: a %s-compressed results file cannot be resumed: decompress it first\n",
		        path, old->compression);
		cb_results_free(old);
		return NULL;
	}
	scenario = json_object_get(old->header, "scenario");
	sha = json_string_value(json_object_get(scenario, "sha256"));
	if (!sha || strcmp(sha, s->sha256) != 0) {
		fprintf(stderr,
		        "%s: not a run of %s (the scenario's text differs: sha256 %.12s vs %.12s); "
		        "give no scenario to resume the recorded one\n",
		        path, s->file, sha ? sha : "?", s->sha256);
	} else if (!old->interrupted) {
		fprintf(stderr, "%s: this run is complete; nothing to resume\n", path);
	} else {
		/* Same text, same overrides, same effective settings: the plan and
		 * its schedule are then the same, slot for slot. The path may differ. */
		json_t *now = cb_scenario_to_json(s), *then = json_deep_copy(scenario);
		const char *then_only = json_string_value(json_object_get(old->header, "only"));
		char diff[4096] = "";

		json_object_del(now, "file");
		json_object_del(then, "file");
		json_t *params_then = json_object_get(then, "params"),
		       *params_now = json_object_get(now, "params");

		/* A --set value that differs changes what the script builds from
		 * it (engines, sizes...): name the value given, not what follows. */
		if (params_then && params_now && !json_equal(params_then, params_now))
			describe_difference("params", params_then, params_now, diff, sizeof diff);
		else if (!json_equal(now, then))
			describe_difference("", then, now, diff, sizeof diff);
		else if (strcmp(then_only ? then_only : "", only ? only : "") != 0)
			snprintf(diff, sizeof diff, " only \"%s\" (this run: \"%s\")",
			         then_only ? then_only : "", only ? only : "");
		json_decref(now);
		json_decref(then);
		if (!*diff)
			return old;
		fprintf(stderr,
		        "%s: the interrupted run used other settings:%s; give the same ones "
		        "(--set, --quick, --only, flags)\n",
		        path, diff);
	}
	cb_results_free(old);
	return NULL;
}
