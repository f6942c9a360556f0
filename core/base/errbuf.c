/* errbuf.c: filling a caller's error buffer. */
#include "core/base/errbuf.h"

#include <stdio.h>

int cb_verrorf(char *err, size_t err_len, const char *fmt, va_list ap)
{
	if (err && err_len)
		vsnprintf(err, err_len, fmt, ap);
	return -1;
}

int cb_errorf(char *err, size_t err_len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cb_verrorf(err, err_len, fmt, ap);
	va_end(ap);
	return -1;
}

int cb_verror_at(char *err, size_t err_len, const char *path, size_t line, const char *fmt,
                 va_list ap)
{
	int n;

	if (!err || !err_len)
		return -1;
	if (line)
		n = snprintf(err, err_len, "%s:%zu: ", path, line);
	else
		n = snprintf(err, err_len, "%s: ", path);
	if (n < 0 || (size_t)n >= err_len)
		return -1;
	return cb_verrorf(err + n, err_len - (size_t)n, fmt, ap);
}

int cb_error_at(char *err, size_t err_len, const char *path, size_t line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cb_verror_at(err, err_len, path, line, fmt, ap);
	va_end(ap);
	return -1;
}
