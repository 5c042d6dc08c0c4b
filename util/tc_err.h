/* tc_err.h — the one error channel of tunecost's libraries.
 * A library function that fails sets a message with tc_seterr() and returns non-zero (or NULL); the caller
 * (main, or a test) reads it with tc_errmsg(). Messages name the file or option, what was wrong and what was
 * expected, and fit on one line. The buffer is per thread. */
#ifndef TC_ERR_H
#define TC_ERR_H

#if defined(__GNUC__)
#define TC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define TC_PRINTF(a, b)
#endif

/* Replace this thread's error message. Always returns -1, so `return tc_seterr(...)` reads naturally. */
int tc_seterr(const char *fmt, ...) TC_PRINTF(1, 2);
/* Prefix the current message with "<prefix>: " (e.g. the file name at a higher level). Returns -1. */
int tc_preferr(const char *fmt, ...) TC_PRINTF(1, 2);
/* This thread's last message ("" if none). */
const char *tc_errmsg(void);
void tc_clearerr(void);

#endif
