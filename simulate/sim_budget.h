/* sim_budget.h — budgets and targets for `simulate --budget` / `--target`: the best fraction of optimum reachable
 * within S seconds, and the budget a target fraction needs, per scenario (compile model). A point is chosen on the
 * simulation's runs and reported on fresh runs drawn with a derived seed, with its 95% CI, so that choosing the
 * cheapest of many samples does not flatter it. Returns 0 / -1 with tc_errmsg(). */
#ifndef SIM_BUDGET_H
#define SIM_BUDGET_H

#include "sim.h"

#include <stdio.h>

#define SIM_BUDGET_MAX 32      /* budgets or targets in one list */
#define SIM_BUDGET_TRIES 5     /* a target: the cheapest candidates re-evaluated before "not reached" */

struct sim_budget_row {
    int is_target;             /* 0: a budget row (budget_s given), 1: a target row (target given) */
    double budget_s, target;   /* the question: NaN where not asked */
    int scenario;              /* index into the settings' scenarios */
    int sample;                /* the chosen sample, -1: none within the budget / none reaches the target */
    int n_config;
    double exec_ms;
    double sel_time_s, sel_speedup;                 /* what the selection runs said of it */
    double time_s, time_lo, time_hi;                /* on fresh runs, 95% CI */
    double speedup, speedup_lo, speedup_hi;
    int fresh_runs;
};

/* Fresh runs of a re-evaluation: 10 x runs, at least 300, at most 100000. */
int sim_budget_fresh_runs(int runs);
/* Parse "S[,S...]" (seconds > 0) or, with fractions, "F[,F...]" in (0, 1] into v (at most SIM_BUDGET_MAX);
 * opt names the option in messages. */
int sim_budget_parse_list(const char *opt, const char *text, int fractions, double *v, int *n);
/* The best point of scenario sc (points sc, sc + n_sc, ...) within budget_s: its time's 95% CI upper bound within it
 * (the mean where runs < 2 leave no CI), the highest speedup CI lower bound; NULL when no point is that cheap. The
 * one choice of `simulate --budget` and the report's budget.tsv. */
const struct sim_point *sim_budget_pick(const struct sim_result *r, int n_sc, int sc, double budget_s);
/* The rows: for each budget then each scenario, then for each target then each scenario. *rows is malloc'd. */
int sim_budget_eval(const struct sim_data *d, const struct sim_settings *s, const struct sim_result *r,
                    const double *budgets, int n_budgets, const double *targets, int n_targets,
                    struct sim_budget_row **rows, int *n_rows);
/* budget.tsv (header, one line per row), and the printed tables. -1 on a write error. */
int sim_budget_write_tsv(FILE *fp, const struct sim_settings *s, const struct sim_budget_row *rows, int n);
void sim_budget_print(FILE *fp, const struct sim_settings *s, const struct sim_budget_row *rows, int n);

#endif
