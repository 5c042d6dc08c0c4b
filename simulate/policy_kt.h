/* policy_kt.h — helpers of Kernel Tuner's strategies (policy_kt_*.c), reproduced under Kernel Tuner's names with
 * its 1.5 defaults (docs/simulation.md, "Kernel Tuner's strategies"). Internal to simulate/. */
#ifndef POLICY_KT_H
#define POLICY_KT_H

#include "policy.h"

/* Kernel Tuner's cost of configuration c (its CostFunc): the measured objective once evaluated, DBL_MAX for a
 * failure (sys.float_info.max) or a configuration not evaluated. */
double kt_cost(const struct pol_view *v, int c);
/* A uniformly random neighbour of c by `method` (Kernel Tuner's get_random_neighbor; buf has room for n_configs),
 * or -1 when it has none. */
int kt_random_neighbour(const struct pol_view *v, int c, enum pol_nbr method, int *buf);
/* A uniformly random configuration of the space (less those known invalid), or -1 for an empty space. */
int kt_random_config(const struct pol_view *v);

#endif
