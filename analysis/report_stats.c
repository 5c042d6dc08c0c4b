/* report_stats.c — statistics several report sections share (below every section, beside report_reeval.c): the
 * compile cost models' names and scenarios, the three verdict seeds, paired comparisons on common random numbers
 * and the rows of a stability table (stability.tsv's columns), eta squared. It calls no section. */
#include "report_results.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <string.h>

const char *const report_model_names[REPORT_N_MODELS] = {"sequential", "parallel", "pipelined", "ideal"};
const char *const report_model_labels[REPORT_N_MODELS] = {
    "sequential (isolated compile times where the trace has them)",
    "parallel (the workers compile every drawn configuration first, list-scheduled: never before the longest "
    "compile ends)",
    "pipelined (the workers compile while the GPU benchmarks)",
    "the paper's ideal model (an optimistic bound: it divides the sum of compile times and ignores the longest "
    "compile)"};

/* The cost settings of costs.tsv. */
const char *const report_cost_names[REPORT_N_COSTS] = {"triton+measured", "none+measured", "triton+paper"};
const enum sim_failed_cost report_cost_failed[REPORT_N_COSTS] = {SIM_FAILED_TRITON, SIM_FAILED_NONE,
                                                                 SIM_FAILED_TRITON};
const enum sim_compile_model report_cost_model[REPORT_N_COSTS] = {SIM_CM_MEASURED, SIM_CM_MEASURED, SIM_CM_PAPER};
const int report_cost_models[REPORT_N_COST_MODELS] = {0, 2, 3}; /* sequential, pipelined, ideal */
const char *const report_at95_names[REPORT_N_AT95] = {"sequential", "per-exec", "pipelined", "parallel"};

void report_model_scenario(struct sim_scenario *sc, int model, int early, int factor)
{
    static const enum sim_compile comp[REPORT_N_MODELS] = {SIM_COMPILE_SEQUENTIAL, SIM_COMPILE_PARALLEL,
                                                           SIM_COMPILE_PIPELINED, SIM_COMPILE_IDEAL};
    memset(sc, 0, sizeof *sc);
    snprintf(sc->name, sizeof sc->name, "%s%s", report_model_names[model], early ? "+early-stop" : "");
    sc->compile = comp[model];
    sc->compile_factor = model == 0 ? 1 : factor;
    sc->overhead = SIM_OVERHEAD_PAPER;
    sc->early_stop = early;
}

void report_cost_scenarios(struct sim_scenario *sc, int factor)
{
    for (int m = 0; m < REPORT_N_COST_MODELS; m++)
        report_model_scenario(&sc[m], report_cost_models[m], 0, factor);
}

uint64_t report_seed_k(uint64_t seed, int k)
{
    (void)seed; /* verdicts are the same whatever the report's --seed: they are computed on seeds 1, 2, 3 */
    return (uint64_t)k + 1;
}

double report_eta_squared(const double *x, const double *y, int n, double lo, double hi)
{
    int nb = (int)fmin(10.0, hi - lo + 1.0), cnt[10] = {0};
    double sum[10] = {0}, mean = 0, ss_tot = 0, ss_b = 0;
    if (n < 2 || nb < 1)
        return NAN;
    for (int i = 0; i < n; i++)
        mean += y[i] / n;
    for (int i = 0; i < n; i++) {
        int b = hi > lo ? (int)((x[i] - lo) / (hi - lo + 1.0) * nb) : 0;
        b = b < 0 ? 0 : b >= nb ? nb - 1 : b;
        cnt[b]++;
        sum[b] += y[i];
        ss_tot += (y[i] - mean) * (y[i] - mean);
    }
    for (int b = 0; b < nb; b++)
        if (cnt[b] > 0)
            ss_b += cnt[b] * (sum[b] / cnt[b] - mean) * (sum[b] / cnt[b] - mean);
    return ss_tot > 0 ? ss_b / ss_tot : NAN;
}

/* ---- the stability table ---- */

void report_seeds_ci(const double v[3], double *mean, double *lo, double *hi)
{
    double m = (v[0] + v[1] + v[2]) / 3, ss = 0;
    for (int k = 0; k < 3; k++)
        ss += (v[k] - m) * (v[k] - m);
    double half = gsl_cdf_tdist_Pinv(0.975, 2) * sqrt(ss / 2) / sqrt(3.0);
    *mean = m;
    *lo = m - half;
    *hi = m + half;
}

/* The category of a value against two thresholds (per seed). */
const char *report_measure_cat(const struct report_measure *m, double v)
{
    return !isfinite(v) ? "n/a" : v > m->thr_hi ? m->above : v < m->thr_lo ? m->below : m->within;
}

int report_stability_row(struct table *tab, const struct report_measure *m)
{
    int row = table_add_row(tab), k = 0, agree = 1;
    double mean, lo, hi;
    const char *verdict;
    if (row < 0)
        return -1;
    report_seeds_ci(m->v, &mean, &lo, &hi);
    if (strncmp(m->measure, "eta2", 4) == 0)
        report_clip01(&lo, &hi); /* a share of variance */
    for (int s = 0; s < REPORT_N_SEEDS; s++)
        agree &= strcmp(m->cat[s], m->cat[0]) == 0 && strcmp(m->cat[s], "n/a") != 0;
    if (!m->by_ci)
        verdict = agree ? m->cat[0] : "no verdict";
    else if (!isfinite(lo) || !isfinite(hi))
        verdict = "no verdict";
    else
        verdict = lo > m->thr_hi ? m->above : hi < m->thr_lo ? m->below
                  : lo >= m->thr_lo && hi <= m->thr_hi ? m->within : "no verdict";
    table_set_str(tab, row, k++, m->verdict);
    table_set_str(tab, row, k++, m->model);
    table_set_str(tab, row, k++, m->measure);
    for (int s = 0; s < REPORT_N_SEEDS; s++)
        table_set_num(tab, row, k++, m->v[s], 4);
    for (int s = 0; s < REPORT_N_SEEDS; s++)
        table_set_str(tab, row, k++, m->cat[s]);
    table_set_num(tab, row, k++, mean, 4);
    table_set_num(tab, row, k++, lo, 4);
    table_set_num(tab, row, k++, hi, 4);
    table_set_str(tab, row, k++, verdict);
    table_set_int(tab, row, k++, strcmp(verdict, "no verdict") != 0);
    for (int s = 0; s < REPORT_N_SEEDS; s++) {
        table_set_num(tab, row, k++, m->paired ? m->lo[s] : NAN, 4);
        table_set_num(tab, row, k++, m->paired ? m->hi[s] : NAN, 4);
    }
    return 0;
}


/* A paired comparison on common random numbers (report_results.h): a_i = a[i * stride], b_i likewise. */
struct report_paired report_paired_points(const struct sim_point *a, const struct sim_point *b, int n, size_t stride,
                                          int speedup, double x_lo, double x_hi)
{
    struct report_paired p = {NAN, NAN, NAN, 0};
    double sum = 0, ss = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            const struct sim_point *pa = &a[(size_t)i * stride], *pb = &b[(size_t)i * stride];
            if (pa->exec_ms < x_lo || pa->exec_ms > x_hi)
                continue;
            double d = speedup ? pa->speedup - pb->speedup
                       : pa->time_s > 0 && pb->time_s > 0 ? log(pa->time_s / pb->time_s) : NAN;
            if (!isfinite(d))
                continue;
            if (pass == 0) {
                sum += d;
                p.n++;
            } else {
                ss += (d - sum / p.n) * (d - sum / p.n);
            }
        }
    if (p.n < 2)
        return p;
    double m = sum / p.n, half = gsl_cdf_tdist_Pinv(0.975, p.n - 1) * sqrt(ss / (p.n - 1) / p.n);
    p.est = speedup ? m : exp(m);
    p.lo = speedup ? m - half : exp(m - half);
    p.hi = speedup ? m + half : exp(m + half);
    return p;
}

/* The category of a paired comparison by its own CI: a time ratio saves (CI above 1.1), costs (below 0.9) or
 * changes nothing (inside [0.9, 1.1]); a speedup difference loses (below -0.01), gains (above 0.01) or none (inside
 * +-0.01); "n/a" when the CI straddles a threshold (then no verdict). */
const char *report_paired_cat(struct report_paired p, double t_lo, double t_hi, const char *below,
                              const char *within, const char *above)
{
    if (!isfinite(p.lo) || !isfinite(p.hi))
        return "n/a";
    return p.lo > t_hi ? above : p.hi < t_lo ? below : p.lo >= t_lo && p.hi <= t_hi ? within : "n/a";
}

int report_paired_row(struct table *st, const char *verdict, const char *model, const char *measure,
                      const struct report_paired p[3], double t_lo, double t_hi, const char *below,
                      const char *within, const char *above)
{
    struct report_measure e = {verdict, model, measure, {0}, {0}, 0, t_lo, t_hi, below, within, above, 1, {0}, {0}};
    for (int k = 0; k < REPORT_N_SEEDS; k++) {
        e.v[k] = p[k].est;
        e.lo[k] = p[k].lo;
        e.hi[k] = p[k].hi;
        e.cat[k] = report_paired_cat(p[k], t_lo, t_hi, below, within, above);
    }
    return report_stability_row(st, &e);
}

struct table *report_stability_new(const char *title)
{
    static const char *scols[] = {"verdict", "model", "measure", "seed_1", "seed_2", "seed_3", "category_1",
                                  "category_2", "category_3", "mean", "ci_lo", "ci_hi", "category", "stable",
                                  "seed_1_lo", "seed_1_hi", "seed_2_lo", "seed_2_hi", "seed_3_lo", "seed_3_hi"};
    return table_new(title, (int)(sizeof scols / sizeof scols[0]), scols);
}
