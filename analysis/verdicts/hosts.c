/* hosts.c: results files grouped by host, each host's runs judged, then
 * host against the baseline host (hosts.h). */
#include "analysis/verdicts/hosts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/errbuf.h"
#include "core/machine/host_id.h"

static const json_t *host_of(const struct cb_results *r)
{
	return json_object_get(r->header, "host");
}

const char *cb_results_host(const struct cb_results *r)
{
	return cb_host_id_name(host_of(r));
}

bool cb_results_same_host(const struct cb_results *a, const struct cb_results *b)
{
	return cb_host_id_same(host_of(a), host_of(b));
}

/* The index of the host of file R among the N first of HOSTS, or N. */
static size_t host_index(const struct cb_host *hosts, size_t n, const struct cb_results *r)
{
	size_t i = 0;

	while (i < n && !cb_results_same_host(hosts[i].files[0], r))
		i++;
	return i;
}

/* Counted as grouped (host_index: against each host's first file), so the
 * count and the groups agree where a file lacking a field would match two. */
size_t cb_hosts_count(struct cb_results *const *files, size_t n)
{
	struct cb_host *hosts;
	size_t count;
	int rc = cb_hosts_group(files, n, &hosts, &count);

	cb_hosts_group_free(hosts, count);
	return rc == 0 ? count : n > 0; /* out of memory: the grouping will say so */
}

/* Label the N hosts as above: each one's label from its first file. */
static void label(struct cb_host *hosts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *name = cb_results_host(hosts[i].files[0]);
		bool shared = false;

		for (size_t j = 0; j < n && !shared; j++)
			shared = j != i && strcmp(name, cb_results_host(hosts[j].files[0])) == 0;
		if (shared) {
			char cpu[256];

			cb_host_id_cpu_short(host_of(hosts[i].files[0]), cpu, sizeof cpu);
			snprintf(hosts[i].label, sizeof hosts[i].label, "%s (%s)", name, cpu);
		} else {
			snprintf(hosts[i].label, sizeof hosts[i].label, "%s", name);
		}
		cb_host_id_key(host_of(hosts[i].files[0]), hosts[i].key, sizeof hosts[i].key);
		hosts[i].name = hosts[i].label;
	}
	for (size_t i = n; i-- > 1;) { /* one CPU model, two machines: number them */
		size_t before = 0, len = strlen(hosts[i].label);

		for (size_t j = 0; j < i; j++)
			before += strcmp(hosts[j].label, hosts[i].label) == 0;
		if (before)
			snprintf(hosts[i].label + len, sizeof hosts[i].label - len, " #%zu",
			         before + 1);
	}
}

/* The host BASE names among H's: its label, else the one host of that name. */
static size_t base_index(const struct cb_hosts *h, const char *base, char *err, size_t err_len)
{
	size_t found = h->n, named = 0;

	for (size_t i = 0; i < h->n; i++)
		if (strcmp(h->hosts[i].label, base) == 0)
			return i;
	for (size_t i = 0; i < h->n; i++)
		if (strcmp(cb_results_host(h->hosts[i].files[0]), base) == 0) {
			named++;
			found = i;
		}
	if (named > 1) {
		size_t used = (size_t)snprintf(err, err_len, "%zu hosts are named %s; name one of",
		                               named, base);
		for (size_t i = 0; i < h->n && used < err_len; i++)
			if (strcmp(cb_results_host(h->hosts[i].files[0]), base) == 0)
				used += (size_t)snprintf(err + used, err_len - used, " '%s'",
				                         h->hosts[i].label);
		return h->n + 1;
	}
	return found;
}

const char *cb_hosts_repro_name(const struct cb_compare_row *row)
{
	return row ? cb_repro_verdict_name(row->repro.verdict) : "single run";
}

/* The cell row of KEY in C (NULL when C is). */
static const struct cb_compare_row *repro_row(const struct cb_compare *c, const char *key)
{
	for (size_t i = 0; c && i < c->n_rows; i++)
		if (c->rows[i].kind == CB_ROW_CELL && strcmp(c->rows[i].key, key) == 0)
			return &c->rows[i];
	return NULL;
}

/* The hosts of FILES with their runs, the baseline host first. */
int cb_hosts_group(struct cb_results *const *files, size_t n, struct cb_host **out, size_t *n_hosts)
{
	struct cb_host *hosts = calloc(n ? n : 1, sizeof *hosts);

	*out = hosts;
	*n_hosts = 0;
	if (!hosts)
		return -1;
	for (size_t i = 0; i < n; i++) {
		size_t j = host_index(hosts, *n_hosts, files[i]);
		struct cb_host *host = &hosts[j];

		if (j == *n_hosts) {
			if (!(host->files = calloc(n, sizeof *host->files)))
				return -1;
			++*n_hosts;
		}
		host->files[host->k++] = files[i];
	}
	label(hosts, *n_hosts);
	return 0;
}

void cb_hosts_group_free(struct cb_host *hosts, size_t n)
{
	for (size_t i = 0; hosts && i < n; i++)
		free(hosts[i].files);
	free(hosts);
}

static int group(struct cb_hosts *h, struct cb_results *const *files, size_t n,
                 const char *base_host, char *err, size_t err_len)
{
	size_t base;

	if (cb_hosts_group(files, n, &h->hosts, &h->n) != 0)
		return -1;
	base = base_host ? base_index(h, base_host, err, err_len) : 0;
	if (base > h->n)
		return CB_HOSTS_AMBIGUOUS;
	if (base == h->n)
		return CB_HOSTS_NO_BASE;
	struct cb_host first = h->hosts[base];

	memmove(h->hosts + 1, h->hosts, base * sizeof *h->hosts);
	h->hosts[0] = first;
	for (size_t i = 0; i < h->n; i++)
		h->hosts[i].name = h->hosts[i].label; /* moved with its host */
	return 0;
}

/* HOST's analyses: its runs compared (more than one), or its one run analysed. */
static int analyse(struct cb_host *host, const struct cb_compare_options *o, char *err,
                   size_t err_len)
{
	int rc;

	if (host->k > 1) {
		rc = cb_compare_build(host->files, host->k, o, &host->repro, err, err_len);
		if (rc != 0)
			return rc;
		host->runs = host->repro->runs;
		return 0;
	}
	if (!(host->runs = calloc(1, sizeof *host->runs)))
		return cb_errorf(err, err_len, "out of memory");
	if (!(host->runs[0] =
	          cb_analysis_build(host->files[0], &o->summary, &o->derive, err, err_len)))
		return -1;
	return 0;
}

static int pair_up(struct cb_hosts *h, size_t i, char *err, size_t err_len)
{
	struct cb_hosts_pair *p = &h->pairs[i - 1];
	const struct cb_host *a = &h->hosts[0], *b = &h->hosts[i];

	p->host = i;
	if (cb_baseline_build_runs((const struct cb_analysis *const *)a->runs, a->k,
	                           (const struct cb_analysis *const *)b->runs, b->k, &h->options,
	                           &p->b, err, err_len) != 0)
		return -1;
	p->base_repro = calloc(p->b->n_rows + 1, sizeof *p->base_repro);
	p->other_repro = calloc(p->b->n_rows + 1, sizeof *p->other_repro);
	if (!p->base_repro || !p->other_repro)
		return cb_errorf(err, err_len, "out of memory");
	for (size_t r = 0; r < p->b->n_rows; r++) {
		const char *key = p->b->rows[r].base->cell->key;

		p->base_repro[r] = repro_row(a->repro, key);
		p->other_repro[r] = repro_row(b->repro, key);
	}
	return 0;
}

int cb_hosts_build(struct cb_results *const *files, size_t n, const char *base_host,
                   const struct cb_compare_options *opt, struct cb_hosts **out, char *err,
                   size_t err_len)
{
	struct cb_hosts *h = calloc(1, sizeof *h);
	int rc;

	*out = NULL;
	if (!h)
		return cb_errorf(err, err_len, "out of memory");
	if (opt)
		h->options = *opt;
	else
		cb_compare_defaults(&h->options);
	rc = group(h, files, n, base_host, err, err_len);
	if (rc == CB_HOSTS_NO_BASE) {
		cb_errorf(err, err_len, "no file given was measured on host %s", base_host);
		goto fail;
	}
	if (rc == CB_HOSTS_AMBIGUOUS)
		goto fail;
	if (rc != 0 || !(h->pairs = calloc(h->n, sizeof *h->pairs))) {
		rc = cb_errorf(err, err_len, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < h->n; i++) {
		char why[1024];

		if ((rc = analyse(&h->hosts[i], &h->options, why, sizeof why)) != 0) {
			cb_errorf(err, err_len, "host %s: %s", h->hosts[i].name, why);
			goto fail;
		}
	}
	for (size_t i = 1; i < h->n; i++)
		if ((rc = pair_up(h, i, err, err_len)) != 0)
			goto fail;
	*out = h;
	return 0;
fail:
	cb_hosts_free(h);
	return rc;
}

void cb_hosts_free(struct cb_hosts *h)
{
	if (!h)
		return;
	for (size_t i = 0; h->pairs && i + 1 < h->n; i++) {
		cb_baseline_free(h->pairs[i].b);
		free(h->pairs[i].base_repro);
		free(h->pairs[i].other_repro);
	}
	for (size_t i = 0; i < h->n; i++) {
		struct cb_host *host = &h->hosts[i];

		if (host->repro)
			cb_compare_free(host->repro);
		else if (host->runs)
			cb_analysis_free(host->runs[0]);
		if (!host->repro)
			free(host->runs);
		free(host->files);
	}
	free(h->hosts);
	free(h->pairs);
	free(h);
}

bool cb_hosts_any_unreproduced(const struct cb_hosts *h)
{
	for (size_t i = 0; i < h->n; i++)
		if (h->hosts[i].repro && cb_compare_any_unreproduced(h->hosts[i].repro))
			return true;
	return false;
}
