/* cost_overhead.c — how much of a configuration's benchmarking overhead a replay charges (sim_cost.h): the paper's
 * whole recorded overhead, or the fixed part plus the per-execution part for the executions actually run. */
#include "sim_cost.h"

double sim_overhead_ms(enum sim_overhead o, double ovh_ms, double gap_ms, int n_timed, int m)
{
    double ovh;
    if (o == SIM_OVERHEAD_PAPER)
        return ovh_ms;
    ovh = ovh_ms - gap_ms * (double)(n_timed - m);
    return ovh < 0 ? 0 : ovh;
}
