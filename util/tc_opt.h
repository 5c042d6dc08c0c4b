/* tc_opt.h — strict parsing of command-line values for every subcommand.
 * Each parser takes the option's name (for the message), the text, and the accepted range; on failure it sets
 * a one-line message such as "--samples: expected an integer in [1, 1000000], got 'ten'" (tc_errmsg) and
 * returns -1, leaving *out untouched. Whole-string matches only: "12abc", "", " 3" and overflow are rejected. */
#ifndef TC_OPT_H
#define TC_OPT_H

#include <stdint.h>

int tc_parse_long(const char *opt, const char *s, long min, long max, long *out);
int tc_parse_int(const char *opt, const char *s, int min, int max, int *out);
int tc_parse_u64(const char *opt, const char *s, uint64_t *out);
/* Finite doubles only (no nan/inf). */
int tc_parse_double(const char *opt, const char *s, double min, double max, double *out);

/* "A:B" or a single value "A" (then lo = hi = A). Both ends checked against [min, max]; lo > hi is an error. */
int tc_parse_range_long(const char *opt, const char *s, long min, long max, long *lo, long *hi);
int tc_parse_range_double(const char *opt, const char *s, double min, double max, double *lo, double *hi);

/* Byte counts with optional binary suffix: "0", "1048576", "64K", "256M", "2G" (K/M/G = KiB/MiB/GiB). */
int tc_parse_bytes(const char *opt, const char *s, int64_t max, int64_t *out);

/* A shape "MxNxK" (n_dims values separated by 'x', each in [1, max_dim]). */
int tc_parse_shape(const char *opt, const char *s, int n_dims, int64_t max_dim, int64_t *dims);
/* Writes "MxNxK" into buf; returns buf. */
char *tc_format_shape(const int64_t *dims, int n_dims, char *buf, int len);

/* Comma-separated integers "16,32,64" (at most max_n, each in [min, max]); *n receives the count. */
int tc_parse_long_list(const char *opt, const char *s, long min, long max, long *vals, int max_n, int *n);

/* Enum <-> name tables: names[v] is the name of value v, for v in [0, n). One table per enum serves both ways.
 * tc_parse_name: *out = the index of s in names; else -1 and "OPT: expected a, b or c, got 's'". */
int tc_parse_name(const char *opt, const char *s, const char *const *names, int n, int *out);
/* names[v], or "unknown" when v is outside [0, n). */
const char *tc_name_of(const char *const *names, int n, int v);

/* 1 if the environment switch `name` is set to exactly "1" (TC_TIMING=1 and the like), else 0. */
int tc_env_flag(const char *name);

#endif
