/* samples.c: the samplers' common output. */
#include "core/profile/samples.h"

#include <stdlib.h>
#include <string.h>

void cb_samples_free(struct cb_samples *s)
{
	free(s->pcs);
	memset(s, 0, sizeof *s);
}

void cb_samples_note(struct cb_samples *s, const char *note)
{
	size_t used = strlen(s->note);

	if (used > 0 && used + 2 < sizeof s->note) {
		memcpy(s->note + used, "; ", 3);
		used += 2;
	}
	if (used + 1 < sizeof s->note) {
		strncpy(s->note + used, note, sizeof s->note - used - 1);
		s->note[sizeof s->note - 1] = '\0';
	}
}
