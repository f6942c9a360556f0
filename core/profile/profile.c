/* profile.c: sampled program counters to functions, with the
 * instruction-set classes at the samples and in the functions' code. */
#include "core/profile/profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/errbuf.h"
#include "core/profile/memory.h"
#include "core/profile/symbols.h"

#define MAX_DECODED_RANGE (1u << 20) /* a larger "function" is a JIT region, not one function */
#define LONGEST_INSN 15

static void degrade(struct cb_profile *p, const char *what)
{
	size_t used = strlen(p->degraded);

	snprintf(p->degraded + used, sizeof p->degraded - used, "%s%s", used ? "; " : "", what);
}

static int by_address(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int by_samples(const void *a, const void *b)
{
	const struct cb_profile_function *x = a, *y = b;
	int order;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	order = strcmp(x->object, y->object);
	return order ? order : (x->offset < y->offset ? -1 : x->offset > y->offset);
}

/* The function of P that SYM lies in, added when new; NULL when out of memory. */
static struct cb_profile_function *function_of(struct cb_profile *p, size_t *cap,
                                               const struct cb_symbol *sym)
{
	const char *hint = sym->name ? NULL : sym->hint;
	struct cb_profile_function *f;

	for (size_t i = 0; i < p->n_functions; i++) {
		f = &p->functions[i];
		if (f->offset == sym->start && strcmp(f->object, sym->object) == 0)
			return f;
	}
	if (p->n_functions == *cap) {
		size_t more = *cap ? 2 * *cap : 32;
		f = realloc(p->functions, more * sizeof *f);
		if (!f)
			return NULL;
		p->functions = f;
		*cap = more;
	}
	f = &p->functions[p->n_functions];
	memset(f, 0, sizeof *f);
	f->object = strdup(sym->object);
	f->build_id = strdup(sym->build_id);
	f->name = sym->name ? strdup(sym->name) : NULL;
	f->hint = hint ? strdup(hint) : NULL;
	if (!f->object || !f->build_id || (sym->name && !f->name) || (hint && !f->hint)) {
		free(f->object);
		free(f->build_id);
		free(f->name);
		free(f->hint);
		return NULL;
	}
	f->offset = sym->start;
	f->size = sym->size;
	f->range = sym->range;
	p->n_functions++;
	return f;
}

static enum cb_isa_class class_at(pid_t pid, uint64_t pc)
{
	uint8_t code[LONGEST_INSN];
	ssize_t n = cb_memory_read(pid, pc, code, sizeof code);

	return n > 0 ? cb_decode_class(code, (size_t)n, NULL) : CB_ISA_UNKNOWN;
}

/* A sampled function's code, kept while its samples are attributed. */
struct code {
	uint8_t *bytes;
	size_t len;
	uint64_t start; /* run-time address */
};

/* Read F's code from the process into CODE (BIAS: the object's load bias)
 * and note the classes present in it. */
static void decode_function(pid_t pid, struct cb_profile_function *f, uint64_t bias,
                            struct code *code)
{
	ssize_t n;

	memset(code, 0, sizeof *code);
	if (f->size == 0 || f->size > MAX_DECODED_RANGE || !(code->bytes = malloc(f->size)))
		return;
	code->start = f->offset + bias;
	n = cb_memory_read(pid, code->start, code->bytes, f->size);
	if (n <= 0) {
		free(code->bytes);
		code->bytes = NULL;
		return;
	}
	code->len = (size_t)n;
	f->present = cb_decode_range(code->bytes, code->len, NULL);
	f->decoded = 1;
}

static enum cb_isa_class class_before(const struct code *code, uint64_t pc)
{
	if (!code->bytes || pc < code->start || pc - code->start > code->len)
		return CB_ISA_UNKNOWN;
	return cb_decode_before(code->bytes, code->len, (size_t)(pc - code->start));
}

static void free_codes(struct code *codes, size_t n)
{
	for (size_t i = 0; codes && i < n; i++)
		free(codes[i].bytes);
	free(codes);
}

/* Attribute the sorted program counters PCS to functions. */
static int attribute(struct cb_profile *p, struct cb_symbols *symbols, pid_t pid,
                     const uint64_t *pcs, size_t n)
{
	size_t cap = 0, at = 0;
	uint64_t unreadable = 0;
	struct code *codes = NULL; /* one per function, as P->functions */
	int rc = 0;

	while (at < n) {
		struct cb_symbol sym;
		struct cb_profile_function *f;
		size_t same = 1;
		size_t known = p->n_functions;
		enum cb_isa_class c, before;
		while (at + same < n && pcs[at + same] == pcs[at])
			same++;
		if (symbols)
			cb_symbols_lookup(symbols, pcs[at], &sym);
		else
			sym = (struct cb_symbol){.object = "[unknown]",
			                         .build_id = "",
			                         .range = "none",
			                         .offset = pcs[at],
			                         .start = pcs[at]};
		if (!(f = function_of(p, &cap, &sym))) {
			rc = -1;
			break;
		}
		if (p->n_functions != known) {
			struct code *more = realloc(codes, cap * sizeof *codes);
			if (!more) {
				rc = -1;
				break;
			}
			codes = more;
			memset(&codes[known], 0, sizeof *codes);
			if (strcmp(sym.range, "region") != 0)
				decode_function(pid, f, sym.bias, &codes[known]);
		}
		c = class_at(pid, pcs[at]);
		before = class_before(&codes[f - p->functions], pcs[at]);
		if (c == CB_ISA_UNKNOWN)
			unreadable += same;
		f->samples += same;
		f->classes[c] += same;
		p->classes[c] += same;
		f->classes_before[before] += same;
		p->classes_before[before] += same;
		at += same;
	}
	free_codes(codes, p->n_functions);
	if (rc != 0)
		return rc;
	if (unreadable && cb_decode_available()) {
		char what[128];
		snprintf(what, sizeof what,
		         "%llu samples at instructions that could not be read or decoded",
		         (unsigned long long)unreadable);
		degrade(p, what);
	}
	return 0;
}

int cb_profile_build(pid_t pid, const struct cb_samples *samples, struct cb_profile *out, char *err,
                     size_t err_len)
{
	char why[256];
	struct cb_symbols *symbols;
	uint64_t *pcs = NULL;
	int rc;

	memset(out, 0, sizeof *out);
	out->sampler = samples->sampler;
	out->rate_hz = samples->rate_hz;
	out->cpu_ns = samples->cpu_ns;
	out->samples = samples->count;
	out->lost = samples->lost;
	out->merged = samples->merged;
	if (samples->note[0])
		degrade(out, samples->note);
	if (!cb_decode_available())
		degrade(out,
		        "no instruction decoder for this architecture: every class is unknown");
	if (samples->count == 0)
		return 0;
	if (!(pcs = malloc(samples->count * sizeof *pcs)))
		return cb_errorf(err, err_len, "profile: out of memory");
	memcpy(pcs, samples->pcs, samples->count * sizeof *pcs);
	qsort(pcs, samples->count, sizeof *pcs, by_address);
	if (!(symbols = cb_symbols_open(pid, why, sizeof why)))
		degrade(out, why);
	rc = attribute(out, symbols, pid ? pid : getpid(), pcs, samples->count);
	cb_symbols_close(symbols);
	free(pcs);
	if (rc != 0) {
		cb_profile_free(out);
		return cb_errorf(err, err_len, "profile: out of memory");
	}
	if (out->n_functions)
		qsort(out->functions, out->n_functions, sizeof *out->functions, by_samples);
	return 0;
}

uint64_t cb_profile_samples_in(const struct cb_profile *p, const char *name)
{
	uint64_t n = 0;

	for (size_t i = 0; i < p->n_functions; i++)
		if (p->functions[i].name && strcmp(p->functions[i].name, name) == 0)
			n += p->functions[i].samples;
	return n;
}

static json_t *classes_json(const uint64_t classes[CB_ISA_COUNT])
{
	json_t *o = json_object();

	for (int c = 0; o && c < CB_ISA_COUNT; c++)
		if (classes[c])
			json_object_set_new(o, cb_isa_name(c),
			                    json_integer((json_int_t)classes[c]));
	return o;
}

static json_t *function_json(const struct cb_profile_function *f)
{
	json_t *present = json_null(), *o;

	if (f->decoded) {
		present = json_array();
		for (int c = 0; present && c < CB_ISA_COUNT; c++)
			if (f->present >> c & 1)
				json_array_append_new(present, json_string(cb_isa_name(c)));
	}
	o = json_pack(
	    "{s:s, s:s, s:I, s:I, s:s, s:o, s:I, s:o, s:o}", "object", f->object, "build_id",
	    f->build_id, "offset", (json_int_t)f->offset, "size", (json_int_t)f->size, "range",
	    f->range, "name", f->name ? json_string(f->name) : json_null(), "samples",
	    (json_int_t)f->samples, "classes", classes_json(f->classes), "present", present);
	if (o && !f->name && f->hint)
		json_object_set_new(o, "hint", json_string(f->hint));
	if (o)
		json_object_set_new(o, "classes_before", classes_json(f->classes_before));
	return o;
}

json_t *cb_profile_json(const struct cb_profile *p)
{
	json_t *functions = json_array(), *o;

	for (size_t i = 0; functions && i < p->n_functions; i++)
		if (json_array_append_new(functions, function_json(&p->functions[i])) != 0) {
			json_decref(functions);
			return NULL;
		}
	o = json_pack("{s:s, s:f, s:I, s:I, s:I, s:I, s:o, s:o, s:o}", "sampler",
	              p->sampler ? p->sampler : "", "rate_hz", p->rate_hz, "cpu_ns",
	              (json_int_t)p->cpu_ns, "samples", (json_int_t)p->samples, "lost",
	              (json_int_t)p->lost, "merged", (json_int_t)p->merged, "classes",
	              classes_json(p->classes), "functions", functions, "degraded",
	              p->degraded[0] ? json_string(p->degraded) : json_null());
	if (o)
		json_object_set_new(o, "classes_before", classes_json(p->classes_before));
	return o;
}

void cb_profile_free(struct cb_profile *p)
{
	for (size_t i = 0; i < p->n_functions; i++) {
		free(p->functions[i].object);
		free(p->functions[i].build_id);
		free(p->functions[i].name);
		free(p->functions[i].hint);
	}
	free(p->functions);
	memset(p, 0, sizeof *p);
}
