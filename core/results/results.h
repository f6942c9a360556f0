/* results.h: the results file, JSON Lines, one file per run.
 *
 *   {"type":"run", ...header...}
 *   {"type":"trial", ...} one per trial, flushed as written
 *   {"type":"skip", ...}  a combination that could not run, with the reason
 *   {"type":"look", ...}  a run until resolved (its header's "stop" holds the
 *                         rule): after each block of rounds, the questions
 *                         still open and which cells are still measured
 *   {"type":"profile", ...} a profiled trial (run --explain): the cell, the
 *                         calls made while the program counter was sampled
 *                         and the profile (core/profile/profile.h) or why
 *                         none could be taken; never a trial, and read by
 *                         no statistic, verdict, plan or stop rule
 *   {"type":"end", ...}   last; "interrupted": true when cut short
 *
 * A look line: "round" (the block's last round, numbered as trial rounds),
 * "elapsed_s" (the run's time so far: wall, or the trials' virtual time on
 * virtual clocks only), the stopping rule's state (the open questions and
 * why each closed cell stopped: analysis/verdicts/stopping.h),
 * "questions_open" (how many) and "measuring" (the keys, as
 * cb_result_cell.key, of the cells still in the rotation; a cell not listed
 * gets no more trials). The end line of such a run has "stop": {"outcome":
 * "resolved" | "max_rounds" | "budget" | "interrupted", "looks", "rounds"
 * (measured rounds at the last look), "open_cells", "questions_open",
 * "elapsed_s"}. Lines of other types are skipped by this reader, so a newer
 * file's new lines do not stop an older reader that knows the same schema.
 *
 * A file without an end line (a hard kill) still reads: every complete line
 * before the cut counts, and the reader says the run was interrupted. A last
 * line cut short (the kill came while it was written) is skipped, and the
 * reader says so (torn_line) for the caller to warn; --resume drops it
 * before appending. Anything else out of place is an error naming the file
 * and line: a line that is not a JSON object or is longer than
 * CB_RESULTS_MAX_LINE, a first line that is not a run header of schema
 * CB_SCHEMA, a second header, a line after the end line other than a resume
 * line, a trial with a missing or ill-typed field, a profile line whose
 * cell is not an object, a trial whose seq does not
 * increase (lines reordered, repeated, or of two runs), or more cells than
 * the header plans. */
#ifndef CB_RESULTS_H
#define CB_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

/* A file's schema is the oldest that describes it: cryptobench/1 for byte
 * cells only, cryptobench/2 when it has public-key cells, whose trials count
 * operations ("ops") where the others count payload bytes ("bytes"). The
 * reader reads both. */
#define CB_SCHEMA "cryptobench/1"
#define CB_SCHEMA_PK "cryptobench/2"
/* The longest line a results file may hold (the header carries the scenario's
 * text, itself at most 16 MiB). */
#define CB_RESULTS_MAX_LINE ((size_t)64 << 20)

/* ---- Writing ---- */

struct cb_writer;

/* Create PATH, empty, so that a path that cannot be written is found before
 * anything is measured. NULL with ERR. */
struct cb_writer *cb_writer_open(const char *path, char *err, size_t err_len);
/* Write HEADER (type "run" and the schema are added) and sync. 0, or -1 with
 * ERR. */
int cb_writer_header(struct cb_writer *w, json_t *header, char *err, size_t err_len);
/* Both: create PATH and write HEADER; on failure no file is left. */
struct cb_writer *cb_writer_create(const char *path, json_t *header, char *err, size_t err_len);
/* Close W and remove its file: for a run that failed before measuring. */
void cb_writer_discard(struct cb_writer *w);
/* Open PATH, an interrupted results file, for appending (--resume): what
 * follows its first KEEP bytes (a line cut short by a hard kill) is dropped,
 * and a missing last newline added. NULL with ERR. */
struct cb_writer *cb_writer_append(const char *path, long long keep, char *err, size_t err_len);
/* Append one line of TYPE ("trial", "skip", "resume", ...) made of OBJ, and
 * flush it. 0 or -1 (errno set). A line that cannot be written whole (the
 * disk is full) is taken back, so the file keeps only whole lines, and every
 * later write fails with the same errno. */
int cb_writer_line(struct cb_writer *w, const char *type, json_t *obj);
/* cb_writer_line, then drop the caller's reference to OBJ (errno kept). */
int cb_writer_line_take(struct cb_writer *w, const char *type, json_t *obj);
/* Make what was written durable (fsync): at every round's end. */
int cb_writer_sync(struct cb_writer *w);
/* Write the end line (OBJ plus type "end"), sync and close. */
int cb_writer_close(struct cb_writer *w, json_t *end);

/* ---- Reading ---- */

/* A cell as read back: what identifies it across files. */
struct cb_result_cell {
	char *engine; /* engine name */
	char *label;  /* variant label (engine name when no variant) */
	char *algorithm;
	char *op;
	uint64_t size;
	unsigned threads;
	char *mode;   /* "message" or "stream" */
	bool ops;     /* a public-key cell: its trials count operations (cb_alg_is_pk) */
	char *key;    /* "label|algorithm|op|size|threads": unique per cell */
	json_t *json; /* the cell object of the first trial seen */
};

/* A trial as read back: what the statistics need, not its whole line (a
 * results file may hold millions of trials). */
struct cb_result_trial {
	size_t line; /* its line in the file */
	uint64_t seq;
	uint64_t calls;
	uint64_t bytes;          /* the trial's work, all threads: payload bytes, or the
	                          * operations of a public-key cell (its "ops") */
	double ns;               /* wall time of the trial */
	double cpu_ns;           /* CPU time summed over threads (or -1) */
	double cycles;           /* core cycles (counted or estimated), or -1 */
	const double *thread_ns; /* each thread's wall time (n_thread_ns of them;
	                          * cells of more than one thread), or NULL */
	const char *error;       /* for invalid trials, or NULL */
	uint32_t cell;           /* index into cb_results.cells */
	uint32_t round;
	uint32_t n_thread_ns;
	uint8_t clock; /* index into cb_results.clocks */
	bool warmup;
	bool valid;
	int16_t layout_stack;      /* bytes its calls' stack was moved down by (trial.h),
	                            * -1: not recorded (layout "run", a worker, older files) */
	int8_t trial_time_reached; /* 1: lasted the run's trial time, 0: fell short,
	                            * -1: not recorded (files before this field) */
};

/* Memory the trials' strings and arrays live in, freed with the results. */
struct cb_results_pool;

struct cb_results {
	char *path;
	const char *compression; /* "gzip", "zstd", or NULL for a plain file */
	json_t *header;          /* the run line */
	int schema;              /* 1 or 2: cryptobench/N */
	json_t *end;             /* the end line, or NULL when the file was cut */
	bool interrupted;        /* end says so, or no end line */
	struct cb_result_cell *cells;
	size_t n_cells;
	struct cb_result_trial *trials;
	size_t n_trials;
	/* The trials' "clock" names, each once; clocks[0] is NULL (no clock). */
	char **clocks;
	size_t n_clocks;
	json_t *skips;            /* array of skip lines */
	json_t *resumes;          /* array of resume lines */
	json_t *looks;            /* array of look lines, in order */
	json_t *profiles;         /* array of profile lines, in order: only the report's
	                           * account of which code ran reads them */
	long long header_cells;   /* the header's "cells", or -1 */
	size_t torn_line;         /* the last line, cut short and skipped (0: none) */
	long long complete_bytes; /* the bytes before it: where --resume appends */
	struct cb_results_pool *pool;
	void *cell_index; /* finding a trial's cell while reading */
};

/* The "clock" of trial T ("virtual", "worker"...), or NULL when it has none. */
static inline const char *cb_results_trial_clock(const struct cb_results *r,
                                                 const struct cb_result_trial *t)
{
	return t->clock < r->n_clocks ? r->clocks[t->clock] : NULL;
}

/* Read PATH (plain, gzip or zstd: its first bytes tell). NULL with
 * "PATH:LINE: message" in ERR when the file is not a results file, has a
 * schema this reader does not know, has a bad line (a torn last line is
 * tolerated: a hard kill leaves one), or its compressed data is corrupt or
 * cut short. Each line's JSON is dropped once its trial is taken. */
struct cb_results *cb_results_read(const char *path, char *err, size_t err_len);
void cb_results_free(struct cb_results *results);

/* Whether trial lines go through the scanner first (results_scan.h; true).
 * False reads every line with jansson: for the test that both read alike. */
extern bool cb_results_scan_lines;

/* HEADER[OBJ][KEY] (or HEADER[KEY] when OBJ is NULL) as a string ("?" when
 * absent) or an integer (0 when absent): the header fields reports print. */
const char *cb_results_header_string(const struct cb_results *r, const char *obj, const char *key);
long long cb_results_header_int(const struct cb_results *r, const char *obj, const char *key);

/* Whether a folder's entry NAME is a results file by its name: *.jsonl,
 * *.jsonl.gz or *.jsonl.zst (not hidden). What it holds is told by its
 * bytes when read. */
bool cb_results_file_name(const char *name);
/* The names a folder scan takes, for messages. */
#define CB_RESULTS_FILE_NAMES "*.jsonl, *.jsonl.gz, *.jsonl.zst"

/* Index of the cell with KEY, or -1. */
long cb_results_find_cell(const struct cb_results *results, const char *key);

#endif
