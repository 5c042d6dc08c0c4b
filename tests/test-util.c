/* test-util.c — unit tests of util/: strict option parsing (tc_opt), complete-or-absent files (tc_atomic), gnuplot
 * runs (tc_gnuplot, with a shell script standing in for gnuplot), the TSV reader (tc_tsv). Expected values are
 * written out by hand from the contracts in the headers, never computed with the code under test. The atomic-file
 * tests work in a fresh temporary directory and list it to prove that no debris (temporaries, half-written
 * targets) is visible. */
#include "tc_atomic.h"
#include "tc_cli.h"
#include "tc_err.h"
#include "tc_grow.h"
#include "tc_gnuplot.h"
#include "tc_json.h"
#include "tc_mt.h"
#include "tc_opt.h"
#include "tc_outdir.h"
#include "tc_paths.h"
#include "tc_stats.h"
#include "tc_threads.h"
#include "tc_tsv.h"
#include "test-common.h"

#include <check.h>
#include <gsl/gsl_rng.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- helpers --------------------------------------------------------------------------------------------- */

static void make_tmpdir(void)
{
    tt_tmpdir_make("tc-util");
}

/* Names in the scratch folder, sorted, joined by ' ' ("" when empty): what a user would see with ls -A. */
static const char *listing(void)
{
    static char buf[4096];
    struct dirent **names;
    int n = scandir(tt_tmpdir(), &names, NULL, alphasort);
    buf[0] = '\0';
    ck_assert_int_ge(n, 0);
    for (int i = 0; i < n; i++) {
        if (strcmp(names[i]->d_name, ".") != 0 && strcmp(names[i]->d_name, "..") != 0) {
            if (buf[0] != '\0')
                strncat(buf, " ", sizeof buf - strlen(buf) - 1);
            strncat(buf, names[i]->d_name, sizeof buf - strlen(buf) - 1);
        }
        free(names[i]);
    }
    free(names);
    return buf;
}

static void write_plain(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    ck_assert_ptr_nonnull(fp);
    fputs(text, fp);
    ck_assert_int_eq(fclose(fp), 0);
}

/* Whole content of a file (at most 255 bytes), or "<absent>". */
static const char *content(const char *path)
{
    static char buf[256];
    FILE *fp = fopen(path, "r");
    size_t n;
    if (fp == NULL)
        return "<absent>";
    n = fread(buf, 1, sizeof buf - 1, fp);
    buf[n] = '\0';
    fclose(fp);
    return buf;
}

/* ---- tc_parse_long / tc_parse_int ------------------------------------------------------------------------ */

START_TEST(test_util_parse_long_accepts_whole_numbers)
{
    long v = 0;
    ck_assert_int_eq(tc_parse_long("--n", "42", 0, 100, &v), 0);
    ck_assert_int_eq(v, 42);
    ck_assert_int_eq(tc_parse_long("--n", "-7", -10, 10, &v), 0);
    ck_assert_int_eq(v, -7);
    ck_assert_int_eq(tc_parse_long("--n", "+5", 0, 10, &v), 0);
    ck_assert_int_eq(v, 5);
    /* both ends of the range are inside */
    ck_assert_int_eq(tc_parse_long("--n", "1", 1, 80, &v), 0);
    ck_assert_int_eq(v, 1);
    ck_assert_int_eq(tc_parse_long("--n", "80", 1, 80, &v), 0);
    ck_assert_int_eq(v, 80);
    ck_assert_int_eq(tc_parse_long("--n", "9223372036854775807", 0, LONG_MAX, &v), 0);
    ck_assert(v == LONG_MAX);
}
END_TEST

START_TEST(test_util_parse_long_rejects_junk_and_leaves_output)
{
    static const char *bad[] = {"", " 3", "3 ", "12abc", "abc", "0x10", "1e3", "1.0", "--5", "- 5", "3\n",
                                "99999999999999999999", "-99999999999999999999", "0", "81", "-1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        long v = 1234;
        tc_clearerr();
        ck_assert_msg(tc_parse_long("--samples", bad[i], 1, 80, &v) == -1, "accepted '%s'", bad[i]);
        ck_assert_msg(v == 1234, "'%s' changed the output to %ld", bad[i], v);
        ck_assert_msg(strstr(tc_errmsg(), "--samples") != NULL, "message lacks the option: %s", tc_errmsg());
        /* The message quotes the value as typed, so only a value without a newline gives a one-line message. */
        if (strchr(bad[i], '\n') == NULL)
            ck_assert_msg(strchr(tc_errmsg(), '\n') == NULL, "message is not one line: %s", tc_errmsg());
    }
    /* The message quotes what the user typed and the accepted range. */
    tc_parse_long("--samples", "ten", 1, 80, &(long){0});
    ck_assert_str_eq(tc_errmsg(), "--samples: expected an integer in [1, 80], got 'ten'");
}
END_TEST

START_TEST(test_util_parse_long_null_is_an_error)
{
    long v = 9;
    ck_assert_int_eq(tc_parse_long("--n", NULL, 0, 10, &v), -1);
    ck_assert_int_eq(v, 9);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "--n"));
}
END_TEST

START_TEST(test_util_parse_int_range)
{
    int v = -1;
    ck_assert_int_eq(tc_parse_int("--threads", "16", 1, 1024, &v), 0);
    ck_assert_int_eq(v, 16);
    /* 2^31 does not fit an int, whatever the range says */
    v = 3;
    ck_assert_int_eq(tc_parse_int("--threads", "2147483648", 1, INT_MAX, &v), -1);
    ck_assert_int_eq(v, 3);
    ck_assert_int_eq(tc_parse_int("--threads", "2147483647", 1, INT_MAX, &v), 0);
    ck_assert_int_eq(v, INT_MAX);
}
END_TEST

/* ---- tc_parse_u64 ---------------------------------------------------------------------------------------- */

START_TEST(test_util_parse_u64_full_range)
{
    uint64_t v = 0;
    ck_assert_int_eq(tc_parse_u64("--seed", "0", &v), 0);
    ck_assert(v == 0);
    ck_assert_int_eq(tc_parse_u64("--seed", "18446744073709551615", &v), 0);
    ck_assert(v == UINT64_MAX);
    static const char *bad[] = {"18446744073709551616", "-1", "+1", "", " 1", "1x", "0x5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        v = 77;
        ck_assert_msg(tc_parse_u64("--seed", bad[i], &v) == -1, "accepted '%s'", bad[i]);
        ck_assert(v == 77);
        ck_assert_ptr_nonnull(strstr(tc_errmsg(), "--seed"));
    }
}
END_TEST

/* ---- tc_parse_double ------------------------------------------------------------------------------------- */

START_TEST(test_util_parse_double_finite_only)
{
    double v = 0;
    ck_assert_int_eq(tc_parse_double("--threshold", "1.5", 1.0, 2.0, &v), 0);
    ck_assert(v == 1.5);
    ck_assert_int_eq(tc_parse_double("--threshold", "2e-1", 0.0, 1.0, &v), 0);
    ck_assert(v == 0.2);
    ck_assert_int_eq(tc_parse_double("--threshold", "-0.25", -1.0, 1.0, &v), 0);
    ck_assert(v == -0.25);
    static const char *bad[] = {"nan", "NaN", "inf", "-inf", "infinity", "1e999", "", " 1", "1.5x", "1,5",
                                "0.99", "2.01", "."};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        v = 42.0;
        ck_assert_msg(tc_parse_double("--threshold", bad[i], 1.0, 2.0, &v) == -1, "accepted '%s'", bad[i]);
        ck_assert(v == 42.0);
        ck_assert_ptr_nonnull(strstr(tc_errmsg(), "--threshold"));
    }
}
END_TEST

/* ---- ranges ---------------------------------------------------------------------------------------------- */

START_TEST(test_util_parse_range_long)
{
    long lo = 0, hi = 0;
    ck_assert_int_eq(tc_parse_range_long("--n-config", "3:7", 1, 80, &lo, &hi), 0);
    ck_assert_int_eq(lo, 3);
    ck_assert_int_eq(hi, 7);
    ck_assert_int_eq(tc_parse_range_long("--n-config", "5", 1, 80, &lo, &hi), 0);
    ck_assert_int_eq(lo, 5);
    ck_assert_int_eq(hi, 5);
    ck_assert_int_eq(tc_parse_range_long("--n-config", "80:80", 1, 80, &lo, &hi), 0);
    ck_assert_int_eq(lo, 80);
    ck_assert_int_eq(hi, 80);

    lo = hi = -9;
    ck_assert_int_eq(tc_parse_range_long("--n-config", "7:3", 1, 80, &lo, &hi), -1);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "inverted"));
    ck_assert_int_eq(lo, -9);
    ck_assert_int_eq(hi, -9);

    static const char *bad[] = {":5", "5:", ":", "1:2:3", "a:b", "0:5", "5:81", "-3:4", "1 :2", "",
                                /* longer than the 64-byte halves: must be refused, not overflow */
                                "1111111111111111111111111111111111111111111111111111111111111111111111:2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(tc_parse_range_long("--n-config", bad[i], 1, 80, &lo, &hi) == -1, "accepted '%s'", bad[i]);
        ck_assert_int_eq(lo, -9);
        ck_assert_ptr_nonnull(strstr(tc_errmsg(), "--n-config"));
    }
}
END_TEST

START_TEST(test_util_parse_range_double)
{
    double lo = 0, hi = 0;
    ck_assert_int_eq(tc_parse_range_double("--exec-ms", "10:100", 0.0, 1e6, &lo, &hi), 0);
    ck_assert(lo == 10.0 && hi == 100.0);
    ck_assert_int_eq(tc_parse_range_double("--exec-ms", "0.5", 0.0, 1e6, &lo, &hi), 0);
    ck_assert(lo == 0.5 && hi == 0.5);
    lo = hi = -1;
    ck_assert_int_eq(tc_parse_range_double("--exec-ms", "100:10", 0.0, 1e6, &lo, &hi), -1);
    ck_assert_int_eq(tc_parse_range_double("--exec-ms", "nan:10", 0.0, 1e6, &lo, &hi), -1);
    ck_assert_int_eq(tc_parse_range_double("--exec-ms", "1:inf", 0.0, 1e6, &lo, &hi), -1);
    ck_assert_int_eq(tc_parse_range_double("--exec-ms", "-1:5", 0.0, 1e6, &lo, &hi), -1);
    ck_assert(lo == -1 && hi == -1);
}
END_TEST

/* ---- byte counts ----------------------------------------------------------------------------------------- */

START_TEST(test_util_parse_bytes_suffixes)
{
    int64_t v = 0;
    const int64_t max = INT64_C(1) << 40;
    ck_assert_int_eq(tc_parse_bytes("--flush", "0", max, &v), 0);
    ck_assert(v == 0);
    ck_assert_int_eq(tc_parse_bytes("--flush", "1048576", max, &v), 0);
    ck_assert(v == 1048576);
    ck_assert_int_eq(tc_parse_bytes("--flush", "64K", max, &v), 0);
    ck_assert(v == 65536);
    ck_assert_int_eq(tc_parse_bytes("--flush", "64k", max, &v), 0);
    ck_assert(v == 65536);
    ck_assert_int_eq(tc_parse_bytes("--flush", "256M", max, &v), 0);
    ck_assert(v == 268435456);
    ck_assert_int_eq(tc_parse_bytes("--flush", "2G", max, &v), 0);
    ck_assert(v == INT64_C(2147483648));
    /* the maximum itself is allowed, one unit above is not */
    ck_assert_int_eq(tc_parse_bytes("--flush", "1G", INT64_C(1) << 30, &v), 0);
    ck_assert(v == INT64_C(1073741824));
    v = 5;
    ck_assert_int_eq(tc_parse_bytes("--flush", "2G", INT64_C(1) << 30, &v), -1);
    ck_assert(v == 5);
    static const char *bad[] = {"", "K", "-1", "-1K", "1.5M", "1T", "1KB", "M1", " 1K", "1 K",
                                "99999999999999999999", "9999999999999999G"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(tc_parse_bytes("--flush", bad[i], max, &v) == -1, "accepted '%s'", bad[i]);
        ck_assert(v == 5);
        ck_assert_ptr_nonnull(strstr(tc_errmsg(), "--flush"));
    }
}
END_TEST

/* ---- shapes ---------------------------------------------------------------------------------------------- */

START_TEST(test_util_parse_shape)
{
    int64_t d[3] = {0, 0, 0};
    ck_assert_int_eq(tc_parse_shape("--input", "4096x256x4096", 3, 65536, d), 0);
    ck_assert(d[0] == 4096 && d[1] == 256 && d[2] == 4096);
    ck_assert_int_eq(tc_parse_shape("--input", "1x1x65536", 3, 65536, d), 0);
    ck_assert(d[0] == 1 && d[1] == 1 && d[2] == 65536);
    static const char *bad[] = {"", "4096", "4096x256", "1x2x3x4", "0x1x1", "1x0x1", "-1x2x3", "x1x1", "1xx1",
                                "1x1x", "1x1x65537", "AxBxC", "1X2X3", "1x2x3 ", "1.5x2x3", "1,2,3",
                                "4096x256x4096x4096x4096x4096x4096x4096x4096x4096x4096x4096x4096x4096x4096x4096"
                                "x4096x4096x4096x4096x4096x4096x4096x4096x4096x4096x4096x4096x4096x4096x4096"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int64_t e[3] = {7, 7, 7};
        ck_assert_msg(tc_parse_shape("--input", bad[i], 3, 65536, e) == -1, "accepted '%s'", bad[i]);
        ck_assert_ptr_nonnull(strstr(tc_errmsg(), "--input"));
    }
}
END_TEST

/* tc_opt.h: "on failure ... returns -1, leaving *out untouched". A shape whose last value is bad must not leave
 * the first values written: callers keep their defaults when an option is refused. */
START_TEST(test_util_parse_shape_failure_leaves_output)
{
    int64_t e[3] = {7, 7, 7};
    ck_assert_int_eq(tc_parse_shape("--input", "16x32x0", 3, 65536, e), -1);
    ck_assert(e[0] == 7 && e[1] == 7 && e[2] == 7);
    ck_assert_int_eq(tc_parse_shape("--input", "16x32x64x128", 3, 65536, e), -1);
    ck_assert(e[0] == 7 && e[1] == 7 && e[2] == 7);
}
END_TEST

START_TEST(test_util_format_shape)
{
    const int64_t d[3] = {4096, 256, 4096};
    char buf[64], small[6];
    ck_assert_str_eq(tc_format_shape(d, 3, buf, sizeof buf), "4096x256x4096");
    ck_assert_str_eq(tc_format_shape(d, 1, buf, sizeof buf), "4096");
    /* a short buffer truncates but stays a NUL-terminated prefix */
    tc_format_shape(d, 3, small, sizeof small);
    ck_assert_int_lt(strlen(small), sizeof small);
    ck_assert_int_eq(strncmp(small, "4096x256x4096", strlen(small)), 0);
}
END_TEST

/* ---- lists ----------------------------------------------------------------------------------------------- */

START_TEST(test_util_parse_long_list)
{
    long v[4] = {0};
    int n = -1;
    ck_assert_int_eq(tc_parse_long_list("--block-m", "16,32,64", 1, 256, v, 4, &n), 0);
    ck_assert_int_eq(n, 3);
    ck_assert(v[0] == 16 && v[1] == 32 && v[2] == 64);
    ck_assert_int_eq(tc_parse_long_list("--block-m", "128", 1, 256, v, 4, &n), 0);
    ck_assert_int_eq(n, 1);
    ck_assert(v[0] == 128);
    static const char *bad[] = {"", ",", ",16", "16,", "16,,32", "16,abc", "16,512", "0", "1,2,3,4,5", "16 ,32",
                                "16;32"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        n = -1;
        ck_assert_msg(tc_parse_long_list("--block-m", bad[i], 1, 256, v, 4, &n) == -1, "accepted '%s'", bad[i]);
        ck_assert_int_eq(n, -1);
        ck_assert_ptr_nonnull(strstr(tc_errmsg(), "--block-m"));
    }
}
END_TEST

/* Environment switches (TC_TIMING=1, ...) are on only when set to exactly "1". */
START_TEST(test_util_env_flag)
{
    const char *name = "TC_TEST_UTIL_FLAG";
    unsetenv(name);
    ck_assert_int_eq(tc_env_flag(name), 0);
    ck_assert_int_eq(setenv(name, "1", 1), 0);
    ck_assert_int_eq(tc_env_flag(name), 1);
    ck_assert_int_eq(setenv(name, "0", 1), 0);
    ck_assert_int_eq(tc_env_flag(name), 0);
    ck_assert_int_eq(setenv(name, "", 1), 0);
    ck_assert_int_eq(tc_env_flag(name), 0);
    ck_assert_int_eq(setenv(name, "11", 1), 0);
    ck_assert_int_eq(tc_env_flag(name), 0);
    ck_assert_int_eq(setenv(name, "yes", 1), 0);
    ck_assert_int_eq(tc_env_flag(name), 0);
    unsetenv(name);
}
END_TEST

/* One name table serves both ways; a miss lists the names as a user reads them and leaves *out alone. */
START_TEST(test_util_parse_name_both_ways)
{
    static const char *const three[] = {"mean", "median", "min"};
    static const char *const two[] = {"paper", "per-exec"};
    int v = 7;
    ck_assert_int_eq(tc_parse_name("--estimator", "median", three, 3, &v), 0);
    ck_assert_int_eq(v, 1);
    ck_assert_str_eq(tc_name_of(three, 3, v), "median");
    ck_assert_int_eq(tc_parse_name("--estimator", "max", three, 3, &v), -1);
    ck_assert_int_eq(v, 1);
    ck_assert_str_eq(tc_errmsg(), "--estimator: expected mean, median or min, got 'max'");
    ck_assert_int_eq(tc_parse_name("--overhead", "Paper", two, 2, &v), -1);
    ck_assert_str_eq(tc_errmsg(), "--overhead: expected paper or per-exec, got 'Paper'");
    ck_assert_int_eq(tc_parse_name("--overhead", NULL, two, 2, &v), -1);
    ck_assert_str_eq(tc_name_of(two, 2, 2), "unknown");
    ck_assert_str_eq(tc_name_of(two, 2, -1), "unknown");
}
END_TEST

/* ---- tc_threads ------------------------------------------------------------------------------------------- */

struct worker_probe {
    int runs;          /* how many times this worker ran */
    int on_caller;     /* it ran on the calling thread */
    pthread_t caller;
};
static void *probe_worker(void *arg)
{
    struct worker_probe *p = arg;
    p->runs++;
    p->on_caller = pthread_equal(pthread_self(), p->caller);
    return NULL;
}

/* Every worker runs exactly once, each on its own argument; worker 0 on the calling thread. */
START_TEST(test_util_run_workers_each_once)
{
    struct worker_probe p[5];
    for (int k = 0; k < 5; k++)
        p[k] = (struct worker_probe){0, 0, pthread_self()};
    tc_run_workers(5, probe_worker, p, sizeof *p);
    for (int k = 0; k < 5; k++)
        ck_assert_int_eq(p[k].runs, 1);
    ck_assert_int_eq(p[0].on_caller, 1);
    p[0].runs = 0;
    tc_run_workers(1, probe_worker, p, sizeof *p); /* one worker: no thread at all */
    ck_assert_int_eq(p[0].runs, 1);
    ck_assert_int_eq(p[0].on_caller, 1);
    tc_run_workers(0, probe_worker, p, sizeof *p);
    ck_assert_int_eq(p[0].runs, 1);
}
END_TEST

struct shared_work {
    pthread_mutex_t mu;
    int next, n_items;
    int done[100];
};
static void *take_work(void *arg)
{
    struct shared_work *w = arg;
    for (;;) {
        pthread_mutex_lock(&w->mu);
        int i = w->next < w->n_items ? w->next++ : -1;
        pthread_mutex_unlock(&w->mu);
        if (i < 0)
            return NULL;
        w->done[i]++;
    }
}

/* One shared argument (arg_size 0): the workers share out the items, each done once. */
START_TEST(test_util_run_workers_shared_argument)
{
    struct shared_work w = {.mu = PTHREAD_MUTEX_INITIALIZER, .next = 0, .n_items = 100};
    tc_run_workers(4, take_work, &w, 0);
    for (int i = 0; i < 100; i++)
        ck_assert_int_eq(w.done[i], 1);
}
END_TEST

/* ---- tc_stats ---------------------------------------------------------------------------------------------- */

/* Medians worked out by hand: {7,1,5} sorted is 1,5,7 -> 5; {4,9,2,8} sorted is 2,4,8,9 -> (4+8)/2 = 6;
 * {3,3,3,1,3,3} sorted is 1,3,3,3,3,3 -> 3; a single value is its own median. */
START_TEST(test_util_median_u64)
{
    const uint64_t odd[] = {7, 1, 5}, even[] = {4, 9, 2, 8}, dup[] = {3, 3, 3, 1, 3, 3}, one[] = {42};
    uint64_t scratch[6];
    ck_assert_double_eq(tc_median_u64(odd, 3, NULL), 5.0);
    ck_assert_double_eq(tc_median_u64(odd, 3, scratch), 5.0);
    ck_assert_double_eq(tc_median_u64(even, 4, NULL), 6.0);
    ck_assert_double_eq(tc_median_u64(even, 4, scratch), 6.0);
    ck_assert_double_eq(tc_median_u64(dup, 6, scratch), 3.0);
    ck_assert_double_eq(tc_median_u64(one, 1, NULL), 42.0);
    ck_assert(isnan(tc_median_u64(one, 0, NULL)));
    /* the input is left as it was */
    ck_assert(even[0] == 4 && even[1] == 9 && even[2] == 2 && even[3] == 8);
}
END_TEST

/* {9,3,7,3,1,8,3} sorted is 1,3,3,3,7,8,9: rank 4 is 7, rank 0 is 1, rank 6 is 9; after selecting rank k the
 * k values before it are all <= it and those after are all >= it. */
START_TEST(test_util_select_u64)
{
    const uint64_t x[] = {9, 3, 7, 3, 1, 8, 3}, want[] = {1, 3, 3, 3, 7, 8, 9};
    for (size_t k = 0; k < 7; k++) {
        uint64_t a[7];
        memcpy(a, x, sizeof a);
        ck_assert_uint_eq(tc_select_u64(a, 7, k), want[k]);
        for (size_t i = 0; i < 7; i++)
            ck_assert(i < k ? a[i] <= a[k] : a[i] >= a[k]);
    }
}
END_TEST

/* {2.5, -1, 0.5, 10} sorted is -1, 0.5, 2.5, 10: median (0.5 + 2.5) / 2 = 1.5; its first three: 0.5. */
START_TEST(test_util_median_sorted)
{
    double v[] = {2.5, -1.0, 0.5, 10.0};
    qsort(v, 4, sizeof *v, tc_cmp_double);
    ck_assert(v[0] == -1.0 && v[1] == 0.5 && v[2] == 2.5 && v[3] == 10.0);
    ck_assert_double_eq(tc_median_sorted(v, 4), 1.5);
    ck_assert_double_eq(tc_median_sorted(v, 3), 0.5);
    ck_assert_double_eq(tc_median_sorted(v + 3, 1), 10.0);
}
END_TEST

/* ---- tc_atomic ------------------------------------------------------------------------------------------- */

START_TEST(test_util_atomic_commit_publishes_whole_file)
{
    struct tc_atomic a;
    FILE *fp = tc_atomic_open(&a, tt_path("points.tsv"));
    ck_assert_ptr_nonnull(fp);
    fputs("sample\ttime_ms\n", fp);
    /* nothing is visible before commit */
    ck_assert_str_eq(content(tt_path("points.tsv")), "<absent>");
    fputs("0\t1.5\n", fp);
    ck_assert_int_eq(tc_atomic_commit(&a), 0);
    ck_assert_str_eq(content(tt_path("points.tsv")), "sample\ttime_ms\n0\t1.5\n");
    /* and no temporary is left beside it */
    ck_assert_str_eq(listing(), "points.tsv");
}
END_TEST

START_TEST(test_util_atomic_mode_follows_umask)
{
    struct tc_atomic a;
    struct stat st;
    mode_t old = umask(022);
    FILE *fp = tc_atomic_open(&a, tt_path("m.tsv"));
    ck_assert_ptr_nonnull(fp);
    fputs("x\n", fp);
    ck_assert_int_eq(tc_atomic_commit(&a), 0);
    umask(old);
    ck_assert_int_eq(stat(tt_path("m.tsv"), &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0644);
}
END_TEST

START_TEST(test_util_atomic_abort_leaves_nothing)
{
    struct tc_atomic a;
    FILE *fp = tc_atomic_open(&a, tt_path("frontier.tsv"));
    ck_assert_ptr_nonnull(fp);
    fputs("half a table", fp);
    tc_atomic_abort(&a);
    tc_atomic_abort(&a); /* safe to call twice */
    ck_assert_str_eq(listing(), "");
}
END_TEST

START_TEST(test_util_atomic_replace_keeps_old_until_commit)
{
    struct tc_atomic a;
    FILE *fp;
    write_plain(tt_path("summary.md"), "old report\n");
    fp = tc_atomic_open(&a, tt_path("summary.md"));
    ck_assert_ptr_nonnull(fp);
    fputs("new report\n", fp);
    fflush(fp);
    ck_assert_str_eq(content(tt_path("summary.md")), "old report\n");
    ck_assert_int_eq(tc_atomic_commit(&a), 0);
    ck_assert_str_eq(content(tt_path("summary.md")), "new report\n");
    ck_assert_str_eq(listing(), "summary.md");

    /* an aborted rewrite keeps the old file as it was */
    fp = tc_atomic_open(&a, tt_path("summary.md"));
    ck_assert_ptr_nonnull(fp);
    fputs("broken", fp);
    tc_atomic_abort(&a);
    ck_assert_str_eq(content(tt_path("summary.md")), "new report\n");
    ck_assert_str_eq(listing(), "summary.md");
}
END_TEST

START_TEST(test_util_atomic_open_errors_name_the_path)
{
    struct tc_atomic a;
    ck_assert_int_eq(mkdir(tt_path("sub"), 0755), 0);
    ck_assert_ptr_null(tc_atomic_open(&a, tt_path("sub")));
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "is a directory"));
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "sub"));
    ck_assert_ptr_null(tc_atomic_open(&a, tt_path("no-such-dir/out.tsv")));
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "no-such-dir/out.tsv"));
    ck_assert_str_eq(listing(), "sub");
}
END_TEST

START_TEST(test_util_atomic_commit_without_open_fails)
{
    struct tc_atomic a;
    memset(&a, 0, sizeof a);
    ck_assert_int_lt(snprintf(a.path, sizeof a.path, "%s", tt_path("x")), (int)sizeof a.path);
    ck_assert_int_eq(tc_atomic_commit(&a), -1);
    ck_assert_str_eq(listing(), "");
}
END_TEST

START_TEST(test_util_atomic_tmpname)
{
    char tmp[PATH_MAX], want[PATH_MAX];
    ck_assert_int_eq(tc_atomic_tmpname("out/points.tsv", tmp, sizeof tmp), 0);
    snprintf(want, sizeof want, "out/.points.tsv.tmp.%ld", (long)getpid());
    ck_assert_str_eq(tmp, want);
    ck_assert_int_eq(tc_atomic_tmpname("merged.h5", tmp, sizeof tmp), 0);
    snprintf(want, sizeof want, "./.merged.h5.tmp.%ld", (long)getpid());
    ck_assert_str_eq(tmp, want);
    /* too small a buffer is an error, not a silent truncation */
    ck_assert_int_eq(tc_atomic_tmpname("out/points.tsv", tmp, 10), -1);
}
END_TEST

START_TEST(test_util_atomic_rename)
{
    char tmp[PATH_MAX];
    ck_assert_int_eq(tc_atomic_tmpname(tt_path("merged.h5"), tmp, sizeof tmp), 0);
    write_plain(tmp, "HDF");
    ck_assert_int_eq(tc_atomic_rename(tmp, tt_path("merged.h5")), 0);
    ck_assert_str_eq(content(tt_path("merged.h5")), "HDF");
    ck_assert_str_eq(listing(), "merged.h5");
    /* a failed rename removes the temporary and names the target */
    write_plain(tmp, "HDF2");
    ck_assert_int_eq(tc_atomic_rename(tmp, tt_path("missing-dir/merged.h5")), -1);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "missing-dir/merged.h5"));
    ck_assert_str_eq(listing(), "merged.h5");
}
END_TEST

/* A process killed (SIGKILL, no cleanup at all) after writing 4 MiB but before commit leaves no trace of the
 * new file, and an existing file at the target keeps its old content. */
START_TEST(test_util_atomic_sigkill_before_commit)
{
    pid_t pid;
    int status;
    write_plain(tt_path("keep.tsv"), "old\n");
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        struct tc_atomic a, b;
        FILE *fa = tc_atomic_open(&a, tt_path("new.tsv"));
        FILE *fb = tc_atomic_open(&b, tt_path("keep.tsv"));
        if (fa == NULL || fb == NULL)
            _exit(3);
        for (int i = 0; i < 1 << 16; i++) {
            fputs("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\n", fa);
            if (i % 1024 == 0)
                fputs("partial\n", fb);
        }
        fflush(fa);
        fflush(fb);
        raise(SIGKILL);
        _exit(4);
    }
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    ck_assert_str_eq(content(tt_path("keep.tsv")), "old\n");
    /* With O_TMPFILE nothing else is visible; the named fallback would leave ".new.tsv.tmp.PID". */
    ck_assert_str_eq(listing(), "keep.tsv");
}
END_TEST

/* ---- JSON strings: always valid UTF-8 ----------------------------------------------------------------------- */

static const char *json_of(const char *s)
{
    static char buf[256];
    FILE *fp = fmemopen(buf, sizeof buf, "w");
    ck_assert_ptr_nonnull(fp);
    tc_json_str(fp, s);
    ck_assert_int_eq(fclose(fp), 0);
    return buf;
}

START_TEST(test_util_json_replaces_invalid_utf8)
{
    /* A device name with bytes that are not UTF-8 (0xff, 0xfe, a lone continuation byte 0x80): each becomes the
     * escape \ufffd, so the JSON document stays valid UTF-8. */
    ck_assert_str_eq(json_of("GPU \xff\xfe\x80"), "\"GPU \\ufffd\\ufffd\\ufffd\"");
    /* well-formed multi-byte sequences pass through unchanged: "é" (C3 A9), "€" (E2 82 AC), U+1F600 (F0 9F 98 80) */
    ck_assert_str_eq(json_of("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"), "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"");
    /* overlong "/" (C0 AF), a UTF-16 surrogate (ED A0 80), a sequence cut short (E2 82 then 'x') */
    ck_assert_str_eq(json_of("\xc0\xaf"), "\"\\ufffd\\ufffd\"");
    ck_assert_str_eq(json_of("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");
    ck_assert_str_eq(json_of("\xe2\x82x"), "\"\\ufffd\\ufffdx\"");
    ck_assert_str_eq(json_of("a\"b\\\n"), "\"a\\\"b\\\\\\n\"");
}
END_TEST

/* ---- output paths: never an input, never a missing directory ------------------------------------------------ */

START_TEST(test_util_output_check_refuses_inputs_and_bad_paths)
{
    char sub[PATH_MAX + 64], in_sub[PATH_MAX + 128], link[PATH_MAX + 64];
    const char *inputs[2];
    write_plain(tt_path("t.h5"), "trace");
    snprintf(link, sizeof link, "%s", tt_path("link.h5"));
    ck_assert_int_eq(symlink("t.h5", link), 0);
    snprintf(sub, sizeof sub, "%s", tt_path("R"));
    ck_assert_int_eq(mkdir(sub, 0755), 0);
    snprintf(in_sub, sizeof in_sub, "%s/t.h5", sub);
    write_plain(in_sub, "trace");

    inputs[0] = tt_path("t.h5");
    inputs[1] = NULL;
    ck_assert_int_eq(tc_output_check("-o", "", 0, inputs, 1), -1);             /* empty */
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "empty"));
    ck_assert_int_eq(tc_output_check("-o", tt_path("t.h5"), 0, inputs, 2), -1); /* the input itself */
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "is the input"));
    ck_assert_int_eq(tc_output_check("-o", link, 0, inputs, 1), -1);           /* the input through a link */
    ck_assert_int_eq(tc_output_check("-o", tt_path("no/x.tsv"), 0, inputs, 1), -1); /* missing directory */
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "does not exist"));
    ck_assert_int_eq(tc_output_check("-o", sub, 0, inputs, 1), -1);            /* a directory for a file */
    ck_assert_int_eq(tc_output_check("-o", tt_path("new.tsv"), 0, inputs, 1), 0);
    inputs[1] = in_sub;                                                           /* an input inside DIR */
    ck_assert_int_eq(tc_output_check("-o", sub, 1, inputs, 2), -1);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "lies inside"));
    ck_assert_int_eq(tc_output_check("-o", tt_path("S"), 1, inputs, 2), 0);       /* a new directory */
    ck_assert_int_eq(tc_output_check("-o", tt_path("t.h5"), 1, inputs, 1), -1);   /* a file for a directory */
    unlink(in_sub);
    unlink(link);
}
END_TEST

START_TEST(test_util_outdir_swaps_whole_or_not_at_all)
{
    struct tc_outdir od;
    char f[PATH_MAX + 128];
    ck_assert_int_eq(mkdir(tt_path("out"), 0755), 0);
    write_plain(tt_path("out/a"), "old");
    /* abort: the earlier directory is untouched and no temporary is left */
    ck_assert_int_eq(tc_outdir_begin(&od, tt_path("out")), 0);
    snprintf(f, sizeof f, "%s/a", od.tmp);
    write_plain(f, "new");
    tc_outdir_abort(&od);
    ck_assert_str_eq(listing(), "out");
    ck_assert_str_eq(content(tt_path("out/a")), "old");
    /* commit: the new content replaces the old directory as a whole (b appears, a is gone) */
    ck_assert_int_eq(tc_outdir_begin(&od, tt_path("out")), 0);
    snprintf(f, sizeof f, "%s/b", od.tmp);
    write_plain(f, "new");
    ck_assert_int_eq(tc_outdir_commit(&od), 0);
    ck_assert_str_eq(listing(), "out");
    ck_assert_str_eq(content(tt_path("out/a")), "<absent>");
    ck_assert_str_eq(content(tt_path("out/b")), "new");
    unlink(tt_path("out/b"));
    /* a missing parent directory is refused up front */
    ck_assert_int_eq(tc_outdir_begin(&od, tt_path("no/out")), -1);
}
END_TEST

/* Without -f a commit never replaces a file that appeared after the open (the user's, or another run's): the
 * commit fails naming the path, the file keeps its content, and no temporary is left. With -f it replaces it. */
START_TEST(test_util_atomic_commit_noreplace_keeps_a_file_made_meanwhile)
{
    struct tc_atomic a;
    FILE *fp = tc_atomic_open(&a, tt_path("out.tsv"));
    ck_assert_ptr_nonnull(fp);
    fputs("ours\n", fp);
    write_plain(tt_path("out.tsv"), "theirs\n"); /* made by someone else while we wrote */
    ck_assert_int_eq(tc_atomic_commit_force(&a, 0), -1);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "out.tsv exists"));
    ck_assert_int_eq(tc_err_exit_code(), 2); /* the user's output is taken: not an environment fault */
    ck_assert_str_eq(content(tt_path("out.tsv")), "theirs\n");
    ck_assert_str_eq(listing(), "out.tsv");
    /* a free name is taken; -f replaces */
    fp = tc_atomic_open(&a, tt_path("new.tsv"));
    fputs("ours\n", fp);
    ck_assert_int_eq(tc_atomic_commit_force(&a, 0), 0);
    ck_assert_str_eq(content(tt_path("new.tsv")), "ours\n");
    fp = tc_atomic_open(&a, tt_path("out.tsv"));
    fputs("forced\n", fp);
    ck_assert_int_eq(tc_atomic_commit_force(&a, 1), 0);
    ck_assert_str_eq(content(tt_path("out.tsv")), "forced\n");
    unlink(tt_path("out.tsv"));
    unlink(tt_path("new.tsv"));
}
END_TEST

/* An existing output that is not a regular file (a FIFO here; a device node alike) is refused: the rename would
 * put a regular file in its place. */
START_TEST(test_util_output_check_refuses_non_regular_files)
{
    ck_assert_int_eq(mkfifo(tt_path("fifo"), 0644), 0);
    ck_assert_int_eq(tc_output_check("--tsv", tt_path("fifo"), 0, NULL, 0), -1);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "--tsv"));
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "not a regular file"));
    unlink(tt_path("fifo"));
}
END_TEST

/* The one rule for output directories: absent, empty or holding only the command's outputs (patterns, or the
 * marker's list) may be replaced; a foreign file is named in a refusal whatever -f says. */
START_TEST(test_util_outdir_replaceable_one_rule)
{
    static const char *const names[] = {"points.tsv", "*.png"};
    char f[PATH_MAX + 128];
    ck_assert_int_eq(tc_outdir_replaceable(tt_path("none"), "simulate", NULL, names, 2), 0);
    ck_assert_int_eq(mkdir(tt_path("d"), 0755), 0);
    ck_assert_int_eq(tc_outdir_replaceable(tt_path("d"), "simulate", NULL, names, 2), 0);
    write_plain(tt_path("d/points.tsv"), "x");
    write_plain(tt_path("d/a.png"), "x");
    ck_assert_int_eq(tc_outdir_replaceable(tt_path("d"), "simulate", NULL, names, 2), 0);
    write_plain(tt_path("d/mine.txt"), "keep");
    ck_assert_int_eq(tc_outdir_replaceable(tt_path("d"), "simulate", NULL, names, 2), -1);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "'mine.txt'"));
    unlink(tt_path("d/mine.txt"));
    /* with a marker: a non-empty directory without it is not ours; with it, only the listed names are */
    ck_assert_int_eq(tc_outdir_replaceable(tt_path("d"), "report", ".mark", names, 2), -1);
    ck_assert_int_eq(tc_outdir_write_marker(tt_path("d"), ".mark", "a test marker"), 0);
    const char *m = content(tt_path("d/.mark")); /* the first line, then the entries in readdir's order */
    ck_assert_msg(strncmp(m, "a test marker\n", 14) == 0 && strstr(m, "\na.png\n") && strstr(m, "\npoints.tsv\n") &&
                  strlen(m) == strlen("a test marker\na.png\npoints.tsv\n"), "%s", m);
    ck_assert_int_eq(tc_outdir_replaceable(tt_path("d"), "report", ".mark", names, 2), 0);
    write_plain(tt_path("d/b.png"), "x"); /* matches a pattern, but the marker does not list it */
    ck_assert_int_eq(tc_outdir_replaceable(tt_path("d"), "report", ".mark", names, 2), -1);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "'b.png'"));
    snprintf(f, sizeof f, "%s", tt_path("d"));
    unlink(tt_path("d/b.png"));
    unlink(tt_path("d/a.png"));
    unlink(tt_path("d/points.tsv"));
    unlink(tt_path("d/.mark"));
    rmdir(f);
}
END_TEST

/* ---- declared options (tc_optdecl) -------------------------------------------------------------------------- */

struct od_opts {
    int num, lo, hi, flag, pick;
    const char *out;
    unsigned given;
};
static const char *const od_names[] = {"alpha", "beta", "gamma"};
static const struct tc_optdecl od_decl[] = {
    {.name = "", .arg = TC_ARG_GROUP, .help = "Numbers"},
    {.name = "num", .letter = 'n', .arg = TC_ARG_INT, .field = offsetof(struct od_opts, num), .min = 1, .max = 10,
     .metavar = "N", .def = "5", .help = "a number", .given = 1},
    {.name = "range", .arg = TC_ARG_INT_RANGE, .field = offsetof(struct od_opts, lo),
     .field2 = offsetof(struct od_opts, hi), .min = 0, .max = 100, .metavar = "A:B", .def = "2:3", .help = "a range",
     .given = 2},
    {.name = "pick", .arg = TC_ARG_NAME, .field = offsetof(struct od_opts, pick), .names = od_names, .n_names = 3,
     .metavar = "NAME", .def = "alpha", .help = "one of three"},
    {.name = "flag", .letter = 'x', .arg = TC_ARG_FLAG, .field = offsetof(struct od_opts, flag), .help = "a flag"},
    TC_OPT_OUTPUT(struct od_opts, out, "FILE", "where to write", "nowhere"),
    TC_OPT_HELP,
    TC_OPT_END,
};
static const struct tc_cmd od_cmd = {.name = "od", .summary = "a test command", .synopsis = "[OPTIONS] ARG",
                                     .description = "Tests the declarations.\n", .opts = od_decl,
                                     .examples = "tunecost od -n 3 x\n", .min_operands = 1, .max_operands = 1,
                                     .operand_name = "ARG", .given_field = offsetof(struct od_opts, given)};

static int od_parse(struct od_opts *o, int argc, char **argv, int *first)
{
    FILE *saved = stderr;
    int rc;
    memset(o, 0, sizeof *o);
    stderr = fopen("/dev/null", "w"); /* the usage lines; the message itself is in tc_errmsg() */
    rc = tc_cli_parse(&od_cmd, argc, argv, o, first);
    fclose(stderr);
    stderr = saved;
    return rc;
}

START_TEST(test_util_optdecl_defaults_then_argv)
{
    char *argv[] = {"od", "--range", "4:9", "-x", "operand", "--pick", "gamma", "-o", "f.txt", NULL};
    struct od_opts o;
    int first = -1;
    ck_assert_int_eq(od_parse(&o, 9, argv, &first), TC_CLI_RUN);
    ck_assert_int_eq(o.num, 5); /* the declared default, parsed */
    ck_assert_int_eq(o.lo, 4);
    ck_assert_int_eq(o.hi, 9);
    ck_assert_int_eq(o.flag, 1);
    ck_assert_int_eq(o.pick, 2);
    ck_assert_str_eq(o.out, "f.txt");
    ck_assert_uint_eq(o.given, 2); /* --range given, --num not */
    ck_assert_str_eq(argv[first], "operand");
}
END_TEST

START_TEST(test_util_optdecl_rejects_out_of_range_and_missing_operand)
{
    char *bad[] = {"od", "-n", "11", "x", NULL};
    char *none[] = {"od", "-n", "3", NULL};
    char *two[] = {"od", "a", "b", NULL};
    char *name[] = {"od", "--pick", "delta", "x", NULL};
    struct od_opts o;
    int first;
    ck_assert_int_eq(od_parse(&o, 4, bad, &first), 2);
    ck_assert_str_eq(tc_errmsg(), "--num: expected an integer in [1, 10], got '11'");
    ck_assert_int_eq(od_parse(&o, 3, none, &first), 2);
    ck_assert_int_eq(od_parse(&o, 3, two, &first), 2);
    ck_assert_int_eq(od_parse(&o, 4, name, &first), 2);
    ck_assert_str_eq(tc_errmsg(), "--pick: expected alpha, beta or gamma, got 'delta'");
}
END_TEST

/* tc_grow: p itself while it has room; else doubled (at least need, at least 16), the old elements kept; an
 * impossible size is "out of memory", the environment's fault (exit 1), and leaves the array as it was. */
START_TEST(test_util_grow_doubles_and_keeps)
{
    size_t cap = 0;
    int *a = tc_grow(NULL, &cap, 1, sizeof *a), *b;
    ck_assert_ptr_nonnull(a);
    ck_assert_uint_eq(cap, 16);
    for (int i = 0; i < 16; i++)
        a[i] = i;
    ck_assert_ptr_eq(tc_grow(a, &cap, 16, sizeof *a), a); /* room: unchanged */
    ck_assert_uint_eq(cap, 16);
    b = tc_grow(a, &cap, 17, sizeof *a);
    ck_assert_ptr_nonnull(b);
    ck_assert_uint_eq(cap, 32);
    ck_assert_int_eq(b[15], 15);
    b = tc_grow(a = b, &cap, 100, sizeof *a); /* more than double: exactly what is needed */
    ck_assert_uint_eq(cap, 100);
    a = b;
    ck_assert_ptr_null(tc_grow(a, &cap, SIZE_MAX / 2, sizeof *a));
    ck_assert_str_eq(tc_errmsg(), "out of memory");
    ck_assert_int_eq(tc_err_exit_code(), 1);
    ck_assert_uint_eq(cap, 100);
    ck_assert_int_eq(a[15], 15);
    free(a);
}
END_TEST

/* The exit code comes from the call that set the message, never from its words: out of memory through
 * tc_seterr_env is the machine's fault (1); a file named "out of memory.h5" through tc_seterr is bad input (2);
 * tc_preferr keeps the kind. */
START_TEST(test_util_err_kind_from_call_not_words)
{
    tc_seterr_env("simulate: out of memory");
    ck_assert_int_eq(tc_err_exit_code(), 1);
    tc_preferr("%s", "t.h5");
    ck_assert_str_eq(tc_errmsg(), "t.h5: simulate: out of memory");
    ck_assert_int_eq(tc_err_exit_code(), 1);
    tc_seterr("%s: not an HDF5 file", "out of memory.h5");
    ck_assert_str_eq(tc_errmsg(), "out of memory.h5: not an HDF5 file");
    ck_assert_int_eq(tc_err_exit_code(), 2);
    tc_preferr("simulate");
    ck_assert_int_eq(tc_err_exit_code(), 2);
    tc_clearerr();
    ck_assert_int_eq(tc_err_exit_code(), 2);
}
END_TEST

static void *err_save_worker(void *arg)
{
    struct tc_err_saved *s = arg;
    tc_seterr_env("worker: out of memory");
    tc_err_save(&s[0]);
    tc_seterr("%s: no such file", "out of memory.h5");
    tc_err_save(&s[1]);
    return NULL;
}

/* A worker thread's message, saved there and raised again on the caller's thread, keeps its text and its kind. */
START_TEST(test_util_err_saved_across_threads)
{
    struct tc_err_saved s[2];
    pthread_t th;
    memset(s, 0, sizeof s);
    ck_assert_int_eq(pthread_create(&th, NULL, err_save_worker, s), 0);
    ck_assert_int_eq(pthread_join(th, NULL), 0);
    tc_clearerr();
    ck_assert_int_eq(tc_err_restore(&s[0]), -1);
    ck_assert_str_eq(tc_errmsg(), "worker: out of memory");
    ck_assert_int_eq(tc_err_exit_code(), 1);
    tc_err_restore(&s[1]);
    ck_assert_str_eq(tc_errmsg(), "out of memory.h5: no such file");
    ck_assert_int_eq(tc_err_exit_code(), 2);
}
END_TEST

/* A required option (.required) that argv does not name: exit 2 and one message naming it; named: parsed. */
START_TEST(test_util_optdecl_required_option)
{
    static const struct tc_optdecl decl[] = {
        {.name = "num", .letter = 'n', .arg = TC_ARG_INT, .field = offsetof(struct od_opts, num), .min = 1,
         .max = 10, .metavar = "N", .def = "5", .help = "a number"},
        TC_OPT_OUTPUT_REQUIRED(struct od_opts, out, "FILE", "where to write"),
        TC_OPT_END,
    };
    static const struct tc_cmd cmd = {.name = "req", .summary = "s", .synopsis = "-o FILE", .description = "d\n",
                                      .opts = decl, .max_operands = 0};
    char *without[] = {"req", "-n", "3", NULL}, *with[] = {"req", "-o", "f.txt", NULL};
    struct od_opts o;
    char *err = NULL;
    size_t len = 0;
    FILE *saved = stderr;
    int first, rc;
    memset(&o, 0, sizeof o);
    stderr = open_memstream(&err, &len);
    rc = tc_cli_parse(&cmd, 3, without, &o, &first);
    fclose(stderr);
    stderr = saved;
    ck_assert_int_eq(rc, 2);
    ck_assert_str_eq(err, "tunecost req: missing -o FILE (required)\nsee 'tunecost req --help'\n");
    free(err);
    memset(&o, 0, sizeof o);
    ck_assert_int_eq(tc_cli_parse(&cmd, 3, with, &o, &first), TC_CLI_RUN);
    ck_assert_str_eq(o.out, "f.txt");
}
END_TEST

/* The help, the man page and the completions all carry every declared option, with its default. */
START_TEST(test_util_optdecl_documents_every_option)
{
    char *help = NULL, *man = NULL, *bash = NULL, *zsh = NULL;
    size_t n;
    const struct tc_cmd *cmds[1] = {&od_cmd};
    FILE *fp = open_memstream(&help, &n);
    ck_assert_int_eq(tc_cli_help(fp, &od_cmd), 0);
    fclose(fp);
    fp = open_memstream(&man, &n);
    ck_assert_int_eq(tc_cli_man(fp, &od_cmd, "9.9"), 0);
    fclose(fp);
    fp = open_memstream(&bash, &n);
    ck_assert_int_eq(tc_cli_complete_bash(fp, cmds, 1), 0);
    fclose(fp);
    fp = open_memstream(&zsh, &n);
    ck_assert_int_eq(tc_cli_complete_zsh(fp, cmds, 1), 0);
    fclose(fp);
    ck_assert_ptr_nonnull(strstr(help, "usage: tunecost od [OPTIONS] ARG\n"));
    ck_assert_ptr_nonnull(strstr(help, "Numbers:\n  -n, --num N               a number [5]\n"));
    ck_assert_ptr_nonnull(strstr(help, "      --range A:B           a range [2:3]\n"));
    ck_assert_ptr_nonnull(strstr(help, "  -o, --output FILE         where to write [nowhere]\n"));
    ck_assert_ptr_nonnull(strstr(man, ".TH TUNECOST\\-OD 1 \"\" \"tunecost 9.9\""));
    ck_assert_ptr_nonnull(strstr(man, ".SS Numbers\n.TP\n\\fB\\-n\\fR, \\fB\\-\\-num\\fR \\fIN\\fR\na number [5]\n"));
    ck_assert_ptr_nonnull(strstr(man, "\\fB\\-\\-pick\\fR \\fINAME\\fR\none of three [alpha]\n"));
    ck_assert_ptr_nonnull(strstr(bash, "--pick) COMPREPLY=($(compgen -W \"alpha beta gamma\" -- \"$cur\")); return ;;"));
    ck_assert_ptr_nonnull(strstr(bash, "-n --num --range --pick -x --flag -o --output -h --help"));
    ck_assert_ptr_nonnull(strstr(zsh, "'(-n --num)'{-n,--num}'[a number]:N: '"));
    ck_assert_ptr_nonnull(strstr(zsh, "'--pick[one of three]:NAME:(alpha beta gamma)'"));
    free(help);
    free(man);
    free(bash);
    free(zsh);
}
END_TEST

/* ---- tc_gnuplot: a stand-in "gnuplot" (a shell script) shows what the caller is told ------------------------ */

/* Write the stand-in: body is a shell script; it gets gnuplot's arguments (-e EXPR SCRIPT). */
static void fake_gnuplot(const char *body)
{
    FILE *fp = fopen(tt_path("gp"), "w");
    ck_assert_ptr_nonnull(fp);
    fprintf(fp, "#!/bin/sh\n%s\n", body);
    ck_assert_int_eq(fclose(fp), 0);
    ck_assert_int_eq(chmod(tt_path("gp"), 0755), 0);
}

/* gnuplot exits 0 after a write that failed (a full disk): an SVG without its closing tag, a PNG without its
 * IEND chunk are cut short, reported and removed; complete ones pass. */
START_TEST(test_util_gnuplot_figure_cut_short_is_an_error)
{
    char gp[PATH_MAX];
    struct tc_gnuplot_job j = {gp, tt_tmpdir(), "fig.gp", NULL, "fig.svg", NULL};
    snprintf(gp, sizeof gp, "%s", tt_path("gp"));
    fake_gnuplot("printf '<svg>\\n<path d=\"M1,2 L3' > fig.svg");
    ck_assert_int_eq(tc_gnuplot_run(&j), -1);
    ck_assert_msg(strstr(tc_errmsg(), "gnuplot ran fig.gp but fig.svg is cut short at 22 bytes") != NULL, "%s",
                  tc_errmsg());
    ck_assert_int_eq(access(tt_path("fig.svg"), F_OK), -1);
    fake_gnuplot("printf '<svg>\\n</svg>\\n\\n' > fig.svg");
    ck_assert_msg(tc_gnuplot_run(&j) == 0, "%s", tc_errmsg());
    /* PNG: 8-byte signature, then chunks; the file ends with IEND's length 0, type and CRC AE 42 60 82 */
    j.output = "fig.png";
    fake_gnuplot("printf '\\211PNG\\r\\n\\032\\n\\0\\0\\0\\0IEND' > fig.png");
    ck_assert_int_eq(tc_gnuplot_run(&j), -1);
    ck_assert_msg(strstr(tc_errmsg(), "fig.png is cut short at 16 bytes") != NULL, "%s", tc_errmsg());
    fake_gnuplot("printf '\\211PNG\\r\\n\\032\\n\\0\\0\\0\\0IEND\\256\\102\\140\\202' > fig.png");
    ck_assert_msg(tc_gnuplot_run(&j) == 0, "%s", tc_errmsg());
    /* no file at all */
    fake_gnuplot("exit 0");
    j.output = "none.png";
    ck_assert_int_eq(tc_gnuplot_run(&j), -1);
    ck_assert_msg(strstr(tc_errmsg(), "wrote no none.png") != NULL, "%s", tc_errmsg());
}
END_TEST

/* A failing gnuplot's reason is the last line it printed on stderr, even when the log cannot be written (its
 * folder is missing, as on a full disk); a log that can be written gets every line. */
START_TEST(test_util_gnuplot_reason_is_the_last_stderr_line)
{
    char gp[PATH_MAX];
    struct tc_gnuplot_job j = {gp, tt_tmpdir(), "fig.gp", "fmt='png'", "fig.png", "no/such/dir/gnuplot.log"};
    snprintf(gp, sizeof gp, "%s", tt_path("gp"));
    fake_gnuplot("echo 'plot x' >&2; echo '         ^' >&2; echo '\"fig.gp\" line 2: undefined function: foo  ' >&2;"
                 " echo >&2; exit 1");
    ck_assert_int_eq(tc_gnuplot_run(&j), -1);
    ck_assert_str_eq(tc_errmsg(), "gnuplot failed on fig.gp (exit status 1: \"fig.gp\" line 2: undefined function: "
                                  "foo); its log could not be written");
    j.log = "gnuplot.log";
    ck_assert_int_eq(tc_gnuplot_run(&j), -1);
    ck_assert_str_eq(tc_errmsg(), "gnuplot failed on fig.gp (exit status 1: \"fig.gp\" line 2: undefined function: "
                                  "foo)");
    ck_assert_str_eq(content(tt_path("gnuplot.log")),
                     "plot x\n         ^\n\"fig.gp\" line 2: undefined function: foo  \n\n");
}
END_TEST

/* ---- tc_tsv: the one TSV reader ----------------------------------------------------------------------------- */

/* Comments before the header are kept, an empty field is a value (not merged with the next), a 3000-character field
 * is read whole, a trailing CR is dropped, blank lines and later comments are skipped, `nan` reads as NaN; a row
 * with another number of fields names its line; a missing column lists the ones there are. */
START_TEST(test_util_tsv_reader_keeps_empty_fields)
{
    char text[4096], longf[3001];
    double v;
    FILE *fp;
    struct tc_tsv *r;
    memset(longf, 'x', 3000);
    longf[3000] = '\0';
    snprintf(text, sizeof text, "# one\n# two\na\tb\tc\r\n1\t\t3\n\n# later\n%s\tnan\t\n4\t5\n", longf);
    fp = fmemopen(text, strlen(text), "r");
    ck_assert_ptr_nonnull(fp);
    r = tc_tsv_open(fp, "t.tsv");
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq((int)tc_tsv_n_comments(r), 2);
    ck_assert_str_eq(tc_tsv_comment(r, 1), "# two");
    ck_assert_int_eq(tc_tsv_n_cols(r), 3);
    ck_assert_int_eq(tc_tsv_col(r, "c"), 2);
    ck_assert_int_eq(tc_tsv_col(r, "d"), -1);
    ck_assert_int_eq(tc_tsv_col_need(r, "d"), -1);
    ck_assert_str_eq(tc_errmsg(), "t.tsv:3: no column 'd'; columns: a, b, c");
    ck_assert_int_eq(tc_tsv_next(r), 1);
    ck_assert_str_eq(tc_tsv_field(r, 0), "1");
    ck_assert_str_eq(tc_tsv_field(r, 1), "");
    ck_assert_str_eq(tc_tsv_field(r, 2), "3");
    ck_assert_str_eq(tc_tsv_row(r), "1\t\t3");
    ck_assert_int_eq(tc_tsv_num(r, 1, &v), -1);
    ck_assert_str_eq(tc_errmsg(), "t.tsv:4: column 'b': expected a number, got ''");
    ck_assert_int_eq(tc_tsv_next(r), 1);
    ck_assert_int_eq((int)strlen(tc_tsv_field(r, 0)), 3000);
    ck_assert_int_eq(tc_tsv_num(r, 1, &v), 0);
    ck_assert(isnan(v));
    ck_assert_str_eq(tc_tsv_field(r, 2), "");
    ck_assert_int_eq(tc_tsv_lineno(r), 7);
    ck_assert_int_eq(tc_tsv_next(r), -1);
    ck_assert_str_eq(tc_errmsg(), "t.tsv:8: expected 3 tab-separated fields as in the header, got 2");
    tc_tsv_close(r);
    fclose(fp);
    /* no header at all */
    fp = fmemopen("# only a comment\n", 17, "r");
    ck_assert_ptr_null(tc_tsv_open(fp, "c.tsv"));
    ck_assert_str_eq(tc_errmsg(), "c.tsv: expected a header line of tab-separated column names, found none");
    fclose(fp);
}
END_TEST

/* ---- tc_paths: the environment comes first (check runs each test in its own process, so the cached answer is
 * this test's) ------------------------------------------------------------------------------------------------ */

/* $TUNECOST_PLOTS_DIR naming an existing folder by a relative name is made absolute (commands run gnuplot in other
 * folders); $TUNECOST_DATA_DIR naming a missing folder is kept as given, and the default trace lies in it, so the
 * message names what the user chose; a study beside a trace is found, and the trace itself is not its own study. */
START_TEST(test_util_paths_environment_first)
{
    char cwd[PATH_MAX], want[PATH_MAX + 16], buf[PATH_MAX];
    ck_assert_int_eq(mkdir(tt_path("myplots"), 0755), 0);
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    ck_assert_int_eq(chdir(tt_tmpdir()), 0);
    setenv("TUNECOST_PLOTS_DIR", "myplots", 1);
    setenv("TUNECOST_DATA_DIR", "/nonexistent/tc-data", 1);
    snprintf(want, sizeof want, "%s/myplots", tt_tmpdir());
    ck_assert_str_eq(tc_paths_dir(TC_PATHS_PLOTS), want);
    ck_assert_str_eq(tc_paths_dir(TC_PATHS_DATA), "/nonexistent/tc-data");
    /* a data folder without data/manifest.tsv names no reference: the default is the manifest it lacks, so that
     * opening it fails naming that file (test-shipped.sh: a folder with the manifest and no trace) */
    ck_assert_str_eq(tc_paths_default_trace(), "/nonexistent/tc-data/manifest.tsv");
    ck_assert_ptr_null(tc_paths_manifest());
    ck_assert_ptr_null(tc_paths_shipped("compile-scaling", 1, buf, sizeof buf));
    write_plain(tt_path("t.h5"), "x");
    write_plain(tt_path("other.h5"), "y");
    ck_assert_ptr_nonnull(tc_paths_beside(tt_path("t.h5"), "other.h5", 0, buf, sizeof buf));
    snprintf(want, sizeof want, "%s/other.h5", tt_tmpdir());
    ck_assert_str_eq(buf, want);
    ck_assert_ptr_null(tc_paths_beside(tt_path("t.h5"), "t.h5", 0, buf, sizeof buf));      /* itself */
    ck_assert_ptr_null(tc_paths_beside(tt_path("t.h5"), "other.h5", 1, buf, sizeof buf));  /* not a folder */
    ck_assert_ptr_nonnull(tc_paths_beside(tt_path("t.h5"), "myplots", 1, buf, sizeof buf));
    ck_assert_int_eq(chdir(cwd), 0);
}
END_TEST

/* tc_mt is MT19937: the 10000th word from seed 5489 is 4123659995 (the value the C++ standard requires of
 * std::mt19937, which seeds the same way); and it draws what GSL's gsl_rng_mt19937 draws, word for word, through
 * gsl_rng_uniform and gsl_rng_uniform_int's rejection rule, for seeds whose high bits GSL ignores (0 is 4357). */
START_TEST(test_util_mt_is_gsl_mt19937)
{
    static const unsigned long seeds[] = {0, 1, 4357, 5489, 0xffffffffUL, 0x100000001UL, 0xdeadbeefcafebabeUL};
    static const unsigned long ns[] = {1, 2, 3, 7, 64, 100, 576, 99991, 1UL << 31, 0xffffffffUL};
    struct tc_mt g;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    uint32_t w = 0;
    ck_assert_ptr_nonnull(r);
    tc_mt_seed(&g, 5489);
    for (int k = 0; k < 10000; k++)
        w = tc_mt_get(&g);
    ck_assert_uint_eq(w, 4123659995u);
    for (size_t si = 0; si < sizeof seeds / sizeof seeds[0]; si++) {
        gsl_rng_set(r, seeds[si]);
        tc_mt_seed(&g, seeds[si]);
        for (int k = 0; k < 5000; k++) { /* past several twists of the 624-word state */
            unsigned long n = ns[k % (sizeof ns / sizeof ns[0])];
            if (k % 3 == 0)
                ck_assert_double_eq(tc_mt_uniform(&g), gsl_rng_uniform(r));
            else
                ck_assert_uint_eq(tc_mt_uniform_int(&g, n), gsl_rng_uniform_int(r, n));
        }
        ck_assert_uint_eq(tc_mt_get(&g), gsl_rng_get(r));
    }
    gsl_rng_free(r);
}
END_TEST

static Suite *util_suite(void)
{
    Suite *s = suite_create("util");
    TCase *opt = tcase_create("tc_opt");
    TCase *atomic = tcase_create("tc_atomic");
    TCase *stats = tcase_create("tc_stats");
    TCase *threads = tcase_create("tc_threads");
    TCase *gnuplot = tcase_create("tc_gnuplot");
    TCase *tsv = tcase_create("tc_tsv");

    tcase_add_test(opt, test_util_parse_long_accepts_whole_numbers);
    tcase_add_test(opt, test_util_parse_long_rejects_junk_and_leaves_output);
    tcase_add_test(opt, test_util_parse_long_null_is_an_error);
    tcase_add_test(opt, test_util_parse_int_range);
    tcase_add_test(opt, test_util_parse_u64_full_range);
    tcase_add_test(opt, test_util_parse_double_finite_only);
    tcase_add_test(opt, test_util_parse_range_long);
    tcase_add_test(opt, test_util_parse_range_double);
    tcase_add_test(opt, test_util_parse_bytes_suffixes);
    tcase_add_test(opt, test_util_parse_shape);
    tcase_add_test(opt, test_util_parse_shape_failure_leaves_output);
    tcase_add_test(opt, test_util_format_shape);
    tcase_add_test(opt, test_util_parse_long_list);
    tcase_add_test(opt, test_util_env_flag);
    tcase_add_test(opt, test_util_parse_name_both_ways);
    tcase_add_test(opt, test_util_optdecl_defaults_then_argv);
    tcase_add_test(opt, test_util_optdecl_rejects_out_of_range_and_missing_operand);
    tcase_add_test(opt, test_util_optdecl_required_option);
    tcase_add_test(opt, test_util_grow_doubles_and_keeps);
    tcase_add_test(opt, test_util_err_kind_from_call_not_words);
    tcase_add_test(opt, test_util_err_saved_across_threads);
    tcase_add_test(opt, test_util_optdecl_documents_every_option);
    suite_add_tcase(s, opt);

    tcase_add_checked_fixture(atomic, make_tmpdir, tt_tmpdir_remove);
    tcase_add_test(atomic, test_util_atomic_commit_publishes_whole_file);
    tcase_add_test(atomic, test_util_atomic_mode_follows_umask);
    tcase_add_test(atomic, test_util_atomic_abort_leaves_nothing);
    tcase_add_test(atomic, test_util_atomic_replace_keeps_old_until_commit);
    tcase_add_test(atomic, test_util_atomic_open_errors_name_the_path);
    tcase_add_test(atomic, test_util_atomic_commit_without_open_fails);
    tcase_add_test(atomic, test_util_atomic_tmpname);
    tcase_add_test(atomic, test_util_atomic_rename);
    tcase_add_test(atomic, test_util_atomic_sigkill_before_commit);
    tcase_add_test(atomic, test_util_output_check_refuses_inputs_and_bad_paths);
    tcase_add_test(atomic, test_util_outdir_swaps_whole_or_not_at_all);
    tcase_add_test(atomic, test_util_atomic_commit_noreplace_keeps_a_file_made_meanwhile);
    tcase_add_test(atomic, test_util_output_check_refuses_non_regular_files);
    tcase_add_test(atomic, test_util_outdir_replaceable_one_rule);
    tcase_add_test(opt, test_util_json_replaces_invalid_utf8);
    suite_add_tcase(s, atomic);

    tcase_add_test(stats, test_util_select_u64);
    tcase_add_test(stats, test_util_median_u64);
    tcase_add_test(stats, test_util_median_sorted);
    tcase_add_test(stats, test_util_mt_is_gsl_mt19937);
    suite_add_tcase(s, stats);

    tcase_add_test(threads, test_util_run_workers_each_once);
    tcase_add_test(threads, test_util_run_workers_shared_argument);
    suite_add_tcase(s, threads);

    tcase_add_checked_fixture(gnuplot, make_tmpdir, tt_tmpdir_remove);
    tcase_add_test(gnuplot, test_util_gnuplot_figure_cut_short_is_an_error);
    tcase_add_test(gnuplot, test_util_gnuplot_reason_is_the_last_stderr_line);

    suite_add_tcase(s, gnuplot);
    tcase_add_test(tsv, test_util_tsv_reader_keeps_empty_fields);
    tcase_add_checked_fixture(tsv, make_tmpdir, tt_tmpdir_remove);
    tcase_add_test(tsv, test_util_paths_environment_first);
    suite_add_tcase(s, tsv);
    return s;
}

int main(void)
{
    return tt_run(util_suite());
}
