/* cmd_info.c — `tunecost info [TRACE] [--json]`: what a trace holds. Device, protocol and timing settings,
 * configurations and runs by status, executions and measured GPU time, compile times, and per input the best
 * configuration (trace_best_config: lowest true time among valid runs, or an imported objective) with its
 * TFLOP/s and its speed relative to the reference library (ref_ms / best true time). Text for people, one JSON object with --json for scripts. */
#include "tables.h"
#include "tc_cli.h"
#include "tc_err.h"
#include "tc_json.h"
#include "tc_opt.h"
#include "tc_paths.h"
#include "tc_stats.h"
#include "sim.h"
#include "trace.h"
#include "tunecost.h"

#include <stddef.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the command line ------------------------------------------------------------------------------------ */

struct info_opts {
    int json;
};

static const struct tc_optdecl info_opts[] = {
    {.name = "json", .arg = TC_ARG_FLAG, .field = offsetof(struct info_opts, json),
     .help = "print one JSON object instead of text", .def_doc = "text"},
    TC_OPT_HELP,
    TC_OPT_END,
};

const struct tc_cmd info_cmd = {
    .name = "info",
    .summary = "show what a trace holds: device, protocol, configurations, inputs, best per input",
    .synopsis = "[TRACE] [--json]",
    .description =
        "Show what a trace holds: device, protocol and timing settings, configurations (valid / by failure\n"
        "reason), inputs, runs, executions, total measured GPU time, compile times, and per input the best\n"
        "configuration (lowest true time of its valid run: the median of its timed executions, or the time\n"
        "an imported file recorded; or the best value of an imported file's objective) with its TFLOP/s and its\n"
        "speed relative to the reference library (ref_ms / best time; above 1 = faster than the reference).\n",
    .operands = "TRACE\ttrace file (default: @TRACE:reference@)\n",
    .opts = info_opts,
    .exit_status = "0 ok; 1 the machine failed it (memory, I/O); 2 usage error or a missing, unreadable or invalid "
                   "trace (one line on stderr).",
    .examples = "tunecost info                              # the shipped reference trace\n"
                "tunecost info data/gemm-h200-triton.h5\n"
                "tunecost info data/gemm-h200.h5 --json | python3 -c 'import json,sys; "
                "print(json.load(sys.stdin)[\"runs\"])'\n",
    .min_operands = 0,
    .max_operands = 1,
    .operand_name = "TRACE",
};

/* ---- the summary ------------------------------------------------------------------------------------------ */

struct best {
    int config;     /* -1: no valid run */
    double median_ns; /* the true time that ranks (trace_run_true_ns): the source's recorded time where it has one */
    double exec_median_ns; /* the median of its timed executions, whatever the source recorded */
    double time_ms; /* the time the source recorded (an imported cache's `time`), NaN: none */
    double tflops;
    double vs_ref;  /* ref_ms / best ms; NaN without a reference */
};

struct summary {
    int cfg_by_status[TRACE_N_STATUS];
    size_t runs_by_status[TRACE_N_STATUS];
    size_t runs_valid;
    long pairs_measured;
    uint64_t n_estimate, n_warmup, n_timed;
    double exec_ms, timed_ms, flush_ms, wall_ms;
    int n_compiled;
    double compile_min, compile_median, compile_max, compile_total;
    long pairs, no_isolated, failed_pairs, failed_no_compile; /* the charges simulate and policies impute */
    struct best *best; /* per input */
};

static int summarize(const struct trace *t, struct summary *s)
{
    int n_cfg = trace_n_configs(t), n_in = trace_n_inputs(t);
    size_t n_runs = trace_n_runs(t);
    double *compile = NULL;
    memset(s, 0, sizeof *s);
    s->best = calloc((size_t)(n_in > 0 ? n_in : 1), sizeof *s->best);
    compile = malloc((size_t)(n_cfg > 0 ? n_cfg : 1) * sizeof *compile);
    if (s->best == NULL || compile == NULL)
        goto oom;

    sim_trace_imputed(t, &s->pairs, &s->no_isolated, &s->failed_pairs, &s->failed_no_compile);
    for (int c = 0; c < n_cfg; c++) {
        const struct trace_config *cf = trace_config(t, c);
        s->cfg_by_status[cf->status]++;
        if (isfinite(cf->compile_ms) && cf->compile_ms > 0)
            compile[s->n_compiled++] = cf->compile_ms;
    }
    if (s->n_compiled > 0) {
        qsort(compile, (size_t)s->n_compiled, sizeof *compile, tc_cmp_double);
        s->compile_min = compile[0];
        s->compile_max = compile[s->n_compiled - 1];
        s->compile_median = tc_median_sorted(compile, (size_t)s->n_compiled);
        for (int i = 0; i < s->n_compiled; i++)
            s->compile_total += compile[i];
    }

    /* long double: exact integers up to 2^64, and no wrap-around beyond (each value may be up to 2^63) */
    long double exec_ns = 0, timed_ns = 0;
    for (size_t r = 0; r < n_runs; r++) {
        const struct trace_run *run = trace_run(t, r);
        size_t n = (size_t)run->n_estimate + (size_t)run->n_warmup + (size_t)run->n_timed;
        const uint64_t *x = trace_run_exec(t, r);
        s->runs_by_status[run->status]++;
        s->runs_valid += (size_t)trace_run_valid(t, r);
        s->n_estimate += (uint64_t)run->n_estimate;
        s->n_warmup += (uint64_t)run->n_warmup;
        s->n_timed += (uint64_t)run->n_timed;
        for (size_t i = 0; i < n; i++) {
            exec_ns += (long double)x[i];
            if (i >= n - (size_t)run->n_timed)
                timed_ns += (long double)x[i];
        }
        if (isfinite(run->flush_ms))
            s->flush_ms += run->flush_ms;
        if (isfinite(run->wall_ms))
            s->wall_ms += run->wall_ms;
    }
    s->exec_ms = (double)exec_ns * 1e-6;
    s->timed_ms = (double)timed_ns * 1e-6;

    for (int i = 0; i < n_in; i++) {
        struct best *b = &s->best[i];
        const struct trace_input *in = trace_input(t, i);
        for (int c = 0; c < n_cfg; c++)
            s->pairs_measured += trace_find_run(t, i, c) >= 0;
        b->config = trace_best_config(t, i, &b->median_ns, NULL); /* the pair's last run counts */
        b->exec_median_ns = b->time_ms = NAN;
        if (b->config >= 0) {
            long r = trace_find_run(t, i, b->config);
            double rec = trace_run(t, (size_t)r)->true_ms;
            b->exec_median_ns = trace_run_median_ns(t, (size_t)r);
            b->time_ms = isfinite(rec) && rec > 0 ? rec : NAN;
            b->tflops = in->flops / b->median_ns * 1e-3; /* flops / (ns * 1e-9) / 1e12 */
            b->vs_ref = isfinite(in->ref_ms) && in->ref_ms > 0 ? in->ref_ms * 1e6 / b->median_ns : NAN;
        }
    }
    free(compile);
    return 0;
oom:
    free(compile);
    free(s->best);
    s->best = NULL;
    return tc_seterr_env("%s: out of memory", trace_path(t));
}

/* "13.0" from 13000 (cuDriverGetVersion's encoding). */
static void cuda_ver(char *buf, size_t len, int32_t v)
{
    if (v <= 0)
        snprintf(buf, len, "unknown");
    else
        snprintf(buf, len, "%d.%d", v / 1000, (v % 1000) / 10);
}

static void human_bytes(char *buf, size_t len, int64_t b)
{
    if (b >= 1 << 30 && b % (1 << 30) == 0)
        snprintf(buf, len, "%" PRId64 " GiB", b >> 30);
    else if (b >= 1 << 20)
        snprintf(buf, len, "%.4g MiB", (double)b / (1 << 20));
    else if (b >= 1 << 10)
        snprintf(buf, len, "%.4g KiB", (double)b / (1 << 10));
    else
        snprintf(buf, len, "%" PRId64 " B", b);
}

/* Duration for people, 4 significant digits: "8750 ns", "45 us", "1.25 ms", "12.5 s", "5321 s". */
static void human_ns(char *buf, size_t len, double ns)
{
    static const struct {
        double scale;
        const char *unit;
    } units[] = {{1, "ns"}, {1e3, "us"}, {1e6, "ms"}, {1e9, "s"}};
    size_t u = 0;
    while (u + 1 < sizeof units / sizeof units[0] && fabs(ns) >= 10 * units[u + 1].scale)
        u++;
    double v = ns / units[u].scale;
    if (fabs(v) >= 1000)
        snprintf(buf, len, "%.0f %s", v, units[u].unit);
    else
        snprintf(buf, len, "%.4g %s", v, units[u].unit);
}

static void human_ms(char *buf, size_t len, double ms)
{
    human_ns(buf, len, ms * 1e6);
}

static void print_params(char *buf, size_t len, const struct trace *t, int c)
{
    size_t used = 0;
    char v[256];
    buf[0] = '\0';
    for (int p = 0; p < trace_n_params(t) && used < len; p++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", p ? "," : "",
                                 trace_param_text(t, c, p, 0, v, sizeof v));
}

/* Parameter p of configuration c as a JSON value (the value table is the file's text: tc_json_value). */
static void json_param(FILE *fp, const struct trace *t, int c, int p)
{
    char v[256];
    tc_json_value(fp, trace_param_text(t, c, p, 1, v, sizeof v));
}

/* The best configuration per input, as a table (print_text's last part). */
static void print_best_text(FILE *fp, const struct trace *t, const struct summary *s)
{
    char a[64], b[64], c[64];
    int n_in = trace_n_inputs(t);
    int recorded = tables_recorded_true_times(t); /* an imported file's own times */
    if (trace_objective_is_metric(t))
        fprintf(fp, "\nbest configuration per input (%s '%s' of a valid run: the imported file's objective):\n",
                trace_get_meta(t)->objective_higher_is_better ? "highest" : "lowest", trace_get_meta(t)->objective);
    else if (recorded)
        fprintf(fp, "\nbest configuration per input (lowest true time of a valid run: the time the imported file "
                    "recorded):\n");
    else
        fprintf(fp, "\nbest configuration per input (lowest median of the timed executions of a valid run):\n");
    fprintf(fp, "  %-20s %6s  %-28s %12s %9s %11s %8s\n", "input", "config", "parameters",
            recorded ? "time" : "median", "TFLOP/s", "ref_ms", "ref/best");
    for (int i = 0; i < n_in; i++) {
        const struct best *bb = &s->best[i];
        char dims[64], params[128];
        tc_format_shape(trace_dims(t, i), trace_n_dims(t), dims, (int)sizeof dims);
        double ref = trace_input(t, i)->ref_ms;
        if (isfinite(ref))
            snprintf(b, sizeof b, "%.5g", ref);
        else
            snprintf(b, sizeof b, "-");
        if (bb->config < 0) {
            fprintf(fp, "  %-20s %6s  %-28s %12s %9s %11s %8s\n", dims, "-", "(no valid run)", "-", "-", b, "-");
            continue;
        }
        print_params(params, sizeof params, t, bb->config);
        human_ns(a, sizeof a, bb->median_ns);
        if (isfinite(bb->vs_ref))
            snprintf(c, sizeof c, "%.3f", bb->vs_ref);
        else
            snprintf(c, sizeof c, "-");
        char tf[32] = "-"; /* flops unknown (an imported trace): the median time says it all */
        if (isfinite(bb->tflops))
            snprintf(tf, sizeof tf, "%.1f", bb->tflops);
        fprintf(fp, "  %-20s %6d  %-28s %12s %9s %11s %8s\n", dims, bb->config, params, a, tf, b, c);
    }
}

static void print_text(FILE *fp, const struct trace *t, const struct summary *s)
{
    const struct trace_meta *m = trace_get_meta(t);
    char a[64], b[64], c[64], d[64];
    int n_cfg = trace_n_configs(t), n_in = trace_n_inputs(t);

    fprintf(fp, "trace           %s\n", trace_path(t));
    fprintf(fp, "format          %s v%d, written by %s at %s\n", TRACE_FORMAT_NAME, TRACE_FORMAT_VERSION,
            m->generator, m->created_utc);
    fprintf(fp, "kernel          %s\n", m->kernel);
    fprintf(fp, "kernel family   %s%s\n", trace_kernel_family(t),
            m->kernel_family[0] != '\0'                      ? ""
            : strcmp(trace_kernel_family(t), "unknown") != 0 ? " (not recorded in this trace: data/manifest.tsv)"
                                                             : " (not recorded in this trace)");
    human_bytes(a, sizeof a, m->device_l2_bytes);
    cuda_ver(b, sizeof b, m->driver_version);
    cuda_ver(c, sizeof c, m->cuda_version);
    /* an imported trace records no compute capability, SM count or L2 size (0): unknown, not sm_0 */
    char cc[32] = "sm unknown", sms[32] = "SMs unknown";
    if (m->device_cc > 0)
        snprintf(cc, sizeof cc, "sm_%d", m->device_cc);
    if (m->device_sms > 0)
        snprintf(sms, sizeof sms, "%d SMs", m->device_sms);
    if (m->device_l2_bytes <= 0)
        snprintf(a, sizeof a, "unknown");
    fprintf(fp, "device          %s (%s, %s, L2 %s), driver %s, CUDA %s\n", m->device_name, cc, sms, a, b, c);
    /* the flush setting is written as everywhere else (collect --flush-bytes, the trace attribute, table, report):
     * flush_bytes N, here with its size in words */
    if (m->flush_bytes > 0)
        human_bytes(d, sizeof d, m->flush_bytes);
    else
        snprintf(d, sizeof d, "off");
    fprintf(fp, "protocol        %s, timer %s, warm-up %g ms, repetition %g ms, flush_bytes %" PRId64 " (%s), "
                "compile jobs %d, seed %" PRIu64 "\n",
            m->protocol, m->timer, m->warmup_ms, m->rep_ms, m->flush_bytes, d, m->compile_jobs, m->seed);

    fprintf(fp, "\nconfigurations  %d: %d valid", n_cfg, s->cfg_by_status[TRACE_OK]);
    for (int st = 1; st < TRACE_N_STATUS; st++)
        if (s->cfg_by_status[st] > 0)
            fprintf(fp, ", %d %s", s->cfg_by_status[st], trace_status_name(st));
    fprintf(fp, "\nparameters      ");
    for (int p = 0; p < trace_n_params(t); p++)
        fprintf(fp, "%s%s", p ? " " : "", trace_param_name(t, p));
    fprintf(fp, "\ninputs          %d (", n_in);
    for (int dd = 0; dd < trace_n_dims(t); dd++)
        fprintf(fp, "%s%s", dd ? " x " : "", trace_dim_name(t, dd));
    fprintf(fp, ")\nruns            %zu: %zu valid", trace_n_runs(t), s->runs_valid);
    for (int st = 0; st < TRACE_N_STATUS; st++) {
        size_t n = s->runs_by_status[st];
        if (st == TRACE_OK)
            n -= s->runs_valid; /* status ok but a zero duration or no timed execution */
        if (n > 0)
            fprintf(fp, ", %zu %s", n, st == TRACE_OK ? "ok without timed executions" : trace_status_name(st));
    }
    fprintf(fp, "; %ld of %ld (input, configuration) pairs measured\n", s->pairs_measured,
            (long)n_cfg * (long)n_in);
    fprintf(fp, "executions      %zu (%" PRIu64 " estimate, %" PRIu64 " warm-up, %" PRIu64 " timed)\n",
            trace_n_exec(t), s->n_estimate, s->n_warmup, s->n_timed);
    human_ms(a, sizeof a, s->exec_ms);
    human_ms(b, sizeof b, s->timed_ms);
    human_ms(c, sizeof c, s->flush_ms);
    human_ms(d, sizeof d, s->wall_ms);
    fprintf(fp, "GPU time        %s in executions (%s timed), %s in L2 flushes; benchmarking wall time %s\n", a, b,
            c, d);
    if (s->n_compiled > 0) {
        human_ms(a, sizeof a, s->compile_min);
        human_ms(b, sizeof b, s->compile_median);
        human_ms(c, sizeof c, s->compile_max);
        human_ms(d, sizeof d, s->compile_total);
        fprintf(fp, "compile         %d configurations: min %s, median %s, max %s, total %s\n", s->n_compiled, a, b,
                c, d);
    } else {
        fprintf(fp, "compile         no compile times recorded\n");
    }
    fprintf(fp, "compile costs   isolated (1-worker) time missing for %ld of %ld (input, configuration) pairs "
            "(sequential compilation charges their compile_ms); compile time missing for %ld of %ld failing pairs "
            "(charged the input's median valid one)\n", s->no_isolated, s->pairs, s->failed_no_compile,
            s->failed_pairs);
    if (trace_n_compile_warmup(t) > 0) {
        fprintf(fp, "compile warm-up %d workers:", trace_n_compile_warmup(t));
        for (int w = 0; w < trace_n_compile_warmup(t); w++)
            fprintf(fp, " %g", trace_compile_warmup(t)[w]);
        fprintf(fp, " ms (mean %g ms; first compile of each worker, not in the times above)\n",
                trace_compile_warmup_mean(t));
    }

    print_best_text(fp, t, s);
}

static void json_key(FILE *fp, const char *key)
{
    tc_json_str(fp, key);
    fputc(':', fp);
}

/* "device":{...}, with null for what the trace does not know (0: an imported trace). */
static void json_device(FILE *fp, const struct trace_meta *m)
{
    fprintf(fp, ",\"device\":{");
    json_key(fp, "name");
    tc_json_str(fp, m->device_name);
    /* 0 is what an imported trace stores for what it does not know: null */
    fprintf(fp, ",\"cc\":");
    tc_json_num(fp, m->device_cc > 0 ? m->device_cc : NAN);
    fprintf(fp, ",\"sms\":");
    tc_json_num(fp, m->device_sms > 0 ? m->device_sms : NAN);
    fprintf(fp, ",\"l2_bytes\":");
    tc_json_num(fp, m->device_l2_bytes > 0 ? (double)m->device_l2_bytes : NAN);
    fprintf(fp, ",\"driver_version\":");
    tc_json_num(fp, m->driver_version > 0 ? m->driver_version : NAN);
    fprintf(fp, ",\"cuda_version\":");
    tc_json_num(fp, m->cuda_version > 0 ? m->cuda_version : NAN);
    fprintf(fp, "},");
}

/* "settings":{...}: protocol and timing, and an imported file's objective where it is not time. */
static void json_settings(FILE *fp, const struct trace *t, const struct trace_meta *m)
{
    fprintf(fp, "\"settings\":{");
    json_key(fp, "protocol");
    tc_json_str(fp, m->protocol);
    fputc(',', fp);
    json_key(fp, "timer");
    tc_json_str(fp, m->timer);
    fprintf(fp, ",\"warmup_ms\":");
    tc_json_num(fp, m->warmup_ms);
    fprintf(fp, ",\"rep_ms\":");
    tc_json_num(fp, m->rep_ms);
    fprintf(fp, ",\"flush_bytes\":%" PRId64 ",\"compile_jobs\":%d,\"seed\":%" PRIu64, m->flush_bytes,
            m->compile_jobs, m->seed);
    if (trace_objective_is_metric(t)) { /* an imported file ranked by another metric (absent: by true time) */
        fprintf(fp, ",\"objective\":");
        tc_json_str(fp, m->objective);
        fprintf(fp, ",\"objective_higher_is_better\":%s", m->objective_higher_is_better ? "true" : "false");
    }
    fprintf(fp, "},");
}

/* The "best" array of --json: per input its dims, flops, reference time and best configuration (null without a
 * valid run). */
static void json_best(FILE *fp, const struct trace *t, const struct summary *s)
{
    for (int i = 0; i < trace_n_inputs(t); i++) {
        const struct best *b = &s->best[i];
        fprintf(fp, "%s{\"input\":%d,\"dims\":[", i ? "," : "", i);
        for (int d = 0; d < trace_n_dims(t); d++)
            fprintf(fp, "%s%" PRId64, d ? "," : "", trace_dims(t, i)[d]);
        fprintf(fp, "],\"flops\":");
        tc_json_num(fp, trace_input(t, i)->flops);
        fprintf(fp, ",\"ref_ms\":");
        tc_json_num(fp, trace_input(t, i)->ref_ms);
        if (b->config < 0) {
            fprintf(fp, ",\"config\":null,\"params\":null,\"median_ns\":null,\"tflops\":null,\"ref_over_best\":null,"
                        "\"true_ns\":null,\"time_ms\":null,\"exec_median_ns\":null}");
            continue;
        }
        fprintf(fp, ",\"config\":%d,\"params\":[", b->config);
        for (int p = 0; p < trace_n_params(t); p++) {
            if (p > 0)
                fputc(',', fp);
            json_param(fp, t, b->config, p);
        }
        fprintf(fp, "],\"median_ns\":");
        tc_json_num(fp, b->median_ns);
        fprintf(fp, ",\"tflops\":");
        tc_json_num(fp, b->tflops);
        fprintf(fp, ",\"ref_over_best\":");
        tc_json_num(fp, b->vs_ref);
        /* what ranks (true_ns, the same number as median_ns, which keeps its older name), the source's own time
         * (time_ms: an imported cache's `time`, null for a trace tunecost measured) and the median of the timed
         * executions (exec_median_ns), which on an imported trace need not be either */
        fprintf(fp, ",\"true_ns\":");
        tc_json_num(fp, b->median_ns);
        fprintf(fp, ",\"time_ms\":");
        tc_json_num(fp, b->time_ms);
        fprintf(fp, ",\"exec_median_ns\":");
        tc_json_num(fp, b->exec_median_ns);
        fputc('}', fp);
    }
}

static void print_json(FILE *fp, const struct trace *t, const struct summary *s)
{
    const struct trace_meta *m = trace_get_meta(t);
    int n_cfg = trace_n_configs(t), n_in = trace_n_inputs(t);
    fputc('{', fp);
    json_key(fp, "trace");
    tc_json_str(fp, trace_path(t));
    fprintf(fp, ",\"format\":\"%s\",\"format_version\":%d,", TRACE_FORMAT_NAME, TRACE_FORMAT_VERSION);
    json_key(fp, "generator");
    tc_json_str(fp, m->generator);
    fputc(',', fp);
    json_key(fp, "created_utc");
    tc_json_str(fp, m->created_utc);
    fputc(',', fp);
    json_key(fp, "kernel");
    tc_json_str(fp, m->kernel);
    fputc(',', fp);
    json_key(fp, "kernel_family");
    tc_json_str(fp, trace_kernel_family(t));
    json_device(fp, m);
    json_settings(fp, t, m);

    fprintf(fp, "\"params\":[");
    for (int p = 0; p < trace_n_params(t); p++) {
        if (p)
            fputc(',', fp);
        tc_json_str(fp, trace_param_name(t, p));
    }
    fprintf(fp, "],\"dims\":[");
    for (int d = 0; d < trace_n_dims(t); d++) {
        if (d)
            fputc(',', fp);
        tc_json_str(fp, trace_dim_name(t, d));
    }
    fprintf(fp, "],\"configs\":{\"total\":%d,\"valid\":%d,\"by_status\":{", n_cfg, s->cfg_by_status[TRACE_OK]);
    for (int st = 0; st < TRACE_N_STATUS; st++) {
        fprintf(fp, "%s", st ? "," : "");
        json_key(fp, trace_status_name(st));
        fprintf(fp, "%d", s->cfg_by_status[st]);
    }
    fprintf(fp, "}},\"n_inputs\":%d,", n_in);
    fprintf(fp, "\"runs\":{\"total\":%zu,\"valid\":%zu,\"by_status\":{", trace_n_runs(t), s->runs_valid);
    for (int st = 0; st < TRACE_N_STATUS; st++) {
        fprintf(fp, "%s", st ? "," : "");
        json_key(fp, trace_status_name(st));
        fprintf(fp, "%zu", s->runs_by_status[st]);
    }
    fprintf(fp, "},\"pairs_measured\":%ld,\"pairs_total\":%ld},", s->pairs_measured, (long)n_cfg * (long)n_in);
    fprintf(fp,
            "\"executions\":{\"total\":%zu,\"estimate\":%" PRIu64 ",\"warmup\":%" PRIu64 ",\"timed\":%" PRIu64 "},",
            trace_n_exec(t), s->n_estimate, s->n_warmup, s->n_timed);
    fprintf(fp, "\"gpu_time_ms\":{\"executions\":");
    tc_json_num(fp, s->exec_ms);
    fprintf(fp, ",\"timed\":");
    tc_json_num(fp, s->timed_ms);
    fprintf(fp, ",\"flush\":");
    tc_json_num(fp, s->flush_ms);
    fprintf(fp, "},\"wall_ms\":");
    tc_json_num(fp, s->wall_ms);
    fprintf(fp, ",\"compile_ms\":{\"n\":%d,\"min\":", s->n_compiled);
    tc_json_num(fp, s->n_compiled ? s->compile_min : NAN);
    fprintf(fp, ",\"median\":");
    tc_json_num(fp, s->n_compiled ? s->compile_median : NAN);
    fprintf(fp, ",\"max\":");
    tc_json_num(fp, s->n_compiled ? s->compile_max : NAN);
    fprintf(fp, ",\"total\":");
    tc_json_num(fp, s->compile_total);
    fprintf(fp, "},\"compile_warmup_ms\":[");
    for (int w = 0; w < trace_n_compile_warmup(t); w++) {
        if (w)
            fputc(',', fp);
        tc_json_num(fp, trace_compile_warmup(t)[w]);
    }
    fprintf(fp, "],\"best\":[");
    json_best(fp, t, s);
    fprintf(fp, "]}\n");
}

/* 1 when the file's first non-blank byte opens a JSON object or array: another autotuner's file, not a trace. */
static int looks_like_json(const char *path)
{
    FILE *fp = fopen(path, "rb");
    int c = EOF;
    if (fp == NULL)
        return 0;
    while ((c = fgetc(fp)) == ' ' || c == '\n' || c == '\r' || c == '\t')
        ;
    fclose(fp);
    return c == '{' || c == '[';
}

int cmd_info(int argc, char **argv)
{
    struct info_opts o = {0};
    int first, rc;
    const char *path;
    struct trace *t = NULL;
    struct summary s = {0};

    if ((rc = tc_cli_parse(&info_cmd, argc, argv, &o, &first)) != TC_CLI_RUN)
        return rc;
    rc = 1;
    path = first < argc ? argv[first] : tc_paths_default_trace();
    if ((t = trace_open(path)) == NULL) {
        fprintf(stderr, "tunecost info: %s%s%s\n", tc_errmsg(),
                first < argc ? "" : " (the default trace; give a TRACE to read another)",
                looks_like_json(path) ? " (a JSON file: a Kernel Tuner cache or T4 results become a trace with "
                                        "`tunecost import kerneltuner FILE -o T.h5` or `tunecost import t4 ...`)"
                                      : "");
        return tc_err_exit_code(); /* 2: the trace is at fault; 1: the machine (memory, I/O) */
    }
    if (summarize(t, &s) < 0) {
        fprintf(stderr, "tunecost info: %s\n", tc_errmsg());
        goto out;
    }
    if (o.json)
        print_json(stdout, t, &s);
    else
        print_text(stdout, t, &s);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "tunecost info: cannot write the output\n");
        goto out;
    }
    rc = 0;
out:
    free(s.best);
    trace_close(t);
    return rc;
}
