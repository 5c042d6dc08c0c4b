/* report_opening.c — the five lines that open the report's summary, "What tuning costs and what it buys": what
 * tuning the single input over every configuration costs end to end and buys (analysis/cost.h, `tunecost cost`),
 * the fraction of optimum within 10 s (chosen on the all-inputs simulation, re-evaluated on fresh runs), why early
 * stopping pays or not (the repetition and compile shares) and what parallel compilation saves. Every number is a
 * row of opening.tsv (key, value, lo, hi), from which the report test recomputes each sentence. */
#include "cost.h"
#include "report_results.h"
#include "sim_budget.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define OPENING_BUDGET_S 10.0

enum {
    OP_TOTAL_S, OP_PARALLEL_S, OP_PIPELINED_S, OP_BEST_TFLOPS, OP_REF_TFLOPS, OP_RANDOM_TFLOPS, OP_COMPILE_SHARE,
    OP_REP_SHARE, OP_FRAC_SEQ, OP_FRAC_PAR, OP_CONFIGS, OP_FAILED, OP_WORKERS, OP_IMPUTED, OP_N
};
static const char *const op_keys[OP_N] = {"input_total_s", "input_parallel_s", "input_pipelined_s", "best_tflops",
                                          "cublas_tflops", "random_config_tflops", "compile_share",
                                          "repetition_share", "frac_10s_sequential", "frac_10s_parallel", "configs",
                                          "failed", "workers", "compiles_imputed"};

struct op_row {
    double v, lo, hi;
};

static int opening_tsv(struct report_ctx *c, const struct op_row *row)
{
    char path[PATH_MAX];
    FILE *fp = report_open(c, "opening.tsv", path, sizeof path);
    if (fp == NULL)
        return -1;
    fprintf(fp, "key\tvalue\tlo\thi\n");
    for (int k = 0; k < OP_N; k++)
        fprintf(fp, "%s\t%.15g\t%.15g\t%.15g\n", op_keys[k], row[k].v, row[k].lo, row[k].hi);
    return report_close(fp, path);
}

/* The numbers: the cost of the single input, and the best point within 10 s of two all-inputs scenarios. */
static int opening_numbers(struct report_ctx *c, struct op_row *row, struct cost_result *r)
{
    struct cost_settings cs;
    struct report_est e[2];
    static const int sc[2] = {SC_BASELINE, SC_PARALLEL};
    cost_settings_default(&cs);
    cs.workers = c->o->compile_factor;
    cs.runs = c->o->runs >= 2 ? c->o->runs : 2;
    cs.boot = 1000;
    cs.seed = c->o->seed;
    if (cost_compute(c->t, c->input, &cs, r) != 0)
        return -1;
    {   /* simulate --budget's choice and fresh runs (budget.tsv's function), every all-inputs scenario */
        const double budget = OPENING_BUDGET_S;
        struct sim_budget_row *w = NULL;
        int n = 0;
        if (sim_budget_eval(c->res.d[REPORT_SIM_ALL], &c->res.s[REPORT_SIM_ALL], c->res.r[REPORT_SIM_ALL], &budget, 1,
                            NULL, 0, &w, &n) != 0)
            return -1;
        for (int k = 0; k < 2; k++)
            report_est_from_budget(&w[sc[k]], &e[k]);
        free(w);
    }
    row[OP_TOTAL_S] = (struct op_row){r->total.ms / 1e3, r->total.lo_ms / 1e3, r->total.hi_ms / 1e3};
    row[OP_PARALLEL_S] = (struct op_row){r->model_s[COST_PARALLEL], r->model_lo_s[COST_PARALLEL],
                                         r->model_hi_s[COST_PARALLEL]};
    row[OP_PIPELINED_S] = (struct op_row){r->model_s[COST_PIPELINED], r->model_lo_s[COST_PIPELINED],
                                          r->model_hi_s[COST_PIPELINED]};
    row[OP_BEST_TFLOPS] = (struct op_row){r->best_tflops, r->best_tflops_lo, r->best_tflops_hi};
    row[OP_REF_TFLOPS] = (struct op_row){r->ref_tflops, NAN, NAN};
    row[OP_RANDOM_TFLOPS] = (struct op_row){r->median_tflops, NAN, NAN};
    row[OP_COMPILE_SHARE] = (struct op_row){r->compile_share, r->compile_share_lo, r->compile_share_hi};
    row[OP_REP_SHARE] = (struct op_row){r->rep_share, r->rep_share_lo, r->rep_share_hi};
    row[OP_FRAC_SEQ] = (struct op_row){e[0].speedup, e[0].speedup_lo, e[0].speedup_hi};
    row[OP_FRAC_PAR] = (struct op_row){e[1].speedup, e[1].speedup_lo, e[1].speedup_hi};
    row[OP_CONFIGS] = (struct op_row){r->n_configs, NAN, NAN};
    row[OP_FAILED] = (struct op_row){r->n_failed, NAN, NAN};
    row[OP_WORKERS] = (struct op_row){r->workers, NAN, NAN};
    row[OP_IMPUTED] = (struct op_row){(r->n_valid - r->n_isolated) + (r->n_failed - r->n_failed_compiled), NAN, NAN};
    return 0;
}

int report_opening(struct report_ctx *c)
{
    struct op_row w[OP_N];
    struct cost_result r;
    int n0 = c->n_findings;
    report_say(c, "what tuning costs and what it buys: %s, every configuration", c->input_label);
    if (opening_numbers(c, w, &r) != 0 || opening_tsv(c, w) != 0)
        return -1;
    char imputed[128] = "";
    if (w[OP_IMPUTED].v > 0)
        snprintf(imputed, sizeof imputed, " (%.0f of the %d compile times imputed: the trace lacks them)",
                 w[OP_IMPUTED].v, r.n_configs);
    report_finding(c, "**Cost of one input**: tuning %s over all %d configurations (%d fail) costs %.1f s (95%% CI "
                   "%.1f-%.1f) compiled one after another, %.1f s (%.1f-%.1f) with %d pipelined compile workers%s.",
                   r.input, r.n_configs, r.n_failed, w[OP_TOTAL_S].v, w[OP_TOTAL_S].lo, w[OP_TOTAL_S].hi,
                   w[OP_PIPELINED_S].v, w[OP_PIPELINED_S].lo, w[OP_PIPELINED_S].hi, r.workers, imputed);
    if (isfinite(w[OP_REF_TFLOPS].v) && isfinite(w[OP_BEST_TFLOPS].v))
        report_finding(c, "**What it buys**: the best configuration runs at a median %.1f TFLOP/s (95%% CI %.1f-%.1f), %.0f%% "
                       "of cuBLAS and %.2fx a configuration picked at random.", w[OP_BEST_TFLOPS].v,
                       w[OP_BEST_TFLOPS].lo, w[OP_BEST_TFLOPS].hi, 100 * w[OP_BEST_TFLOPS].v / w[OP_REF_TFLOPS].v,
                       w[OP_BEST_TFLOPS].v / w[OP_RANDOM_TFLOPS].v);
    report_finding(c, "**In %.0f s per input** (all inputs, chosen on the simulation, measured on fresh runs): %.3f "
                   "of the optimum (95%% CI %.3f-%.3f) with sequential compilation, %.3f (%.3f-%.3f) with %d "
                   "parallel workers; budget.tsv has other budgets.", OPENING_BUDGET_S, w[OP_FRAC_SEQ].v,
                   w[OP_FRAC_SEQ].lo, w[OP_FRAC_SEQ].hi, w[OP_FRAC_PAR].v, w[OP_FRAC_PAR].lo, w[OP_FRAC_PAR].hi,
                   c->o->compile_factor);
    report_finding(c, "**Early stopping** saves only repetition, %.0f%% of the time (95%% CI %.0f-%.0f%%), since "
                   "compilation is %.0f%% (%.0f-%.0f%%): it pays only once benchmarking weighs more (parallel "
                   "compilation and a long EXEC_TIME).", 100 * w[OP_REP_SHARE].v, 100 * w[OP_REP_SHARE].lo,
                   100 * w[OP_REP_SHARE].hi, 100 * w[OP_COMPILE_SHARE].v, 100 * w[OP_COMPILE_SHARE].lo,
                   100 * w[OP_COMPILE_SHARE].hi);
    report_finding(c, "**Parallel compilation** pays while compilation dominates: %d workers cut %s from %.1f s to "
                   "%.1f s (list-scheduled, 95%% CI %.1f-%.1f), %.2fx; opening.tsv has every number, `tunecost cost` "
                   "the full split.", r.workers, r.input, w[OP_TOTAL_S].v, w[OP_PARALLEL_S].v, w[OP_PARALLEL_S].lo,
                   w[OP_PARALLEL_S].hi, w[OP_TOTAL_S].v / w[OP_PARALLEL_S].v);
    c->opening_at = n0;
    c->n_opening = c->n_findings - n0;
    return 0;
}
