/* sim_budget.c — `simulate --budget` and `--target` (sim_budget.h): a point chosen on the simulation's runs, reported
 * on fresh runs. The choice uses the CI bounds the selection runs give (the upper bound of time within the budget,
 * the lower bound of speedup for the best and for reaching a target), so lucky samples are not favoured. */
#include "sim_budget.h"

#include "tc_err.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int sim_budget_fresh_runs(int runs)
{
    long r = 10L * runs;
    return r < 300 ? 300 : r > 100000 ? 100000 : (int)r;
}

int sim_budget_parse_list(const char *opt, const char *text, int fractions, double *v, int *n)
{
    const char *p = text;
    *n = 0;
    while (*p != '\0') {
        char *end;
        double x = strtod(p, &end);
        if (end == p || (*end != ',' && *end != '\0') || !isfinite(x) || x <= 0 || (fractions && x > 1))
            return tc_seterr("%s: expected %s separated by commas, got '%s'", opt,
                             fractions ? "fractions of the optimum in (0, 1]" : "budgets in seconds > 0", text);
        if (*n == SIM_BUDGET_MAX)
            return tc_seterr("%s: at most %d values, got more in '%s'", opt, SIM_BUDGET_MAX, text);
        v[(*n)++] = x;
        p = *end == ',' ? end + 1 : end;
        if (*end == ',' && *p == '\0')
            return tc_seterr("%s: empty element at the end of '%s'", opt, text);
    }
    if (*n == 0)
        return tc_seterr("%s: expected at least one value, got '%s'", opt, text);
    return 0;
}

/* splitmix64 of the seed and a stream number: unrelated streams, never the seed itself */
static uint64_t budget_seed(uint64_t seed, uint64_t k)
{
    uint64_t z = seed + 0x9E3779B97F4A7C15ull * (k + 1) + 0x5DEECE66Dull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double lo_or_mean(double lo, double mean)
{
    return isnan(lo) ? mean : lo;
}

/* Replay point p's hyperparameters under scenario sc on fresh runs into row. */
static int budget_reeval(const struct sim_data *d, const struct sim_settings *s, int sc, const struct sim_point *p,
                         uint64_t seed, struct sim_budget_row *row)
{
    struct sim_settings e = *s;
    struct sim_result *r;
    e.samples = 1;
    e.runs = sim_budget_fresh_runs(s->runs);
    e.seed = seed;
    if (s->one_input) /* the sample's own input */
        e.one_input = 0, e.input = p->input;
    e.n_scenarios = 1;
    e.scenarios[0] = s->scenarios[sc];
    e.n_config_lo = e.n_config_hi = p->n_config;
    e.exec_ms_lo = e.exec_ms_hi = p->exec_ms;
    e.es_num_lo = e.es_num_hi = p->es_num;
    e.es_thr_lo = e.es_thr_hi = p->es_thr;
    if ((r = sim_run(d, &e, NULL, NULL)) == NULL)
        return -1;
    row->sample = p->sample;
    row->n_config = p->n_config;
    row->exec_ms = p->exec_ms;
    row->sel_time_s = p->time_s;
    row->sel_speedup = p->speedup;
    row->time_s = r->points[0].time_s;
    row->time_lo = r->points[0].time_s_lo;
    row->time_hi = r->points[0].time_s_hi;
    row->speedup = r->points[0].speedup;
    row->speedup_lo = r->points[0].speedup_lo;
    row->speedup_hi = r->points[0].speedup_hi;
    row->fresh_runs = e.runs;
    sim_result_free(r);
    return 0;
}

static void row_empty(struct sim_budget_row *row, int is_target, double q, int sc)
{
    memset(row, 0, sizeof *row);
    row->is_target = is_target;
    row->budget_s = is_target ? NAN : q;
    row->target = is_target ? q : NAN;
    row->scenario = sc;
    row->sample = -1;
    row->exec_ms = row->sel_time_s = row->sel_speedup = NAN;
    row->time_s = row->time_lo = row->time_hi = row->speedup = row->speedup_lo = row->speedup_hi = NAN;
}

const struct sim_point *sim_budget_pick(const struct sim_result *r, int n_sc, int sc, double budget_s)
{
    const struct sim_point *best = NULL;
    for (int i = sc; i < r->n_points; i += n_sc) {
        const struct sim_point *q = &r->points[i];
        if (lo_or_mean(q->time_s_hi, q->time_s) <= budget_s &&
            (best == NULL || lo_or_mean(q->speedup_lo, q->speedup) > lo_or_mean(best->speedup_lo, best->speedup)))
            best = q;
    }
    return best;
}

static int budget_by_time(const void *a, const void *b)
{
    const struct sim_point *x = *(const struct sim_point *const *)a, *y = *(const struct sim_point *const *)b;
    if (x->time_s != y->time_s)
        return x->time_s < y->time_s ? -1 : 1;
    return (x->sample > y->sample) - (x->sample < y->sample);
}

/* The cheapest point whose selection CI reaches the target and whose fresh mean confirms it (of the
 * SIM_BUDGET_TRIES cheapest candidates); row stays empty when none does. */
static int budget_target(const struct sim_data *d, const struct sim_settings *s, const struct sim_result *r, int sc,
                         double target, uint64_t seed, struct sim_budget_row *row)
{
    int n_sc = s->n_scenarios, m = 0, rc = 0;
    const struct sim_point **q = malloc(((size_t)r->n_points / (size_t)n_sc + 1) * sizeof *q);
    if (q == NULL)
        return tc_seterr_env("out of memory");
    for (int i = sc; i < r->n_points; i += n_sc)
        if (lo_or_mean(r->points[i].speedup_lo, r->points[i].speedup) >= target)
            q[m++] = &r->points[i];
    qsort(q, (size_t)m, sizeof *q, budget_by_time);
    for (int t = 0; t < m && t < SIM_BUDGET_TRIES; t++) {
        if ((rc = budget_reeval(d, s, sc, q[t], budget_seed(seed, (uint64_t)t), row)) != 0)
            break;
        if (row->speedup >= target)
            break;
        row_empty(row, 1, target, sc);
    }
    free(q);
    return rc;
}

int sim_budget_eval(const struct sim_data *d, const struct sim_settings *s, const struct sim_result *r,
                    const double *budgets, int n_budgets, const double *targets, int n_targets,
                    struct sim_budget_row **rows, int *n_rows)
{
    int n_sc = s->n_scenarios, n = (n_budgets + n_targets) * n_sc, k = 0;
    struct sim_budget_row *out = calloc((size_t)n + 1, sizeof *out);
    if (out == NULL)
        return tc_seterr_env("out of memory");
    for (int b = 0; b < n_budgets; b++)
        for (int sc = 0; sc < n_sc; sc++, k++) {
            const struct sim_point *p = sim_budget_pick(r, n_sc, sc, budgets[b]);
            row_empty(&out[k], 0, budgets[b], sc);
            if (p != NULL && budget_reeval(d, s, sc, p, budget_seed(s->seed, 1000u + (uint64_t)k), &out[k]) != 0)
                goto fail;
        }
    for (int t = 0; t < n_targets; t++)
        for (int sc = 0; sc < n_sc; sc++, k++) {
            row_empty(&out[k], 1, targets[t], sc);
            if (budget_target(d, s, r, sc, targets[t], budget_seed(s->seed, 100000u + 16u * (uint64_t)k),
                              &out[k]) != 0)
                goto fail;
        }
    *rows = out;
    *n_rows = n;
    return 0;
fail:
    free(out);
    return -1;
}

int sim_budget_write_tsv(FILE *fp, const struct sim_settings *s, const struct sim_budget_row *rows, int n)
{
    fprintf(fp, "kind\tbudget_s\ttarget\tscenario\tspeedup\tspeedup_lo\tspeedup_hi\ttime_s\ttime_s_lo\ttime_s_hi\t"
                "sample\tn_config\texec_ms\tsel_time_s\tsel_speedup\tfresh_runs\n");
    for (int i = 0; i < n; i++) {
        const struct sim_budget_row *w = &rows[i];
        fprintf(fp, "%s\t%.15g\t%.15g\t%s\t%.15g\t%.15g\t%.15g\t%.15g\t%.15g\t%.15g\t%d\t%d\t%.15g\t%.15g\t%.15g\t%d\n",
                w->is_target ? "target" : "budget", w->budget_s, w->target, s->scenarios[w->scenario].name,
                w->speedup, w->speedup_lo, w->speedup_hi, w->time_s, w->time_lo, w->time_hi, w->sample,
                w->n_config, w->exec_ms, w->sel_time_s, w->sel_speedup, w->fresh_runs);
    }
    return ferror(fp) ? tc_seterr_env("budget.tsv: write failed") : 0;
}

void sim_budget_print(FILE *fp, const struct sim_settings *s, const struct sim_budget_row *rows, int n)
{
    int n_sc = s->n_scenarios, shown = 0;
    for (int i = 0; i < n; i += n_sc) {
        const struct sim_budget_row *w = &rows[i];
        if (shown != 1 + w->is_target) {
            shown = 1 + w->is_target;
            fprintf(fp, "\n%s (chosen on the simulation's runs, reported on %d fresh runs, 95%% CI)\n",
                    w->is_target ? "Budget needed for a fraction of optimum, where the fresh mean reaches it"
                                 : "Best fraction of optimum within a budget",
                    sim_budget_fresh_runs(s->runs));
            fprintf(fp, "%-9s", w->is_target ? "target" : "budget_s");
            for (int sc = 0; sc < n_sc; sc++)
                fprintf(fp, "  %-26s", s->scenarios[sc].name);
            fprintf(fp, "\n");
        }
        fprintf(fp, "%-9.4g", w->is_target ? w->target : w->budget_s);
        for (int sc = 0; sc < n_sc; sc++) {
            const struct sim_budget_row *c = &rows[i + sc];
            char cell[64];
            if (c->sample < 0)
                snprintf(cell, sizeof cell, "%s", c->is_target ? "not reached" : "nothing within it");
            else if (c->is_target)
                snprintf(cell, sizeof cell, "%.3g s [%.3g, %.3g]", c->time_s, c->time_lo, c->time_hi);
            else
                snprintf(cell, sizeof cell, "%.3f [%.3f, %.3f]", c->speedup, c->speedup_lo, c->speedup_hi);
            fprintf(fp, "  %-26s", cell);
        }
        fprintf(fp, "\n");
    }
}
