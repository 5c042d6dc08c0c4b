/* progress.c — the progress line, log lines and the end-of-collection summary (see progress.h). */
#include "progress.h"

#include "bench.h"
#include "space.h"
#include "tc_opt.h"
#include "tc_time.h"

#include <math.h>
#include <stdio.h>
#include <unistd.h>

void progress_fmt_dur(double s, char *buf, size_t len)
{
    if (!(s >= 0.0) || s > 1e7)
        snprintf(buf, len, "--:--");
    else if (s >= 3600)
        snprintf(buf, len, "%d:%02d:%02d", (int)(s / 3600), (int)(s / 60) % 60, (int)s % 60);
    else
        snprintf(buf, len, "%d:%02d", (int)(s / 60), (int)s % 60);
}

void progress_draw(struct progress *p, int force, long done, long total, const char *shape, const char *what)
{
    char el[32], eta[32];
    double t = tc_now_ms();
    if (!p->enabled || !isatty(2) || (!force && t - p->last_draw < 250.0))
        return;
    p->last_draw = t;
    progress_fmt_dur((t - p->t_start) / 1e3, el, sizeof el);
    progress_fmt_dur(done > 0 ? (t - p->t_start) / 1e3 / (double)done * (double)(total - done) : -1.0, eta,
                     sizeof eta);
    fprintf(stderr, "\r\033[K[%ld/%ld runs] %s  %s  elapsed %s  eta %s", done, total, shape, what, el, eta);
}

void progress_summary(const struct trace *t, const char *path, double warmup_ms, double rep_ms,
                      const struct progress_times *times, double wall_ms)
{
    int cfg_count[TRACE_N_STATUS] = {0}, run_count[TRACE_N_STATUS] = {0};
    double requested_ms = 0.0, compile_ms = 0.0;
    size_t n_runs = trace_n_runs(t);
    for (int k = 0; k < trace_n_configs(t); k++) {
        const struct trace_config *cfg = trace_config(t, k);
        if (cfg->status >= 0 && cfg->status < TRACE_N_STATUS)
            cfg_count[cfg->status]++;
        if (!isnan(cfg->compile_ms))
            compile_ms += cfg->compile_ms;
    }
    for (size_t r = 0; r < n_runs; r++) {
        const struct trace_run *run = trace_run(t, r);
        if (run->status >= 0 && run->status < TRACE_N_STATUS)
            run_count[run->status]++;
        if (trace_run_valid(t, r))
            requested_ms += warmup_ms + rep_ms;
    }
    printf("\nconfigurations: %d: %d ok, %d compile error, %d out of resources; compile time %.1f s in total\n",
           trace_n_configs(t), cfg_count[0], cfg_count[1], cfg_count[2], compile_ms / 1e3);
    printf("runs: %zu: %d ok, %d launch error, %d wrong result\n", n_runs, run_count[0], run_count[3],
           run_count[4]);
    printf("%-18s %-36s %10s %10s %8s\n", "input", "best configuration", "TFLOP/s", "cuBLAS", "ratio");
    for (int i = 0; i < trace_n_inputs(t); i++) {
        double best_ns = NAN;
        int best_k = trace_best_config(t, i, &best_ns, NULL); /* one definition: a pair's last run counts */
        double best = best_ns / 1e6;
        char shape[64], cfg[64] = "-";
        const struct trace_input *in = trace_input(t, i);
        double tf = best_k >= 0 ? in->flops / best / 1e9 : NAN, ref = in->flops / in->ref_ms / 1e9;
        if (best_k >= 0)
            space_format_config(trace_params(t, best_k), cfg, sizeof cfg);
        printf("%-18s %-36s %10.1f %10.1f %8.2f\n",
               tc_format_shape(trace_dims(t, i), SPACE_N_DIMS, shape, sizeof shape), cfg, tf, ref, tf / ref);
    }
    if (times != NULL) {
#define SINCE(x) ((x) > 0.0 ? ((x) - times->t0) / 1e3 : NAN)
        printf("wall time %.2f s (this invocation, %ld runs; device known after %.2f s, compiling from %.2f s, first "
               "configuration compiled at %.2f s, GPU ready at %.2f s, first run at %.2f s); GPU time asked for "
               "(valid runs x (warm-up + rep), whole trace) %.2f s; ratio %.3f\n", wall_ms / 1e3, times->finished,
               SINCE(times->hello_ms), SINCE(times->submit_ms), SINCE(times->first_compiled_ms),
               SINCE(times->ready_ms), SINCE(times->first_run_ms), requested_ms / 1e3,
               requested_ms > 0 ? wall_ms / requested_ms : NAN);
#undef SINCE
        if (times->restarts > 0)
            printf("benchmarking process restarted %d time%s after faults\n", times->restarts,
                   times->restarts == 1 ? "" : "s");
    }
    printf("trace: %s\n", path);
}
