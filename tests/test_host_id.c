/* test_host_id.c: which machine a header's host object names (host_id.h):
 * the fields compared, the memory's rounding, a field one file lacks, a
 * name given, and the short CPU model of the labels. */
#include "core/machine/host_id.h"
#include "tests/tap.h"

/* A host object: the two VMs of paper/data/key-scaling{,-intel}, as JSON. */
static json_t *host(const char *json)
{
	json_error_t e;
	json_t *h = json_loads(json, 0, &e);

	if (!h)
		printf("# bad JSON in the test: %s\n", e.text);
	return h;
}

#define EPYC                                                                                       \
	"\"hostname\": \"vm\", \"cpu\": \"AMD EPYC\", \"logical_cores\": 2, "                      \
	"\"memory_bytes\": 25276063744, \"kernel\": {\"release\": \"6.18.44-fc-v782\"}"

static void test_same(void)
{
	json_t *a = host("{" EPYC "}");
	json_t *less = host("{\"hostname\": \"vm\", \"cpu\": \"AMD EPYC\", \"logical_cores\": 2, "
	                    "\"memory_bytes\": 25272918016, \"kernel\": {\"release\": "
	                    "\"6.18.44-fc-v782\"}}"); /* 3 MiB less */
	json_t *intel = host("{\"hostname\": \"vm\", \"cpu\": \"Intel(R) Xeon(R) Processor\", "
	                     "\"logical_cores\": 2, \"memory_bytes\": 25275990016, \"kernel\": "
	                     "{\"release\": \"6.18.44-fc-v1045\"}}");
	json_t *newer = host("{" EPYC ", \"cpu_family\": 25, \"cpu_model\": 1, "
	                     "\"cpu_stepping\": 1}");
	json_t *stepping = host("{" EPYC ", \"cpu_family\": 25, \"cpu_model\": 1, "
	                        "\"cpu_stepping\": 2}");
	json_t *cores = host("{\"hostname\": \"vm\", \"cpu\": \"AMD EPYC\", \"logical_cores\": 4, "
	                     "\"memory_bytes\": 25276063744}");
	json_t *named = host("{" EPYC ", \"name_given\": \"epyc\"}");

	ok(cb_host_id_same(a, a), "a host is itself");
	ok(cb_host_id_same(a, less), "3 MiB less memory: one host (24 GiB both)");
	ok(!cb_host_id_same(a, intel), "one hostname, another CPU and kernel: two hosts");
	ok(cb_host_id_same(a, newer) && cb_host_id_same(newer, a),
	   "a file without family/model/stepping joins one that has them");
	ok(!cb_host_id_same(newer, stepping), "another stepping: another host");
	ok(!cb_host_id_same(a, cores), "another core count: another host (no kernel to compare)");
	ok(!cb_host_id_same(a, named), "a name given wins over the hostname: another host");
	is_str(cb_host_id_name(named), "epyc", "the name given is the host's name");
	is_str(cb_host_id_name(a), "vm", "else its hostname");

	char key[512];

	cb_host_id_key(a, key, sizeof key);
	is_str(key, "vm | AMD EPYC | ? | 2 cores | 24 GiB | 6.18.44-fc-v782",
	       "the key: the fields in order, ? for the one it lacks");
	cb_host_id_key(newer, key, sizeof key);
	is_str(key, "vm | AMD EPYC | 25/1/1 | 2 cores | 24 GiB | 6.18.44-fc-v782",
	       "...family/model/stepping where recorded");
	json_decref(a);
	json_decref(less);
	json_decref(intel);
	json_decref(newer);
	json_decref(stepping);
	json_decref(cores);
	json_decref(named);
}

static void test_memory(void)
{
	json_t *below = host("{\"memory_bytes\": 26302480384}"); /* 24.496 GiB */
	json_t *above = host("{\"memory_bytes\": 26306674688}"); /* 24.5 GiB */
	json_t *tiny = host("{\"memory_bytes\": 268435456}");    /* 256 MiB */
	char key[512];

	cb_host_id_key(below, key, sizeof key);
	ok(strstr(key, "| 24 GiB |") != NULL, "24.496 GiB is 24 GiB (%s)", key);
	cb_host_id_key(above, key, sizeof key);
	ok(strstr(key, "| 25 GiB |") != NULL, "24.5 GiB is 25 GiB: the nearest (%s)", key);
	cb_host_id_key(tiny, key, sizeof key);
	ok(strstr(key, "| 1 GiB |") != NULL, "256 MiB is 1 GiB, never 0 (%s)", key);
	json_decref(below);
	json_decref(above);
	json_decref(tiny);
}

static void test_cpu_short(void)
{
	static const struct {
		const char *cpu, *want;
	} cases[] = {
	    {"Intel(R) Xeon(R) Processor", "Intel(R) Xeon(R) Processor"},
	    {"AMD EPYC", "AMD EPYC"},
	    {"Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz", "Intel(R) Xeon(R) Platinum 8375C"},
	    {"AMD EPYC 7B13 64-Core Processor", "AMD EPYC 7B13"},
	    {"Intel(R) Core(TM) i7-8650U CPU @ 1.90GHz", "Intel(R) Core(TM) i7-8650U"},
	    {"  AMD   Ryzen 9 5950X 16-Core Processor  ", "AMD Ryzen 9 5950X"},
	};
	char buf[256];

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		json_t *h = json_pack("{s:s}", "cpu", cases[i].cpu);

		cb_host_id_cpu_short(h, buf, sizeof buf);
		is_str(buf, cases[i].want, "short model of '%s'", cases[i].cpu);
		json_decref(h);
	}
	json_t *none = json_object();

	cb_host_id_cpu_short(none, buf, sizeof buf);
	is_str(buf, "?", "no cpu: ?");
	json_decref(none);
}

int main(void)
{
	test_same();
	test_memory();
	test_cpu_short();
	return tap_done();
}
