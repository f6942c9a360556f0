/* errbuf.h: filling a caller's error buffer.
 *
 * Library functions report failure by returning a status and writing one
 * line to an ERR buffer of ERR_LEN bytes that the caller owns; ERR may be
 * NULL when the caller does not want the message. */
#ifndef CB_ERRBUF_H
#define CB_ERRBUF_H

#include <stddef.h>

/* printf into ERR (truncated to ERR_LEN); nothing when ERR is NULL. */
void cb_errorf(char *err, size_t err_len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
