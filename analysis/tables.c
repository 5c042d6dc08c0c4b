/* tables.c — the paper's characterisation tables computed from traces (see tables.h for each one's contract).
 * Everything here reads traces through trace/trace.h; no HDF5. Medians use a selection, not a sort, so the full
 * reference trace (tens of millions of executions) takes well under a second per table. */
#include "tables.h"
#include "tc_err.h"
#include "tc_opt.h"
#include "tc_stats.h"
#include "trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ---------------------------------------------------------------------------------------------- */

/* Median of the finite values of v (v is reordered); NaN if none. */
static double median_finite(double *v, int n)
{
    int m = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(v[i]))
            v[m++] = v[i];
    if (m == 0)
        return NAN;
    qsort(v, (size_t)m, sizeof *v, tc_cmp_double);
    return tc_median_sorted(v, (size_t)m);
}

char *tables_config_label(const struct trace *t, int config, char *buf, int len)
{
    char v[256];
    int off = 0;
    buf[0] = '\0';
    for (int i = 0; i < trace_n_params(t) && off < len; i++)
        off += snprintf(buf + off, (size_t)(len - off), "%s%s=%s", i ? " " : "", trace_param_name(t, i),
                        trace_param_text(t, config, i, 0, v, sizeof v));
    return buf;
}

int tables_recorded_true_times(const struct trace *t)
{
    for (size_t r = 0; r < trace_n_runs(t); r++)
        if (isfinite(trace_run(t, r)->true_ms) && trace_run(t, r)->true_ms > 0)
            return 1;
    return 0;
}

char *tables_input_label(const struct trace *t, int input, char *buf, int len)
{
    return tc_format_shape(trace_dims(t, input), trace_n_dims(t), buf, len);
}

/* Column names: fixed ones before, the trace's dims or params in the middle, fixed ones after. A middle name that
 * is also a fixed one (an imported trace's numbered inputs have the dimension `input`) gets the prefix dim_ or
 * param_, so that no TSV has two columns of one name. */
static struct table *new_with_names(const char *title, const char *const *before, int nb, const struct trace *t,
                                    int use_params, const char *const *after, int na)
{
    int nm = use_params ? trace_n_params(t) : trace_n_dims(t);
    const char **cols = malloc((size_t)(nb + nm + na) * sizeof *cols);
    char (*renamed)[96] = calloc((size_t)(nm > 0 ? nm : 1), sizeof *renamed);
    struct table *tab = NULL;
    if (cols == NULL || renamed == NULL) {
        tc_seterr_env("out of memory");
        goto out;
    }
    for (int i = 0; i < nb; i++)
        cols[i] = before[i];
    for (int i = 0; i < nm; i++) {
        const char *name = use_params ? trace_param_name(t, i) : trace_dim_name(t, i);
        int clash = 0;
        for (int k = 0; k < nb; k++)
            clash |= strcmp(name, before[k]) == 0;
        for (int k = 0; k < na; k++)
            clash |= strcmp(name, after[k]) == 0;
        if (clash)
            snprintf(renamed[i], sizeof renamed[i], "%s%s", use_params ? "param_" : "dim_", name);
        cols[nb + i] = clash ? renamed[i] : name;
    }
    for (int i = 0; i < na; i++)
        cols[nb + nm + i] = after[i];
    tab = table_new(title, nb + nm + na, cols);
out:
    free(renamed);
    free(cols);
    return tab;
}

static int set_dims(struct table *tab, int row, int col, const struct trace *t, int input)
{
    const int64_t *d = trace_dims(t, input);
    for (int i = 0; i < trace_n_dims(t); i++)
        if (table_set_int(tab, row, col + i, (long long)d[i]) != 0)
            return -1;
    return 0;
}

/* Sum of the timed executions of run r, ms. */
static double run_timed_ms(const struct trace *t, size_t r)
{
    const struct trace_run *run = trace_run(t, r);
    const uint64_t *x = trace_run_timed(t, r);
    double s = 0;
    for (int i = 0; i < run->n_timed; i++)
        s += (double)x[i];
    return s / 1e6;
}

/* ---- Table 1: compile times --------------------------------------------------------------------------------- */

struct table *tables_compile(const struct trace *t)
{
    int ok = 0; /* set when the table is complete; every path leaves through out: */
    static const char *before[] = {"config"};
    static const char *after[] = {"status", "compile_ms", "load_ms", "registers", "smem_bytes", "spill_bytes"};
    struct table *tab = new_with_names("Compile time per configuration (paper Table 1)", before, 1, t, 1, after, 6);
    int np = trace_n_params(t), n_ok = 0;
    double total = 0, total_ok = 0, load = 0;
    if (tab == NULL)
        return NULL;
    for (int c = 0; c < trace_n_configs(t); c++) {
        const struct trace_config *cf = trace_config(t, c);
        const int32_t *p = trace_params(t, c);
        const char *const *vals;
        char v[256];
        int row = table_add_row(tab), col = 0;
        if (row < 0)
            goto out;
        table_set_int(tab, row, col++, c);
        for (int i = 0; i < np; i++) /* a value table's parameter (imported) as its value, not its index */
            if (trace_param_values(t, i, &vals) > 0)
                table_set_str(tab, row, col++, trace_param_text(t, c, i, 0, v, sizeof v));
            else
                table_set_int(tab, row, col++, p[i]);
        table_set_str(tab, row, col++, trace_status_name(cf->status));
        table_set_num(tab, row, col++, cf->compile_ms, 2);
        table_set_num(tab, row, col++, cf->load_ms, 2);
        /* A configuration that never compiled has no resource counts (stored as -1): missing, not -1. */
        table_set_num(tab, row, col++, cf->registers < 0 ? NAN : cf->registers, 0);
        table_set_num(tab, row, col++, cf->smem_bytes < 0 ? NAN : (double)cf->smem_bytes, 0);
        if (table_set_num(tab, row, col++, cf->spill_bytes < 0 ? NAN : (double)cf->spill_bytes, 0) != 0)
            goto out;
        if (isfinite(cf->compile_ms)) {
            total += cf->compile_ms;
            if (cf->status == TRACE_OK) {
                total_ok += cf->compile_ms;
                n_ok++;
            }
        }
        if (isfinite(cf->load_ms))
            load += cf->load_ms;
    }
    table_add_note(tab, "total compile time: %.2f s over %d configurations (%.2f s over the %d that compiled and ran); "
                   "module load %.2f s", total / 1e3, trace_n_configs(t), total_ok / 1e3, n_ok, load / 1e3);
    if (trace_n_configs(t) > 0)
        table_add_note(tab, "mean compile time per configuration: %.1f ms; compiles ran with %d worker(s)",
                       total / trace_n_configs(t), trace_get_meta(t)->compile_jobs);
    if (trace_n_compile_warmup(t) > 0)
        table_add_note(tab, "first-compile warm-up of the %d compile worker(s), not in compile_ms: mean %.1f ms",
                       trace_n_compile_warmup(t), trace_compile_warmup_mean(t));
    ok = 1;
out:
    return table_finish(tab, ok);
}

/* ---- Table 2: tuning time per input --------------------------------------------------------------------- */

struct table *tables_tuning(const struct trace *t)
{
    int ok = 0; /* set when the table is complete; every path leaves through out: */
    static const char *before[] = {"input"};
    static const char *after[] = {"runs", "valid_runs", "tuning_s", "per_run_ms"};
    struct table *tab = new_with_names("Tuning time per input, compilation excluded (paper Table 2)", before, 1, t, 0,
                                       after, 4);
    int ni = trace_n_inputs(t);
    double *wall = calloc((size_t)ni + 1, sizeof *wall), total = 0;
    int *runs = calloc((size_t)ni + 1, sizeof *runs), *valid = calloc((size_t)ni + 1, sizeof *valid);
    if (tab == NULL || wall == NULL || runs == NULL || valid == NULL) {
        tc_seterr_env("out of memory");
        goto out;
    }
    for (size_t r = 0; r < trace_n_runs(t); r++) {
        const struct trace_run *run = trace_run(t, r);
        if (isfinite(run->wall_ms))
            wall[run->input] += run->wall_ms;
        runs[run->input]++;
        valid[run->input] += trace_run_valid(t, r);
    }
    for (int i = 0; i < ni; i++) {
        int row = table_add_row(tab), col = 0;
        if (row < 0 || set_dims(tab, row, 1, t, i) != 0)
            goto out;
        table_set_int(tab, row, col++, i);
        col += trace_n_dims(t);
        table_set_int(tab, row, col++, runs[i]);
        table_set_int(tab, row, col++, valid[i]);
        table_set_num(tab, row, col++, wall[i] / 1e3, 3);
        if (table_set_num(tab, row, col++, runs[i] ? wall[i] / runs[i] : NAN, 1) != 0)
            goto out;
        total += wall[i];
    }
    table_add_note(tab, "total: %.1f s over %d inputs and %zu runs (tuning time = sum of wall_ms: warm-up, flushes, "
                   "launches and timing; no compilation)", total / 1e3, ni, trace_n_runs(t));
    ok = 1;
out:
    free(wall);
    free(runs);
    free(valid);
    return table_finish(tab, ok);
}

/* ---- Figure 1: repetition / overhead / compilation ----------------------------------------------------------- */

/* Add to *cmp the compile time of every configuration of input i without a valid run there (seen_i[k] = 0): its
 * compile_ms, or without one the median of the input's valid configurations' (simulate's imputation). Returns how
 * many were imputed. */
static long split_failed_compile(const struct trace *t, int i, const unsigned char *seen_i, double *cmp)
{
    int nc = trace_n_configs(t), n = 0;
    long imputed = 0;
    double *v = malloc(((size_t)nc + 1) * sizeof *v), med;
    (void)i;
    if (v == NULL)
        return 0;
    for (int k = 0; k < nc; k++) {
        double c = trace_config(t, k)->compile_ms;
        if (seen_i[k] && isfinite(c) && c > 0)
            v[n++] = c;
    }
    qsort(v, (size_t)n, sizeof *v, tc_cmp_double);
    med = n > 0 ? tc_median_sorted(v, (size_t)n) : 0;
    for (int k = 0; k < nc; k++) {
        double c = trace_config(t, k)->compile_ms;
        if (seen_i[k])
            continue;
        if (isfinite(c) && c > 0) {
            *cmp += c;
        } else {
            *cmp += med;
            imputed++;
        }
    }
    free(v);
    return imputed;
}

struct table *tables_split(const struct trace *t)
{
    int ok = 0; /* set when the table is complete; every path leaves through out: */
    static const char *before[] = {"input", "label"};
    static const char *after[] = {"valid_runs", "repetition_ms", "overhead_ms", "compile_ms", "total_ms",
                                  "overhead_pct", "mean_wall_ms", "mean_repetition_ms"};
    struct table *tab = new_with_names("Tuning time per input: repetition, overhead, compilation (paper Figure 1)",
                                       before, 2, t, 0, after, 8);
    const struct trace_meta *meta = trace_get_meta(t);
    int ni = trace_n_inputs(t), nc = trace_n_configs(t), short_runs = 0, n_valid = 0;
    double *rep = calloc((size_t)ni + 1, sizeof *rep), *ovh = calloc((size_t)ni + 1, sizeof *ovh);
    double *cmp = calloc((size_t)ni + 1, sizeof *cmp);
    int *valid = calloc((size_t)ni + 1, sizeof *valid);
    unsigned char *seen = calloc((size_t)ni * nc + 1, 1);
    double requested = meta->warmup_ms + meta->rep_ms, sum_rep = 0, sum_ovh = 0, sum_cmp = 0;
    char label[64];
    if (tab == NULL || rep == NULL || ovh == NULL || cmp == NULL || valid == NULL || seen == NULL) {
        tc_seterr_env("out of memory");
        goto out;
    }
    for (size_t r = 0; r < trace_n_runs(t); r++) {
        const struct trace_run *run = trace_run(t, r);
        double timed;
        if (!trace_run_valid(t, r))
            continue;
        timed = run_timed_ms(t, r);
        rep[run->input] += timed;
        ovh[run->input] += run->wall_ms - timed;
        valid[run->input]++;
        n_valid++;
        if (run->wall_ms < requested)
            short_runs++;
        if (!seen[(size_t)run->input * nc + run->config]) {
            double c = trace_config(t, run->config)->compile_ms;
            seen[(size_t)run->input * nc + run->config] = 1;
            if (isfinite(c))
                cmp[run->input] += c;
        }
    }
    long n_failed_imputed = 0;
    for (int i = 0; i < ni; i++) /* failing configurations are compiled too (a tuner pays for them) */
        n_failed_imputed += split_failed_compile(t, i, seen + (size_t)i * nc, &cmp[i]);
    for (int i = 0; i < ni; i++) {
        int row = table_add_row(tab), col = 0;
        double total = rep[i] + ovh[i] + cmp[i];
        if (row < 0 || set_dims(tab, row, 2, t, i) != 0)
            goto out;
        table_set_int(tab, row, col++, i);
        table_set_str(tab, row, col++, tables_input_label(t, i, label, sizeof label));
        col += trace_n_dims(t);
        table_set_int(tab, row, col++, valid[i]);
        table_set_num(tab, row, col++, rep[i], 1);
        table_set_num(tab, row, col++, ovh[i], 1);
        table_set_num(tab, row, col++, cmp[i], 1);
        table_set_num(tab, row, col++, total, 1);
        table_set_num(tab, row, col++, total > 0 ? 100.0 * ovh[i] / total : NAN, 1);
        table_set_num(tab, row, col++, valid[i] ? (rep[i] + ovh[i]) / valid[i] : NAN, 2);
        if (table_set_num(tab, row, col++, valid[i] ? rep[i] / valid[i] : NAN, 2) != 0)
            goto out;
        sum_rep += rep[i];
        sum_ovh += ovh[i];
        sum_cmp += cmp[i];
    }
    {
        double all = sum_rep + sum_ovh + sum_cmp;
        table_add_note(tab, "all inputs: repetition %.1f s (%.1f%%), overhead %.1f s (%.1f%%), compilation %.1f s "
                       "(%.1f%%); valid runs only, overhead = wall - timed (includes warm-up)",
                       sum_rep / 1e3, all > 0 ? 100 * sum_rep / all : NAN, sum_ovh / 1e3,
                       all > 0 ? 100 * sum_ovh / all : NAN, sum_cmp / 1e3, all > 0 ? 100 * sum_cmp / all : NAN);
        table_add_note(tab, "compile_ms charges every configuration of an input once to that input, as a tuner "
                       "compiling per input would, the failing ones included (as simulate charges them; %ld failing "
                       "(input, configuration) pairs without a compile time are charged their input's median valid "
                       "one)", n_failed_imputed);
        table_add_note(tab, "%d of %d valid runs took less wall time than the requested warm-up + repetition "
                       "(%.0f + %.0f ms)", short_runs, n_valid, meta->warmup_ms, meta->rep_ms);
    }
    ok = 1;
out:
    free(rep);
    free(ovh);
    free(cmp);
    free(valid);
    free(seen);
    return table_finish(tab, ok);
}

/* ---- best configuration per input vs cuBLAS ------------------------------------------------------------------ */

/* Median timed execution of every run, and the best per input (config and ms), computed once. */
struct best_info {
    double *run_ms;    /* n_runs, NaN for invalid runs */
    int *best_cfg;     /* n_inputs, -1 if none */
    double *best_ms;   /* n_inputs */
    int *n_valid;      /* n_inputs: valid configurations */
};

static void best_free(struct best_info *b)
{
    free(b->run_ms);
    free(b->best_cfg);
    free(b->best_ms);
    free(b->n_valid);
}

static int best_compute(const struct trace *t, struct best_info *b)
{
    size_t nr = trace_n_runs(t);
    int ni = trace_n_inputs(t);
    b->run_ms = malloc((nr + 1) * sizeof *b->run_ms);
    b->best_cfg = malloc(((size_t)ni + 1) * sizeof *b->best_cfg);
    b->best_ms = malloc(((size_t)ni + 1) * sizeof *b->best_ms);
    b->n_valid = calloc((size_t)ni + 1, sizeof *b->n_valid);
    if (b->run_ms == NULL || b->best_cfg == NULL || b->best_ms == NULL || b->n_valid == NULL) {
        best_free(b);
        return tc_seterr_env("out of memory");
    }
    for (int i = 0; i < ni; i++) {
        b->best_cfg[i] = -1;
        b->best_ms[i] = NAN;
    }
    /* Only each pair's current (last) run counts, as everywhere (trace_best_config): an earlier measurement of a
     * re-measured pair gets NaN here, so the heatmap shows one value per pair. */
    for (size_t r = 0; r < nr; r++) {
        const struct trace_run *run = trace_run(t, r);
        b->run_ms[r] = trace_find_run(t, run->input, run->config) == (long)r && trace_run_valid(t, r)
                           ? trace_run_true_ns(t, r) / 1e6
                           : NAN;
    }
    for (int i = 0; i < ni; i++) {
        double ns = NAN;
        b->best_cfg[i] = trace_best_config(t, i, &ns, &b->n_valid[i]);
        b->best_ms[i] = ns / 1e6;
    }
    return 0;
}

struct table *tables_best(const struct trace *t)
{
    int ok = 0; /* set when the table is complete; every path leaves through out: */
    static const char *before[] = {"input", "label"};
    static const char *after[] = {"valid_configs", "best_config", "best_params", "best_ms", "best_tflops",
                                  "cublas_ms", "cublas_tflops", "vs_cublas"};
    struct table *tab = new_with_names("Best configuration per input vs cuBLAS", before, 2, t, 0, after, 8);
    struct best_info b = {0};
    int ni = trace_n_inputs(t), n_ratio = 0, n_beat = 0;
    double *ratios = malloc(((size_t)ni + 1) * sizeof *ratios);
    char label[64], params[256];
    if (tab == NULL || ratios == NULL || best_compute(t, &b) != 0)
        goto out;
    for (int i = 0; i < ni; i++) {
        const struct trace_input *in = trace_input(t, i);
        int row = table_add_row(tab), col = 0, c = b.best_cfg[i];
        double tf = c >= 0 ? in->flops / b.best_ms[i] / 1e9 : NAN;
        double ref_tf = isfinite(in->ref_ms) && in->ref_ms > 0 ? in->flops / in->ref_ms / 1e9 : NAN;
        double ratio = tf / ref_tf;
        if (row < 0 || set_dims(tab, row, 2, t, i) != 0)
            goto out;
        table_set_int(tab, row, col++, i);
        table_set_str(tab, row, col++, tables_input_label(t, i, label, sizeof label));
        col += trace_n_dims(t);
        table_set_int(tab, row, col++, b.n_valid[i]);
        if (c >= 0) {
            table_set_int(tab, row, col++, c);
            table_set_str(tab, row, col++, tables_config_label(t, c, params, sizeof params));
        } else {
            table_set_num(tab, row, col++, NAN, 0);
            table_set_str(tab, row, col++, "(no valid run)");
        }
        table_set_num(tab, row, col++, b.best_ms[i], 5);
        table_set_num(tab, row, col++, tf, 1);
        table_set_num(tab, row, col++, in->ref_ms, 5);
        table_set_num(tab, row, col++, ref_tf, 1);
        if (table_set_num(tab, row, col++, ratio, 3) != 0)
            goto out;
        ratios[i] = ratio;
        if (isfinite(ratio)) {
            n_ratio++;
            n_beat += ratio >= 1.0;
        }
    }
    if (n_ratio > 0) {
        double med = median_finite(ratios, ni);
        table_add_note(tab, "best tuned configuration vs cuBLAS (TFLOP/s ratio): median %.3f over %d inputs; tuned "
                       "kernel at least as fast on %d", med, n_ratio, n_beat);
    } else {
        table_add_note(tab, "no cuBLAS reference times in this trace (ref_ms is NaN)");
    }
    if (trace_objective_is_metric(t))
        table_add_note(tab, "best = the %s '%s' (the imported file's objective); times are true times",
                       trace_get_meta(t)->objective_higher_is_better ? "highest" : "lowest", trace_get_meta(t)->objective);
    if (!tables_recorded_true_times(t))
        table_add_note(tab, "times are medians of the timed executions; TFLOP/s = flops / time");
    else
        table_add_note(tab, "times are true times: the time the imported file recorded for each run, else the median "
                            "of its timed executions; TFLOP/s = flops / time");
    ok = 1;
out:
    free(ratios);
    best_free(&b);
    return table_finish(tab, ok);
}

/* ---- Tables 3 and 5: L2 flush study ------------------------------------------------------------------------ */

/* One trace's sums for the flush table: benchmarking, verification, flush and compile + load times in ms (NaN
 * entries left out), every recorded execution's duration (gemm_ns), and the sum, sum of squares, count, min and max
 * of the executions of valid runs (ns). */
struct flush_sums {
    double wall, verify, compile, flush, gemm_ns, sum, sum2, mn, mx, cnt;
};

static void flush_sums(const struct trace *t, struct flush_sums *f)
{
    f->wall = f->verify = f->compile = f->flush = f->gemm_ns = f->sum = f->sum2 = 0;
    f->mn = INFINITY, f->mx = 0, f->cnt = 0;
    for (size_t r = 0; r < trace_n_runs(t); r++) {
        const struct trace_run *run = trace_run(t, r);
        const uint64_t *x = trace_run_exec(t, r);
        size_t ne = (size_t)run->n_estimate + run->n_warmup + run->n_timed;
        if (isfinite(run->wall_ms))
            f->wall += run->wall_ms;
        if (isfinite(run->verify_ms))
            f->verify += run->verify_ms;
        if (isfinite(run->flush_ms))
            f->flush += run->flush_ms;
        for (size_t i = 0; i < ne; i++)
            f->gemm_ns += (double)x[i];
        if (!trace_run_valid(t, r))
            continue;
        for (size_t i = 0; i < ne; i++) {
            double v = (double)x[i];
            f->sum += v;
            f->sum2 += v * v;
            f->cnt++;
            if (v < f->mn)
                f->mn = v;
            if (v > f->mx)
                f->mx = v;
        }
    }
    for (int c = 0; c < trace_n_configs(t); c++) {
        const struct trace_config *cf = trace_config(t, c);
        if (isfinite(cf->compile_ms))
            f->compile += cf->compile_ms;
        if (isfinite(cf->load_ms))
            f->compile += cf->load_ms;
    }
}

/* The flush table's notes: the reference trace (ref), a warning when every trace has the same flush_bytes, and what
 * the columns mean. */
static void flush_notes(struct table *tab, const struct trace *const *traces, const char *const *names, int n, int ref)
{
    int same = 1;
    table_add_note(tab, "reference for speedup and best-configuration changes: %s (flush_bytes %lld, the largest)",
                   names[ref], (long long)trace_get_meta(traces[ref])->flush_bytes);
    for (int k = 1; k < n; k++)
        same &= trace_get_meta(traces[k])->flush_bytes == trace_get_meta(traces[0])->flush_bytes;
    if (same)
        table_add_note(tab, "warning: every trace has flush_bytes %lld, so this compares collections, not flush "
                       "settings", (long long)trace_get_meta(traces[0])->flush_bytes);
    table_add_note(tab, "total_s = benchmarking (sum of wall_ms) + compile and module load + verification; "
                   "gemm_* = every recorded GEMM execution (estimate, warm-up, timed)");
    table_add_note(tab, "best_changed = inputs whose best configuration differs from the reference's; "
                   "best_ms_change = |best time - reference best time| / reference best time");
}

struct table *tables_flush(const struct trace *const *traces, const char *const *names, int n)
{
    int ok = 0; /* set when the table is complete; every path leaves through out: */
    static const char *cols[] = {"trace", "flush_bytes", "runs", "benchmark_s", "compile_s", "total_s",
                                 "speedup", "gemm_gpu_s", "flush_gpu_s", "gemm_avg_ns", "gemm_min_ns",
                                 "gemm_max_ns", "gemm_dev_ns", "common_inputs", "best_changed",
                                 "best_ms_change_median_pct", "best_ms_change_max_pct"};
    struct table *tab = NULL;
    struct best_info *b = NULL;
    double *chg = NULL, ref_total = NAN;
    int ref = 0;
    if (n < 2) {
        tc_seterr("flush: needs at least two traces of the same inputs with different flush_bytes, got %d (shipped: "
                  "tunecost table flush data/flush-study/*.h5)", n);
        return NULL;
    }
    for (int k = 1; k < n; k++) {
        if (trace_get_meta(traces[k])->flush_bytes > trace_get_meta(traces[ref])->flush_bytes)
            ref = k;
        if (trace_n_dims(traces[k]) != trace_n_dims(traces[0])) {
            tc_seterr("%s: inputs have %d dimensions, %s has %d: not the same kernel family", names[k],
                      trace_n_dims(traces[k]), names[0], trace_n_dims(traces[0]));
            return NULL;
        }
    }
    if ((tab = table_new("L2 flush study: collection time and GEMM vs flush GPU time (paper Tables 3 and 5)", 17,
                         cols)) == NULL)
        return NULL;
    if ((b = calloc((size_t)n, sizeof *b)) == NULL) {
        tc_seterr_env("out of memory");
        goto out;
    }
    for (int k = 0; k < n; k++)
        if (best_compute(traces[k], &b[k]) != 0)
            goto out;
    if ((chg = malloc(((size_t)trace_n_inputs(traces[ref]) + 1) * sizeof *chg)) == NULL) {
        tc_seterr_env("out of memory");
        goto out;
    }
    for (int pass = 0; pass < 2; pass++) {
        /* pass 0 computes the reference total for the speedup column; pass 1 writes rows */
        for (int k = (pass == 0 ? ref : 0); k < (pass == 0 ? ref + 1 : n); k++) {
            const struct trace *t = traces[k];
            struct flush_sums f;
            int common = 0, changed = 0, n_chg = 0, row;
            flush_sums(t, &f);
            if (pass == 0) {
                ref_total = (f.wall + f.verify + f.compile) / 1e3;
                continue;
            }
            for (int i = 0; i < trace_n_inputs(t); i++) {
                int j = trace_find_input(traces[ref], trace_dims(t, i));
                if (j < 0 || b[k].best_cfg[i] < 0 || b[ref].best_cfg[j] < 0)
                    continue;
                common++;
                changed += b[k].best_cfg[i] != b[ref].best_cfg[j];
                chg[n_chg++] = 100.0 * fabs(b[k].best_ms[i] - b[ref].best_ms[j]) / b[ref].best_ms[j];
            }
            if ((row = table_add_row(tab)) < 0)
                goto out;
            {
                double total = (f.wall + f.verify + f.compile) / 1e3, mean = f.cnt > 0 ? f.sum / f.cnt : NAN;
                double var = f.cnt > 1 ? (f.sum2 - f.cnt * mean * mean) / (f.cnt - 1) : NAN;
                double mxc = 0;
                for (int i = 0; i < n_chg; i++)
                    if (chg[i] > mxc)
                        mxc = chg[i];
                table_set_str(tab, row, 0, names[k]);
                table_set_int(tab, row, 1, (long long)trace_get_meta(t)->flush_bytes);
                table_set_int(tab, row, 2, (long long)trace_n_runs(t));
                table_set_num(tab, row, 3, f.wall / 1e3, 2);
                table_set_num(tab, row, 4, f.compile / 1e3, 2);
                table_set_num(tab, row, 5, total, 2);
                table_set_num(tab, row, 6, ref_total / total, 2);
                table_set_num(tab, row, 7, f.gemm_ns / 1e9, 3);
                table_set_num(tab, row, 8, f.flush / 1e3, 3);
                table_set_num(tab, row, 9, mean, 1);
                table_set_num(tab, row, 10, f.cnt > 0 ? f.mn : NAN, 0);
                table_set_num(tab, row, 11, f.cnt > 0 ? f.mx : NAN, 0);
                table_set_num(tab, row, 12, var > 0 ? sqrt(var) : (f.cnt > 1 ? 0 : NAN), 1);
                table_set_int(tab, row, 13, common);
                table_set_int(tab, row, 14, changed);
                table_set_num(tab, row, 15, n_chg ? median_finite(chg, n_chg) : NAN, 2);
                if (table_set_num(tab, row, 16, n_chg ? mxc : NAN, 2) != 0)
                    goto out;
            }
        }
    }
    flush_notes(tab, traces, names, n, ref);
    ok = 1;
out:
    for (int k = 0; b != NULL && k < n; k++)
        best_free(&b[k]);
    free(b);
    free(chg);
    return table_finish(tab, ok);
}

/* ---- Figure 2: the Triton protocol's estimate ---------------------------------------------------------------- */

struct table *tables_estimate(const struct trace *t)
{
    int ok = 0; /* set when the table is complete; every path leaves through out: */
    static const char *before[] = {"input", "label"};
    static const char *after[] = {"config", "n_estimate", "n_warmup", "n_timed", "estimate_ms", "est_exec_mean_ms",
                                  "first_exec_ms", "warm_median_ms", "estimate_ratio", "flush_per_exec_ms",
                                  "timed_total_ms", "rep_ms", "timed_vs_requested"};
    const struct trace_meta *meta = trace_get_meta(t);
    struct table *tab;
    size_t nr = trace_n_runs(t);
    double *err_cold = NULL, *err_flush = NULL, *ratio = NULL;
    int n = 0, n_short = 0, n_cold = 0, n_flush = 0;
    char label[64];
    for (size_t r = 0; r < nr; r++)
        if (trace_run_valid(t, r) && isfinite(trace_run(t, r)->estimate_ms))
            n++;
    if (n == 0) {
        tc_seterr("%s: no run has an execution-time estimate (protocol '%s'); the estimate table needs a trace "
                  "collected with the triton protocol (shipped: data/gemm-h200-triton.h5)", trace_path(t),
                  meta->protocol);
        return NULL;
    }
    tab = new_with_names("Triton-protocol estimate vs warmed execution time (paper Figure 2)", before, 2, t, 0,
                         after, 13);
    err_cold = malloc((size_t)n * sizeof *err_cold);
    err_flush = malloc((size_t)n * sizeof *err_flush);
    ratio = malloc((size_t)n * sizeof *ratio);
    if (tab == NULL || err_cold == NULL || err_flush == NULL || ratio == NULL) {
        tc_seterr_env("out of memory");
        goto out;
    }
    n = 0;
    for (size_t r = 0; r < nr; r++) {
        const struct trace_run *run = trace_run(t, r);
        const uint64_t *x = trace_run_exec(t, r);
        long ne = (long)run->n_estimate + run->n_warmup + run->n_timed, nf;
        double est_mean = NAN, warm, flush_pe, timed, s = 0;
        int row, col = 0;
        if (!trace_run_valid(t, r) || !isfinite(run->estimate_ms))
            continue;
        for (int i = 0; i < run->n_estimate; i++)
            s += (double)x[i];
        if (run->n_estimate > 0)
            est_mean = s / run->n_estimate / 1e6;
        warm = trace_run_median_ns(t, r) / 1e6;
        /* Flushes precede the estimate and the timed executions, never the warm-up (Triton's do_bench). */
        nf = (long)run->n_estimate + run->n_timed;
        flush_pe = isfinite(run->flush_ms) && nf > 0 ? run->flush_ms / (double)nf : 0;
        timed = run_timed_ms(t, r);
        if ((row = table_add_row(tab)) < 0 || set_dims(tab, row, 2, t, run->input) != 0)
            goto out;
        table_set_int(tab, row, col++, run->input);
        table_set_str(tab, row, col++, tables_input_label(t, run->input, label, sizeof label));
        col += trace_n_dims(t);
        table_set_int(tab, row, col++, run->config);
        table_set_int(tab, row, col++, run->n_estimate);
        table_set_int(tab, row, col++, run->n_warmup);
        table_set_int(tab, row, col++, run->n_timed);
        table_set_num(tab, row, col++, run->estimate_ms, 5);
        table_set_num(tab, row, col++, est_mean, 5);
        table_set_num(tab, row, col++, ne > 0 ? (double)x[0] / 1e6 : NAN, 5);
        table_set_num(tab, row, col++, warm, 5);
        table_set_num(tab, row, col++, run->estimate_ms / warm, 3);
        table_set_num(tab, row, col++, flush_pe, 5);
        table_set_num(tab, row, col++, timed, 2);
        table_set_num(tab, row, col++, meta->rep_ms, 1);
        if (table_set_num(tab, row, col++, meta->rep_ms > 0 ? timed / meta->rep_ms : NAN, 3) != 0)
            goto out;
        ratio[n] = run->estimate_ms / warm;
        /* Two explanations of the estimate: it is the mean of the (cold) estimate executions, or it is the warm
         * time plus the flush each execution carries. Relative error of each, per run. */
        err_cold[n] = isfinite(est_mean) ? fabs(run->estimate_ms - est_mean) / run->estimate_ms : NAN;
        err_flush[n] = fabs(run->estimate_ms - (warm + flush_pe)) / run->estimate_ms;
        if (isfinite(err_cold[n]) && err_cold[n] < err_flush[n])
            n_cold++;
        else
            n_flush++;
        if (meta->rep_ms > 0 && timed < 0.9 * meta->rep_ms)
            n_short++;
        n++;
    }
    table_add_note(tab, "%d runs with an estimate; estimate / warm median: median %.3f", n, median_finite(ratio, n));
    table_add_note(tab, "%d of %d runs timed less than 90%% of the requested %.0f ms", n_short, n, meta->rep_ms);
    table_add_note(tab, "estimate explained by the cold estimate executions (median relative error %.3f) vs by the "
                   "warm time plus the flush per execution (%.3f); the first fits better in %d runs, the second "
                   "in %d", median_finite(err_cold, n), median_finite(err_flush, n), n_cold, n_flush);
    ok = 1;
out:
    free(err_cold);
    free(err_flush);
    free(ratio);
    return table_finish(tab, ok);
}

/* ---- heat map ---------------------------------------------------------------------------------------------- */

/* qsort_r order of configurations: higher mean (ctx) first, then lower index. */
static int cmp_rank(const void *a, const void *b, void *ctx)
{
    const double *rank_key = ctx;
    int x = *(const int *)a, y = *(const int *)b;
    if (rank_key[x] != rank_key[y])
        return rank_key[x] > rank_key[y] ? -1 : 1;
    return (x > y) - (x < y);
}

struct table *tables_heatmap(const struct trace *t)
{
    int ok = 0; /* set when the table is complete; every path leaves through out: */
    static const char *cols[] = {"input", "label", "config", "config_rank", "rel_perf"};
    struct table *tab = table_new("Performance of every configuration relative to the input's best", 5, cols);
    struct best_info b = {0};
    int ni = trace_n_inputs(t), nc = trace_n_configs(t);
    double *rel = malloc(((size_t)ni * nc + 1) * sizeof *rel), *mean = calloc((size_t)nc + 1, sizeof *mean);
    int *order = malloc(((size_t)nc + 1) * sizeof *order), *cnt = calloc((size_t)nc + 1, sizeof *cnt);
    char label[64];
    if (tab == NULL || rel == NULL || mean == NULL || order == NULL || cnt == NULL) {
        tc_seterr_env("out of memory");
        goto out;
    }
    if (best_compute(t, &b) != 0)
        goto out;
    for (size_t i = 0; i < (size_t)ni * nc; i++)
        rel[i] = NAN;
    for (size_t r = 0; r < trace_n_runs(t); r++) {
        const struct trace_run *run = trace_run(t, r);
        if (!isnan(b.run_ms[r]))
            rel[(size_t)run->input * nc + run->config] = b.best_ms[run->input] / b.run_ms[r];
    }
    /* rank: mean relative performance over the inputs, counting a missing or failed pair as 0 */
    for (int c = 0; c < nc; c++) {
        order[c] = c;
        for (int i = 0; i < ni; i++) {
            double v = rel[(size_t)i * nc + c];
            if (!isnan(v)) {
                mean[c] += v;
                cnt[c]++;
            }
        }
        mean[c] = ni > 0 ? mean[c] / ni : 0;
    }
    qsort_r(order, (size_t)nc, sizeof *order, cmp_rank, mean);
    for (int i = 0; i < ni; i++) {
        tables_input_label(t, i, label, sizeof label);
        for (int k = 0; k < nc; k++) {
            int c = order[k], row = table_add_row(tab);
            if (row < 0)
                goto out;
            table_set_int(tab, row, 0, i);
            table_set_str(tab, row, 1, label);
            table_set_int(tab, row, 2, c);
            table_set_int(tab, row, 3, k);
            if (table_set_num(tab, row, 4, rel[(size_t)i * nc + c], 4) != 0)
                goto out;
        }
    }
    if (nc > 0) {
        char params[256];
        table_add_note(tab, "rel_perf = best time of the input / this configuration's time (1 = the best; nan = no "
                       "valid run); config_rank 0 = highest mean over inputs: config %d (%s, mean %.3f)", order[0],
                       tables_config_label(t, order[0], params, sizeof params), mean[order[0]]);
    }
    ok = 1;
out:
    best_free(&b);
    free(rel);
    free(mean);
    free(order);
    free(cnt);
    return table_finish(tab, ok);
}

/* ---- the list -------------------------------------------------------------------------------------------- */

const struct tables_def tables_defs[] = {
    {"compile", "compile time per configuration with its parameters, and totals (paper Table 1)", tables_compile, TABLES_ONE_TRACE},
    {"tuning", "tuning time per input excluding compilation = sum of wall_ms over its runs (Table 2)",
     tables_tuning, TABLES_ONE_TRACE},
    {"split", "per input: repetition, overhead (wall - timed) and compilation time (Figure 1 data)", tables_split, TABLES_ONE_TRACE},
    {"best", "best configuration per input vs cuBLAS: time, TFLOP/s, ratio", tables_best, TABLES_ONE_TRACE},
    {"failures", "configurations and runs by status and reason", tables_failures, TABLES_ONE_TRACE},
    {"flush", "L2 flush study from 2+ traces with different flush_bytes (Tables 3 and 5)", NULL,
     TABLES_FLUSH_TRACES},
    {"scaling", "compile time with 1 to N workers from compile-scaling TSV files or a directory (Table 7)", NULL,
     TABLES_SCALING_TSV},
    {"estimate", "triton-protocol estimate vs warmed execution time; timed total vs rep_ms (Figure 2 data)",
     tables_estimate, TABLES_ONE_TRACE},
    {"heatmap", "every configuration's performance relative to the best, per input", tables_heatmap, TABLES_ONE_TRACE},
};
const int tables_n_defs = (int)(sizeof tables_defs / sizeof tables_defs[0]);

const struct tables_def *tables_find(const char *name)
{
    for (int i = 0; i < tables_n_defs; i++)
        if (strcmp(tables_defs[i].name, name) == 0)
            return &tables_defs[i];
    return NULL;
}
