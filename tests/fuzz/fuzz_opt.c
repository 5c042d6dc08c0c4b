/* fuzz_opt.c — libFuzzer harness for util/tc_opt.h, the parsers behind every command-line option.
 * Input: one selector byte, then the option text (NUL-terminated copy). Each parser must never crash or read
 * past the string, and must keep its contract: on success the value lies in the range; on failure it returns
 * -1, leaves the output untouched and sets a message that names the option. Shapes round-trip through
 * tc_format_shape. Build and run: tests/fuzz/build.sh, tests/fuzz/run.sh (docs/reliability.md). */
#include "tc_err.h"
#include "tc_opt.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond)                                                                                            \
    do {                                                                                                       \
        if (!(cond)) {                                                                                         \
            fprintf(stderr, "fuzz_opt: contract broken: %s (line %d) input '%s'\n", #cond, __LINE__, s);        \
            abort();                                                                                           \
        }                                                                                                      \
    } while (0)

static void check_failed(const char *s)
{
    CHECK(strstr(tc_errmsg(), "--opt") != NULL);
}

/* Selectors 0-4: integers, unsigned, doubles and ranges. */
static void fuzz_numbers(uint8_t sel, const char *s)
{
    switch (sel % 8) {
    case 0: {
        long v = 12345, lo = (long)(sel >> 3) - 16, hi = lo + 1000;
        if (tc_parse_long("--opt", s, lo, hi, &v) == 0)
            CHECK(v >= lo && v <= hi);
        else {
            CHECK(v == 12345);
            check_failed(s);
        }
        break;
    }
    case 1: {
        int v = 7;
        if (tc_parse_int("--opt", s, 1, 80, &v) == 0)
            CHECK(v >= 1 && v <= 80);
        else {
            CHECK(v == 7);
            check_failed(s);
        }
        break;
    }
    case 2: {
        uint64_t v = 99;
        if (tc_parse_u64("--opt", s, &v) != 0) {
            CHECK(v == 99);
            check_failed(s);
        } else {
            CHECK(s[0] >= '0' && s[0] <= '9');
        }
        break;
    }
    case 3: {
        double v = -42.0;
        if (tc_parse_double("--opt", s, 0.0, 1e6, &v) == 0)
            CHECK(v >= 0.0 && v <= 1e6);
        else {
            CHECK(v == -42.0);
            check_failed(s);
        }
        break;
    }
    case 4: {
        long lo = -5, hi = -5;
        if (tc_parse_range_long("--opt", s, 1, 80, &lo, &hi) == 0)
            CHECK(1 <= lo && lo <= hi && hi <= 80);
        else {
            CHECK(lo == -5 && hi == -5);
            check_failed(s);
        }
        double dlo = -5, dhi = -5;
        if (tc_parse_range_double("--opt", s, 0.0, 1e3, &dlo, &dhi) == 0)
            CHECK(0.0 <= dlo && dlo <= dhi && dhi <= 1e3);
        else {
            CHECK(dlo == -5 && dhi == -5);
            check_failed(s);
        }
        break;
    }
    default:
        break;
    }
}

/* Selectors 5-7: byte counts, shapes (round trip through tc_format_shape) and integer lists. */
static void fuzz_sizes_and_lists(uint8_t sel, const char *s)
{
    switch (sel % 8) {
    case 5: {
        int64_t v = -1, max = INT64_C(1) << (sel >> 3); /* max from 1 to 2^31 */
        if (tc_parse_bytes("--opt", s, max, &v) == 0)
            CHECK(v >= 0 && v <= max);
        else {
            CHECK(v == -1);
            check_failed(s);
        }
        break;
    }
    case 6: {
        int n_dims = 1 + (sel >> 3) % 4;
        int64_t d[4] = {-1, -1, -1, -1}, back[4] = {0, 0, 0, 0};
        char buf[128];
        if (tc_parse_shape("--opt", s, n_dims, 65536, d) == 0) {
            for (int i = 0; i < n_dims; i++)
                CHECK(d[i] >= 1 && d[i] <= 65536);
            tc_format_shape(d, n_dims, buf, sizeof buf);
            CHECK(tc_parse_shape("--opt", buf, n_dims, 65536, back) == 0);
            CHECK(memcmp(d, back, (size_t)n_dims * sizeof d[0]) == 0);
        } else {
            for (int i = 0; i < 4; i++)
                CHECK(d[i] == -1);
            check_failed(s);
        }
        break;
    }
    case 7: {
        long vals[8];
        int n = -1;
        if (tc_parse_long_list("--opt", s, -100, 100, vals, 8, &n) == 0) {
            CHECK(n >= 1 && n <= 8);
            for (int i = 0; i < n; i++)
                CHECK(vals[i] >= -100 && vals[i] <= 100);
        } else {
            CHECK(n == -1);
            check_failed(s);
        }
        break;
    }
    default:
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s;
    uint8_t sel;
    if (size < 1)
        return 0;
    sel = data[0];
    s = malloc(size); /* exactly size-1 bytes of text + NUL: ASan sees any read past the end */
    if (s == NULL)
        return 0;
    memcpy(s, data + 1, size - 1);
    s[size - 1] = '\0';
    tc_clearerr();

    if (sel % 8 < 5)
        fuzz_numbers(sel, s);
    else
        fuzz_sizes_and_lists(sel, s);
    free(s);
    return 0;
}
