/* test-collect-compile.c — the collector's compile side, built only where the CUDA toolkit is: the ptxas report
 * parser, and (argument "compile-all TUNECOST") NVRTC compiling every configuration of the full 576-space for
 * sm_90 through `tunecost collect --compile-only`, with the resource check classifying the configurations over
 * the H100/H200 shared-memory limit (232448 bytes) as `out of resources`; (argument "isolated TUNECOST") the
 * isolated compile times of --compile-isolated. What needs no toolkit (space, sampling,
 * shapes, shards) is test-collect.c. Expected values are worked out here by hand or by independent enumeration. */
#include "compile.h"
#include "test-common.h"

#include <check.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *g_tunecost; /* for the compile-all test */
static int g_sample;           /* compile-sample: configurations sampled from the space (0: compile-all, every one) */

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

/* The whole space for sm_90 through the worker pool (compile-all; compile-sample: g_sample configurations of it
 * drawn with seed 0, the same checks on each): no compile error, each configuration on the path the mapping rule
 * gives (wgmma where NUM_WARPS % 4 == 0 and BLOCK_M % 64 == 0), and `out of resources` exactly where the hand
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
    char space[64] = "--space full";
    int seen[4][4][4][3][3] = {{{{{0}}}}}; /* BLOCK_M, BLOCK_N, BLOCK_K (32..256), stages 3..5, warps 2/4/8 */
    if (g_sample > 0)
        snprintf(space, sizeof space, "--configs %d --seed 0", g_sample);
    snprintf(cmd, sizeof cmd, "'%s' collect --compile-only %s --arch 90 --jobs %ld -f -o '%s' --configs-tsv '%s'",
             g_tunecost, space, jobs < 1 ? 1 : jobs, scal, tsv);
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
        int lg[3] = {0, 0, 0}, v[3] = {bm, bn, bk};
        for (int k = 0; k < 3; k++) {
            ck_assert_msg(v[k] >= 32 && v[k] <= 256 && (v[k] & (v[k] - 1)) == 0, "block size %d", v[k]);
            while ((32 << lg[k]) < v[k])
                lg[k]++;
        }
        ck_assert(s >= 3 && s <= 5 && (w == 2 || w == 4 || w == 8) && g == 8);
        ck_assert_msg(seen[lg[0]][lg[1]][lg[2]][s - 3][w / 4]++ == 0, "configuration %d twice", cfg);
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
    ck_assert_int_eq(rows, g_sample > 0 ? g_sample : 576);
    ck_assert_int_eq(ok + oor, rows);
    if (g_sample == 0)
        ck_assert_int_eq(wgmma, 3 * 4 * 4 * 3 * 2); /* BLOCK_M 64/128/256 x BLOCK_N x BLOCK_K x stages x warps 4/8 */
    else
        ck_assert_int_gt(wgmma, 0); /* both paths compiled */
    ck_assert_int_lt(wgmma, rows);
    ck_assert_int_gt(oor, 0);
    ck_assert_int_gt(ok, 0);
    unlink(tsv);
    unlink(scal);
}
END_TEST

/* Read the configurations TSV of --compile-only --compile-isolated: per row the status, compile_ms and
 * compile_isolated_ms (the last column). Returns the row count (at most max). */
static int read_isolated_tsv(const char *path, char status[][64], double *compile_ms, double *iso_ms, int max)
{
    char line[512];
    int n = 0;
    FILE *fp = fopen(path, "r");
    ck_assert_ptr_nonnull(fp);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, fp));
    ck_assert_msg(strstr(line, "\tpath\tcompile_isolated_ms\n") != NULL, "header: %s", line);
    while (n < max && fgets(line, sizeof line, fp) != NULL) {
        ck_assert_int_eq(sscanf(line, "%*d\t%*d\t%*d\t%*d\t%*d\t%*d\t%*d\t%63[^\t]\t%lf\t%*d\t%*d\t%*d\t%*s\t%lf",
                                status[n], &compile_ms[n], &iso_ms[n]),
                         3);
        n++;
    }
    fclose(fp);
    return n;
}

/* --compile-isolated with --compile-only: every configuration, the one over the shared-memory limit included, gets
 * a positive isolated compile time; without a 1-worker pass in --jobs one more pass runs, with one (--jobs 1,2)
 * that pass is the isolated one (its compile_ms and compile_isolated_ms are the same numbers). Four configurations
 * (BLOCK_M 32, BLOCK_N 32|64, BLOCK_K 32|256, 5 stages, 8 warps; BLOCK_K varies faster): shared memory
 * 5*(32+BN)*BK*2 = 20480, 163840, 30720 and 245760 bytes, so only the last is out of resources on sm_90 (limit
 * 232448). */
START_TEST(test_collect_compile_isolated_times)
{
    char cmd[1024], status[8][64];
    char tsv[] = "/tmp/test-collect-iso.XXXXXX", scal[] = "/tmp/test-collect-isoscal.XXXXXX";
    double cms[8], iso[8];
    static const char *const jobs[] = {"2", "1,2"};
    close(mkstemp(tsv));
    close(mkstemp(scal));
    for (int j = 0; j < 2; j++) {
        snprintf(cmd, sizeof cmd, "'%s' collect --compile-only --space full --param BLOCK_M=32 --param BLOCK_N=32,64 "
                 "--param BLOCK_K=32,256 --param NUM_STAGES=5 --param NUM_WARPS=8 --arch 90 --jobs %s "
                 "--compile-isolated -q -f -o '%s' --configs-tsv '%s'", g_tunecost, jobs[j], scal, tsv);
        ck_assert_int_eq(system(cmd), 0);
        ck_assert_int_eq(read_isolated_tsv(tsv, status, cms, iso, 8), 4);
        for (int c = 0; c < 4; c++) {
            ck_assert_str_eq(status[c], c == 3 ? "out of resources" : "ok");
            ck_assert_msg(cms[c] > 0.0 && iso[c] > 0.0, "config %d: compile_ms %g, isolated %g", c, cms[c], iso[c]);
            if (j == 1) /* the 1-worker pass is kept for both columns */
                ck_assert_double_eq(cms[c], iso[c]);
        }
    }
    unlink(tsv);
    unlink(scal);
}
END_TEST

/* --compile-only into a log (stderr not a terminal): the workers' warm-up is announced before anything compiles,
 * and every progress line gives an ETA, so a slow pass on a loaded machine says at once what it does and for how
 * long (four configurations: a line per tenth gives one line for each). */
START_TEST(test_collect_compile_progress_in_a_log)
{
    char cmd[1024], line[512], scal[] = "/tmp/test-collect-prog.XXXXXX";
    int warm_at = -1, first_done = -1, n = 0, with_eta = 0, n_done = 0;
    FILE *p;
    close(mkstemp(scal));
    snprintf(cmd, sizeof cmd, "'%s' collect --compile-only --space full --param BLOCK_M=32 --param BLOCK_N=32,64 "
             "--param BLOCK_K=32,256 --param NUM_STAGES=5 --param NUM_WARPS=8 --arch 90 --jobs 2 -f -o '%s' "
             "2>&1 >/dev/null", g_tunecost, scal);
    ck_assert_ptr_nonnull(p = popen(cmd, "r"));
    while (fgets(line, sizeof line, p) != NULL) {
        if (strstr(line, "NVRTC workers warming up") != NULL && warm_at < 0)
            warm_at = n;
        if (strstr(line, "jobs 2: compiled ") != NULL) {
            if (first_done < 0)
                first_done = n;
            n_done++;
            with_eta += strstr(line, ", eta ") != NULL;
        }
        n++;
    }
    ck_assert_int_eq(pclose(p), 0);
    ck_assert_int_ge(warm_at, 0);
    ck_assert_int_lt(warm_at, first_done);
    ck_assert_int_eq(n_done, 4);
    ck_assert_int_eq(with_eta, 4);
    unlink(scal);
}
END_TEST

int main(int argc, char **argv)
{
    Suite *s = suite_create("collect-compile");
    TCase *tc = tcase_create("core");
    if (argc >= 3 && (strcmp(argv[1], "compile-all") == 0 || strcmp(argv[1], "compile-sample") == 0)) {
        g_tunecost = argv[2];
        g_sample = strcmp(argv[1], "compile-sample") == 0 ? (argc >= 4 ? atoi(argv[3]) : 64) : 0;
        tcase_add_test(tc, test_collect_compile_full_space_sm90);
        tcase_set_timeout(tc, 3000);
    } else if (argc >= 3 && strcmp(argv[1], "isolated") == 0) {
        g_tunecost = argv[2];
        tcase_add_test(tc, test_collect_compile_isolated_times);
        tcase_add_test(tc, test_collect_compile_progress_in_a_log);
        tcase_set_timeout(tc, 600);
    } else {
        tcase_add_test(tc, test_collect_ptxas_report_parsed);
    }
    suite_add_tcase(s, tc);
    return tt_run(s);
}
