/* test-collect-compile.c — the collector's compile side, built only where the CUDA toolkit is: the ptxas report
 * parser, and (argument "compile-all TUNECOST") NVRTC compiling every configuration of the full 576-space for
 * sm_90 through `tunecost collect --compile-only`, with the resource check classifying the configurations over
 * the H100/H200 shared-memory limit (232448 bytes) as `out of resources`. What needs no toolkit (space, sampling,
 * shapes, shards) is test-collect.c. Expected values are worked out here by hand or by independent enumeration. */
#include "compile.h"
#include "test-common.h"

#include <check.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *g_tunecost; /* for the compile-all test */

START_TEST(test_collect_ptxas_report_parsed)
{
    const char *log = "ptxas info    : Compiling entry function 'tc_gemm_f16' for 'sm_90'\n"
                      "ptxas         .     30984 bytes stack frame, 84104 bytes spill stores, 85608 bytes spill loads\n"
                      "ptxas info    : Used 255 registers, used 1 barriers, 30984 bytes cumulative stack size\n";
    int32_t regs = 0, spill = 0;
    compile_parse_ptxas(log, &regs, &spill);
    ck_assert_int_eq(regs, 255);
    ck_assert_int_eq(spill, 84104);
    compile_parse_ptxas("no report", &regs, &spill);
    ck_assert_int_eq(regs, -1);
    ck_assert_int_eq(spill, -1);
}
END_TEST

/* The whole space for sm_90 through the worker pool: no compile error, each configuration on the path the mapping
 * rule gives (wgmma where NUM_WARPS % 4 == 0 and BLOCK_M % 64 == 0), and `out of resources` exactly where the hand
 * formula of its path exceeds 232448 bytes. */
START_TEST(test_collect_compile_full_space_sm90)
{
    char cmd[1024], line[512];
    char tsv[] = "/tmp/test-collect-cfg.XXXXXX", scal[] = "/tmp/test-collect-scal.XXXXXX";
    int rows = 0, oor = 0, ok = 0, wgmma = 0;
    long jobs = sysconf(_SC_NPROCESSORS_ONLN);
    FILE *fp;
    close(mkstemp(tsv));
    close(mkstemp(scal));
    snprintf(cmd, sizeof cmd, "'%s' collect --compile-only --space full --arch 90 --jobs %ld -o '%s' "
             "--configs-tsv '%s'", g_tunecost, jobs < 1 ? 1 : jobs, scal, tsv);
    ck_assert_int_eq(system(cmd), 0);
    fp = fopen(tsv, "r");
    ck_assert_ptr_nonnull(fp);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, fp)); /* header */
    while (fgets(line, sizeof line, fp) != NULL) {
        int cfg, bm, bn, bk, g, s, w;
        char status[64], path[32];
        ck_assert_int_eq(sscanf(line, "%d\t%d\t%d\t%d\t%d\t%d\t%d\t%63[^\t]\t%*s\t%*s\t%*s\t%*s\t%31s", &cfg, &bm, &bn,
                                &bk, &g, &s, &w, status, path),
                         9);
        int is_wgmma = w % 4 == 0 && bm % 64 == 0;
        ck_assert_str_eq(path, is_wgmma ? "wgmma" : "mma.sync");
        wgmma += is_wgmma;
        long smem = (long)s * (bm + bn) * bk * 2 + (is_wgmma ? 16L * s : 0); /* + two mbarriers per stage */
        if (smem > 232448) {
            ck_assert_str_eq(status, "out of resources");
            oor++;
        } else {
            ck_assert_str_eq(status, "ok");
            ok++;
        }
        rows++;
    }
    fclose(fp);
    ck_assert_int_eq(rows, 576);
    ck_assert_int_eq(ok + oor, 576);
    ck_assert_int_eq(wgmma, 3 * 4 * 4 * 3 * 2); /* BLOCK_M 64/128/256 x BLOCK_N x BLOCK_K x stages x warps 4/8 */
    ck_assert_int_gt(oor, 0);
    ck_assert_int_gt(ok, 0);
    unlink(tsv);
    unlink(scal);
}
END_TEST

int main(int argc, char **argv)
{
    Suite *s = suite_create("collect-compile");
    TCase *tc = tcase_create("core");
    if (argc >= 3 && strcmp(argv[1], "compile-all") == 0) {
        g_tunecost = argv[2];
        tcase_add_test(tc, test_collect_compile_full_space_sm90);
        tcase_set_timeout(tc, 3000);
    } else {
        tcase_add_test(tc, test_collect_ptxas_report_parsed);
    }
    suite_add_tcase(s, tc);
    return tt_run(s);
}
