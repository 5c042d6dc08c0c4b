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

/* Kernel Tuner's order of the space (Searchspace.list, python-constraint's order for one restriction over every
 * parameter): lexicographic over the parameters stable-sorted by number of values, fewest first, each parameter's
 * values descending; the configurations less those known invalid into order (room for n_configs). Returns how
 * many, or -1 (tc_errmsg: out of memory, a value grid beyond 64 bits). */
int kt_space_order(const struct pol_view *v, int *order);
/* list(set(x)) in CPython (3.7 and later) for non-negative ints, in place: the distinct values in the order of
 * the set's hash table. Returns how many, or -1 (out of memory). */
int kt_py_set_order(int *x, int n);

#endif
