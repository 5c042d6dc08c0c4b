/* report_reeval.c — honest statistics for the report: every time-to-target and every "best point within a budget"
 * is chosen on one set of Monte Carlo runs (the simulation's) and reported on a fresh set drawn with a derived
 * seed, with its 95% confidence interval, so the cheapest-of-500 selection does not flatter it (issue 23). Also the
 * same for a weighted mean over inputs (two kernel families against a common reference). */
#include "report_results.h"
#include "sim_budget.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint64_t report_derive_seed(uint64_t seed, uint64_t k)
{
    /* splitmix64 of the seed and the stream number: different k, unrelated streams; never the seed itself */
    uint64_t z = seed + 0x9E3779B97F4A7C15ull * (k + 1) + 0xD1B54A32D192ED03ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int report_reeval_runs(int runs)
{
    long r = 10L * runs;
    return r < REPORT_REEVAL_MIN_RUNS ? REPORT_REEVAL_MIN_RUNS : r > 100000 ? 100000 : (int)r;
}

/* The settings that replay exactly one sample's hyperparameters of scenario sc on fresh runs. */
static void pinned_settings(const struct sim_settings *s, int sc, const struct sim_point *p, uint64_t seed,
                            int input, struct sim_settings *e)
{
    *e = *s;
    e->samples = 1;
    e->runs = report_reeval_runs(s->runs);
    e->seed = seed;
    e->input = input;
    e->n_scenarios = 1;
    e->scenarios[0] = s->scenarios[sc];
    e->n_config_lo = e->n_config_hi = p->n_config;
    e->exec_ms_lo = e->exec_ms_hi = p->exec_ms;
    e->es_num_lo = e->es_num_hi = p->es_num;
    e->es_thr_lo = e->es_thr_hi = p->es_thr;
}

static void est_from_point(struct report_est *out, const struct sim_point *q)
{
    out->time_s = q->time_s;
    out->time_lo = q->time_s_lo;
    out->time_hi = q->time_s_hi;
    out->speedup = q->speedup;
    out->speedup_lo = q->speedup_lo;
    out->speedup_hi = q->speedup_hi;
}

static void est_select(struct report_est *out, const struct sim_point *p)
{
    memset(out, 0, sizeof *out);
    out->sample = p != NULL ? p->sample : -1;
    snprintf(out->chosen_by, sizeof out->chosen_by, "own");
    out->time_s = out->time_lo = out->time_hi = out->speedup = out->speedup_lo = out->speedup_hi = NAN;
    out->sel_time_s = out->sel_speedup = out->fresh_time_s = NAN;
    out->reached = 0;
    if (p == NULL)
        return;
    out->n_config = p->n_config;
    out->exec_ms = p->exec_ms;
    out->es_num = p->es_num;
    out->es_thr = p->es_thr;
    out->sel_time_s = p->time_s;
    out->sel_speedup = p->speedup;
}

int report_reeval(const struct sim_data *d, const struct sim_settings *s, int sc, const struct sim_point *p,
                  uint64_t seed, struct report_est *out)
{
    struct sim_settings e;
    struct sim_result *r;
    est_select(out, p);
    if (p == NULL)
        return 0;
    pinned_settings(s, sc, p, seed, s->input, &e);
    if ((r = sim_run(d, &e, NULL, NULL)) == NULL)
        return -1;
    est_from_point(out, &r->points[0]);
    out->fresh_time_s = out->time_s;
    sim_result_free(r);
    return 0;
}

/* The held-out rule of a time to target: out (re-evaluated) keeps its time only when its fresh mean speedup
 * reaches target. */
void report_held_out(struct report_est *out, double target)
{
    out->reached = out->sample >= 0 && out->speedup >= target;
    if (!out->reached)
        out->time_s = out->time_lo = out->time_hi = NAN;
}

/* Whether a selection-set point counts as reaching the target: its CI's lower bound does (its mean when the CI is
 * not known, runs < 2). Choosing on the lower bound keeps the selection from favouring lucky samples. */
static int reaches(const struct sim_point *q, double target)
{
    return isnan(q->speedup_lo) ? q->speedup >= target : q->speedup_lo >= target;
}

const struct sim_point *report_pick_ttt(const struct sim_result *r, int n_sc, int sc, double target)
{
    const struct sim_point *best = NULL;
    for (int i = sc; i < r->n_points; i += n_sc)
        if (reaches(&r->points[i], target) && (best == NULL || r->points[i].time_s < best->time_s))
            best = &r->points[i];
    return best;
}

int report_ttt(const struct sim_data *d, const struct sim_settings *s, const struct sim_result *r, int sc,
               double target, uint64_t seed, struct report_est *out)
{
    if (report_reeval(d, s, sc, report_pick_ttt(r, s->n_scenarios, sc, target), seed, out) != 0)
        return -1;
    report_held_out(out, target);
    return 0;
}

const double report_ttt_targets[REPORT_N_TTT] = {0.80, 0.90, 0.95, 0.98};

/* The scenario whose sample bounds sc's time to target: for a pipelined scenario, the parallel one with the same
 * workers, overhead and early stopping (the same sample draws the same configurations under either, and pipelining
 * never takes longer than compiling everything first); -1 when sc is not pipelined or s has no such scenario. */
static int bounding_scenario(const struct sim_settings *s, int sc)
{
    const struct sim_scenario *a = &s->scenarios[sc];
    if (a->compile != SIM_COMPILE_PIPELINED)
        return -1;
    for (int p = 0; p < s->n_scenarios; p++) {
        const struct sim_scenario *b = &s->scenarios[p];
        if (b->compile == SIM_COMPILE_PARALLEL && b->compile_factor == a->compile_factor &&
            b->overhead == a->overhead && b->early_stop == a->early_stop)
            return p;
    }
    return -1;
}

int report_ttt_set(const struct sim_data *d, const struct sim_settings *s, const struct sim_result *r, uint64_t seed,
                   uint64_t stream, int only_sc, double from_target, struct report_est *out)
{
    int n_sc = s->n_scenarios;
    unsigned char want[SIM_MAX_SCENARIOS] = {0};
    for (int sc = 0; sc < n_sc; sc++)
        if (only_sc < 0 || sc == only_sc) {
            int p = bounding_scenario(s, sc);
            want[sc] = 1;
            if (p >= 0)
                want[p] = 1;
        }
    /* 1. each target's own sample: the cheapest whose CI lower bound reaches it, kept when its fresh mean does */
    for (int i = 0; i < REPORT_N_TTT; i++)
        for (int sc = 0; sc < n_sc; sc++) {
            struct report_est *e = &out[i * n_sc + sc];
            if (!want[sc] || report_ttt_targets[i] < from_target - 1e-9) {
                est_select(e, NULL);
                snprintf(e->chosen_by, sizeof e->chosen_by, "not computed");
                continue;
            }
            if (report_ttt(d, s, r, sc, report_ttt_targets[i],
                           report_derive_seed(seed, stream + (uint64_t)(i * SIM_MAX_SCENARIOS + sc)), e) != 0)
                return -1;
            snprintf(e->chosen_by, sizeof e->chosen_by, "own");
        }
    /* 2. pipelined short of a target that parallel's sample reaches: that sample, replayed under pipelined
     * compilation on the fresh runs parallel's was (the same draws), kept when its fresh mean reaches the target */
    for (int sc = 0; sc < n_sc; sc++) {
        int p = bounding_scenario(s, sc);
        for (int i = 0; p >= 0 && want[sc] && i < REPORT_N_TTT; i++) {
            struct report_est *e = &out[i * n_sc + sc], *q = &out[i * n_sc + p], b;
            if (e->reached || !q->reached || report_ttt_targets[i] < from_target - 1e-9)
                continue;
            if (report_reeval(d, s, sc, &r->points[(size_t)q->sample * (size_t)n_sc + (size_t)sc],
                              report_derive_seed(seed, stream + (uint64_t)(i * SIM_MAX_SCENARIOS + p)), &b) != 0)
                return -1;
            report_held_out(&b, report_ttt_targets[i]);
            if (b.reached) {
                *e = b;
                snprintf(e->chosen_by, sizeof e->chosen_by, "%s's sample", s->scenarios[p].name);
            }
        }
    }
    /* 3. a sample whose fresh mean reaches a higher target reaches this one too: where this target's sample falls
     * short or is dearer, the higher target's gives its time (so times to target never fall as the target rises) */
    for (int i = REPORT_N_TTT - 2; i >= 0; i--)
        for (int sc = 0; sc < n_sc; sc++) {
            struct report_est *e = &out[i * n_sc + sc], *h = &out[(i + 1) * n_sc + sc];
            if (want[sc] && report_ttt_targets[i] >= from_target - 1e-9 && h->reached &&
                (!e->reached || e->time_s > h->time_s)) {
                *e = *h;
                if (strncmp(h->chosen_by, "sample for ", 11) != 0) /* a chain names the highest target */
                    snprintf(e->chosen_by, sizeof e->chosen_by, "sample for %.2f", report_ttt_targets[i + 1]);
            }
        }
    return 0;
}

void report_est_from_budget(const struct sim_budget_row *w, struct report_est *e)
{
    est_select(e, NULL);
    e->sample = w->sample;
    if (w->sample < 0)
        return;
    e->n_config = w->n_config;
    e->exec_ms = w->exec_ms;
    e->sel_time_s = w->sel_time_s;
    e->sel_speedup = w->sel_speedup;
    e->time_s = e->fresh_time_s = w->time_s;
    e->time_lo = w->time_lo;
    e->time_hi = w->time_hi;
    e->speedup = w->speedup;
    e->speedup_lo = w->speedup_lo;
    e->speedup_hi = w->speedup_hi;
}

