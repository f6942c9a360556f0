/* cmd_export.c: cryptobench export — every trial as one row, for R, pandas or
 * a spreadsheet.
 *
 * Streaming: each results file is read one line at a time, and each trial
 * line becomes one row as soon as it is read, so a file of any size takes
 * the memory of one line. The checks are those of the results reader (the
 * first line is a run header of this schema, every line is a JSON object,
 * a trial has a cell, a cut last line is a hard kill and is left out). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "core/results/csv.h"
#include "core/base/errbuf.h"
#include "core/machine/host_id.h"
#include "core/results/lines.h"
#include "core/results/results.h"

static const char export_help[] =
    "usage: cryptobench export FILE|DIR... [--format csv|json] [-o FILE] [--force]\n\n"
    "Write every trial of results files as one row: tidy data for R, pandas or a\n"
    "spreadsheet. A folder stands for its *.jsonl files (*.jsonl.gz and *.jsonl.zst\n"
    "too: gzip and zstd files read as plain ones), in natural order. The\n"
    "columns:\n\n"
    "  host, run       the host's name and the run's id (from the file's header)\n"
    "  engine, label, algorithm, op, mode, size, threads\n"
    "                  the cell (size in bytes)\n"
    "  round, seq      the round, and the trial's place in the run\n"
    "  warmup          true for the warm-up rounds' trials (not in statistics)\n"
    "  calls, bytes    calls made and payload bytes of the whole trial\n"
    "  ns, cpu_ns      wall time and CPU time summed over threads (ns)\n"
    "  cycles          core cycles (counted or estimated)\n"
    "  valid, reason   whether the output was verified, and why not\n"
    "  file            the results file the row comes from\n\n"
    "A value the file does not have is empty in CSV and null in JSON; CSV writes\n"
    "booleans as true and false (as R and pandas read them) and numbers in the\n"
    "fewest digits that read back to the same double.\n\n"
    "  --format F      csv (default; RFC 4180 with LF line ends, one header row)\n"
    "                  or json (an array of objects, one per line)\n"
    "  -o, --output FILE\n"
    "                  write FILE instead of standard output; an existing file\n"
    "                  is refused unless --force is given\n\n"
    "Files are read one line at a time: any size takes little memory. Exit\n"
    "status: 0, 1 when the output cannot be written (a full disk), or 2 for bad\n"
    "input (flags, a file that is not a results file).\n";

enum export_format { EXPORT_CSV, EXPORT_JSON };

static const char *const columns[] = {
    "host", "run",     "engine", "label", "algorithm", "op",    "mode",
    "size", "threads", "round",  "seq",   "warmup",    "calls", "bytes",
    "ns",   "cpu_ns",  "cycles", "valid", "reason",    "file",
};
#define N_COLUMNS (sizeof columns / sizeof *columns)

struct exporter {
	FILE *out;
	enum export_format format;
	unsigned long long rows;
};

/* ---- Writing one row ---- */

/* One value as a CSV field (core/results/csv.h): null, or a value no column
 * expects, is empty. */
static void csv_value(struct cb_csv *w, json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_STRING:
		cb_csv_text(w, json_string_value(v));
		break;
	case JSON_INTEGER:
		cb_csv_integer(w, (long long)json_integer_value(v));
		break;
	case JSON_REAL:
		cb_csv_number(w, json_real_value(v));
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		cb_csv_bool(w, json_is_true(v));
		break;
	default:
		cb_csv_empty(w);
		break;
	}
}

static void write_header(struct exporter *x)
{
	if (x->format == EXPORT_JSON) {
		fputs("[", x->out);
		return;
	}
	struct cb_csv w;

	cb_csv_init(&w, x->out);
	for (size_t i = 0; i < N_COLUMNS; i++)
		cb_csv_text(&w, columns[i]);
	cb_csv_end(&w);
}

static void write_footer(struct exporter *x)
{
	if (x->format == EXPORT_JSON)
		fputs(x->rows ? "\n]\n" : "]\n", x->out);
}

/* ROW holds the columns' values, in order (NULL for absent). */
static void write_row(struct exporter *x, json_t *const row[N_COLUMNS])
{
	if (x->format == EXPORT_CSV) {
		struct cb_csv w;

		cb_csv_init(&w, x->out);
		for (size_t i = 0; i < N_COLUMNS; i++)
			if (row[i])
				csv_value(&w, row[i]);
			else
				cb_csv_empty(&w);
		cb_csv_end(&w);
	} else {
		json_t *obj = json_object();
		char *text;

		for (size_t i = 0; i < N_COLUMNS; i++)
			json_object_set(obj, columns[i], row[i] ? row[i] : json_null());
		text = json_dumps(obj, JSON_COMPACT);
		fprintf(x->out, "%s\n%s", x->rows ? "," : "", text ? text : "{}");
		free(text);
		json_decref(obj);
	}
	x->rows++;
}

/* ---- Reading one file, a line at a time ---- */

struct file_state {
	json_t *host; /* header.host.hostname */
	json_t *run;  /* header.run_id */
	json_t *file; /* the path */
};

static json_t *field(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	return json_is_null(v) ? NULL : v;
}

static int take_header(struct file_state *st, json_t *line, const char *path, char *err,
                       size_t err_len)
{
	const char *type = json_string_value(json_object_get(line, "type"));
	const char *schema = json_string_value(json_object_get(line, "schema"));

	if (!type || strcmp(type, "run") != 0)
		return cb_error_at(err, err_len, path, 1,
		                   "not a cryptobench results file (first line is not a run "
		                   "header)");
	if (!schema || strcmp(schema, CB_SCHEMA) != 0)
		return cb_error_at(err, err_len, path, 1,
		                   "schema '%s' is not one this version reads (%s)",
		                   schema ? schema : "(none)", CB_SCHEMA);
	/* the name given with run --host, else the hostname (host_id.h) */
	st->host = json_string(cb_host_id_name(json_object_get(line, "host")));
	st->run = json_incref(field(line, "run_id"));
	return 0;
}

static int take_trial(struct exporter *x, const struct file_state *st, json_t *line)
{
	json_t *cell = json_object_get(line, "cell"), *row[N_COLUMNS];
	json_t *label;

	if (!json_is_object(cell))
		return -1;
	label = field(cell, "label");
	row[0] = st->host;
	row[1] = st->run;
	row[2] = field(cell, "engine");
	row[3] = label ? label : row[2]; /* no variant: the engine's name */
	row[4] = field(cell, "algorithm");
	row[5] = field(cell, "op");
	row[6] = field(cell, "mode");
	row[7] = field(cell, "size");
	row[8] = field(cell, "threads");
	row[9] = field(line, "round");
	row[10] = field(line, "seq");
	row[11] = field(line, "warmup");
	row[12] = field(line, "calls");
	row[13] = field(line, "bytes");
	row[14] = field(line, "ns");
	row[15] = field(line, "cpu_ns");
	row[16] = field(line, "cycles");
	row[17] = field(line, "valid");
	row[18] = field(line, "error");
	row[19] = st->file;
	if (!row[11]) /* files before warm-up rounds existed: none was one */
		row[11] = json_false();
	write_row(x, row);
	return 0;
}

static int export_line(struct exporter *x, struct file_state *st, json_t *line, const char *path,
                       size_t lineno, char *err, size_t err_len)
{
	const char *type;

	if (!json_is_object(line))
		return cb_error_at(err, err_len, path, lineno, "line is not a JSON object");
	if (lineno == 1)
		return take_header(st, line, path, err, err_len);
	if (!(type = json_string_value(json_object_get(line, "type"))))
		return cb_error_at(err, err_len, path, lineno, "line has no \"type\"");
	if (strcmp(type, "run") == 0)
		return cb_error_at(err, err_len, path, lineno,
		                   "a second run header: two results files joined into one?");
	if (strcmp(type, "trial") == 0 && take_trial(x, st, line) != 0)
		return cb_error_at(err, err_len, path, lineno,
		                   "trial line without a valid \"cell\"");
	return 0;
}

static int export_file(struct exporter *x, const char *path, char *err, size_t err_len)
{
	struct file_state st = {.file = json_string(path)};
	struct cb_lines *f = cb_lines_open(path, CB_RESULTS_MAX_LINE, err, err_len);
	const char *buf;
	size_t n, lineno = 0;
	int rc = 0, got = 0;

	if (!f) {
		json_decref(st.file);
		return -1;
	}
	while (rc == 0 && (got = cb_lines_next(f, &buf, &n)) > 0) {
		int complete = n > 0 && buf[n - 1] == '\n';
		json_error_t jerr;
		json_t *line;

		lineno++;
		if (n == 0 || (n == 1 && complete))
			continue;
		if (!(line = json_loadb(buf, n, JSON_REJECT_DUPLICATES, &jerr))) {
			if (!complete && lineno > 1) {
				/* Cut by a hard kill: what came before counts. */
				fprintf(stderr,
				        "%s:%zu: warning: the last line is cut short (the run "
				        "was killed while writing it); skipped\n",
				        path, lineno);
				break;
			}
			rc = cb_error_at(err, err_len, path, lineno, "%s (column %d): %s",
			                 complete ? "not JSON" : "cut short, not JSON", jerr.column,
			                 jerr.text);
			break;
		}
		rc = export_line(x, &st, line, path, lineno, err, err_len);
		json_decref(line);
	}
	if (rc == 0 && got == -1)
		rc = cb_error_at(err, err_len, path, lineno + 1,
		                 "line longer than %zu MiB: not a results file line",
		                 CB_RESULTS_MAX_LINE >> 20);
	else if (rc == 0 && got == -2)
		rc = cb_error_at(err, err_len, path, lineno + 1, "out of memory");
	else if (rc == 0 && got == -3)
		rc = cb_error_at(err, err_len, path, lineno + 1, "%s", cb_lines_error(f));
	if (rc == 0 && lineno == 0)
		rc = cb_error_at(err, err_len, path, 0, "empty: no run header");
	cb_lines_close(f);
	json_decref(st.host);
	json_decref(st.run);
	json_decref(st.file);
	return rc;
}

/* An operand: a results file, or a folder's results files (cb_folder_results). */
struct operand {
	const char *path;
	char **files; /* a folder's, or NULL for a file */
	long n;
};

/* Find the results files of operand PATH into O, before anything is
 * written: an empty folder is refused with no header printed. 0, or -1
 * with ERR. */
static int find_files(struct operand *o, const char *path, char *err, size_t err_len)
{
	struct stat st;

	o->path = path;
	o->files = NULL;
	o->n = 0;
	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return 0;
	return (o->n = cb_folder_results(path, &o->files, err, err_len)) < 0 ? -1 : 0;
}

static int export_operand(struct exporter *x, const struct operand *o, char *err, size_t err_len)
{
	int rc = 0;

	if (!o->files)
		return export_file(x, o->path, err, err_len);
	for (long i = 0; i < o->n && rc == 0; i++)
		rc = export_file(x, o->files[i], err, err_len);
	return rc;
}

/* ---- The command ---- */

/* The options; the results files are read after the header is written. */
struct export_args {
	int format; /* enum export_format */
	const char *output;
	int force;
	char **inputs; /* argv's operands */
	int n_inputs;
};

static int set_format(void *args, const char *v)
{
	static const char *const names[] = {[EXPORT_CSV] = "csv", [EXPORT_JSON] = "json", NULL};

	return cb_choice_option("export", "format", v, names,
	                        &((struct export_args *)args)->format);
}

static int set_output(void *args, const char *v)
{
	((struct export_args *)args)->output = v;
	return *v ? CB_EXIT_OK : cb_usage_error("export", "-o wants a file name");
}

static int add_input(void *args, const char *path)
{
	struct export_args *a = args;

	a->inputs[a->n_inputs++] = (char *)path;
	return CB_EXIT_OK;
}

static const struct cb_cli_option export_options[] = {
    CB_OPTION_CALL("--format", NULL, set_format),
    CB_OPTION_CALL("--output", "-o", set_output),
    CB_OPTION_FLAG("--force", NULL, struct export_args, force, 1),
    CB_OPTION_END,
};

int cb_cmd_export(int argc, char **argv)
{
	char *inputs[argc];
	struct operand operands[argc];
	struct export_args a = {.format = EXPORT_CSV, .inputs = inputs};
	struct exporter x = {.out = stdout};
	char err[1024], tmp[4200] = "";
	int rc = cb_options_parse("export", export_options, argc, argv, &a, add_input);
	const char *output = a.output;
	int force = a.force, n_inputs = a.n_inputs;

	if (rc == CB_OPTIONS_HELP) {
		fputs(export_help, stdout);
		return CB_EXIT_OK;
	}
	if (rc != CB_EXIT_OK)
		return rc;
	x.format = (enum export_format)a.format;
	if (n_inputs == 0)
		return cb_usage_error("export", "which results file?");
	for (int i = 0; i < n_inputs; i++)
		if (find_files(&operands[i], a.inputs[i], err, sizeof err) != 0) {
			fprintf(stderr, "%s\n", err);
			n_inputs = i;
			rc = CB_EXIT_USAGE;
			goto done;
		}
	if (output) {
		struct stat st;

		if (stat(output, &st) == 0 && (S_ISDIR(st.st_mode) || !force)) {
			rc = cb_usage_error("export",
			                    S_ISDIR(st.st_mode)
			                        ? "%s is a folder; -o wants a file"
			                        : "%s exists: give another -o, or --force to "
			                          "replace it",
			                    output);
			goto done;
		}
		/* Written beside, renamed at the end: a failed export leaves
		 * nothing half-written under the name asked for. */
		snprintf(tmp, sizeof tmp, "%s.part-%ld", output, (long)getpid());
		if (!(x.out = fopen(tmp, "w"))) {
			fprintf(stderr, "%s: cannot create: %s\n", output, strerror(errno));
			rc = CB_EXIT_USAGE;
			goto done;
		}
	}
	write_header(&x);
	for (int i = 0; i < n_inputs && rc == CB_EXIT_OK; i++) {
		if (export_operand(&x, &operands[i], err, sizeof err) != 0) {
			fprintf(stderr, "%s\n", err);
			rc = CB_EXIT_USAGE;
		}
	}
	if (rc == CB_EXIT_OK)
		write_footer(&x);
	if (fflush(x.out) != 0 || ferror(x.out)) {
		fprintf(stderr, "%s: cannot write: %s\n", output ? output : "(standard output)",
		        strerror(errno));
		rc = CB_EXIT_PROBLEM; /* a full disk or a closed pipe */
	}
	if (output) {
		if (fclose(x.out) != 0 && rc == CB_EXIT_OK) {
			fprintf(stderr, "%s: cannot write: %s\n", output, strerror(errno));
			rc = CB_EXIT_PROBLEM;
		}
		if (rc == CB_EXIT_OK && rename(tmp, output) != 0) {
			fprintf(stderr, "%s: cannot create: %s\n", output, strerror(errno));
			rc = CB_EXIT_USAGE;
		}
		if (rc != CB_EXIT_OK)
			unlink(tmp);
		else
			fprintf(stderr, "%s: %llu rows\n", output, x.rows);
	}
done:
	for (int i = 0; i < n_inputs; i++)
		cb_folder_paths_free(operands[i].files, operands[i].n);
	return rc;
}
