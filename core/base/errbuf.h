/* errbuf.h: filling a caller's error buffer.
 *
 * Library functions report failure by returning a status and writing one
 * line to an ERR buffer of ERR_LEN bytes that the caller owns; ERR may be
 * NULL when the caller does not want the message. Every error message of the
 * program goes through these helpers, so the truncation and NULL rules are
 * the same everywhere. Each returns -1, so a failing path can end with
 * `return cb_errorf(err, err_len, ...);`. */
#ifndef CB_ERRBUF_H
#define CB_ERRBUF_H

#include <stdarg.h>
#include <stddef.h>

/* printf into ERR (truncated to ERR_LEN); nothing when ERR is NULL. */
int cb_errorf(char *err, size_t err_len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int cb_verrorf(char *err, size_t err_len, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

/* The same with the place first: "PATH:LINE: message", or "PATH: message"
 * when LINE is 0. */
int cb_error_at(char *err, size_t err_len, const char *path, size_t line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
int cb_verror_at(char *err, size_t err_len, const char *path, size_t line, const char *fmt,
                 va_list ap) __attribute__((format(printf, 5, 0)));

#endif
