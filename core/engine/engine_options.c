/* engine_options.c: a variant's engine-specific options, as engines read
 * them (core/engine/engine.h). Apart from the registry, so that an engine built as a
 * shared object of its own (core/builds/libbuild.h) links it without the registry. */
#include "core/engine/engine.h"

#include <stdlib.h>
#include <string.h>

static const struct cb_option *find_option(const struct cb_engine_config *config, const char *key)
{
	for (size_t i = 0; config && i < config->n_options; i++)
		if (strcmp(config->options[i].key, key) == 0)
			return &config->options[i];
	return NULL;
}

double cb_option_number(const struct cb_engine_config *config, const char *key, double fallback)
{
	const struct cb_option *o = find_option(config, key);

	if (!o)
		return fallback;
	return o->is_number ? o->number : strtod(o->string, NULL);
}

const char *cb_option_string(const struct cb_engine_config *config, const char *key,
                             const char *fallback)
{
	const struct cb_option *o = find_option(config, key);

	return !o ? fallback : o->is_number ? NULL : o->string;
}
