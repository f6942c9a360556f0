/* test_results.c: the results file survives what happens to real runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/results/results.h"
#include "tests/tap.h"

static char path[] = "/tmp/cb-test-results-XXXXXX";

static void write_file(const char *text)
{
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
}

#define HEADER "{\"type\":\"run\",\"schema\":\"cryptobench/1\",\"run_id\":\"ab\"}\n"
#define TRIAL(seq, valid)                                                                          \
	"{\"type\":\"trial\",\"round\":0,\"seq\":" #seq                                            \
	",\"cell\":{\"engine\":\"sim\",\"label\":\"sim\","                                         \
	"\"algorithm\":\"sha256\",\"op\":\"hash\",\"size\":64,\"threads\":1,\"mode\":\"message\"}" \
	","                                                                                        \
	"\"warmup\":false,\"calls\":10,\"bytes\":640,\"valid\":" #valid ",\"ns\":1000}\n"

int main(void)
{
	char err[512];
	struct cb_results *r;
	int fd = mkstemp(path);

	close(fd);

	write_file(HEADER TRIAL(0, true)
	               TRIAL(1, false) "{\"type\":\"end\",\"interrupted\":false}\n");
	r = cb_results_read(path, err, sizeof err);
	ok(r != NULL, "a complete file reads");
	if (r) {
		is_num(r->n_trials, 2, "two trials");
		is_num(r->n_cells, 1, "one cell, seen twice");
		ok(r->trials[0].valid && !r->trials[1].valid, "validity is kept");
		ok(!r->interrupted, "complete: not interrupted");
		is_str(r->cells[0].key, "sim|sha256|hash|64|1", "the cell key");
		cb_results_free(r);
	}

	/* A hard kill: no end line, and the last line cut in the middle. */
	write_file(HEADER TRIAL(0, true) "{\"type\":\"trial\",\"round\":0,\"se");
	r = cb_results_read(path, err, sizeof err);
	ok(r != NULL, "a file cut mid-line reads: %s", r ? "" : err);
	if (r) {
		is_num(r->n_trials, 1, "the complete trial is kept");
		ok(r->interrupted, "no end line: interrupted");
		cb_results_free(r);
	}

	/* Ctrl-C, then --resume: the last end line counts. */
	write_file(HEADER TRIAL(0, true) "{\"type\":\"end\",\"interrupted\":true}\n"
	                                 "{\"type\":\"resume\",\"trials_before\":1}\n" TRIAL(
	                                     1, true) "{\"type\":\"end\",\"interrupted\":false}\n");
	r = cb_results_read(path, err, sizeof err);
	ok(r != NULL, "a resumed file reads");
	if (r) {
		is_num(r->n_trials, 2, "trials from before and after the resume");
		ok(!r->interrupted, "the last end line counts: complete");
		is_num(json_array_size(r->resumes), 1, "the resume is recorded");
		cb_results_free(r);
	}

	/* A run until resolved: its looks are kept in order, a torn look dropped. */
	write_file(HEADER TRIAL(0, true) "{\"type\":\"look\",\"round\":0,\"measuring\":[]}\n" TRIAL(
	    1, true) "{\"type\":\"look\",\"round\":1}\n{\"type\":\"look\",\"rou");
	r = cb_results_read(path, err, sizeof err);
	ok(r != NULL, "a file with look lines reads: %s", r ? "" : err);
	if (r) {
		is_num(json_array_size(r->looks), 2, "both whole looks are kept");
		is_num(json_integer_value(json_object_get(json_array_get(r->looks, 1), "round")), 1,
		       "in the order written");
		is_num(r->n_trials, 2, "the trials between them too");
		cb_results_free(r);
	}
	write_file(HEADER TRIAL(0, true) "{\"type\":\"look\",\"round\":-1}\n");
	r = cb_results_read(path, err, sizeof err);
	ok(r == NULL && strstr(err, ":3:") && strstr(err, "look"),
	   "a look without a whole round is an error at its line: %s", r ? "read" : err);

	write_file("{\"type\":\"run\",\"schema\":\"cryptobench/3\"}\n");
	r = cb_results_read(path, err, sizeof err);
	ok(r == NULL && strstr(err, "cryptobench/3") && strstr(err, ":1:"),
	   "an unknown schema is refused with file:line: %s", err);

	write_file(HEADER "not json\n" TRIAL(0, true));
	r = cb_results_read(path, err, sizeof err);
	ok(r == NULL && strstr(err, ":2:"), "a bad line in the middle is an error at its line: %s",
	   err);

	write_file(HEADER HEADER);
	r = cb_results_read(path, err, sizeof err);
	ok(r == NULL && strstr(err, "second run header"), "two files joined are refused: %s", err);

	write_file("");
	r = cb_results_read(path, err, sizeof err);
	ok(r == NULL, "an empty file is refused: %s", err);

	unlink(path);
	return tap_done();
}
