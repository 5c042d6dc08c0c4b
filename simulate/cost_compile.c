/* cost_compile.c — how compile time adds to tuning time (sim_cost.h): sequential, the paper's ideal parallel
 * compilation, and pipelined compilation on `factor` workers while the GPU benchmarks. */
#include "sim_cost.h"

#include <stddef.h>

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
    if (k->model == SIM_COMPILE_PIPELINED) {
        /* the next compile goes to the first free worker; the benchmark starts when both the configuration is
         * compiled and the GPU is free */
        double ready = k->gpu_ms;
        if (compiled) {
            int w = 0;
            for (int v = 1; v < k->factor; v++)
                if (k->wfree_ms[v] < k->wfree_ms[w])
                    w = v;
            ready = k->wfree_ms[w] + compile_ms;
            k->wfree_ms[w] = ready;
        }
        k->gpu_ms = (ready > k->gpu_ms ? ready : k->gpu_ms) + bench_ms;
    }
}

double sim_clock_ms(const struct sim_clock *k)
{
    int f = k->factor, n = k->n;
    if (k->model == SIM_COMPILE_SEQUENTIAL)
        return k->sum_bench_ms + k->sum_compile_ms;
    if (k->model == SIM_COMPILE_PARALLEL)
        return n == 0 ? k->sum_bench_ms : k->sum_bench_ms + k->sum_compile_ms / ((double)n / (double)((n + f - 1) / f));
    return k->gpu_ms;
}
