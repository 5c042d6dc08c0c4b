/* policy_kt_common.c — what Kernel Tuner's strategies share (policy_kt_*.c): the --strategy-options reader
 * (pol_option, pol_options_check) and Kernel Tuner's cost of a configuration and its random neighbour. */
#include "policy.h"
#include "policy_kt.h"
#include "tc_err.h"

#include <errno.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>

/* The value of `name` in "a=1,b=2" (the last occurrence), into val (len bytes); 1 when found. */
static int option_text(const char *options, const char *name, char *val, size_t len)
{
    size_t nl = strlen(name);
    int found = 0;
    for (const char *p = options; p != NULL && *p != '\0';) {
        const char *end = strchr(p, ','), *eq = strchr(p, '=');
        size_t item = end != NULL ? (size_t)(end - p) : strlen(p);
        if (eq != NULL && (size_t)(eq - p) == nl && (size_t)(eq - p) < item && strncmp(p, name, nl) == 0) {
            size_t vl = item - nl - 1;
            vl = vl < len - 1 ? vl : len - 1;
            memcpy(val, eq + 1, vl);
            val[vl] = '\0';
            found = 1;
        }
        p = end != NULL ? end + 1 : NULL;
    }
    return found;
}

double pol_option(const struct pol_view *v, const char *name, double def)
{
    char val[64], *end;
    if (!option_text(v->options, name, val, sizeof val))
        return def;
    errno = 0;
    double x = strtod(val, &end);
    return end != val && *end == '\0' && errno == 0 ? x : def; /* checked beforehand by pol_options_check */
}

const char *pol_policy_options(const char *name)
{
    static const char *const table[][2] = {
        {"random_sample", "fraction"},
        {"genetic_algorithm", "popsize,maxiter,mutation_chance"},
        {"simulated_annealing", "T,T_min,alpha,maxiter"},
        {"greedy_ils", "random_walk,no_improvement"},
        {"firefly_algorithm", "popsize,maxiter,B0,gamma,alpha"},
        {"basinhopping", "T"},
        {"bayes_opt", "popsize,covariancelengthscale"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i][0], name) == 0)
            return table[i][1];
    return NULL;
}

/* 1 when `name` (nl bytes) is in the comma-separated list. */
static int kt_listed(const char *list, const char *name, size_t nl)
{
    for (const char *p = list; p != NULL && *p != '\0';) {
        const char *end = strchr(p, ',');
        size_t item = end != NULL ? (size_t)(end - p) : strlen(p);
        if (item == nl && strncmp(p, name, nl) == 0)
            return 1;
        p = end != NULL ? end + 1 : NULL;
    }
    return 0;
}

int pol_options_check(const char *options, const struct policy_ops *const *ops, int n)
{
    for (const char *p = options; p != NULL && *p != '\0';) {
        const char *end = strchr(p, ','), *eq = strchr(p, '=');
        size_t item = end != NULL ? (size_t)(end - p) : strlen(p);
        char name[64], val[64], *vend;
        if (eq == NULL || (size_t)(eq - p) >= item || eq == p || (size_t)(eq - p) >= sizeof name)
            return tc_seterr("--strategy-options: expected NAME=VALUE[,NAME=VALUE...], got '%.*s'", (int)item, p);
        memcpy(name, p, (size_t)(eq - p));
        name[eq - p] = '\0';
        int ok = strcmp(name, "max_fevals") == 0; /* every Kernel Tuner strategy accepts it (--max-fevals) */
        for (int i = 0; i < n && !ok; i++)
            ok = pol_policy_options(ops[i]->name) != NULL &&
                 kt_listed(pol_policy_options(ops[i]->name), name, strlen(name));
        if (!ok)
            return tc_seterr("--strategy-options: no policy asked for reads '%s' (see --help: each policy's options)",
                             name);
        if (!option_text(options, name, val, sizeof val) || (errno = 0, strtod(val, &vend), vend == val) ||
            *vend != '\0' || errno != 0)
            return tc_seterr("--strategy-options: %s: expected a number, got '%s'", name, val);
        p = end != NULL ? end + 1 : NULL;
    }
    return 0;
}

double kt_cost(const struct pol_view *v, int c)
{
    double cost;
    return pol_cost(v, c, &cost) && cost < DBL_MAX ? cost : DBL_MAX;
}

int kt_random_neighbour(const struct pol_view *v, int c, enum pol_nbr method, int *buf)
{
    int vidx[64], n;
    if (v->n_params > 64)
        return -1; /* more parameters than any trace holds (docs/import.md: at most 64) */
    for (int p = 0; p < v->n_params; p++)
        vidx[p] = pol_vidx(v, c, p);
    n = pol_neighbours(v, vidx, method, buf);
    return n > 0 ? buf[gsl_rng_uniform_int(v->rng, (unsigned long)n)] : -1;
}

int kt_random_config(const struct pol_view *v)
{
    int n = 0;
    for (int k = 0; k < v->n_configs; k++)
        n += !v->cfg[k].known_invalid;
    if (n == 0)
        return -1;
    long pick = (long)gsl_rng_uniform_int(v->rng, (unsigned long)n);
    for (int k = 0; k < v->n_configs; k++)
        if (!v->cfg[k].known_invalid && pick-- == 0)
            return k;
    return -1;
}
