/* test-trace-match.c — trace_match_configs and trace_match_inputs (trace/trace_match.c): one search space in two
 * traces, as the cross-GPU study and the transfer policy pair them. Every trace here is small and hand-built; the
 * expected maps are worked out by hand in the comments. */
#include "test-common.h"
#include "tc_err.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A trace at tt_path(name) with the given parameter and dimension names (configurations status ok, no runs). */
static struct trace *make(const char *name, const char *const *pnames, int np, int nc, const int32_t *params,
                          const char *const *dnames, int nd, int ni, const int64_t *dims)
{
    struct trace_meta m = tt_meta("test-trace-match", 100);
    struct trace_config cfg[16];
    struct trace_input in[16];
    struct trace *t = trace_create(tt_path(name), &m, pnames, np, dnames, nd);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    ck_assert_int_le(nc, 16);
    ck_assert_int_le(ni, 16);
    memset(cfg, 0, sizeof cfg);
    memset(in, 0, sizeof in);
    for (int k = 0; k < nc; k++) {
        cfg[k].compile_ms = 100;
        cfg[k].compile_isolated_ms = NAN;
    }
    for (int i = 0; i < ni; i++)
        in[i].ref_ms = 0.5;
    ck_assert_msg(trace_write_configs(t, nc, params, cfg) == 0, "%s", tc_errmsg());
    ck_assert_msg(trace_write_inputs(t, ni, dims, in) == 0, "%s", tc_errmsg());
    return t;
}

START_TEST(test_trace_match_configs_by_name_in_any_order)
{
    /* a: (BM, BN, W) = 0 (32,64,4), 1 (64,64,4), 2 (128,32,8), 3 (32,32,2).
     * b lists the parameters as (W, BM, BN): 0 (4,64,64) = a's 1; 1 (8,128,32) = a's 2; 2 (4,32,64) = a's 0;
     * 3 (4,32,64) again (a repeat: the first, 2, is the match); 4 (8,256,32), which a lacks. a's 3 (2,32,32) is not
     * in b. So a -> b: {2, 0, 1, -1} (3 matched), and b -> a: {1, 2, 0, 0, -1} (4 matched). */
    static const char *const pa[] = {"BM", "BN", "W"}, *const pb[] = {"W", "BM", "BN"}, *const dn[] = {"M"};
    const int32_t xa[] = {32, 64, 4, 64, 64, 4, 128, 32, 8, 32, 32, 2};
    const int32_t xb[] = {4, 64, 64, 8, 128, 32, 4, 32, 64, 4, 32, 64, 8, 256, 32};
    const int64_t dims[] = {256};
    int map_ab[4], map_ba[5];
    tt_tmpdir_make("test-trace-match");
    struct trace *a = make("a.h5", pa, 3, 4, xa, dn, 1, 1, dims), *b = make("b.h5", pb, 3, 5, xb, dn, 1, 1, dims);
    ck_assert_int_eq(trace_match_configs(a, b, map_ab), 3);
    ck_assert_int_eq(map_ab[0], 2);
    ck_assert_int_eq(map_ab[1], 0);
    ck_assert_int_eq(map_ab[2], 1);
    ck_assert_int_eq(map_ab[3], -1);
    ck_assert_int_eq(trace_match_configs(b, a, map_ba), 4);
    const int want_ba[] = {1, 2, 0, 0, -1};
    for (int k = 0; k < 5; k++)
        ck_assert_int_eq(map_ba[k], want_ba[k]);
    trace_close(a);
    trace_close(b);
    tt_tmpdir_remove();
}
END_TEST

START_TEST(test_trace_match_refuses_other_parameter_names)
{
    /* b names its second parameter "BLOCK_N" where a says "BN", and c has one parameter fewer: not the same space,
     * an error naming the parameter (no map is made). */
    static const char *const pa[] = {"BM", "BN"}, *const pb[] = {"BM", "BLOCK_N"}, *const pc[] = {"BM"};
    static const char *const dn[] = {"M"};
    const int32_t x[] = {32, 64}, y[] = {32};
    const int64_t dims[] = {256};
    int map[1];
    tt_tmpdir_make("test-trace-match");
    struct trace *a = make("a.h5", pa, 2, 1, x, dn, 1, 1, dims), *b = make("b.h5", pb, 2, 1, x, dn, 1, 1, dims);
    struct trace *c = make("c.h5", pc, 1, 1, y, dn, 1, 1, dims);
    ck_assert_int_eq(trace_match_configs(a, b, map), -1);
    ck_assert_msg(strstr(tc_errmsg(), "BLOCK_N") != NULL, "%s", tc_errmsg());
    ck_assert_int_eq(trace_match_configs(a, c, map), -1);
    ck_assert_msg(strstr(tc_errmsg(), "1 parameter") != NULL, "%s", tc_errmsg());
    trace_close(a);
    trace_close(b);
    trace_close(c);
    tt_tmpdir_remove();
}
END_TEST

START_TEST(test_trace_match_inputs_by_dimension_names)
{
    /* a's inputs (M, N, K): 0 256x512x512, 1 1024x4096x512, 2 4096x512x4096. b lists (K, M, N): 0 (512, 1024,
     * 4096) = a's 1 (M 1024, N 4096, K 512); 1 (4096, 4096, 512) = a's 2; 2 (512, 512, 256) is M 512, N 256,
     * K 512, not a's 0 (256x512x512: the same numbers in another order). So a -> b: {-1, 0, 1}. */
    static const char *const pn[] = {"BM"}, *const da[] = {"M", "N", "K"}, *const db[] = {"K", "M", "N"};
    const int32_t x[] = {32};
    const int64_t dims_a[] = {256, 512, 512, 1024, 4096, 512, 4096, 512, 4096};
    const int64_t dims_b[] = {512, 1024, 4096, 4096, 4096, 512, 512, 512, 256};
    int map[3];
    tt_tmpdir_make("test-trace-match");
    struct trace *a = make("a.h5", pn, 1, 1, x, da, 3, 3, dims_a), *b = make("b.h5", pn, 1, 1, x, db, 3, 3, dims_b);
    ck_assert_int_eq(trace_match_inputs(a, b, map), 2);
    ck_assert_int_eq(map[0], -1);
    ck_assert_int_eq(map[1], 0);
    ck_assert_int_eq(map[2], 1);
    trace_close(a);
    trace_close(b);
    tt_tmpdir_remove();
}
END_TEST

START_TEST(test_trace_match_value_tables_by_text)
{
    /* An imported space: parameter "layout" holds indices into a value table. a's table is {"row", "col"}, b's
     * {"col", "tile", "row"}; a's configurations (layout, BM): 0 ("row", 32), 1 ("col", 32), 2 ("col", 64); b's:
     * 0 (code 2 = "row", 32), 1 (code 0 = "col", 64), 2 (code 1 = "tile", 32). So a -> b: {0, -1, 1}. */
    static const char *const pn[] = {"layout", "BM"}, *const dn[] = {"M"};
    static const char *const ta[] = {"\"row\"", "\"col\""}, *const tb[] = {"\"col\"", "\"tile\"", "\"row\""};
    const int32_t xa[] = {0, 32, 1, 32, 1, 64}, xb[] = {2, 32, 0, 64, 1, 32};
    const int64_t dims[] = {256};
    int map[3];
    tt_tmpdir_make("test-trace-match");
    struct trace *a = make("a.h5", pn, 2, 3, xa, dn, 1, 1, dims), *b = make("b.h5", pn, 2, 3, xb, dn, 1, 1, dims);
    ck_assert_msg(trace_set_param_values(a, 0, ta, 2) == 0, "%s", tc_errmsg());
    ck_assert_msg(trace_set_param_values(b, 0, tb, 3) == 0, "%s", tc_errmsg());
    ck_assert_int_eq(trace_match_configs(a, b, map), 2);
    ck_assert_int_eq(map[0], 0);
    ck_assert_int_eq(map[1], -1);
    ck_assert_int_eq(map[2], 1);
    trace_close(a);
    trace_close(b);
    tt_tmpdir_remove();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("trace-match");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_trace_match_configs_by_name_in_any_order);
    tcase_add_test(tc, test_trace_match_refuses_other_parameter_names);
    tcase_add_test(tc, test_trace_match_inputs_by_dimension_names);
    tcase_add_test(tc, test_trace_match_value_tables_by_text);
    suite_add_tcase(s, tc);
    return tt_run(s);
}
