/* fuzz_results.c: the results reader (core/results/results_read.c) on any bytes.
 *
 * It must return a results set or one "PATH:LINE: message", never crash,
 * leak or read out of bounds. What it returns is walked, as report does. */
#include <string.h>

#include "core/results/results.h"
#include "tests/fuzz/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = cb_fuzz_file(data, size, "results.jsonl");
	struct cb_results *r;
	char err[512];

	if (!path)
		return 0;
	err[0] = '\0';
	r = cb_results_read(path, err, sizeof err);
	if (!r) {
		/* One line that names the file. */
		if (strncmp(err, path, strlen(path)) != 0 || strchr(err, '\n'))
			__builtin_trap();
		return 0;
	}
	for (size_t i = 0; i < r->n_trials; i++)
		if (r->trials[i].cell >= r->n_cells ||
		    cb_results_find_cell(r, r->cells[r->trials[i].cell].key) !=
		        (long)r->trials[i].cell)
			__builtin_trap();
	(void)cb_results_header_string(r, "host", "cpu");
	(void)cb_results_header_int(r, NULL, "rounds");
	cb_results_free(r);
	return 0;
}
