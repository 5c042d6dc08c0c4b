/* test-plan.c — the split of a collection's (input, configuration) pairs over MPI ranks (collect/plan.c), without
 * MPI or CUDA: every pair goes to exactly one rank, and the ranks' expected costs (runs + one compile per
 * configuration a rank touches, recomputed here independently of plan_loads) are within 10% of their mean —
 * by cost, not by count. Costs are built here by hand or from a seeded generator, not by the code under test. */
#include "plan.h"
#include "space.h"

#include "test-common.h"

#include <check.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Independent recomputation: each rank's runs plus one compile per configuration it has a pair of. */
static void loads_by_hand(int n_in, int n_cfg, const double *run, const double *comp, const int *owner, int n,
                          double *load)
{
    for (int r = 0; r < n; r++) {
        load[r] = 0.0;
        for (int k = 0; k < n_cfg; k++) {
            int any = 0;
            for (int i = 0; i < n_in; i++)
                if (owner[i * n_cfg + k] == r) {
                    load[r] += run[i * n_cfg + k];
                    any = 1;
                }
            if (any)
                load[r] += comp[k];
        }
    }
}

/* Checks: owners in range (each pair exactly once, since owner holds one rank per pair) and max load within 10%
 * of the mean load. Returns the max/mean ratio. */
static double check_split(int n_in, int n_cfg, const double *run, const double *comp, int n)
{
    int *owner = malloc((size_t)n_in * n_cfg * sizeof *owner);
    double *load = calloc((size_t)n, sizeof *load), *load2 = calloc((size_t)n, sizeof *load2), mean = 0, max = 0;
    for (int j = 0; j < n_in * n_cfg; j++)
        owner[j] = -1;
    ck_assert_int_eq(plan_assign(n_in, n_cfg, run, comp, n, owner), 0);
    for (int j = 0; j < n_in * n_cfg; j++)
        ck_assert(owner[j] >= 0 && owner[j] < n);
    loads_by_hand(n_in, n_cfg, run, comp, owner, n, load);
    plan_loads(n_in, n_cfg, run, comp, owner, n, load2);
    for (int r = 0; r < n; r++) {
        ck_assert(fabs(load[r] - load2[r]) <= 1e-9 * (1.0 + load[r]));
        mean += load[r] / n;
        max = fmax(max, load[r]);
    }
    ck_assert_msg(max <= 1.10 * mean, "max %.1f mean %.1f", max, mean);
    free(owner);
    free(load);
    free(load2);
    return max / mean;
}

static double urand(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (double)((*s >> 8) & 0xffff) / 65536.0;
}

/* Realistic shapes: the cost model on the paper's inputs and a sampled space, 2..16 ranks. */
START_TEST(test_plan_model_costs_balanced)
{
    struct space s;
    struct plan_model m = {25.0, 100.0, (int64_t)256 << 20, 8, 0};
    int64_t dims[SPACE_N_DEFAULT_SHAPES * 3];
    int n_cfg = 0, n_in = space_default_shapes(dims);
    int32_t *p;
    double *run, *comp;
    space_default(&s);
    p = plan_configs(&s, 0, 100, 0, &n_cfg);
    ck_assert_int_eq(n_cfg, 100);
    run = malloc((size_t)n_in * n_cfg * sizeof *run);
    comp = malloc((size_t)n_cfg * sizeof *comp);
    for (int k = 0; k < n_cfg; k++) {
        comp[k] = plan_compile_ms(&m, p + k * SP_N_PARAMS) / m.compile_jobs;
        for (int i = 0; i < n_in; i++)
            run[i * n_cfg + k] = plan_run_ms(&m, dims + i * 3, p + k * SP_N_PARAMS);
    }
    for (int n = 2; n <= 16; n *= 2)
        check_split(n_in, n_cfg, run, comp, n);
    check_split(8, n_cfg, run, comp, 2); /* the first 8 inputs only */
    free(p);
    free(run);
    free(comp);
}
END_TEST

/* Half the configurations cost 10x the other half: a split by count would give one rank 5.5x the other's
 * cost in the worst order; by cost both get ~half, so their pair counts differ a lot. */
START_TEST(test_plan_balances_cost_not_count)
{
    enum { NI = 4, NC = 40 };
    double run[NI * NC], comp[NC];
    int owner[NI * NC], count[2] = {0, 0};
    double load[2];
    for (int k = 0; k < NC; k++) {
        comp[k] = 0.0;
        for (int i = 0; i < NI; i++)
            run[i * NC + k] = k < NC / 2 ? 10.0 : 1.0; /* total 20*4*10 + 20*4*1 = 880; 440 each */
    }
    check_split(NI, NC, run, comp, 2);
    ck_assert_int_eq(plan_assign(NI, NC, run, comp, 2, owner), 0);
    for (int j = 0; j < NI * NC; j++)
        count[owner[j]]++;
    loads_by_hand(NI, NC, run, comp, owner, 2, load);
    ck_assert(fabs(load[0] - 440.0) <= 44.0 && fabs(load[1] - 440.0) <= 44.0);
    ck_assert_int_eq(count[0] + count[1], NI * NC);
    /* 440 of cost is e.g. 44 pairs of 10 or 440 of 1: the counts are far from 80/80 unless mixed evenly; what
     * must hold is that each rank holds some dear pairs (no rank left with only cheap ones). */
    {
        int dear[2] = {0, 0};
        for (int j = 0; j < NI * NC; j++)
            dear[owner[j]] += run[j] == 10.0;
        ck_assert(dear[0] >= 35 && dear[1] >= 35); /* 80 dear pairs (800 of 880): ~40 each */
    }
}
END_TEST

/* One configuration, many inputs (a column must be cut) and compiles that dominate (columns kept whole); random
 * costs with a fixed seed; more ranks than pieces (some ranks get nothing, every pair still once). */
START_TEST(test_plan_edge_cases)
{
    enum { NI = 64 };
    double run[NI * 200], comp[200];
    unsigned seed = 7;
    int owner[6];
    for (int i = 0; i < NI; i++)
        run[i] = 50.0 + 100.0 * urand(&seed);
    comp[0] = 300.0;
    check_split(NI, 1, run, comp, 4); /* one column over 4 ranks: cut by inputs */
    for (int k = 0; k < 200; k++) {
        comp[k] = 1000.0 * (1.0 + urand(&seed));
        for (int i = 0; i < 4; i++)
            run[i * 200 + k] = 10.0 * urand(&seed);
    }
    check_split(4, 200, run, comp, 3);
    for (int j = 0; j < 6; j++)
        run[j] = 1.0;
    comp[0] = comp[1] = comp[2] = 0.0;
    ck_assert_int_eq(plan_assign(2, 3, run, comp, 8, owner), 0); /* 6 pairs, 8 ranks */
    for (int a = 0; a < 6; a++)
        for (int b = a + 1; b < 6; b++)
            ck_assert_int_ne(owner[a], owner[b]); /* one pair each: the least-loaded rank takes the next */
    memset(run, 0, sizeof run);
    check_split(4, 200, run, comp, 2); /* all costs zero: split by count */
}
END_TEST

/* The expected costs themselves, worked out by hand. */
START_TEST(test_plan_cost_model)
{
    struct plan_model m = {25.0, 100.0, 0, 4, 0};
    int64_t big[3] = {4096, 4096, 4096}, small[3] = {256, 256, 256};
    int32_t p[SP_N_PARAMS] = {128, 128, 64, 8, 3, 4}, huge[SP_N_PARAMS] = {256, 256, 256, 8, 5, 8};
    /* 2*4096^3 = 1.374e11 flop at 4e11/ms: 0.3436 ms; no flush: 10 + 25*(1+0.003/0.3436) + 100*(1+0.003/0.3436) */
    double k = 2.0 * 4096.0 * 4096.0 * 4096.0 / 4e11;
    ck_assert(fabs(plan_run_ms(&m, big, p) - (10.0 + 125.0 * (1.0 + 0.003 / k))) < 1e-9);
    /* 256^3: kernel floor 0.005 ms; 256 MiB flush at 3e9 B/ms = 0.08948 ms per timed execution */
    m.flush_bytes = (int64_t)256 << 20;
    ck_assert(fabs(plan_run_ms(&m, small, p) -
                   (10.0 + 25.0 * (1.0 + 0.6) + 100.0 * (1.0 + (0.003 + 268435456.0 / 3e9) / 0.005))) < 1e-6);
    /* compile: 128*128/(4*32)*64 = 8192 -> 170 + 573.44 */
    ck_assert(fabs(plan_compile_ms(&m, p) - 743.44) < 1e-9);
    /* 5 stages x 512 x 256 x 2 = 1.3 MB of shared memory: never compiled nor run (unless --compile-invalid) */
    ck_assert(plan_run_ms(&m, big, huge) == 0.0 && plan_compile_ms(&m, huge) == 0.0);
    m.compile_invalid = 1;
    ck_assert(plan_compile_ms(&m, huge) > 0.0);
}
END_TEST

/* --compile-isolated over shards: the full space's 576 configurations each go to exactly one of 4 shards, every
 * shard's expected isolated compile time (recomputed here from the weight formula, 170 + 0.07 x weight, every
 * configuration compiled) is within 5% of a quarter of the total, and one shard gets everything. */
START_TEST(test_plan_isolated_shards_balanced)
{
    struct space s;
    int n_cfg = 0, owner[576];
    double load[4] = {0}, total = 0.0;
    space_default(&s);
    int32_t *p = plan_configs(&s, 1, 0, 0, &n_cfg);
    ck_assert_int_eq(n_cfg, 576);
    ck_assert_int_eq(plan_isolated_shards(p, n_cfg, 4, owner), 0);
    for (int k = 0; k < n_cfg; k++) {
        ck_assert(owner[k] >= 0 && owner[k] < 4);
        double ms = 170.0 + 0.07 * (double)plan_compile_weight(p + k * SP_N_PARAMS);
        load[owner[k]] += ms;
        total += ms;
    }
    for (int i = 0; i < 4; i++)
        ck_assert_msg(fabs(load[i] - total / 4) < 0.05 * total / 4, "shard %d: %.0f ms of %.0f", i, load[i], total);
    ck_assert_int_eq(plan_isolated_shards(p, n_cfg, 1, owner), 0);
    for (int k = 0; k < n_cfg; k++)
        ck_assert_int_eq(owner[k], 0);
    free(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("plan");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_plan_model_costs_balanced);
    tcase_add_test(tc, test_plan_balances_cost_not_count);
    tcase_add_test(tc, test_plan_edge_cases);
    tcase_add_test(tc, test_plan_cost_model);
    tcase_add_test(tc, test_plan_isolated_shards_balanced);
    suite_add_tcase(s, tc);
    return tt_run(s);
}
