/* bench-sim.c — how fast and how big the simulator is (results in docs/performance.md, "Simulator").
 * The shipped 64-input trace may not exist yet, so the data set is synthesised in memory at the size of the
 * paper's benchmark: 64 inputs x 100 configurations, 60-74 valid per input (67 on average, as Triton's space on an
 * H200), each valid run with 1 000-15 000 timed executions (about 110 ms of them, like a 100 ms repetition
 * window), 3.4e7 executions in all — the execution data of a real trace (8 bytes each, uint64 ns).
 *
 *   bench-sim                      the paper's full experiment (3 scenarios x 500 samples x 30 runs x 64 inputs)
 *                                  and the scaling series (samples, runs, inputs, configurations)
 *   bench-sim --paper              the paper's full experiment only, with the default models and with the paper's,
 *                                  then every compile model on shared draws and the report's verdict set
 *   bench-sim --physical ...       the "physical" data set instead (see synthesise())
 *   bench-sim --write-trace F.h5   write the synthetic data set as a trace, for timing `tunecost simulate F.h5`
 *   -j T                           threads (default: online cores)
 * Prints one TSV row per measurement: what, size, wall and CPU seconds of building the tables (one thread here)
 * and of the replay (CPU of all threads; steadier than wall time on a busy machine), the tables' size and the peak
 * resident memory of the process (which holds the synthetic executions throughout). */
#include "sim.h"
#include "tc_err.h"
#include "tc_time.h"
#include "trace.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N_INPUTS 64
#define N_CONFIGS 100

struct raw_run {
    int config;
    double compile_ms;
    double wall_ms;
    uint64_t *x;
    int n;
};
struct raw_input {
    int n_valid;
    double flops;
    int64_t dims[3];
    struct raw_run runs[N_CONFIGS];
};

static struct raw_input raw[N_INPUTS];
static size_t raw_execs;
static double config_compile_ms[N_CONFIGS]; /* every configuration's, failed ones' too (contended, 16 workers) */
static double config_isolated_ms[N_CONFIGS]; /* the same measured alone (1 worker) */

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Peak resident set size of this process, MiB (VmHWM). */
static double peak_mib(void)
{
    FILE *fp = fopen("/proc/self/status", "r");
    char line[256];
    double kib = NAN;
    if (fp == NULL)
        return NAN;
    while (fgets(line, sizeof line, fp))
        if (strncmp(line, "VmHWM:", 6) == 0)
            kib = strtod(line + 6, NULL);
    fclose(fp);
    return kib / 1024;
}

/* The synthetic data set, from a fixed seed. Compile times 150-900 ms per configuration (an H200's NVRTC times),
 * overhead 25 ms of warm-up plus 2 us per execution. Sizing "brief": 1 000-15 000 executions per run, uniformly
 * (3.4e7 in all; execution times 7-110 us whatever the input, so TFLOP/s mean nothing). Sizing "physical": each
 * execution time follows from the input's work at 10-85% of 700 TFLOP/s with a 4-6 us launch floor, and a run
 * holds 110 ms of them (59-27 500 per run, 6.7e7 in all: what a real 64-input trace of fast GEMMs may hold). */
static void synthesise(int physical)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    double compile_ms[N_CONFIGS];
    static const int64_t sizes[4] = {256, 512, 1024, 4096};
    gsl_rng_set(r, 2026);
    for (int c = 0; c < N_CONFIGS; c++)
        config_compile_ms[c] = compile_ms[c] = 150 + 750 * gsl_rng_uniform(r);
    for (int i = 0; i < N_INPUTS; i++) {
        struct raw_input *in = &raw[i];
        in->dims[0] = sizes[i / 16], in->dims[1] = sizes[(i / 4) % 4], in->dims[2] = sizes[i % 4];
        in->flops = 2.0 * (double)in->dims[0] * (double)in->dims[1] * (double)in->dims[2];
        in->n_valid = 60 + (int)gsl_rng_uniform_int(r, 15);
        for (int k = 0; k < in->n_valid; k++) {
            struct raw_run *run = &in->runs[k];
            int n = 1000 + (int)gsl_rng_uniform_int(r, 14001);
            double t_ns = 110e6 / n, sum = 0;
            if (physical) {
                /* the kernel's time from its work: 10-85% of 700 TFLOP/s, at least a 4-6 us launch */
                double eff = 0.10 + 0.75 * gsl_rng_uniform(r), floor_ns = 4000 * (1 + 0.5 * gsl_rng_uniform(r));
                t_ns = in->flops / (eff * 700e12) * 1e9;
                if (t_ns < floor_ns)
                    t_ns = floor_ns;
                n = (int)(110e6 / t_ns) + 1;
            }
            run->config = k;
            run->compile_ms = compile_ms[k];
            run->n = n;
            run->x = malloc((size_t)n * sizeof *run->x);
            for (int q = 0; q < n; q++) {
                double v = t_ns * (1 + 0.03 * fabs(gsl_ran_gaussian(r, 1.0)));
                if (gsl_rng_uniform(r) < 0.001)
                    v *= 3; /* rare outliers: a preemption, a clock change */
                run->x[q] = (uint64_t)v + 1;
                sum += (double)run->x[q] * 1e-6;
            }
            run->wall_ms = sum + 25 + 0.002 * n;
            raw_execs += (size_t)n;
        }
    }
    gsl_rng_free(r);
    /* isolated (1-worker) compile times: contended / isolated uniform in 0.8-1.6 (the H100 trace with every compile
     * cost, data/gemm-h100-compile.h5, has median 1.15, range 0.60-3.59); a stream of their own, so the rest of the
     * data set is the one measured before they were added */
    r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 2027);
    for (int c = 0; c < N_CONFIGS; c++)
        config_isolated_ms[c] = config_compile_ms[c] / (0.8 + 0.8 * gsl_rng_uniform(r));
    gsl_rng_free(r);
}

/* Build sim_data over the first n_inputs inputs and their first n_valid valid configurations (all if 0; then the
 * input's other configurations are added as failed ones, compiled but out of resources, as in Triton's space). */
static struct sim_data *build(const struct sim_settings *s, int n_inputs, int n_valid)
{
    struct sim_data *d = sim_data_new(s);
    if (d == NULL)
        return NULL;
    for (int i = 0; i < n_inputs; i++) {
        char name[64];
        int in = sim_data_add_input(d, (snprintf(name, sizeof name, "%lldx%lldx%lld", (long long)raw[i].dims[0],
                                                 (long long)raw[i].dims[1], (long long)raw[i].dims[2]),
                                        name),
                                    raw[i].flops);
        int v = n_valid > 0 ? n_valid : raw[i].n_valid;
        for (int k = 0; k < v; k++) {
            /* beyond the set's valid configurations, reuse them (the configurations series) */
            const struct raw_run *run = &raw[i].runs[k % raw[i].n_valid];
            struct sim_config_run cr = {run->config, run->compile_ms, config_isolated_ms[run->config], run->wall_ms,
                                        run->x, run->n, 25.0, 0};
            if (sim_data_add_config(d, in, &cr) != 0) {
                sim_data_free(d);
                return NULL;
            }
        }
        for (int k = raw[i].n_valid; n_valid == 0 && k < N_CONFIGS; k++)
            if (sim_data_add_failed(d, in, k, config_compile_ms[k], config_isolated_ms[k], 0) != 0) {
                sim_data_free(d);
                return NULL;
            }
    }
    /* the contended times are those of 16 workers, and 16 workers' warm-ups of 500 ms on average were recorded,
     * as in the shipped traces: the default models interpolate the contention level and charge the warm-up */
    sim_data_set_compile_env(d, 16, 500, 16);
    return d;
}

/* One measurement: build the data and replay; prints a row. Returns the replay's wall seconds. */
static int measure(const char *what, long size, struct sim_settings *s, int n_inputs, int n_valid)
{
    double t0 = tc_now_s(), c0 = cpu_s(), t1, t2, c1, c2;
    struct sim_data *d = build(s, n_inputs, n_valid);
    struct sim_result *res;
    if (d == NULL) {
        fprintf(stderr, "bench-sim: %s\n", tc_errmsg());
        return -1;
    }
    t1 = tc_now_s();
    c1 = cpu_s();
    res = sim_run(d, s, NULL, NULL);
    t2 = tc_now_s();
    c2 = cpu_s();
    if (res == NULL) {
        fprintf(stderr, "bench-sim: %s\n", tc_errmsg());
        sim_data_free(d);
        return -1;
    }
    printf("%s\t%ld\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.1f\t%.1f\n", what, size, t1 - t0, c1 - c0, t2 - t1, c2 - c1,
           t2 - t0,
           (double)sim_data_bytes(d) / 1048576.0, peak_mib());
    fflush(stdout);
    sim_result_free(res);
    sim_data_free(d);
    return 0;
}

static int write_trace(const char *path)
{
    static const char *const pn[] = {"BLOCK_M", "BLOCK_N", "BLOCK_K", "GROUP_M", "NUM_STAGES", "NUM_WARPS"};
    static const char *const dn[] = {"M", "N", "K"};
    struct trace_meta meta;
    struct trace_config cfg[N_CONFIGS];
    int32_t params[N_CONFIGS * 6];
    int64_t dims[N_INPUTS * 3];
    struct trace_input ins[N_INPUTS];
    struct trace *t;
    memset(&meta, 0, sizeof meta);
    snprintf(meta.generator, sizeof meta.generator, "bench-sim (synthetic)");
    snprintf(meta.kernel, sizeof meta.kernel, "gemm_f16_f32acc");
    snprintf(meta.device_name, sizeof meta.device_name, "synthetic (bench-sim)");
    snprintf(meta.timer, sizeof meta.timer, "cupti");
    snprintf(meta.protocol, sizeof meta.protocol, "fixed-time");
    meta.warmup_ms = 25, meta.rep_ms = 100;
    for (int c = 0; c < N_CONFIGS; c++) {
        for (int p = 0; p < 6; p++)
            params[c * 6 + p] = 16 << (p % 3);
        cfg[c].status = TRACE_OK;
        cfg[c].compile_ms = raw[0].runs[c < raw[0].n_valid ? c : 0].compile_ms;
        cfg[c].load_ms = 1, cfg[c].registers = 128, cfg[c].smem_bytes = 65536, cfg[c].spill_bytes = 0;
        cfg[c].compile_isolated_ms = NAN;
    }
    for (int i = 0; i < N_INPUTS; i++) {
        memcpy(&dims[i * 3], raw[i].dims, sizeof raw[i].dims);
        ins[i].flops = raw[i].flops, ins[i].ref_ms = NAN;
    }
    t = trace_create(path, &meta, pn, 6, dn, 3);
    if (t == NULL || trace_write_configs(t, N_CONFIGS, params, cfg) != 0 ||
        trace_write_inputs(t, N_INPUTS, dims, ins) != 0)
        goto fail;
    for (int i = 0; i < N_INPUTS; i++)
        for (int k = 0; k < raw[i].n_valid; k++) {
            const struct raw_run *run = &raw[i].runs[k];
            struct trace_run tr;
            memset(&tr, 0, sizeof tr);
            tr.input = i, tr.config = run->config, tr.status = TRACE_OK, tr.n_timed = run->n;
            tr.wall_ms = run->wall_ms, tr.estimate_ms = NAN;
            if (trace_append_run(t, &tr, run->x, (size_t)run->n) != 0)
                goto fail;
        }
    if (trace_close(t) != 0) {
        t = NULL;
        goto fail;
    }
    printf("wrote %s: %d inputs, %zu executions\n", path, N_INPUTS, raw_execs);
    return 0;
fail:
    fprintf(stderr, "bench-sim: %s\n", tc_errmsg());
    trace_close(t);
    return 1;
}

/* Every compile model of issue 23 on shared draws, with the default models: sequential on isolated times, parallel
 * (list schedule), pipelined, ideal, and early stopping; then the report's verdict set (each model without and with
 * early stopping). Returns 0, or 1 after a message. */
static int measure_models(int threads)
{
    static const char *const sets[2][8] = {
        {"baseline", "parallel", "pipelined", "ideal", "early-stop"},
        {"sequential", "sequential+early-stop", "parallel", "parallel+early-stop", "pipelined", "pipelined+early-stop",
         "ideal", "ideal+early-stop"}};
    static const int n_set[2] = {5, 8};
    static const char *const what[2] = {"paper, every compile model (baseline,parallel,pipelined,ideal,early-stop)",
                                        "paper, the report's verdict set (4 models x early stop off/on)"};
    for (int k = 0; k < 2; k++) {
        struct sim_settings s;
        sim_settings_default(&s);
        s.threads = threads;
        s.n_scenarios = n_set[k];
        for (int q = 0; q < n_set[k]; q++)
            if (sim_scenario_parse(sets[k][q], SIM_COMPILE_SEQUENTIAL, 16, SIM_OVERHEAD_PAPER, &s.scenarios[q]) != 0) {
                fprintf(stderr, "bench-sim: %s\n", tc_errmsg());
                return 1;
            }
        if (measure(what[k], 500, &s, N_INPUTS, 0) != 0)
            return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct sim_settings s;
    int threads = 0, paper_only = 0, physical = 0;
    const char *trace_out = NULL;
    double t0;
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--paper") == 0)
            paper_only = 1;
        else if (strcmp(argv[a], "--write-trace") == 0 && a + 1 < argc)
            trace_out = argv[++a];
        else if (strcmp(argv[a], "--physical") == 0)
            physical = 1;
        else if (strcmp(argv[a], "-j") == 0 && a + 1 < argc)
            threads = atoi(argv[++a]);
        else {
            fprintf(stderr, "usage: bench-sim [--paper] [--physical] [-j THREADS] [--write-trace OUT.h5]\n");
            return 2;
        }
    }
    t0 = tc_now_s();
    synthesise(physical);
    printf("# synthetic data (%s sizing): %d inputs, %zu timed executions (%.1f MiB as uint64 ns), made in %.2f s; peak %.1f "
           "MiB\n", physical ? "physical" : "brief", N_INPUTS, raw_execs, (double)raw_execs * 8 / 1048576.0, tc_now_s() - t0, peak_mib());
    if (trace_out != NULL)
        return write_trace(trace_out);
    printf("what\tsize\tbuild_s\tbuild_cpu_s\treplay_s\treplay_cpu_s\ttotal_s\ttables_MiB\tpeak_MiB\n");
    sim_settings_default(&s);
    s.threads = threads;
    if (measure("paper (3 scenarios x 500 x 30 x 64 inputs)", 500, &s, N_INPUTS, 0) != 0)
        return 1;
    /* the same with the models of the paper (and of tunecost before issue 23): valid configurations only, the
     * ideal parallel model, ranked by the mean and scored by the median */
    s.failed_cost = SIM_FAILED_NONE;
    s.compile_model = SIM_CM_PAPER;
    s.truth = SIM_ESTIMATOR_MEDIAN;
    sim_scenarios_for_model(&s);
    if (measure("paper, the paper's models (--failed-cost none --compile-model paper)", 500, &s, N_INPUTS, 0) != 0)
        return 1;
    if (measure_models(threads) != 0)
        return 1;
    if (paper_only)
        return 0;
    {
        static const int samples[] = {125, 250, 500, 1000, 2000};
        for (size_t k = 0; k < sizeof samples / sizeof samples[0]; k++) {
            sim_settings_default(&s);
            s.threads = threads;
            s.samples = samples[k];
            measure("samples", samples[k], &s, N_INPUTS, 0);
        }
    }
    {
        static const int runs[] = {10, 30, 90};
        for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
            sim_settings_default(&s);
            s.threads = threads;
            s.runs = runs[k];
            measure("runs", runs[k], &s, N_INPUTS, 0);
        }
    }
    {
        static const int inputs[] = {8, 16, 32, 64};
        for (size_t k = 0; k < sizeof inputs / sizeof inputs[0]; k++) {
            sim_settings_default(&s);
            s.threads = threads;
            measure("inputs", inputs[k], &s, inputs[k], 0);
        }
    }
    {
        /* valid configurations per input; N_CONFIG drawn from 1:V so that every configuration can be explored */
        static const int valid[] = {25, 50, 100, 200};
        for (size_t k = 0; k < sizeof valid / sizeof valid[0]; k++) {
            sim_settings_default(&s);
            s.threads = threads;
            s.n_config_hi = valid[k];
            measure("configs (n-config 1:V)", valid[k], &s, N_INPUTS, valid[k]);
        }
    }
    {
        static const int th[] = {1, 2};
        for (size_t k = 0; k < sizeof th / sizeof th[0]; k++) {
            sim_settings_default(&s);
            s.threads = th[k];
            measure("threads", th[k], &s, N_INPUTS, 0);
        }
    }
    return 0;
}
