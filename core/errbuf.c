/* errbuf.c: filling a caller's error buffer. */
#include "core/errbuf.h"

#include <stdarg.h>
#include <stdio.h>

void cb_errorf(char *err, size_t err_len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !err_len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, err_len, fmt, ap);
	va_end(ap);
}
