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

struct kt_keyed {
    uint64_t key;
    int c;
};

static int kt_keyed_cmp(const void *a, const void *b)
{
    const struct kt_keyed *x = a, *y = b;
    return x->key != y->key ? (x->key < y->key ? -1 : 1) : (x->c > y->c) - (x->c < y->c);
}

int kt_space_order(const struct pol_view *v, int *order)
{
    int rank[64], np = v->n_params, n = 0;
    uint64_t span = 1;
    for (int i = 0; i < np && i < 64; i++)
        rank[i] = i;
    for (int i = 1; i < np && i < 64; i++) /* stable insertion sort by number of values */
        for (int j = i; j > 0 && v->n_values[rank[j - 1]] > v->n_values[rank[j]]; j--) {
            int t = rank[j];
            rank[j] = rank[j - 1];
            rank[j - 1] = t;
        }
    for (int i = 0; i < np; i++) {
        if (np > 64 || span > UINT64_MAX / (uint64_t)v->n_values[i])
            return tc_seterr("Kernel Tuner's order of the space: the value grid does not fit 64 bits");
        span *= (uint64_t)v->n_values[i];
    }
    struct kt_keyed *k = malloc(((size_t)v->n_configs + 1) * sizeof *k);
    if (k == NULL)
        return tc_seterr_env("Kernel Tuner's order of the space: out of memory");
    for (int c = 0; c < v->n_configs; c++) {
        if (v->cfg[c].known_invalid)
            continue;
        uint64_t key = 0;
        for (int i = 0; i < np; i++) /* mixed radix, the first of rank[] most significant, values descending */
            key = key * (uint64_t)v->n_values[rank[i]] + (uint64_t)(v->n_values[rank[i]] - 1 - pol_vidx(v, c, rank[i]));
        k[n].key = key;
        k[n++].c = c;
    }
    qsort(k, (size_t)n, sizeof *k, kt_keyed_cmp);
    for (int i = 0; i < n; i++)
        order[i] = k[i].c;
    free(k);
    return n;
}

/* CPython's set of small non-negative ints (Objects/setobject.c): the table, its mask, entries and fill. */
struct kt_pyset {
    long *slot; /* -1: empty */
    size_t mask, used;
};

static void kt_pyset_insert(struct kt_pyset *s, long key)
{
    size_t perturb = (size_t)key, i = (size_t)key & s->mask;
    for (;;) {
        size_t probes = i + 9 <= s->mask ? 9 : 0; /* LINEAR_PROBES */
        for (size_t j = i;; j++) {
            if (s->slot[j] == key)
                return;
            if (s->slot[j] < 0) {
                s->slot[j] = key;
                s->used++;
                return;
            }
            if (probes-- == 0)
                break;
        }
        perturb >>= 5; /* PERTURB_SHIFT */
        i = (i * 5 + 1 + perturb) & s->mask;
    }
}

static int kt_pyset_resize(struct kt_pyset *s, size_t minused)
{
    size_t size = 8;
    while (size <= minused)
        size <<= 1;
    long *old = s->slot;
    size_t old_n = s->mask + 1;
    if ((s->slot = malloc(size * sizeof *s->slot)) == NULL) {
        s->slot = old;
        return -1;
    }
    for (size_t j = 0; j < size; j++)
        s->slot[j] = -1;
    s->mask = size - 1;
    s->used = 0;
    for (size_t j = 0; old != NULL && j < old_n; j++)
        if (old[j] >= 0)
            kt_pyset_insert(s, old[j]);
    free(old);
    return 0;
}

int kt_py_set_order(int *x, int n)
{
    struct kt_pyset s = {NULL, 0, 0};
    int rc = -1;
    if (kt_pyset_resize(&s, 0) != 0)
        goto out;
    for (int i = 0; i < n; i++) {
        kt_pyset_insert(&s, x[i]);
        if (s.used * 5 >= s.mask * 3 && kt_pyset_resize(&s, s.used > 50000 ? s.used * 2 : s.used * 4) != 0)
            goto out;
    }
    rc = 0;
    for (size_t j = 0; j <= s.mask; j++)
        if (s.slot[j] >= 0)
            x[rc++] = (int)s.slot[j];
out:
    free(s.slot);
    return rc;
}
