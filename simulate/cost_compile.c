/* cost_compile.c — how compile time adds to tuning time (sim_cost.h): sequential, parallel compilation on a list
 * schedule before benchmarking, pipelined compilation while the GPU benchmarks, and the paper's ideal parallel
 * model (an optimistic bound); and which recorded compile time each model charges. */
#include "sim_cost.h"

#include <math.h>
#include <stddef.h>

struct sim_compile_ms sim_compile_charge(enum sim_compile_model m, double compile_ms, double isolated_ms,
                                         double median_ms, double median_seq_ms)
{
    struct sim_compile_ms c;
    int have = isfinite(compile_ms);
    c.par_ms = have ? compile_ms : median_ms;
    if (m == SIM_CM_PAPER)
        c.seq_ms = c.par_ms;
    else if (isfinite(isolated_ms))
        c.seq_ms = isolated_ms;
    else
        c.seq_ms = have ? compile_ms : median_seq_ms;
    return c;
}

double sim_compile_total_ms(enum sim_compile model, int factor, int n, double sum_seq_ms, double sum_par_ms,
                            double sum_bench_ms, double makespan_ms, double pipe_gpu_ms)
{
    switch (model) {
    case SIM_COMPILE_SEQUENTIAL: return sum_bench_ms + sum_seq_ms;
    case SIM_COMPILE_PARALLEL: return sum_bench_ms + makespan_ms;
    case SIM_COMPILE_IDEAL:
        return n == 0 ? sum_bench_ms
                      : sum_bench_ms + sum_par_ms / ((double)n / (double)((n + factor - 1) / factor));
    default: return pipe_gpu_ms;
    }
}

double sim_compile_assign(double *wfree_ms, int factor, int n_before, double compile_ms)
{
    /* wfree_ms is kept in ascending order, so the worker free first is wfree_ms[0]. Only the multiset of the free
     * times decides when a compile ends (any worker free first gives the same end and leaves the same multiset),
     * so which worker a time belongs to need not be kept. One insertion step per compile: in a micro-benchmark of
     * runs of 1-80 compiles on 16 workers (2026-11-25) 30 % faster than a branchless scan for the minimum, and
     * faster than a binary heap. */
    double done;
    int i;
    if (n_before < factor) { /* an idle worker: the first `factor` compiles start at 0 */
        for (i = n_before; i > 0 && wfree_ms[i - 1] > compile_ms; i--)
            wfree_ms[i] = wfree_ms[i - 1];
        wfree_ms[i] = compile_ms;
        return compile_ms;
    }
    done = wfree_ms[0] + compile_ms;
    for (i = 1; i < factor && wfree_ms[i] < done; i++)
        wfree_ms[i - 1] = wfree_ms[i];
    wfree_ms[i - 1] = done;
    return done;
}

double sim_pipe_bench(double ready_ms, double gpu_ms, double bench_ms)
{
    return (ready_ms > gpu_ms ? ready_ms : gpu_ms) + bench_ms;
}

double sim_pipe_step(double *wfree_ms, int factor, int n_before, double gpu_ms, double compile_ms, double bench_ms)
{
    return sim_pipe_bench(sim_compile_assign(wfree_ms, factor, n_before, compile_ms), gpu_ms, bench_ms);
}

void sim_clock_start(struct sim_clock *k, enum sim_compile model, int factor, double *wfree_ms)
{
    k->model = model;
    k->factor = factor;
    k->n = 0;
    k->sum_seq_ms = k->sum_par_ms = k->sum_bench_ms = k->makespan_ms = k->gpu_ms = 0;
    k->wfree_ms = wfree_ms;
}

void sim_clock_step(struct sim_clock *k, int compiled, struct sim_compile_ms c, double bench_ms)
{
    int n_before = k->n;
    if (compiled) {
        k->n++;
        k->sum_seq_ms += c.seq_ms;
        k->sum_par_ms += c.par_ms;
    }
    k->sum_bench_ms += bench_ms;
    if (k->model == SIM_COMPILE_PIPELINED)
        k->gpu_ms = compiled ? sim_pipe_step(k->wfree_ms, k->factor, n_before, k->gpu_ms, c.par_ms, bench_ms)
                             : k->gpu_ms + bench_ms;
    else if (k->model == SIM_COMPILE_PARALLEL && compiled) {
        double done = sim_compile_assign(k->wfree_ms, k->factor, n_before, c.par_ms);
        k->makespan_ms = done > k->makespan_ms ? done : k->makespan_ms;
    }
}

void sim_clock_bench(struct sim_clock *k, double bench_ms)
{
    k->sum_bench_ms += bench_ms;
    if (k->model == SIM_COMPILE_PIPELINED)
        k->gpu_ms += bench_ms;
}

double sim_clock_ms(const struct sim_clock *k)
{
    return sim_compile_total_ms(k->model, k->factor, k->n, k->sum_seq_ms, k->sum_par_ms, k->sum_bench_ms,
                                k->makespan_ms, k->gpu_ms);
}
