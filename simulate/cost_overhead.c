/* cost_overhead.c — how much of a configuration's benchmarking overhead a replay charges (sim_cost.h): the paper's
 * whole recorded overhead, or the fixed part plus the per-execution part for the executions actually run; and what
 * a failed configuration costs under each failure-cost model (the one rule of simulate and the policy engine). */
#include "sim_cost.h"
#include "trace.h"

double sim_overhead_ms(enum sim_overhead o, double ovh_ms, double gap_ms, int n_timed, int m)
{
    double ovh;
    if (o == SIM_OVERHEAD_PAPER)
        return ovh_ms;
    ovh = ovh_ms - gap_ms * (double)(n_timed - m);
    return ovh < 0 ? 0 : ovh;
}

int sim_failed_compiles(enum sim_failed_cost f, int status)
{
    return status == TRACE_OK || f == SIM_FAILED_TRITON || status != TRACE_OUT_OF_RESOURCES;
}

double sim_failed_launch_ms(enum sim_failed_cost f, int status, double wall_ms)
{
    if (status == TRACE_OK)
        return 0;
    if (f == SIM_FAILED_TRITON || status == TRACE_LAUNCH_ERROR || status == TRACE_WRONG_RESULT)
        return wall_ms;
    return 0;
}
