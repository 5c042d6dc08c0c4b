/* bench-policies.c — how fast `tunecost policies` is: the replay tables built from a trace, then every registered
 * policy evaluated (30 runs per input by default) on 1 and on T threads. Results in docs/performance.md,
 * "Tuning policies".
 *
 *   bench-policies TRACE [-r RUNS] [-j T] [-s none|early|statistical]
 *   bench-policies TRACE --baseline-error PERMS [-r RUNS] [-j T]
 *   bench-policies --synthetic N OUT.h5      write a synthetic N-configuration trace (bench-space.c), then exit
 *
 * Prints one TSV row per measurement: what, threads, wall seconds, CPU seconds of the process (all threads;
 * steadier than wall time on a busy machine), and whether the T-thread curve is bit-identical to the 1-thread one.
 * With --baseline-error: the analytic random-search baseline against the replayed random policy (RUNS runs per
 * input) and against PERMS sampled random orders per input with perfect measurements (pol_baseline_sampled), on
 * the default grid, then the largest distances by tuning time (docs/simulation.md, "What is approximated"). */
#include "bench-space.h"
#include "policy.h"
#include "tc_err.h"
#include "tc_opt.h"
#include "tc_time.h"
#include "trace.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void usage(void)
{
    fprintf(stderr, "usage: bench-policies TRACE [-r RUNS] [-j T] [-s none|early|statistical]\n"
                    "       bench-policies TRACE --baseline-error PERMS [-r RUNS] [-j T]\n"
                    "       bench-policies --synthetic N OUT.h5\n");
}

/* The baseline's accuracy table (see the opening comment). */
static int baseline_error(const struct pol_data *d, struct pol_settings *s, const double *grid, int perms)
{
    enum { N = 60 };
    double exact[N], indep[N];
    const char *band[] = {"< 0.3 s", "0.3-1 s", "1-2 s", "2-5 s", ">= 5 s"};
    double m_rep[5] = {0}, m_gam[5] = {0}, m_ind[5] = {0}, at_rep[5] = {0};
    struct pol_curve c;
    if (pol_evaluate(d, policy_find("random"), s, grid, &c) != 0 ||
        pol_baseline_sampled(d, s, grid, N, perms, 1, exact, indep) != 0)
        return -1;
    printf("# %d runs of the random policy, %d sampled orders per input\n", s->runs, perms);
    printf("time_s\treplay\treplay_ci_half\tsampled_exact\tsampled_indep\tbaseline\n");
    for (int g = 0; g < N; g++) {
        int b = grid[g] < 0.3 ? 0 : grid[g] < 1 ? 1 : grid[g] < 2 ? 2 : grid[g] < 5 ? 3 : 4;
        double rep = fabs(c.mean[g] - c.baseline[g]), gam = fabs(indep[g] - c.baseline[g]);
        double ind = fabs(exact[g] - indep[g]);
        printf("%.6g\t%.5f\t%.5f\t%.5f\t%.5f\t%.5f\n", grid[g], c.mean[g], (c.hi[g] - c.lo[g]) / 2, exact[g],
               indep[g], c.baseline[g]);
        if (rep > m_rep[b]) {
            m_rep[b] = rep;
            at_rep[b] = grid[g];
        }
        m_gam[b] = gam > m_gam[b] ? gam : m_gam[b];
        m_ind[b] = ind > m_ind[b] ? ind : m_ind[b];
    }
    printf("\nband\t|replay - baseline| (at s)\t|sampled_indep - baseline| (gamma law)\t"
           "|sampled_exact - sampled_indep| (independence)\n");
    for (int b = 0; b < 5; b++)
        printf("%s\t%.4f (%.3g)\t%.4f\t%.4f\n", band[b], m_rep[b], at_rep[b], m_gam[b], m_ind[b]);
    pol_curve_free(&c);
    return 0;
}

/* -s RULE: none, early or statistical. 0, or -1 after a message. */
static int parse_stop(const char *r, enum pol_stop_rule *stop)
{
    static const char *const names[] = {"none", "early", "statistical"};
    int i;
    if (tc_parse_name("-s", r, names, 3, &i) != 0) {
        fprintf(stderr, "bench-policies: %s\n", tc_errmsg());
        return -1;
    }
    *stop = i == 0 ? POL_STOP_NONE : i == 1 ? POL_STOP_EARLY : POL_STOP_STATISTICAL;
    return 0;
}

/* The command line (TRACE, -r, -j, -s, --baseline-error) into the pointers; 0, or 2 after the usage. */
static int bench_args(int argc, char **argv, const char **path, int *runs, int *threads, int *perms,
                      enum pol_stop_rule *stop)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-r") == 0 && i + 1 < argc)
            *runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "-j") == 0 && i + 1 < argc)
            *threads = atoi(argv[++i]);
        else if (strcmp(argv[i], "--baseline-error") == 0 && i + 1 < argc)
            *perms = atoi(argv[++i]);
        else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc) {
            if (parse_stop(argv[++i], stop) != 0)
                return 2;
        }
        else if (*path == NULL && argv[i][0] != '-')
            *path = argv[i];
        else {
            usage();
            return 2;
        }
    }
    if (*path == NULL || *runs < 1 || *threads < 1 || *threads > 64 || *perms < 0) {
        usage();
        return 2;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    int runs = 30, threads = (int)sysconf(_SC_NPROCESSORS_ONLN), rc = 1, perms = 0;
    enum pol_stop_rule stop = POL_STOP_NONE;
    if (argc == 4 && strcmp(argv[1], "--synthetic") == 0) {
        if (bench_space_write(argv[3], atoi(argv[2])) != 0) {
            fprintf(stderr, "bench-policies: %s\n", tc_errmsg());
            return 1;
        }
        return 0;
    }
    if (bench_args(argc, argv, &path, &runs, &threads, &perms, &stop) != 0)
        return 2;
    struct pol_settings s;
    pol_settings_default(&s);
    s.runs = runs;
    s.stop_rule = stop;
    double grid[60], w0 = tc_now_s(), c0 = cpu_s();
    pol_grid(s.budget_s * 1e-4, s.budget_s, s.n_grid, grid);
    struct trace *t = trace_open(path);
    struct pol_data *d = t != NULL ? pol_data_from_trace(t) : NULL;
    if (d == NULL) {
        fprintf(stderr, "bench-policies: %s\n", tc_errmsg());
        trace_close(t);
        return 1;
    }
    if (pol_data_set_prior(d, t, t) != 0) { /* transfer's prior: the trace itself (timing only) */
        fprintf(stderr, "bench-policies: %s\n", tc_errmsg());
        pol_data_free(d);
        trace_close(t);
        return 1;
    }
    if (perms > 0) {
        s.threads = threads;
        rc = baseline_error(d, &s, grid, perms) == 0 ? 0 : 1;
        if (rc != 0)
            fprintf(stderr, "bench-policies: %s\n", tc_errmsg());
        pol_data_free(d);
        trace_close(t);
        return rc;
    }
    printf("# stop rule %s, %d runs\nwhat\tthreads\twall_s\tcpu_s\tsame_bytes\n",
           stop == POL_STOP_NONE ? "none" : stop == POL_STOP_EARLY ? "early" : "statistical", runs);
    printf("tables (%d inputs)\t1\t%.2f\t%.2f\t-\n", pol_data_n_inputs(d), tc_now_s() - w0, cpu_s() - c0);
    double tot_w[2] = {0, 0}, tot_c[2] = {0, 0};
    int n_pol = 0, all_same = 1;
    for (int i = 0; policy_registry[i] != NULL; i++, n_pol++) {
        struct pol_curve c1, cT;
        int same;
        s.threads = 1;
        w0 = tc_now_s();
        c0 = cpu_s();
        if (pol_evaluate(d, policy_registry[i], &s, grid, &c1) != 0)
            goto fail;
        double w1 = tc_now_s() - w0, cc1 = cpu_s() - c0;
        s.threads = threads;
        w0 = tc_now_s();
        c0 = cpu_s();
        if (pol_evaluate(d, policy_registry[i], &s, grid, &cT) != 0) {
            pol_curve_free(&c1);
            goto fail;
        }
        double wT = tc_now_s() - w0, ccT = cpu_s() - c0;
        same = memcmp(c1.mean, cT.mean, (size_t)s.n_grid * sizeof *c1.mean) == 0 &&
               memcmp(c1.lo, cT.lo, (size_t)s.n_grid * sizeof *c1.lo) == 0 && c1.n_steps == cT.n_steps;
        all_same &= same;
        printf("%s x %d runs\t1\t%.2f\t%.2f\t-\n", policy_registry[i]->name, runs, w1, cc1);
        printf("%s x %d runs\t%d\t%.2f\t%.2f\t%s\n", policy_registry[i]->name, runs, threads, wT, ccT,
               same ? "yes" : "NO");
        tot_w[0] += w1;
        tot_c[0] += cc1;
        tot_w[1] += wT;
        tot_c[1] += ccT;
        pol_curve_free(&c1);
        pol_curve_free(&cT);
    }
    printf("all %d policies\t1\t%.2f\t%.2f\t-\n", n_pol, tot_w[0], tot_c[0]);
    printf("all %d policies\t%d\t%.2f\t%.2f\t%s\n", n_pol, threads, tot_w[1], tot_c[1], all_same ? "yes" : "NO");
    rc = all_same ? 0 : 1;
    goto out;
fail:
    fprintf(stderr, "bench-policies: %s\n", tc_errmsg());
out:
    pol_data_free(d);
    trace_close(t);
    return rc;
}
