/* test_attribution.c: which code ran, from the profile lines of
 * tests/explain/cross-runtime.jsonl (a cross-runtime run's trials at 1 MiB,
 * with profiled trials of openssl, go-crypto and dotnet, and a java-jca
 * cell whose profiles were refused).
 *
 * The figures are counted by hand from the fixture's functions; the exact
 * intervals are checked against what defines them (the binomial tails at
 * their ends are 2.5%) and a closed form (K = 0: hi = 1 - 0.025^(1/N)),
 * not against the code's own beta quantiles. How it fails: a share over
 * the line's samples instead of the cell's pooled ones (1000, not 2000)
 * fails the shares; naming a nameless function by its hint fails the
 * naming rule; moving "runtime." below "crypto/" changes nothing, but
 * dropping it puts runtime.mallocgc in "other" and fails the runtime
 * share; a summary that counts every function, not the hot ones, puts
 * go-crypto's runtime.memmove's avx nowhere it should not be, and its bmi
 * is no notable extension, so go-crypto stays "not" for sha-ni; pooling
 * a named function's ranges by offset (as the nameless ones are) makes it
 * two. */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats/stats.h"
#include "analysis/verdicts/analysis.h"
#include "analysis/verdicts/attribution.h"
#include "core/profile/decode.h"
#include "core/results/results.h"
#include "tests/tap.h"

static const struct cb_attribution_cell *cell(const struct cb_attribution *e, const char *key)
{
	for (size_t i = 0; i < e->n_cells; i++)
		if (strcmp(e->cells[i].key, key) == 0)
			return &e->cells[i];
	return NULL;
}

static const struct cb_attribution_function *function(const struct cb_attribution_cell *c,
                                                      const char *name)
{
	for (size_t i = 0; c && i < c->n_functions; i++)
		if (strcmp(c->functions[i].name, name) == 0)
			return &c->functions[i];
	return NULL;
}

/* The interval [LO, HI] for K of N is exact: at LO, P(X >= K) is 2.5%; at
 * HI, P(X <= K) is 2.5%. */
static void check_exact(const struct cb_attribution_share *s, uint64_t k, uint64_t n,
                        const char *what)
{
	ok(s->samples == k, "%s: %llu samples", what, (unsigned long long)k);
	near(s->share, (double)k / (double)n, 1e-12, "%s: share %llu/%llu", what,
	     (unsigned long long)k, (unsigned long long)n);
	near(gsl_cdf_binomial_Q((unsigned)k - 1, s->lo, (unsigned)n), 0.025, 1e-9,
	     "%s: P(X >= k) at the low end is 2.5%%", what);
	near(gsl_cdf_binomial_P((unsigned)k, s->hi, (unsigned)n), 0.025, 1e-9,
	     "%s: P(X <= k) at the high end is 2.5%%", what);
}

static void test_names_and_sides(void)
{
	char buf[256];

	cb_attribution_function_name("/usr/lib/x86_64-linux-gnu/libcrypto.so.3", 0x1d2e40, NULL,
	                             "SHA256_Update", buf, sizeof buf);
	is_str(buf, "libcrypto.so.3+0x1d2e40 (near SHA256_Update)",
	       "a nameless function: OBJECT+0xOFFSET (near HINT)");
	cb_attribution_function_name("/usr/lib/x86_64-linux-gnu/libcrypto.so.3", 0x1d2e40, NULL,
	                             NULL, buf, sizeof buf);
	is_str(buf, "libcrypto.so.3+0x1d2e40", "without a hint: OBJECT+0xOFFSET");
	cb_attribution_function_name("/usr/lib/x86_64-linux-gnu/libcrypto.so.3", 0x1d0a10,
	                             "SHA256_Update", NULL, buf, sizeof buf);
	is_str(buf, "SHA256_Update", "a named function: its name");
	cb_attribution_function_name("JIT/anonymous code", 0x7f1c4a000000, NULL, NULL, buf,
	                             sizeof buf);
	is_str(buf, "JIT/anonymous code+0x7f1c4a000000", "code in no object keeps its whole name");

	ok(cb_attribution_side_of("/usr/lib/x86_64-linux-gnu/libcrypto.so.3", NULL) ==
	       CB_SIDE_LIBRARY,
	   "libcrypto: the library");
	ok(cb_attribution_side_of("/opt/go-worker", "crypto/sha256.block") == CB_SIDE_LIBRARY,
	   "Go's crypto/sha256.block: the library");
	ok(cb_attribution_side_of("/opt/go-worker", "runtime.mallocgc") == CB_SIDE_RUNTIME,
	   "Go's runtime.mallocgc: the runtime");
	ok(cb_attribution_side_of("/opt/go-worker", "main.serve") == CB_SIDE_OTHER,
	   "the worker's own code: other");
	ok(cb_attribution_side_of("/usr/bin/node", "sha256_block_data_order_shaext") ==
	       CB_SIDE_LIBRARY,
	   "OpenSSL's assembly linked into node: the library, by its name");
	ok(cb_attribution_side_of("/usr/bin/node", "_aesni_ctr32_ghash_6x") == CB_SIDE_LIBRARY,
	   "...its AES-GCM too");
	ok(cb_attribution_side_of("/usr/bin/node", "Builtins_CallFunction") == CB_SIDE_RUNTIME,
	   "node's own code: the runtime");
	ok(cb_attribution_side_of("JIT/anonymous code", NULL) == CB_SIDE_RUNTIME,
	   "JIT code: the runtime");
	ok(cb_attribution_side_of(
	       "/usr/lib/dotnet/shared/Microsoft.NETCore.App/10.0.12/libcoreclr.so", NULL) ==
	       CB_SIDE_RUNTIME,
	   "libcoreclr: the runtime");
	ok(cb_attribution_side_of("/usr/lib/x86_64-linux-gnu/libc.so.6", "malloc") ==
	       CB_SIDE_RUNTIME,
	   "malloc: the runtime (the allocator)");
	ok(cb_attribution_side_of("/usr/lib/x86_64-linux-gnu/libc.so.6",
	                          "__memmove_avx_unaligned_erms") == CB_SIDE_OTHER,
	   "libc's memmove: other");
}

static void test_interval(void)
{
	double lo, hi;

	ok(cb_stats_proportion_interval(0, 20, 0.95, &lo, &hi) == 0 && lo == 0 &&
	       fabs(hi - (1 - pow(0.025, 1.0 / 20))) < 1e-12,
	   "0 of 20: [0, 1 - 0.025^(1/20)]");
	ok(cb_stats_proportion_interval(20, 20, 0.95, &lo, &hi) == 0 && hi == 1 &&
	       fabs(lo - pow(0.025, 1.0 / 20)) < 1e-12,
	   "20 of 20: [0.025^(1/20), 1]");
	ok(cb_stats_proportion_interval(3, 2, 0.95, &lo, &hi) == -1 && isnan(lo) && isnan(hi),
	   "3 of 2: refused, NaN");
}

static void test_fixture(const struct cb_results *r)
{
	struct cb_analysis *a;
	const struct cb_attribution *e;
	const struct cb_attribution_cell *c;
	const struct cb_attribution_function *f;
	char err[512], buf[256];

	ok(json_array_size(r->profiles) == 12, "the fixture's 12 profile lines are kept apart");
	a = cb_analysis_build(r, NULL, NULL, err, sizeof err);
	ok(a != NULL, "analysis of the fixture: %s", a ? "built" : err);
	if (!a)
		return;
	e = a->attribution;
	ok(e->lines == 12 && e->n_cells == 6, "12 lines, 6 cells");

	c = cell(e, "openssl|sha256|hash|1048576|1");
	ok(c && c->trials == 2 && c->samples == 2000, "openssl sha256: 2 profiles, 2000 samples");
	if (c) {
		is_str(c->functions[0].name, "libcrypto.so.3+0x1d2e40 (near SHA256_Update)",
		       "openssl sha256: the top function is named by object, offset and hint");
		check_exact(&c->functions[0].part, 962 + 955, 2000, "openssl sha256 top function");
		is_str(c->before[0].what, "sha-ni", "openssl sha256: the time stops at sha-ni");
		check_exact(&c->before[0], 846 + 840, 2000, "openssl sha256 sha-ni before");
		cb_attribution_classes_text(c->present, buf, sizeof buf);
		is_str(
		    buf, "base sse ssse3/sse4 sha-ni",
		    "openssl sha256: the hot code's classes (SHA256_Update at 2.3%% is not hot)");
		near(c->cost, (1.012 + 1.018) / 2, 1e-3, "openssl sha256: the median cost");
	}

	c = cell(e, "go-crypto|sha256|hash|1048576|1");
	ok(c && c->samples == 2000 && c->n_functions == 5,
	   "go-crypto sha256: 2000 samples, 5 functions");
	if (c) {
		is_str(c->functions[0].name, "crypto/sha256.block", "go-crypto: named by Go");
		cb_attribution_classes_text(c->present, buf, sizeof buf);
		is_str(buf, "base bmi", "go-crypto sha256: the hot code has no sha-ni");
		check_exact(&c->sides[CB_SIDE_RUNTIME], 40 + 47 + 15 + 16, 2000,
		            "go-crypto runtime share");
		check_exact(&c->sides[CB_SIDE_LIBRARY], 930 + 921, 2000, "go-crypto library share");
		f = function(c, "runtime.mallocgc");
		ok(f && f->side == CB_SIDE_RUNTIME && f->part.samples == 87,
		   "go-crypto: runtime.mallocgc pooled over both profiles, the runtime's");
	}

	c = cell(e, "dotnet|sha256|hash|1048576|1");
	if (c) {
		check_exact(&c->sides[CB_SIDE_RUNTIME], 50 + 56 + 40 + 42, 2000,
		            "dotnet runtime share (JIT code, libcoreclr)");
		check_exact(&c->sides[CB_SIDE_LIBRARY], 1751 + 41, 2000,
		            "dotnet library share (libcrypto and its native shim)");
		f = function(c, "JIT/anonymous code+0x7f1c4a000000");
		ok(f && !f->decoded && c->present_known,
		   "dotnet: undecoded JIT code is hot, the library's code still decoded");
	} else
		ok(0, "dotnet sha256 cell");

	c = cell(e, "java-jca|sha256|hash|1048576|1");
	ok(c && c->trials == 0 && c->refused_trials == 2 && c->refused &&
	       strncmp(c->refused, "ptrace is not allowed", 21) == 0,
	   "java-jca: refused, with the reason");
	ok(e->n_refusals == 1 && e->refusals[0].cells == 1, "one refusal, of one cell");

	ok(e->n_summary == 3, "summary: sha256 sha-ni, aes-256-gcm aes-ni and pclmul");
	if (e->n_summary >= 1) {
		const struct cb_attribution_summary *s = &e->summary[0];

		is_str(s->extension, "sha-ni", "summary row 1: sha-ni");
		ok(strcmp(s->algorithm, "sha256") == 0 && s->size == 1048576,
		   "... of sha256 1 MiB");
		is_str(s->uses, "openssl 95.9% [94.9, 96.7], dotnet 87.5% [86.0, 89.0]",
		       "sha-ni in the hot code of openssl and dotnet, with their shares");
		is_str(s->not_used, "go-crypto", "sha-ni not in go-crypto's");
		is_str(s->unknown, "", "nobody not known");
	}
	cb_analysis_free(a);
}

/* A function's ranges under one name are one function; nameless ranges,
 * even near one hint, stay apart by offset. */
static void test_pooling(void)
{
	const char *lines =
	    "[{\"type\":\"profile\",\"cell\":{\"engine\":\"e\",\"algorithm\":\"sha256\","
	    "\"op\":\"hash\",\"size\":64,\"threads\":1},\"profile\":{\"sampler\":\"timer\","
	    "\"samples\":11,\"functions\":["
	    "{\"object\":\"/x/lib.so\",\"offset\":256,\"name\":\"f\",\"samples\":3},"
	    "{\"object\":\"/x/lib.so\",\"offset\":512,\"name\":\"f\",\"samples\":2},"
	    "{\"object\":\"/x/lib.so\",\"offset\":768,\"name\":null,\"hint\":\"g\","
	    "\"samples\":5},"
	    "{\"object\":\"/x/lib.so\",\"offset\":1024,\"name\":null,\"hint\":\"g\","
	    "\"samples\":1}]},\"refused\":null}]";
	struct cb_results r = {.profiles = json_loads(lines, 0, NULL)};
	char err[256];
	struct cb_attribution *e = cb_attribution_build(&r, err, sizeof err);
	const struct cb_attribution_cell *c = e && e->n_cells == 1 ? &e->cells[0] : NULL;
	const struct cb_attribution_function *f = function(c, "f");

	ok(c && c->n_functions == 3, "three functions: f's two ranges are one");
	ok(f && f->part.samples == 5 && fabs(f->part.share - 5.0 / 11) < 1e-12,
	   "...f holds the samples of both");
	ok(function(c, "lib.so+0x300 (near g)") && function(c, "lib.so+0x400 (near g)"),
	   "...the nameless ones near g stay two");
	cb_attribution_free(e);
	json_decref(r.profiles);
}

static void test_no_profiles(const char *top)
{
	char path[1024], err[512];
	struct cb_results *r;
	struct cb_analysis *a;

	snprintf(path, sizeof path, "%s/tests/golden/runs/run-1.jsonl", top);
	r = cb_results_read(path, err, sizeof err);
	a = r ? cb_analysis_build(r, NULL, NULL, err, sizeof err) : NULL;
	ok(a && json_array_size(r->profiles) == 0 && a->attribution->lines == 0 &&
	       a->attribution->n_cells == 0 && a->attribution->n_summary == 0,
	   "a file without profile lines: nothing to explain");
	cb_analysis_free(a);
	cb_results_free(r);
}

/* The class list is the profiler's (decode.h), in its order: a class
 * added to one and not the other, or out of order, fails here. */
static void test_classes(void)
{
	int same = 1, n = 0;

	while (cb_attribution_classes[n])
		n++;
	for (int c = 0; c < CB_ISA_COUNT && c < n; c++)
		same &= strcmp(cb_attribution_classes[c], cb_isa_name(c)) == 0;
	ok(same && n == CB_ISA_COUNT, "the classes are decode.h's, in its order (%d of %d)", n,
	   CB_ISA_COUNT);
}

int main(void)
{
	const char *top = getenv("top_srcdir") ? getenv("top_srcdir") : ".";
	char path[1024], err[512];
	struct cb_results *r;

	tap_plan(68);
	test_names_and_sides();
	test_classes();
	test_interval();
	test_pooling();
	snprintf(path, sizeof path, "%s/tests/explain/cross-runtime.jsonl", top);
	r = cb_results_read(path, err, sizeof err);
	if (!r) {
		printf("Bail out! %s\n", err);
		return 1;
	}
	test_fixture(r);
	cb_results_free(r);
	test_no_profiles(top);
	return tap_done();
}
