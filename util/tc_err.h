/* tc_err.h — the one error channel of tunecost's libraries.
 * A library function that fails sets a message with tc_seterr() and returns non-zero (or NULL); the caller
 * (main, or a test) reads it with tc_errmsg(). Messages name the file or option, what was wrong and what was
 * expected, and fit on one line. The buffer is per thread. */
#ifndef TC_ERR_H
#define TC_ERR_H

#include <stddef.h>

#if defined(__GNUC__)
#define TC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define TC_PRINTF(a, b)
#endif

#define TC_ERR_LEN 1024 /* the longest message, its terminating '\0' included */

/* A message kept with its kind, to be raised again later or on another thread (a worker's failure that the
 * caller reports once the workers are done): tc_err_save copies this thread's message, tc_err_restore makes the
 * saved one current again, kind included (returns -1). A zeroed one holds no message (msg[0] == '\0'). */
struct tc_err_saved {
    int env;
    char msg[TC_ERR_LEN];
};

/* Replace this thread's error message. Always returns -1, so `return tc_seterr(...)` reads naturally. */
int tc_seterr(const char *fmt, ...) TC_PRINTF(1, 2);
/* The same for a fault of the environment (a full disk, a file size limit, memory, the OS refusing), as
 * opposed to bad input: commands exit 1 for the one, 2 for the other (tc_err_exit_code). The kind is what the
 * call says, never read from the text: tc_seterr sets bad input (whatever its words, "out of memory.h5" included),
 * tc_seterr_env the environment (every out-of-memory site), tc_preferr keeps the kind, tc_err_mark_env sets it on the
 * current message. */
int tc_seterr_env(const char *fmt, ...) TC_PRINTF(1, 2);
void tc_err_mark_env(void);
int tc_err_is_env(void);
/* The exit code for the current message: 1 when it is marked as the environment's fault, else 2. */
int tc_err_exit_code(void);
/* Prefix the current message with "<prefix>: " (e.g. the file name at a higher level). Returns -1. */
int tc_preferr(const char *fmt, ...) TC_PRINTF(1, 2);
/* This thread's last message ("" if none). */
const char *tc_errmsg(void);
/* Rewrites the message in buf (len bytes) as one line: newlines and other control characters (a value's) escaped
 * as \n, \r, \xHH. tc_seterr and its siblings apply it to every message. */
void tc_err_one_line(char *buf, size_t len);
void tc_clearerr(void);
void tc_err_save(struct tc_err_saved *s);
int tc_err_restore(const struct tc_err_saved *s);

#endif
