/* test-collect.c — the collector's parts that need neither a GPU nor the CUDA toolkit (built everywhere): the
 * search space and its seeded sampling, shapes and shards. The compile side is test-collect-compile.c.
 * Expected values are worked out here by hand or by independent enumeration, not by calling the code under test. */
#include "space.h"
#include "tc_err.h"

#include "test-common.h"

#include <check.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

START_TEST(test_collect_space_default_is_papers)
{
    struct space s;
    int32_t p[SP_N_PARAMS];
    space_default(&s);
    ck_assert_int_eq(space_size(&s), 4 * 4 * 4 * 1 * 3 * 3); /* 576 */
    space_config(&s, 0, p);
    ck_assert_int_eq(p[SP_BLOCK_M], 32);
    ck_assert_int_eq(p[SP_GROUP_M], 8);
    ck_assert_int_eq(p[SP_NUM_STAGES], 3);
    ck_assert_int_eq(p[SP_NUM_WARPS], 2);
    space_config(&s, 575, p); /* the last one: every parameter at its largest value */
    ck_assert_int_eq(p[SP_BLOCK_M], 256);
    ck_assert_int_eq(p[SP_BLOCK_N], 256);
    ck_assert_int_eq(p[SP_BLOCK_K], 256);
    ck_assert_int_eq(p[SP_NUM_STAGES], 5);
    ck_assert_int_eq(p[SP_NUM_WARPS], 8);
    space_config(&s, 1, p); /* NUM_WARPS varies fastest */
    ck_assert_int_eq(p[SP_NUM_WARPS], 4);
}
END_TEST

/* Every configuration of the space appears exactly once in the enumeration (independent nested loops). */
START_TEST(test_collect_space_enumeration_complete)
{
    static const int32_t blk[4] = {32, 64, 128, 256}, st[3] = {3, 4, 5}, w[3] = {2, 4, 8};
    struct space s;
    int found = 0;
    int32_t *all = malloc(576 * SP_N_PARAMS * sizeof *all);
    space_default(&s);
    for (long i = 0; i < 576; i++)
        space_config(&s, i, all + i * SP_N_PARAMS);
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            for (int k = 0; k < 4; k++)
                for (int x = 0; x < 3; x++)
                    for (int y = 0; y < 3; y++) {
                        int32_t want[SP_N_PARAMS] = {blk[a], blk[b], blk[k], 8, st[x], w[y]};
                        int n = 0;
                        for (long i = 0; i < 576; i++)
                            n += memcmp(all + i * SP_N_PARAMS, want, sizeof want) == 0;
                        ck_assert_int_eq(n, 1);
                        found++;
                    }
    ck_assert_int_eq(found, 576);
    free(all);
}
END_TEST

START_TEST(test_collect_sampling_deterministic_by_seed)
{
    struct space s;
    int32_t a[100 * SP_N_PARAMS], b[100 * SP_N_PARAMS], c[100 * SP_N_PARAMS];
    space_default(&s);
    ck_assert_int_eq(space_sample(&s, 100, 42, a), 100);
    ck_assert_int_eq(space_sample(&s, 100, 42, b), 100);
    ck_assert_int_eq(space_sample(&s, 100, 43, c), 100);
    ck_assert_mem_eq(a, b, sizeof a);                 /* same seed, same configurations */
    ck_assert_int_ne(memcmp(a, c, sizeof a), 0);      /* another seed, another sample */
    for (int i = 0; i < 100; i++) {
        const int32_t *p = a + i * SP_N_PARAMS;
        ck_assert(p[0] == 32 || p[0] == 64 || p[0] == 128 || p[0] == 256);
        ck_assert(p[SP_NUM_STAGES] >= 3 && p[SP_NUM_STAGES] <= 5);
        ck_assert(p[SP_NUM_WARPS] == 2 || p[SP_NUM_WARPS] == 4 || p[SP_NUM_WARPS] == 8);
        ck_assert_int_eq(p[SP_GROUP_M], 8);
        for (int j = 0; j < i; j++) /* drawn without replacement */
            ck_assert_int_ne(memcmp(p, a + j * SP_N_PARAMS, SP_N_PARAMS * sizeof *p), 0);
    }
}
END_TEST

START_TEST(test_collect_sampling_more_than_space_gives_all)
{
    struct space s;
    int32_t *p = malloc(576 * SP_N_PARAMS * sizeof *p);
    space_default(&s);
    ck_assert_int_eq(space_set_param(&s, "NUM_WARPS=4"), 0);
    ck_assert_int_eq(space_size(&s), 192);
    ck_assert_int_eq(space_sample(&s, 1000, 7, p), 192);
    for (int i = 0; i < 192; i++)
        ck_assert_int_eq(p[i * SP_N_PARAMS + SP_NUM_WARPS], 4);
    free(p);
}
END_TEST

START_TEST(test_collect_param_rejects_bad_values)
{
    struct space s;
    space_default(&s);
    ck_assert_int_eq(space_set_param(&s, "BLOCK_M=48"), -1);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "BLOCK_M"));
    ck_assert_int_eq(space_set_param(&s, "NUM_WARPS=3"), -1);
    ck_assert_int_eq(space_set_param(&s, "BLOCK_Q=32"), -1);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "unknown parameter"));
    ck_assert_int_eq(space_set_param(&s, "BLOCK_M"), -1);
    ck_assert_int_eq(space_set_param(&s, "BLOCK_N=64,64"), -1);
    ck_assert_int_eq(space_size(&s), 576); /* nothing changed by the failures */
    ck_assert_int_eq(space_set_param(&s, "group_m=4,8,16"), 0);
    ck_assert_int_eq(space_size(&s), 576 * 3);
}
END_TEST

START_TEST(test_collect_smem_formula)
{
    /* stages * (BM + BN) * BK * 2 bytes, worked out by hand */
    int32_t a[SP_N_PARAMS] = {128, 256, 64, 8, 3, 8};   /* 3 * 384 * 64 * 2 = 147456 */
    int32_t b[SP_N_PARAMS] = {256, 256, 256, 8, 5, 8};  /* 5 * 512 * 256 * 2 = 1310720 */
    int32_t c[SP_N_PARAMS] = {128, 128, 128, 8, 4, 4};  /* 4 * 256 * 128 * 2 = 262144 > 232448 */
    ck_assert_int_eq(space_smem_bytes(a), 147456);
    ck_assert_int_eq(space_smem_bytes(b), 1310720);
    ck_assert_int_eq(space_smem_bytes(c), 262144);
}
END_TEST

START_TEST(test_collect_path_and_smem)
{
    /* The Hopper path: native family, sm_90, NUM_WARPS a multiple of 4, BLOCK_M a multiple of 64. */
    int32_t a[SP_N_PARAMS] = {128, 256, 64, 8, 3, 8}; /* wgmma */
    int32_t b[SP_N_PARAMS] = {128, 256, 64, 8, 3, 2}; /* 2 warps: no whole warpgroup -> mma.sync */
    int32_t c[SP_N_PARAMS] = {32, 128, 64, 8, 4, 4};  /* BLOCK_M 32 < 64 rows of a wgmma -> mma.sync */
    int32_t d[SP_N_PARAMS] = {64, 32, 32, 8, 3, 8};   /* two warpgroups split N: 16 columns each -> wgmma */
    int aw, bw;
    ck_assert_int_eq(space_path(a, 90, SPACE_FAMILY_NATIVE), SPACE_PATH_WGMMA);
    ck_assert_int_eq(space_path(a, 90, SPACE_FAMILY_MMA_SYNC), SPACE_PATH_MMA_SYNC);
    ck_assert_int_eq(space_path(a, 80, SPACE_FAMILY_NATIVE), SPACE_PATH_MMA_SYNC); /* wgmma is sm_90a only */
    ck_assert_int_eq(space_path(b, 90, SPACE_FAMILY_NATIVE), SPACE_PATH_MMA_SYNC);
    ck_assert_int_eq(space_path(c, 90, SPACE_FAMILY_NATIVE), SPACE_PATH_MMA_SYNC);
    /* the trace's kernel_family: what the family runs as on the device (wgmma needs sm_90a) */
    ck_assert_str_eq(space_family_name(90, SPACE_FAMILY_NATIVE), "wgmma-tma");
    ck_assert_str_eq(space_family_name(80, SPACE_FAMILY_NATIVE), "mma-sync");
    ck_assert_str_eq(space_family_name(90, SPACE_FAMILY_MMA_SYNC), "mma-sync");
    ck_assert_int_eq(space_path(d, 90, SPACE_FAMILY_NATIVE), SPACE_PATH_WGMMA);
    ck_assert_str_eq(space_path_name(SPACE_PATH_WGMMA), "wgmma");
    /* wgmma: the tiles plus two 8-byte mbarriers per stage: 3 * 384 * 64 * 2 + 3 * 16 = 147456 + 48 */
    ck_assert_int_eq(space_smem_bytes_on(a, SPACE_PATH_WGMMA), 147504);
    ck_assert_int_eq(space_smem_bytes_on(a, SPACE_PATH_MMA_SYNC), 147456);
    /* 64,32,32 W=8: 3 * 96 * 32 * 2 + 48 = 18432 + 48 */
    ck_assert_int_eq(space_smem_bytes_on(d, SPACE_PATH_WGMMA), 18480);
    /* panels: A min(64, BK); B min(64, the warpgroup's N): a -> one warpgroup row-split, N 256 -> 64 */
    space_wgmma_panels(a, &aw, &bw);
    ck_assert_int_eq(aw, 64);
    ck_assert_int_eq(bw, 64);
    space_wgmma_panels(d, &aw, &bw); /* BK 32; BLOCK_M 64 with 2 warpgroups: N split, 32 / 2 = 16 */
    ck_assert_int_eq(aw, 32);
    ck_assert_int_eq(bw, 16);
    /* block threads: NUM_WARPS x 32 consumers, then a producer warpgroup (8 warps and more than 115712 bytes, so
     * that two blocks cannot share a multiprocessor's 228 KiB) or one producer warp */
    int32_t e[SP_N_PARAMS] = {128, 128, 64, 8, 3, 8}; /* 3 * 256 * 64 * 2 + 48 = 98352: two fit -> warp */
    int32_t f[SP_N_PARAMS] = {128, 128, 64, 8, 4, 8}; /* 131136 -> warpgroup */
    int32_t g[SP_N_PARAMS] = {64, 32, 256, 8, 4, 4};  /* 196672, but 4 warps -> warp */
    ck_assert_int_eq(space_wgmma_threads(a), 8 * 32 + 128);
    ck_assert_int_eq(space_wgmma_threads(d), 8 * 32 + 32);
    ck_assert_int_eq(space_wgmma_threads(e), 8 * 32 + 32);
    ck_assert_int_eq(space_wgmma_threads(f), 8 * 32 + 128);
    ck_assert_int_eq(space_wgmma_threads(g), 4 * 32 + 32);
}
END_TEST

START_TEST(test_collect_default_shapes)
{
    int64_t d[SPACE_N_DEFAULT_SHAPES * 3];
    ck_assert_int_eq(space_default_shapes(d), 64);
    ck_assert_int_eq(d[0], 256);
    ck_assert_int_eq(d[63 * 3 + 0], 4096);
    ck_assert_int_eq(d[63 * 3 + 2], 4096);
    for (int i = 0; i < 64; i++)
        for (int j = 0; j < i; j++)
            ck_assert_int_ne(memcmp(d + i * 3, d + j * 3, 3 * sizeof *d), 0);
}
END_TEST

START_TEST(test_collect_shape_checks)
{
    int64_t ok[3] = {264, 136, 520}, bad[3] = {256, 100, 256};
    ck_assert_int_eq(space_check_shape("--shape", ok), 0);
    ck_assert_int_eq(space_check_shape("--shape", bad), -1);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "N = 100"));
}
END_TEST

START_TEST(test_collect_shapes_file)
{
    char path[] = "/tmp/test-collect-shapes.XXXXXX";
    int fd = mkstemp(path);
    int64_t *d = NULL;
    int n = 0;
    FILE *fp = fdopen(fd, "w");
    fprintf(fp, "# inputs\n4096x4096x4096\n\n  256x512x1024   # a comment\n");
    fclose(fp);
    ck_assert_int_eq(space_read_shapes(path, &d, &n), 0);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(d[3], 256);
    ck_assert_int_eq(d[5], 1024);
    free(d);
    fp = fopen(path, "w");
    fprintf(fp, "4096x4096x4096\n4096x4096\n");
    fclose(fp);
    ck_assert_int_eq(space_read_shapes(path, &d, &n), -1);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), ":2")); /* names the line */
    unlink(path);
}
END_TEST

START_TEST(test_collect_shard_parse)
{
    int i = 0, n = 0;
    ck_assert_int_eq(space_parse_shard("--shard", "2/4", &i, &n), 0);
    ck_assert_int_eq(i, 2);
    ck_assert_int_eq(n, 4);
    ck_assert_int_eq(space_parse_shard("--shard", "0/4", &i, &n), -1);
    ck_assert_int_eq(space_parse_shard("--shard", "5/4", &i, &n), -1);
    ck_assert_int_eq(space_parse_shard("--shard", "2", &i, &n), -1);
    ck_assert_int_eq(space_parse_shard("--shard", "a/b", &i, &n), -1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("collect");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_collect_space_default_is_papers);
    tcase_add_test(tc, test_collect_space_enumeration_complete);
    tcase_add_test(tc, test_collect_sampling_deterministic_by_seed);
    tcase_add_test(tc, test_collect_sampling_more_than_space_gives_all);
    tcase_add_test(tc, test_collect_param_rejects_bad_values);
    tcase_add_test(tc, test_collect_smem_formula);
    tcase_add_test(tc, test_collect_path_and_smem);
    tcase_add_test(tc, test_collect_default_shapes);
    tcase_add_test(tc, test_collect_shape_checks);
    tcase_add_test(tc, test_collect_shapes_file);
    tcase_add_test(tc, test_collect_shard_parse);
    suite_add_tcase(s, tc);
    return tt_run(s);
}
