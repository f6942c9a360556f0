/* test_results_scan.c: the trial-line scanner (core/results/results_scan.h) reads
 * every line as jansson does, or leaves it to jansson.
 *
 * Each variant of a trial line, written by hand (escapes, keys given twice,
 * numbers jansson refuses, fields of the wrong type, nested values...) or by
 * mutating bytes of a real line at random, goes in the middle of a small
 * results file. The file is read twice, with the scanner and with jansson
 * alone (cb_results_scan_lines false): both reads must fail with the same
 * message, or both give the same trials, field by field, to the bit. A
 * count of the variants the scanner took shows that it was exercised. The
 * seed is printed first and taken back as argv[1]. */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/results/results.h"
#include "core/results/results_scan.h"
#include "tests/tap.h"

#define DEFAULT_SEED 20261130UL
#define RANDOM_VARIANTS 3000

static char path[] = "/tmp/cb-test-scan-XXXXXX";

#define HEADER "{\"type\":\"run\",\"schema\":\"cryptobench/1\",\"run_id\":\"ab\"}\n"
#define CELL                                                                                       \
	"\"cell\":{\"engine\":\"sim\",\"label\":\"sim-a\",\"algorithm\":\"sha256\",\"op\":"        \
	"\"hash\","                                                                                \
	"\"size\":64,\"threads\":2,\"mode\":\"message\"}"
#define FIRST                                                                                      \
	"{\"type\":\"trial\",\"round\":0,\"seq\":1," CELL                                          \
	",\"warmup\":true,\"calls\":10,\"bytes\":"                                                 \
	"640,\"valid\":true,\"ns\":1000,\"clock\":\"virtual\"}\n"
#define LAST                                                                                       \
	"{\"type\":\"trial\",\"round\":1,\"seq\":9," CELL                                          \
	",\"warmup\":false,\"calls\":10,\"bytes\":"                                                \
	"640,\"valid\":true,\"ns\":1100,\"clock\":\"virtual\"}\n"
#define END "{\"type\":\"end\",\"interrupted\":false}\n"
/* A look of a run until resolved (results.h): read by jansson alone. */
#define LOOK                                                                                       \
	"{\"type\":\"look\",\"round\":1,\"elapsed_s\":0.25,\"questions_open\":1,"                  \
	"\"measuring\":[\"sim-a|sha256|hash|64|2\"]}\n"

/* A line as the sim writes it: what the random variants start from. */
static const char base[] =
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"warmup\":false,\"calls\":8194,"
    "\"bytes\":262208,\"valid\":true,\"ns\":1100162,\"trial_time_reached\":true,"
    "\"layout\":{\"stack\":2064,\"out\":960},\"clock\":"
    "\"virtual\",\"cycles\":1100162.5,\"cpu_ns\":2.25e6,\"thread_ns\":[1100162,1054647.5],"
    "\"output\":\"62edceba92e4cb04\",\"output_sha256\":\"f5a996c22c0b16f82571fc147df093b5\"}";

/* Lines written by hand: each what the scanner must take as jansson does,
 * or leave to it. */
static const char *const hand[] = {
    base,
    /* a look line with a trial's fields: not the scanner's (it is no trial) */
    "{\"type\":\"look\",\"round\":0,\"seq\":3," CELL ",\"valid\":true,\"ns\":5}",
    "{\"type\":\"look\",\"round\":\"1\"}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":false,\"error\":\"no key\"}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL
    ",\"valid\":false,\"error\":5,\"clock\":null}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":true,\"ns\":5,\"ns\":6}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":true,\"ns\":5,\"x\":1,\"x\":2}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":true,\"ns\":-1}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":true,\"ns\":-0.0}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":false,\"ns\":-0}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":true,\"ns\":1e400}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":true,\"ns\":1e-400}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":true,\"ns\":0.1e1}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":true,\"ns\":012}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":true,\"ns\":1.}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":true,\"ns\":.5}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":true,\"ns\":\"5\"}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":true,\"ns\":null}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3.0," CELL ",\"valid\":true,\"ns\":5}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":8999999999999999999," CELL ",\"valid\":true,\"ns\":5}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":99999999999999999999," CELL
    ",\"valid\":true,\"ns\":5}",
    "{\"type\":\"trial\",\"round\":4294967296,\"seq\":3," CELL ",\"valid\":true,\"ns\":5}",
    "{\"type\":\"trial\",\"round\":0," CELL ",\"valid\":true,\"ns\":5}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"ns\":5}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":1,\"ns\":5}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":true,\"ns\":5,\"warmup\":1}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":true,\"ns\":5,"
    "\"trial_time_reached\":\"yes\"}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":true,\"ns\":5,\"o\":{\"a\":1}}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":true,\"ns\":5,\"o\":[[1]]}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL
    ",\"valid\":true,\"ns\":5,\"o\":[1,\"a\",null]}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":true,\"ns\":5,\"thread_ns\":[]}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":true,\"ns\":5,\"thread_ns\":[1,"
    "\"x\"]}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":true,\"ns\":5,\"thread_ns\":7}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL
    ",\"valid\":true,\"ns\":5,\"s\":\"a\\u0041\"}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL
    ",\"valid\":true,\"ns\":5,\"s\":\"\xc3\xa9\"}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":true,\"ns\":5,\"s\":\"\xff\"}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":true,\"ns\":5,\"s\":\"a\tb\"}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":true,\"ns\":5} x",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":true,\"ns\":5}{}",
    " \t{ \"type\" : \"trial\" , \"round\" :0,\"seq\":3 ," CELL ",\"valid\":true,\"ns\":5 } \r",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3,\"cell\":{\"engine\":\"sim\",\"label\":"
    "\"sim\\u002da\","
    "\"algorithm\":\"sha256\",\"op\":\"hash\",\"size\":64,\"threads\":2},\"valid\":true,\"ns\":5}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3,\"cell\":{\"engine\":\"sim\",\"label\":\"sim-a\","
    "\"algorithm\":\"sha256\",\"op\":\"hash\",\"size\":64,\"threads\":2,\"size\":64},\"valid\":"
    "true,"
    "\"ns\":5}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3,\"cell\":{\"engine\":\"sim\",\"label\":\"sim-a\","
    "\"algorithm\":\"sha256\",\"op\":\"hash\",\"size\":64,\"threads\":0},\"valid\":true,\"ns\":5}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3,\"cell\":{\"engine\":\"sim\",\"label\":\"sim-a\","
    "\"algorithm\":\"sha256\",\"op\":\"hash\",\"size\":0},\"valid\":true,\"ns\":5}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3,\"cell\":{\"engine\":\"sim\",\"label\":\"sim-a\","
    "\"algorithm\":\"sha256\",\"op\":\"hash\",\"size\":64},\"valid\":true,\"ns\":5}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3,\"cell\":{\"engine\":\"sim\",\"label\":\"sim-b\","
    "\"algorithm\":\"sha256\",\"op\":\"hash\",\"size\":64,\"threads\":2},\"valid\":true,\"ns\":5}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3,\"cell\":{\"engine\":\"sim\",\"label\":\"sim-a\","
    "\"algorithm\":\"sha256\",\"op\":\"hash\",\"size\":64,\"threads\":2,\"mode\":7},\"valid\":true,"
    "\"ns\":5}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3,\"cell\":{\"engine\":\"sim\",\"label\":\"sim-a\","
    "\"algorithm\":\"sha256\",\"op\":\"hash\",\"size\":281474976710657,\"threads\":2},\"valid\":"
    "true,\"ns\":5}",
    "{\"type\":\"skip\",\"reason\":\"no\"}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":1," CELL ",\"valid\":true,\"ns\":5}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL
    ",\"valid\":true,\"ns\":5,\"clock\":\"wall\"}",
    "[1,2]",
    "",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":true,\"ns\":5,\"layout\":{}}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL
    ",\"valid\":true,\"ns\":5,\"layout\":{\"stack\":4096}}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL
    ",\"valid\":true,\"ns\":5,\"layout\":{\"stack\":16.0}}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL
    ",\"valid\":true,\"ns\":5,\"layout\":{\"stack\":-16}}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL
    ",\"valid\":true,\"ns\":5,\"layout\":{\"stack\":16,\"stack\":32}}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL
    ",\"valid\":true,\"ns\":5,\"layout\":{\"stack\":[16]}}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL ",\"valid\":true,\"ns\":5,\"layout\":16}",
    "{\"type\":\"trial\",\"round\":0,\"seq\":3," CELL
    ",\"valid\":true,\"ns\":5,\"layout\":{\"stack\":48},\"layout\":{\"stack\":64}}",
};

static void write_file(const char *line, size_t len)
{
	FILE *f = fopen(path, "w");

	fputs(HEADER FIRST, f);
	fwrite(line, 1, len, f);
	fputs("\n" LOOK LAST END, f);
	fclose(f);
}

static bool same_double(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

static bool same_text(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Whether the two reads A and B (with and without the scanner) agree; WHY
 * says where they part. */
static bool same_reading(const struct cb_results *a, const char *ea, const struct cb_results *b,
                         const char *eb, char *why, size_t why_len)
{
	if (!a || !b) {
		snprintf(why, why_len, "scanner: %s / jansson: %s", a ? "read" : ea,
		         b ? "read" : eb);
		return !a && !b && strcmp(ea, eb) == 0;
	}
	if (!json_equal(a->looks, b->looks)) {
		snprintf(why, why_len, "%zu/%zu look lines, or unequal", json_array_size(a->looks),
		         json_array_size(b->looks));
		return false;
	}
	if (a->n_trials != b->n_trials || a->n_cells != b->n_cells || a->n_clocks != b->n_clocks ||
	    a->torn_line != b->torn_line || a->complete_bytes != b->complete_bytes) {
		snprintf(why, why_len, "%zu/%zu trials, %zu/%zu cells, %zu/%zu clocks", a->n_trials,
		         b->n_trials, a->n_cells, b->n_cells, a->n_clocks, b->n_clocks);
		return false;
	}
	for (size_t i = 0; i < a->n_trials; i++) {
		const struct cb_result_trial *x = &a->trials[i], *y = &b->trials[i];
		bool same =
		    x->line == y->line && x->seq == y->seq && x->calls == y->calls &&
		    x->bytes == y->bytes && same_double(x->ns, y->ns) &&
		    same_double(x->cpu_ns, y->cpu_ns) && same_double(x->cycles, y->cycles) &&
		    x->cell == y->cell && x->round == y->round && x->warmup == y->warmup &&
		    x->valid == y->valid && x->trial_time_reached == y->trial_time_reached &&
		    x->layout_stack == y->layout_stack && same_text(x->error, y->error) &&
		    x->n_thread_ns == y->n_thread_ns &&
		    same_text(cb_results_trial_clock(a, x), cb_results_trial_clock(b, y));

		for (uint32_t k = 0; same && k < x->n_thread_ns; k++)
			same = same_double(x->thread_ns[k], y->thread_ns[k]);
		if (!same) {
			snprintf(why, why_len, "trial %zu differs", i);
			return false;
		}
	}
	snprintf(why, why_len, "%zu trials", a->n_trials);
	return true;
}

/* Read the file both ways; 1 when they agree. *TAKEN counts the variants
 * the scanner answered for. */
static bool both_ways(const char *line, size_t len, size_t *taken, char *why, size_t why_len)
{
	char ea[512] = "", eb[512] = "";
	struct cb_results *a, *b;
	struct cb_trial_scan *scan = malloc(sizeof *scan);
	bool same;

	write_file(line, len);
	cb_results_scan_lines = true;
	a = cb_results_read(path, ea, sizeof ea);
	cb_results_scan_lines = false;
	b = cb_results_read(path, eb, sizeof eb);
	cb_results_scan_lines = true;
	same = same_reading(a, ea, b, eb, why, why_len);
	if (scan && cb_trial_scan(line, len, scan) == 1)
		(*taken)++;
	free(scan);
	cb_results_free(a);
	cb_results_free(b);
	return same;
}

/* BUF: BASE with a few bytes changed, dropped or repeated. */
static size_t mutate(char *buf, size_t cap)
{
	static const char pieces[] = "{}[]\":,.-+eE0123456789 \\tnulrfas\x01\xc3";
	size_t len = strlen(base);
	int changes = 1 + rand() % 3;

	memcpy(buf, base, len);
	for (int c = 0; c < changes; c++) {
		size_t at = (size_t)rand() % len;

		switch (rand() % 3) {
		case 0:
			buf[at] = pieces[rand() % (int)(sizeof pieces - 1)];
			break;
		case 1:
			memmove(buf + at, buf + at + 1, len - at - 1);
			len--;
			break;
		default:
			if (len + 8 < cap) {
				memmove(buf + at + 4, buf + at, len - at);
				memcpy(buf + at, buf + (at + 4 < len ? at + 4 : 0), 4);
				len += 4;
			}
		}
	}
	return len;
}

int main(int argc, char **argv)
{
	unsigned long seed = argc > 1 ? strtoul(argv[1], NULL, 0) : DEFAULT_SEED;
	size_t n_hand = sizeof hand / sizeof hand[0], taken = 0, agreed = 0;
	char why[600], buf[1024];
	int fd;

	tap_plan((int)n_hand + 3);
	diag("seed %lu", seed);
	srand((unsigned)seed);
	fd = mkstemp(path);
	close(fd);

	for (size_t i = 0; i < n_hand; i++) {
		bool same = both_ways(hand[i], strlen(hand[i]), &taken, why, sizeof why);

		ok(same, "variant %zu reads alike with and without the scanner (%s)", i, why);
	}
	ok(taken >= 8, "the scanner answered for %zu of the %zu variants by hand", taken, n_hand);

	taken = 0;
	for (int i = 0; i < RANDOM_VARIANTS; i++) {
		size_t len = mutate(buf, sizeof buf);

		if (both_ways(buf, len, &taken, why, sizeof why))
			agreed++;
		else if ((size_t)i - agreed < 5) /* the first few that part */
			diag("mutation %d parts: %.*s (%s)", i, (int)len, buf, why);
	}
	ok(agreed == RANDOM_VARIANTS, "%zu of %d mutated lines read alike both ways", agreed,
	   RANDOM_VARIANTS);
	ok(taken > 0 && taken < RANDOM_VARIANTS,
	   "the scanner answered for %zu mutated lines and left the rest to jansson", taken);

	unlink(path);
	return tap_done();
}
