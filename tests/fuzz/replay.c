/* replay.c: run a fuzzer's entry point on files, without libFuzzer, so the
 * kept regression cases and seed corpus run in every `make check`.
 *
 * Usage: replay FILE...  (exit 0 when every input ran; a crash is a crash) */
#include <stdio.h>
#include <stdlib.h>

#include "tests/fuzz/fuzz_input.h"

int main(int argc, char **argv)
{
	int rc = 0;

	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		unsigned char *data = NULL;
		long n = -1;

		if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
		    fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)n + 1)) != NULL &&
		    fread(data, 1, (size_t)n, f) == (size_t)n) {
			LLVMFuzzerTestOneInput(data, (size_t)n);
		} else {
			fprintf(stderr, "%s: cannot read\n", argv[i]);
			rc = 1;
		}
		free(data);
		if (f)
			fclose(f);
	}
	return rc;
}
