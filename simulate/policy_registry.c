/* policy_registry.c — the registry of tuning policies (policy.h): the address of every policy_ops, in the order
 * `policies` lists them, and policy_find. It sits above every policy_*.c (it references their ops), and apart from
 * policy.c, the helpers' floor they all call, so that no file is both. To add a policy: one extern and one row. */
#include "policy.h"

#include <string.h>

extern const struct policy_ops policy_random, policy_exhaustive, policy_halving, policy_anneal, policy_costaware;
extern const struct policy_ops policy_hyperband, policy_genetic, policy_bo;
extern const struct policy_ops policy_pso, policy_diff_evo, policy_greedy_ils, policy_basinhopping, policy_mls;
extern const struct policy_ops policy_transfer, policy_pattern, policy_lfbo;
const struct policy_ops *const policy_registry[] = {
    &policy_random, &policy_exhaustive, &policy_halving,      &policy_anneal, &policy_costaware,
    &policy_hyperband, &policy_genetic, &policy_bo,           &policy_pso,    &policy_diff_evo,
    &policy_greedy_ils, &policy_basinhopping, &policy_mls, &policy_transfer,
    &policy_pattern, &policy_lfbo, NULL};

/* Kernel Tuner 1.5's strategies under its names (policy_kt_*.c), searched after tunecost's own. */
extern const struct policy_ops policy_kt_random_sample, policy_kt_brute_force, policy_kt_genetic_algorithm;
extern const struct policy_ops policy_kt_simulated_annealing, policy_kt_mls, policy_kt_greedy_ils;
extern const struct policy_ops policy_kt_firefly_algorithm, policy_kt_basinhopping, policy_kt_dual_annealing;
extern const struct policy_ops policy_kt_bayes_opt;
const struct policy_ops *const policy_kt_registry[] = {
    &policy_kt_random_sample, &policy_kt_brute_force, &policy_kt_genetic_algorithm, &policy_kt_simulated_annealing,
    &policy_kt_greedy_ils, &policy_kt_mls, &policy_kt_firefly_algorithm,
    &policy_kt_basinhopping, &policy_kt_dual_annealing, &policy_kt_bayes_opt, NULL};

const struct policy_ops *policy_find(const char *name)
{
    for (int i = 0; policy_registry[i] != NULL; i++)
        if (strcmp(policy_registry[i]->name, name) == 0)
            return policy_registry[i];
    for (int i = 0; policy_kt_registry[i] != NULL; i++)
        if (strcmp(policy_kt_registry[i]->name, name) == 0)
            return policy_kt_registry[i];
    return NULL;
}
