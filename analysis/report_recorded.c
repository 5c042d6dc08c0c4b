/* report_recorded.c — the report's section "A real autotuner's session": a session recorded with `tunecost record`
 * (protocol `recorded`, docs/record.md) against tunecost's imitation of the same tuner (`collect --protocol
 * triton`) on the same inputs and configurations, both found in the --recorded directory. Per input: the best
 * configuration of each, the executions each timed per configuration, the per-execution estimate and the
 * benchmarking time. */
#include "report_results.h"
#include "tc_stats.h"
#include "trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The recorded trace with the most runs and the first triton-protocol trace of dir (either may stay NULL). */
static int open_pair(const char *dir, struct trace **rec, struct trace **imi)
{
    char **paths = NULL;
    int n = 0;
    *rec = *imi = NULL;
    if (tables_list_dir(dir, "", ".h5", &paths, &n) != 0)
        return tc_preferr("--recorded");
    for (int i = 0; i < n; i++) {
        struct trace *t = trace_open(paths[i]);
        if (t == NULL) {
            tc_preferr("--recorded");
            goto fail;
        }
        const char *p = trace_get_meta(t)->protocol;
        if (strcmp(p, "recorded") == 0 && (*rec == NULL || trace_n_runs(t) > trace_n_runs(*rec))) {
            trace_close(*rec);
            *rec = t;
        } else if (strcmp(p, "triton") == 0 && *imi == NULL) {
            *imi = t;
        } else {
            trace_close(t);
        }
    }
    for (int i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
    return 0;
fail:
    for (int i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
    trace_close(*rec);
    trace_close(*imi);
    *rec = *imi = NULL;
    return -1;
}

/* Over an input's valid runs: the median of n_timed and of estimate_ms, the sum of wall_ms (ms). */
struct input_runs {
    double timed_median, estimate_median, wall_ms;
    int n_valid;
};

static int input_runs(const struct trace *t, int input, struct input_runs *out)
{
    size_t n = trace_n_runs(t);
    double *timed = malloc((n + 1) * sizeof *timed), *est = malloc((n + 1) * sizeof *est);
    int k = 0, ke = 0;
    if (timed == NULL || est == NULL) {
        free(timed);
        free(est);
        return tc_seterr_env("out of memory");
    }
    out->wall_ms = 0;
    for (size_t r = 0; r < n; r++) {
        const struct trace_run *run = trace_run(t, r);
        if (run->input != input || !trace_run_valid(t, r) || trace_find_run(t, run->input, run->config) != (long)r)
            continue;
        timed[k++] = run->n_timed;
        if (!isnan(run->estimate_ms))
            est[ke++] = run->estimate_ms;
        out->wall_ms += run->wall_ms;
    }
    qsort(timed, (size_t)k, sizeof *timed, tc_cmp_double);
    qsort(est, (size_t)ke, sizeof *est, tc_cmp_double);
    out->n_valid = k;
    out->timed_median = k ? tc_median_sorted(timed, (size_t)k) : NAN;
    out->estimate_median = ke ? tc_median_sorted(est, (size_t)ke) : NAN;
    free(timed);
    free(est);
    return 0;
}

/* "BLOCK_M=128 ..." of configuration k, and whether the two traces' configurations agree on every parameter
 * the imitation has. */
static void params_text(const struct trace *t, int k, char *buf, size_t len)
{
    size_t off = 0;
    buf[0] = '\0';
    for (int p = 0; k >= 0 && p < trace_n_params(t) && off < len; p++)
        off += (size_t)snprintf(buf + off, len - off, "%s%s=%d", p ? " " : "", trace_param_name(t, p),
                                trace_params(t, k)[p]);
}

static int same_config(const struct trace *rec, int kr, const struct trace *imi, int ki)
{
    if (kr < 0 || ki < 0)
        return 0;
    for (int p = 0; p < trace_n_params(imi); p++) {
        int q = 0;
        while (q < trace_n_params(rec) && strcmp(trace_param_name(rec, q), trace_param_name(imi, p)) != 0)
            q++;
        if (q == trace_n_params(rec) || trace_params(rec, kr)[q] != trace_params(imi, ki)[p])
            return 0;
    }
    return 1;
}

static const char *const cols[] = {
    "input", "label", "recorded_best", "imitation_best", "same_best", "recorded_best_ms", "imitation_best_ms",
    "recorded_timed_per_config", "imitation_timed_per_config", "recorded_estimate_ms", "imitation_estimate_ms",
    "recorded_bench_s", "imitation_bench_s"};
#define N_COLS (int)(sizeof cols / sizeof cols[0])

/* One row per input of the recorded session that the imitation has too; *n_same counts equal best
 * configurations, sums[0..1] the benchmarking seconds of each, sums[2..3] the medians of timed executions. */
static int recorded_fill_rows(struct table *tab, const struct trace *rec, const struct trace *imi, int *n_same, double *sums)
{
    for (int i = 0; i < trace_n_inputs(rec); i++) {
        int j = trace_find_input(imi, trace_dims(rec, i));
        struct input_runs a, b;
        double ma, mb;
        char ta[256], tb[256], label[64];
        if (j < 0 || trace_n_dims(rec) != trace_n_dims(imi))
            continue;
        int ka = trace_best_config(rec, i, &ma, NULL), kb = trace_best_config(imi, j, &mb, NULL);
        if (input_runs(rec, i, &a) != 0 || input_runs(imi, j, &b) != 0)
            return -1;
        params_text(rec, ka, ta, sizeof ta);
        params_text(imi, kb, tb, sizeof tb);
        tables_input_label(rec, i, label, sizeof label);
        int same = same_config(rec, ka, imi, kb), r = table_add_row(tab);
        *n_same += same;
        sums[0] += a.wall_ms * 1e-3;
        sums[1] += b.wall_ms * 1e-3;
        sums[2] += a.timed_median;
        sums[3] += b.timed_median;
        if (r < 0 || table_set_int(tab, r, 0, i) || table_set_str(tab, r, 1, label) ||
            table_set_str(tab, r, 2, ta) || table_set_str(tab, r, 3, tb) || table_set_str(tab, r, 4, same ? "yes" : "no") ||
            table_set_num(tab, r, 5, ma * 1e-6, 5) || table_set_num(tab, r, 6, mb * 1e-6, 5) ||
            table_set_num(tab, r, 7, a.timed_median, 1) || table_set_num(tab, r, 8, b.timed_median, 1) ||
            table_set_num(tab, r, 9, a.estimate_median, 4) || table_set_num(tab, r, 10, b.estimate_median, 4) ||
            table_set_num(tab, r, 11, a.wall_ms * 1e-3, 2) || table_set_num(tab, r, 12, b.wall_ms * 1e-3, 2))
            return -1;
    }
    return 0;
}

int report_recorded(struct report_ctx *c)
{
    struct trace *rec = NULL, *imi = NULL;
    struct table *tab = NULL;
    double sums[4] = {0, 0, 0, 0};
    int n_same = 0, rc = REPORT_EBADINPUT;
    if (c->o->recorded_dir == NULL)
        return report_finding(c, "No recorded session was given (--recorded DIR: a trace of `tunecost record` and "
                              "its `collect --protocol triton` imitation), so the report has no real autotuner's "
                              "session.");
    report_say(c, "a real autotuner's session: %s", c->o->recorded_dir);
    if (open_pair(c->o->recorded_dir, &rec, &imi) != 0)
        return REPORT_EBADINPUT;
    if (rec == NULL || imi == NULL) {
        tc_seterr("--recorded %s: expected a trace of protocol `recorded` (tunecost record) and one of protocol "
                  "`triton` (its imitation), found %s", c->o->recorded_dir, rec ? "no triton one" : "no recorded one");
        goto out;
    }
    rc = -1;
    tab = table_new("A real autotuner's session: recorded (tunecost record) against tunecost's imitation "
                    "(collect --protocol triton)", N_COLS, cols);
    if (tab == NULL || recorded_fill_rows(tab, rec, imi, &n_same, sums) != 0)
        goto out;
    int n = table_n_rows(tab);
    if (table_add_note(tab, "recorded: %s (%s); imitation: %s (%s); timed per config and estimate: medians over "
                       "the valid runs of the input; bench_s: the sum of their wall_ms",
                       tables_base_name(trace_path(rec)), trace_get_meta(rec)->device_name,
                       tables_base_name(trace_path(imi)), trace_get_meta(imi)->device_name) != 0 ||
        report_keep_table(c, table_finish(tab, 1), "recorded-session.tsv", "A real autotuner's session", 10) != 0) {
        tab = NULL;
        goto out;
    }
    tab = NULL;
    rc = report_finding(c, "**A real autotuner's session** (%s, %s, %d inputs): it and tunecost's imitation pick "
                        "the same best on %d of %d inputs; it timed a median %.0f executions per configuration against "
                        "%.0f, benchmarking %.1f s against %.1f s (recorded-session.tsv).",
                        tables_base_name(trace_path(rec)), trace_get_meta(rec)->device_name, n, n_same, n,
                        n ? sums[2] / n : NAN, n ? sums[3] / n : NAN, sums[0], sums[1]);
out:
    table_free(tab);
    trace_close(rec);
    trace_close(imi);
    return rc;
}
