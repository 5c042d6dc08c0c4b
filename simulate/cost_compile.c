/* cost_compile.c — how compile time adds to tuning time (sim_cost.h): sequential, the paper's ideal parallel
 * compilation, and pipelined compilation on `factor` workers while the GPU benchmarks. */
#include "sim_cost.h"

#include <stddef.h>

double sim_compile_total_ms(enum sim_compile model, int factor, int n, double sum_compile_ms, double sum_bench_ms,
                            double pipe_gpu_ms)
{
    if (model == SIM_COMPILE_SEQUENTIAL)
        return sum_bench_ms + sum_compile_ms;
    if (model == SIM_COMPILE_PARALLEL)
        return n == 0 ? sum_bench_ms
                      : sum_bench_ms + sum_compile_ms / ((double)n / (double)((n + factor - 1) / factor));
    return pipe_gpu_ms;
}

double sim_pipe_step(double *wfree_ms, int factor, double gpu_ms, double compile_ms, double bench_ms)
{
    int w = 0;
    double ready;
    for (int v = 1; v < factor; v++)
        if (wfree_ms[v] < wfree_ms[w])
            w = v;
    ready = wfree_ms[w] + compile_ms;
    wfree_ms[w] = ready;
    return (ready > gpu_ms ? ready : gpu_ms) + bench_ms;
}

void sim_clock_start(struct sim_clock *k, enum sim_compile model, int factor, double *wfree_ms)
{
    k->model = model;
    k->factor = factor;
    k->n = 0;
    k->sum_compile_ms = k->sum_bench_ms = k->gpu_ms = 0;
    k->wfree_ms = wfree_ms;
    if (model == SIM_COMPILE_PIPELINED)
        for (int w = 0; w < factor; w++)
            wfree_ms[w] = 0;
}

void sim_clock_step(struct sim_clock *k, int compiled, double compile_ms, double bench_ms)
{
    if (compiled) {
        k->n++;
        k->sum_compile_ms += compile_ms;
    }
    k->sum_bench_ms += bench_ms;
    if (k->model == SIM_COMPILE_PIPELINED)
        k->gpu_ms = compiled ? sim_pipe_step(k->wfree_ms, k->factor, k->gpu_ms, compile_ms, bench_ms)
                             : k->gpu_ms + bench_ms;
}

double sim_clock_ms(const struct sim_clock *k)
{
    return sim_compile_total_ms(k->model, k->factor, k->n, k->sum_compile_ms, k->sum_bench_ms, k->gpu_ms);
}
