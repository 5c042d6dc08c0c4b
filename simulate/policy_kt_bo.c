/* policy_kt_bo.c — Kernel Tuner's `bayes_opt` (kernel_tuner/strategies/bayes_opt.py, release 1.5.0) with its
 * defaults: a Gaussian process (Matern nu 3/2, length scale 1.5 fixed, alpha 1e-10, targets normalised) on the
 * normalised value indices (eps (k + 1/2), eps = min over the parameters of 1 / its number of values; parameters of
 * one value left out), popsize 20 initial samples, method multi-ultrafast, max_fevals 100.
 * Initial sample: SciPy's scrambled Latin hypercube of 20 points over the value indices (per parameter a random
 * permutation of strata, index floor((stratum + U) / 20 x values)), in order, skipping a point that is no
 * configuration or a duplicate; then uniformly random unvisited configurations until 20 were evaluated.
 * Then, until max_fevals evaluations: ei, poi and lcb in turn each take the best of the unvisited configurations
 * by the model's last prediction (its entry deleted after each pick, so they pick distinct ones), with Kernel
 * Tuner's contextual-variance exploration factor (mean predicted std / (mean of the sample / best so far) / the
 * first mean std); the model is refitted and the unvisited predicted again every sixth round (Kernel Tuner's
 * predict_eval_ratio 5 when a prediction outlasts an evaluation, as in its simulation mode).
 * Kernel Tuner's quirk kept: a failed configuration's cost (sys.float_info.max) is taken as a valid observation, so
 * once one is observed NumPy's mean and std overflow, every prediction is NaN, and each acquisition function's
 * argmin is the first unvisited configuration in Kernel Tuner's order of the space: python-constraint's, which
 * for a restriction over all parameters is lexicographic over the parameters stable-sorted by number of values
 * (fewest first), each parameter's values descending (checked against Kernel Tuner's Searchspace.list on the
 * comparison test's spaces). Options: popsize, max_fevals, covariancelengthscale. */
#include "policy.h"
#include "policy_kt.h"

#include <float.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct st_kbo {
    int n, nd, pop, max_fevals, fevals, round, since_fit, started;
    int *order;          /* the valid configurations in Kernel Tuner's order */
    int *unv, n_unv;     /* unvisited, in that order */
    int *visited;        /* per configuration */
    int *queue, n_queue, q_pos; /* the initial sample's configurations */
    int *obs_c, n_obs;   /* observed configurations (valid) */
    double *obs_y;
    double *X;           /* n_configs x nd normalised coordinates */
    double *mu, *sd;     /* predictions aligned with unv */
    double *K, *alpha;   /* pop..max_fevals squared */
    int pending[3], n_pending, p_pos;
    double ls, y_mean, y_std, initial_mean, cv_norm, opt;
    int nan_mode;
};

static void kbo_stop(void *p)
{
    struct st_kbo *st = p;
    if (st == NULL)
        return;
    free(st->order);
    free(st->unv);
    free(st->visited);
    free(st->queue);
    free(st->obs_c);
    free(st->obs_y);
    free(st->X);
    free(st->mu);
    free(st->sd);
    free(st->K);
    free(st->alpha);
    free(st);
}

static double matern32(const double *a, const double *b, int nd, double ls)
{
    double r2 = 0;
    for (int d = 0; d < nd; d++)
        r2 += (a[d] - b[d]) * (a[d] - b[d]);
    double z = sqrt(3.0) * sqrt(r2) / ls;
    return (1 + z) * exp(-z);
}

/* Fit the GP on the observations (sklearn's GaussianProcessRegressor, normalize_y) and predict every unvisited
 * configuration into mu/sd. NaN mode when a failure (DBL_MAX) is among the observations (the file's comment). */
static void kbo_fit_predict(struct st_kbo *st)
{
    int n = st->n_obs, nd = st->nd;
    double s = 0, ss = 0;
    st->nan_mode = 0;
    for (int i = 0; i < n; i++)
        st->nan_mode |= st->obs_y[i] >= DBL_MAX;
    if (st->nan_mode || n == 0) {
        for (int u = 0; u < st->n_unv; u++)
            st->mu[u] = st->sd[u] = NAN;
        st->nan_mode = 1;
        return;
    }
    for (int i = 0; i < n; i++)
        s += st->obs_y[i];
    st->y_mean = s / n;
    for (int i = 0; i < n; i++)
        ss += (st->obs_y[i] - st->y_mean) * (st->obs_y[i] - st->y_mean);
    st->y_std = sqrt(ss / n);
    st->y_std = st->y_std == 0 ? 1 : st->y_std;
    double *K = st->K, *al = st->alpha;
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++)
            K[i * n + j] = matern32(&st->X[(size_t)st->obs_c[i] * nd], &st->X[(size_t)st->obs_c[j] * nd], nd, st->ls) +
                           (i == j ? 1e-10 : 0);
    for (int j = 0; j < n; j++) { /* Cholesky, lower, in place */
        for (int k = 0; k < j; k++)
            K[j * n + j] -= K[j * n + k] * K[j * n + k];
        K[j * n + j] = sqrt(fmax(K[j * n + j], 1e-300));
        for (int i = j + 1; i < n; i++) {
            for (int k = 0; k < j; k++)
                K[i * n + j] -= K[i * n + k] * K[j * n + k];
            K[i * n + j] /= K[j * n + j];
        }
    }
    for (int i = 0; i < n; i++) { /* L L^T alpha = y */
        double y = (st->obs_y[i] - st->y_mean) / st->y_std;
        for (int k = 0; k < i; k++)
            y -= K[i * n + k] * al[k];
        al[i] = y / K[i * n + i];
    }
    for (int i = n - 1; i >= 0; i--) {
        for (int k = i + 1; k < n; k++)
            al[i] -= K[k * n + i] * al[k];
        al[i] /= K[i * n + i];
    }
    double *kv = malloc((size_t)n * sizeof *kv), *w = malloc((size_t)n * sizeof *w);
    if (kv == NULL || w == NULL) {
        free(kv);
        free(w);
        for (int u = 0; u < st->n_unv; u++)
            st->mu[u] = st->sd[u] = NAN;
        return;
    }
    for (int u = 0; u < st->n_unv; u++) {
        const double *x = &st->X[(size_t)st->unv[u] * nd];
        double m = 0, v = 1;
        for (int i = 0; i < n; i++) {
            kv[i] = matern32(x, &st->X[(size_t)st->obs_c[i] * nd], nd, st->ls);
            m += kv[i] * al[i];
        }
        for (int i = 0; i < n; i++) {
            double t = kv[i];
            for (int k = 0; k < i; k++)
                t -= K[i * n + k] * w[k];
            w[i] = t / K[i * n + i];
            v -= w[i] * w[i];
        }
        st->mu[u] = m * st->y_std + st->y_mean;
        st->sd[u] = sqrt(fmax(v, 0)) * st->y_std;
    }
    free(kv);
    free(w);
}

static void *kbo_start(const struct pol_view *v)
{
    struct st_kbo *st = calloc(1, sizeof *st);
    size_t nc = (size_t)v->n_configs + 1;
    if (st == NULL || (st->order = malloc(nc * sizeof(int))) == NULL || (st->unv = malloc(nc * sizeof(int))) == NULL ||
        (st->visited = calloc(nc, sizeof(int))) == NULL || (st->obs_c = malloc(nc * sizeof(int))) == NULL ||
        (st->obs_y = malloc(nc * sizeof(double))) == NULL || (st->mu = malloc(nc * sizeof(double))) == NULL ||
        (st->sd = malloc(nc * sizeof(double))) == NULL || (st->queue = malloc(nc * sizeof(int))) == NULL ||
        (st->X = malloc(nc * ((size_t)v->n_params + 1) * sizeof(double))) == NULL) {
        kbo_stop(st);
        return NULL;
    }
    int np = v->n_params < 64 ? v->n_params : 64;
    double eps = 1;
    for (int p = 0; p < np; p++)
        eps = fmin(eps, 1.0 / v->n_values[p]);
    if ((st->n = kt_space_order(v, st->order)) < 0) {
        kbo_stop(st);
        return NULL;
    }
    memcpy(st->unv, st->order, (size_t)st->n * sizeof(int));
    st->n_unv = st->n;
    for (int p = 0; p < np; p++)
        st->nd += v->n_values[p] > 1;
    for (int k = 0; k < v->n_configs; k++)
        for (int p = 0, d = 0; p < np; p++)
            if (v->n_values[p] > 1)
                st->X[(size_t)k * st->nd + d++] = eps * pol_vidx(v, k, p) + 0.5 * eps;
    st->pop = (int)pol_option(v, "popsize", 20);
    st->max_fevals = (int)pol_option(v, "max_fevals", 100);
    st->ls = pol_option(v, "covariancelengthscale", 1.5);
    st->pop = st->pop < 1 ? 1 : st->pop > st->n ? st->n : st->pop;
    size_t m = (size_t)(st->max_fevals > st->n ? st->n : st->max_fevals) + (size_t)st->pop + 3;
    if ((st->K = malloc(m * m * sizeof(double))) == NULL || (st->alpha = malloc(m * sizeof(double))) == NULL) {
        kbo_stop(st);
        return NULL;
    }
    /* the Latin hypercube over the parameters of more than one value */
    int *lhs = malloc((size_t)st->pop * ((size_t)np + 1) * sizeof *lhs), *perm = malloc((size_t)st->pop * sizeof *perm);
    if (lhs == NULL || perm == NULL) {
        free(lhs);
        free(perm);
        kbo_stop(st);
        return NULL;
    }
    for (int p = 0; p < np; p++) {
        if (v->n_values[p] <= 1) {
            for (int j = 0; j < st->pop; j++)
                lhs[j * np + p] = 0;
            continue;
        }
        for (int j = 0; j < st->pop; j++)
            perm[j] = j;
        gsl_ran_shuffle(v->rng, perm, (size_t)st->pop, sizeof *perm);
        for (int j = 0; j < st->pop; j++) {
            int x = (int)((perm[j] + gsl_rng_uniform(v->rng)) / st->pop * v->n_values[p]);
            lhs[j * np + p] = x < v->n_values[p] ? x : v->n_values[p] - 1;
        }
    }
    for (int j = 0; j < st->pop; j++) {
        int c = pol_config_at(v, &lhs[j * np]);
        int dup = 0;
        for (int q = 0; q < st->n_queue && c >= 0; q++)
            dup |= st->queue[q] == c;
        if (c >= 0 && !dup)
            st->queue[st->n_queue++] = c;
    }
    free(lhs);
    free(perm);
    return st;
}

static void kbo_visit(struct st_kbo *st, int c)
{
    st->visited[c] = 1;
    for (int u = 0; u < st->n_unv; u++)
        if (st->unv[u] == c) {
            memmove(&st->unv[u], &st->unv[u + 1], (size_t)(st->n_unv - u - 1) * sizeof(int));
            memmove(&st->mu[u], &st->mu[u + 1], (size_t)(st->n_unv - u - 1) * sizeof(double));
            memmove(&st->sd[u], &st->sd[u + 1], (size_t)(st->n_unv - u - 1) * sizeof(double));
            st->n_unv--;
            break;
        }
}

/* np.argmin: the first NaN when there is one, else the first minimum. */
static int kbo_argmin(const double *a, int n)
{
    int b = 0;
    for (int i = 0; i < n; i++) {
        if (isnan(a[i]))
            return i;
        if (a[i] < a[b])
            b = i;
    }
    return b;
}

/* The pick of acquisition function af (0 ei, 1 poi, 2 lcb) among the unvisited, by the last prediction. */
static int kbo_pick(struct st_kbo *st, int af, double cv)
{
    double *val = malloc(((size_t)st->n_unv + 1) * sizeof *val), fplus = st->opt - cv;
    if (val == NULL)
        return 0;
    for (int u = 0; u < st->n_unv; u++) {
        double m = st->mu[u], s = st->sd[u], z = (fplus - m) / (s + 1e-9);
        val[u] = af == 0 ? -((fplus - m) * gsl_cdf_ugaussian_P(z) + s * gsl_ran_ugaussian_pdf(z))
                 : af == 1 ? gsl_cdf_ugaussian_P(-z) : m - cv * s;
    }
    int b = kbo_argmin(val, st->n_unv);
    free(val);
    return b;
}

static int kbo_next(void *p, const struct pol_view *v)
{
    struct st_kbo *st = p;
    (void)v;
    if (st->fevals >= st->max_fevals || st->n_unv == 0)
        return -1;
    if (st->fevals < st->pop) { /* the initial sample, then random unvisited */
        while (st->q_pos < st->n_queue && st->visited[st->queue[st->q_pos]])
            st->q_pos++;
        if (st->q_pos < st->n_queue)
            return st->queue[st->q_pos++];
        return st->unv[gsl_rng_uniform_int(v->rng, (unsigned long)st->n_unv)];
    }
    if (st->p_pos < st->n_pending)
        return st->pending[st->p_pos++];
    if (!st->started || st->since_fit >= 5) { /* a new prediction */
        kbo_fit_predict(st);
        if (!st->started) {
            double s = 0;
            for (int u = 0; u < st->n_unv; u++)
                s += st->sd[u];
            st->cv_norm = s / st->n_unv;
            for (int i = 0; i < st->n_obs; i++)
                st->initial_mean += st->obs_y[i] / st->n_obs;
        }
        st->started = 1;
        st->since_fit = 0;
    } else {
        st->since_fit++;
    }
    double s = 0, cv;
    for (int u = 0; u < st->n_unv; u++)
        s += st->sd[u];
    cv = s / (st->n_unv > 0 ? st->n_unv : 1) / (st->initial_mean / st->opt);
    cv = st->cv_norm != 0 && !isnan(st->cv_norm) ? cv / st->cv_norm : cv;
    /* three picks from one prediction, each deleted before the next; evaluated in turn */
    st->n_pending = st->p_pos = 0;
    for (int af = 0; af < 3 && st->fevals + st->n_pending < st->max_fevals && st->n_unv > 0; af++) {
        int b = kbo_pick(st, af, cv);
        st->pending[st->n_pending++] = st->unv[b];
        kbo_visit(st, st->unv[b]);
    }
    return st->n_pending > 0 ? st->pending[st->p_pos++] : -1;
}

static void kbo_observe(void *p, const struct pol_view *v, int c)
{
    struct st_kbo *st = p;
    double y = kt_cost(v, c);
    if (!st->visited[c])
        kbo_visit(st, c);
    st->fevals++;
    st->obs_c[st->n_obs] = c;
    st->obs_y[st->n_obs++] = y;
    st->opt = st->n_obs == 1 || y < st->opt ? y : st->opt;
}

const struct policy_ops policy_kt_bayes_opt = {
    "bayes_opt", "Kernel Tuner's bayes_opt: GP (Matern 3/2, length 1.5), 20 Latin-hypercube samples, ei/poi/lcb "
                 "multi-ultrafast, 100 evaluations",
    "Kernel Tuner 1.5, strategies/bayes_opt.py (Willemsen et al. 2021)", kbo_start, kbo_next, pol_rep_once,
    kbo_observe, kbo_stop, 0,
};
