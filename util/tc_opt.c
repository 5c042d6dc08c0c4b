/* tc_opt.c — strict number, range, shape and list parsing for command-line options (see tc_opt.h). */
#include "tc_opt.h"
#include "tc_err.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* strtol/strtod accept leading blanks; we do not. */
static int starts_clean(const char *s)
{
    return s != NULL && s[0] != '\0' && !isspace((unsigned char)s[0]);
}

int tc_parse_long(const char *opt, const char *s, long min, long max, long *out)
{
    char *end;
    long v;
    if (!starts_clean(s))
        return tc_seterr("%s: expected an integer in [%ld, %ld], got '%s'", opt, min, max, s ? s : "");
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < min || v > max)
        return tc_seterr("%s: expected an integer in [%ld, %ld], got '%s'", opt, min, max, s);
    *out = v;
    return 0;
}

int tc_parse_int(const char *opt, const char *s, int min, int max, int *out)
{
    long v;
    if (tc_parse_long(opt, s, min, max, &v) != 0)
        return -1;
    *out = (int)v;
    return 0;
}

int tc_parse_u64(const char *opt, const char *s, uint64_t *out)
{
    char *end;
    unsigned long long v;
    if (!starts_clean(s) || s[0] == '-' || s[0] == '+')
        return tc_seterr("%s: expected a non-negative integer, got '%s'", opt, s ? s : "");
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno != 0 || *end != '\0')
        return tc_seterr("%s: expected a non-negative integer below 2^64, got '%s'", opt, s);
    *out = (uint64_t)v;
    return 0;
}

int tc_parse_double(const char *opt, const char *s, double min, double max, double *out)
{
    char *end;
    double v;
    if (!starts_clean(s) || strpbrk(s, "xX") != NULL) /* no hexadecimal floats: integers are decimal too */
        return tc_seterr("%s: expected a decimal number in [%g, %g], got '%s'", opt, min, max, s ? s : "");
    errno = 0;
    v = strtod(s, &end);
    if (errno != 0 || *end != '\0' || !isfinite(v) || v < min || v > max)
        return tc_seterr("%s: expected a number in [%g, %g], got '%s'", opt, min, max, s);
    *out = v;
    return 0;
}

/* Split "A:B" at the one colon into two NUL-terminated copies; a value without colon yields A and A. */
static int split_range(const char *opt, const char *s, char *a, char *b, size_t len)
{
    const char *colon;
    if (s == NULL || strlen(s) >= len)
        return tc_seterr("%s: expected a value or a range LO:HI, got '%s'", opt, s ? s : "");
    colon = strchr(s, ':');
    if (colon == NULL) {
        strcpy(a, s);
        strcpy(b, s);
        return 0;
    }
    if (strchr(colon + 1, ':') != NULL)
        return tc_seterr("%s: expected a value or a range LO:HI, got '%s'", opt, s);
    memcpy(a, s, (size_t)(colon - s));
    a[colon - s] = '\0';
    strcpy(b, colon + 1);
    return 0;
}

int tc_parse_range_long(const char *opt, const char *s, long min, long max, long *lo, long *hi)
{
    char a[64], b[64];
    long x, y;
    if (split_range(opt, s, a, b, sizeof a) != 0)
        return -1;
    if (tc_parse_long(opt, a, min, max, &x) != 0 || tc_parse_long(opt, b, min, max, &y) != 0)
        return tc_seterr("%s: expected an integer or a range LO:HI within [%ld, %ld], got '%s'", opt, min, max, s);
    if (x > y)
        return tc_seterr("%s: range '%s' is inverted (LO must be <= HI)", opt, s);
    *lo = x;
    *hi = y;
    return 0;
}

int tc_parse_range_double(const char *opt, const char *s, double min, double max, double *lo, double *hi)
{
    char a[64], b[64];
    double x, y;
    if (split_range(opt, s, a, b, sizeof a) != 0)
        return -1;
    if (tc_parse_double(opt, a, min, max, &x) != 0 || tc_parse_double(opt, b, min, max, &y) != 0)
        return tc_seterr("%s: expected a number or a range LO:HI within [%g, %g], got '%s'", opt, min, max, s);
    if (x > y)
        return tc_seterr("%s: range '%s' is inverted (LO must be <= HI)", opt, s);
    *lo = x;
    *hi = y;
    return 0;
}

int tc_parse_bytes(const char *opt, const char *s, int64_t max, int64_t *out)
{
    char num[64];
    size_t len;
    int64_t mult = 1;
    long v;
    if (!starts_clean(s) || (len = strlen(s)) >= sizeof num)
        return tc_seterr("%s: expected a byte count such as 0, 8388608, 64K, 256M or 1G, got '%s'", opt, s ? s : "");
    memcpy(num, s, len + 1);
    switch (num[len - 1]) {
    case 'K': case 'k': mult = INT64_C(1) << 10; break;
    case 'M': case 'm': mult = INT64_C(1) << 20; break;
    case 'G': case 'g': mult = INT64_C(1) << 30; break;
    default: break;
    }
    if (mult != 1)
        num[len - 1] = '\0';
    if (tc_parse_long(opt, num, 0, (long)(max / mult), &v) != 0)
        return tc_seterr("%s: expected a byte count in [0, %" PRId64 "] such as 0, 64K, 256M or 1G, got '%s'",
                         opt, max, s);
    *out = (int64_t)v * mult;
    return 0;
}

int tc_parse_shape(const char *opt, const char *s, int n_dims, int64_t max_dim, int64_t *dims)
{
    char buf[128], *tok, *save = NULL;
    int64_t tmp[64]; /* parsed here first: on failure *dims stays untouched, as tc_opt.h promises */
    int i = 0;
    long v;
    if (n_dims < 1 || n_dims > (int)(sizeof tmp / sizeof tmp[0]))
        return tc_seterr("%s: cannot parse a shape of %d dimensions", opt, n_dims);
    if (s == NULL || strlen(s) >= sizeof buf || s[0] == '\0')
        return tc_seterr("%s: expected a shape like 4096x256x4096, got '%s'", opt, s ? s : "");
    strcpy(buf, s);
    if (buf[strlen(buf) - 1] == 'x' || buf[0] == 'x' || strstr(buf, "xx") != NULL)
        return tc_seterr("%s: expected a shape like 4096x256x4096, got '%s'", opt, s);
    for (tok = strtok_r(buf, "x", &save); tok != NULL; tok = strtok_r(NULL, "x", &save)) {
        if (i >= n_dims || tc_parse_long(opt, tok, 1, (long)max_dim, &v) != 0)
            return tc_seterr("%s: expected %d positive integers (each <= %ld) separated by 'x', got '%s'", opt,
                             n_dims, (long)max_dim, s);
        tmp[i++] = v;
    }
    if (i != n_dims)
        return tc_seterr("%s: expected %d positive integers separated by 'x', got '%s'", opt, n_dims, s);
    memcpy(dims, tmp, (size_t)n_dims * sizeof dims[0]);
    return 0;
}

char *tc_format_shape(const int64_t *dims, int n_dims, char *buf, int len)
{
    int off = 0;
    buf[0] = '\0';
    for (int i = 0; i < n_dims && off < len; i++)
        off += snprintf(buf + off, (size_t)(len - off), "%s%" PRId64, i ? "x" : "", dims[i]);
    return buf;
}

int tc_parse_long_list(const char *opt, const char *s, long min, long max, long *vals, int max_n, int *n)
{
    char buf[512], *tok, *save = NULL;
    int i = 0;
    if (s == NULL || s[0] == '\0' || strlen(s) >= sizeof buf)
        return tc_seterr("%s: expected a comma-separated list of integers, got '%s'", opt, s ? s : "");
    strcpy(buf, s);
    if (buf[0] == ',' || buf[strlen(buf) - 1] == ',' || strstr(buf, ",,") != NULL)
        return tc_seterr("%s: expected a comma-separated list of integers, got '%s'", opt, s);
    for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
        if (i >= max_n)
            return tc_seterr("%s: at most %d values allowed, got '%s'", opt, max_n, s);
        if (tc_parse_long(opt, tok, min, max, &vals[i]) != 0)
            return -1;
        i++;
    }
    *n = i;
    return 0;
}

int tc_parse_name(const char *opt, const char *s, const char *const *names, int n, int *out)
{
    char list[512];
    size_t len = 0;
    for (int i = 0; i < n; i++)
        if (s != NULL && strcmp(s, names[i]) == 0) {
            *out = i;
            return 0;
        }
    list[0] = '\0';
    for (int i = 0; i < n && len < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ",
                                names[i]);
    return tc_seterr("%s: expected %s, got '%s'", opt, list, s ? s : "");
}

const char *tc_name_of(const char *const *names, int n, int v)
{
    return v >= 0 && v < n ? names[v] : "unknown";
}

int tc_env_flag(const char *name)
{
    const char *v = getenv(name);
    return v != NULL && strcmp(v, "1") == 0;
}
