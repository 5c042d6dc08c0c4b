/* policy_bo.c — Bayesian optimisation with a Gaussian-process surrogate over the parameters. A configuration is
 * the point of [0,1]^n_params whose coordinate p is the index of its value in parameter p's sorted values,
 * divided by (number of values - 1). The model is fitted to y = log(estimate in ms), standardised (mean 0,
 * population deviation 1) over the observations used; a failed configuration counts as the worst y observed.
 * Kernel: squared exponential, k(x, x') = exp(-|x - x'|^2 / (2 BO_LENGTH^2)), unit signal variance, BO_JITTER
 * added to the diagonal. After BO_INIT random configurations, each step benchmarks, among the unmeasured ones,
 * the one of greatest expected improvement over the lowest standardised y (minimisation, exploration margin
 * BO_XI): EI = (y_best - mu - xi) Phi(z) + sigma phi(z), z = (y_best - mu - xi) / sigma.
 * Cost is capped per step: the GP holds at most BO_MAX_OBS observations (the lowest y's, where the optimum is
 * sought), so its factorisation costs O(BO_MAX_OBS^3); and at most BO_MAX_CAND unmeasured configurations, drawn at
 * random when there are more, are scored, each for O(BO_MAX_OBS^2). The kernel matrix is factorised with GSL's
 * modified Cholesky (Gill, Murray & Wright), which perturbs a matrix that rounding made indefinite instead of
 * failing. Each configuration is benchmarked at most once, for the full --rep-ms; the policy is done when all
 * were. Hyperparameters: BO_INIT = 2, BO_LENGTH = 0.3, BO_JITTER = 1e-6, BO_XI = 0.01, BO_MAX_OBS = 16,
 * BO_MAX_CAND = 64. Reference: Jones, Schonlau & Welch, "Efficient global optimization of expensive black-box
 * functions", J. Global Optim. 13 (1998); Rasmussen & Williams, "Gaussian processes for machine learning" (2006),
 * algorithm 2.1; Willemsen, van Nieuwpoort & van Werkhoven, "Bayesian optimization for auto-tuning GPU kernels",
 * PMBS 2021. */
#include "policy.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BO_INIT 2
#define BO_LENGTH 0.3
#define BO_JITTER 1e-6
#define BO_XI 0.01
#define BO_MAX_OBS 16
#define BO_MAX_CAND 64

struct st_bo {
    int *tried, n_left;
    int *xi;              /* n_configs x n_params value indices (coordinate = index / (values - 1)) */
    double **ktab;        /* per parameter: the kernel's factor exp(-d^2 / (2 l^2)) for each pair of indices */
    int *obs, *cand;      /* scratch: observations used, candidates scored */
    int *oxi;             /* scratch: n_params x BO_MAX_OBS, the observations' value indices by parameter */
    /* The GP of the last step: the observations it was fitted to, in order, and their y; a step whose observations
     * and y are the same bits has the same GP (K^-1, alpha, ybest), so it is not fitted again, and a candidate's
     * EI computed under it (ei, stamped with the GP's number gp in ei_gp) is the same bits too. */
    int gp_obs[BO_MAX_OBS], gp_n, gp;
    double gp_y[BO_MAX_OBS], gp_ybest;
    double *ei;
    int *ei_gp;
    double *y;            /* scratch: y of each observed configuration */
    double *ylog;         /* log(est_ms[c]), computed once per measurement (ylog_n: n_exec[c] then, 0: never) */
    int *ylog_n;
    gsl_matrix *K, *Kinv;
    gsl_permutation *perm;
    gsl_vector *alpha, *ys, *k;
};

static void bo_free(struct st_bo *st)
{
    if (st == NULL)
        return;
    free(st->tried);
    free(st->xi);
    for (int p = 0; st->ktab != NULL && st->ktab[p] != NULL; p++)
        free(st->ktab[p]);
    free(st->ktab);
    if (st->Kinv != NULL)
        gsl_matrix_free(st->Kinv);
    free(st->obs);
    free(st->oxi);
    free(st->ei);
    free(st->ei_gp);
    free(st->cand);
    free(st->y);
    free(st->ylog);
    free(st->ylog_n);
    if (st->K != NULL)
        gsl_matrix_free(st->K);
    if (st->perm != NULL)
        gsl_permutation_free(st->perm);
    gsl_vector *vs[] = {st->alpha, st->ys, st->k};
    for (int i = 0; i < 3; i++)
        if (vs[i] != NULL)
            gsl_vector_free(vs[i]);
    free(st);
}

static void *bo_start(const struct pol_view *v)
{
    struct st_bo *st = calloc(1, sizeof *st);
    size_t n = (size_t)v->n_configs + 1, np = (size_t)v->n_params + 1;
    if (st == NULL)
        return NULL;
    st->tried = calloc(n, sizeof *st->tried);
    st->xi = malloc(n * np * sizeof *st->xi);
    st->ktab = calloc(np, sizeof *st->ktab);
    st->Kinv = gsl_matrix_alloc(BO_MAX_OBS, BO_MAX_OBS);
    st->obs = malloc(n * sizeof *st->obs);
    st->oxi = malloc(np * BO_MAX_OBS * sizeof *st->oxi);
    st->ei = malloc(n * sizeof *st->ei);
    st->ei_gp = calloc(n, sizeof *st->ei_gp); /* GP numbers start at 1: nothing cached */
    st->cand = malloc(n * sizeof *st->cand);
    st->y = malloc(n * sizeof *st->y);
    st->ylog = malloc(n * sizeof *st->ylog);
    st->ylog_n = calloc(n, sizeof *st->ylog_n);
    st->K = gsl_matrix_alloc(BO_MAX_OBS, BO_MAX_OBS);
    st->perm = gsl_permutation_alloc(BO_MAX_OBS);
    st->alpha = gsl_vector_alloc(BO_MAX_OBS);
    st->ys = gsl_vector_alloc(BO_MAX_OBS);
    st->k = gsl_vector_alloc(BO_MAX_OBS);
    if (st->tried == NULL || st->xi == NULL || st->ktab == NULL || st->Kinv == NULL || st->obs == NULL || st->oxi == NULL || st->ei == NULL || st->ei_gp == NULL ||
        st->cand == NULL || st->y == NULL || st->ylog == NULL || st->ylog_n == NULL ||
        st->K == NULL || st->perm == NULL || st->alpha == NULL || st->ys == NULL || st->k == NULL) {
        bo_free(st);
        return NULL;
    }
    for (int c = 0; c < v->n_configs; c++)
        for (int p = 0; p < v->n_params; p++) {
            int i = 0;
            while (i < v->n_values[p] && v->values[p][i] != v->cfg[c].params[p])
                i++;
            st->xi[(size_t)c * (size_t)v->n_params + (size_t)p] = i < v->n_values[p] ? i : 0;
        }
    for (int p = 0; p < v->n_params; p++) {
        int nv = v->n_values[p] > 0 ? v->n_values[p] : 1;
        if ((st->ktab[p] = malloc((size_t)nv * (size_t)nv * sizeof *st->ktab[p])) == NULL) {
            bo_free(st);
            return NULL;
        }
        for (int a = 0; a < nv; a++)
            for (int b = 0; b < nv; b++) {
                double d = nv > 1 ? (double)(a - b) / (nv - 1) : 0;
                st->ktab[p][a * nv + b] = exp(-d * d / (2 * BO_LENGTH * BO_LENGTH));
            }
    }
    st->n_left = v->n_configs;
    return st;
}

/* The squared-exponential kernel as a product of per-parameter factors (no exp per call), for configuration c
 * against the n observations whose value indices st->oxi holds (oxi_fill): out[j] = k(c, obs[j]), the factors
 * multiplied in parameter order. */
static void kern_row(const struct st_bo *st, const struct pol_view *v, int c, int n, double *out)
{
    int np = v->n_params;
    for (int j = 0; j < n; j++)
        out[j] = 1;
    for (int p = 0; p < np; p++) {
        int nv = v->n_values[p] > 0 ? v->n_values[p] : 1;
        const double *row = st->ktab[p] + (size_t)st->xi[(size_t)c * (size_t)np + (size_t)p] * (size_t)nv;
        const int *ox = st->oxi + (size_t)p * BO_MAX_OBS;
        for (int j = 0; j < n; j++)
            out[j] *= row[ox[j]];
    }
}

/* st->oxi from obs[0..n) (n <= BO_MAX_OBS): gathered once per step, not once per kernel row. */
static void oxi_fill(struct st_bo *st, const struct pol_view *v, const int *obs, int n)
{
    int np = v->n_params;
    for (int p = 0; p < np; p++)
        for (int j = 0; j < n; j++)
            st->oxi[(size_t)p * BO_MAX_OBS + (size_t)j] = st->xi[(size_t)obs[j] * (size_t)np + (size_t)p];
}

static int take(struct st_bo *st, int c)
{
    st->tried[c] = 1;
    st->n_left--;
    return c;
}

static int random_untried(struct st_bo *st, const struct pol_view *v)
{
    int k = pol_pick_unmarked(v, st->tried, st->n_left);
    return k >= 0 ? take(st, k) : -1;
}

/* Keep in obs[0..m) the m observations of lowest y (yc, indexed by configuration), ascending, ties in their order in
 * obs: what a stable sort by y followed by truncation to m keeps, in O(n m) rather than a sort of every observation
 * at every step. */
static void keep_lowest(int *obs, int n, int m, const double *yc)
{
    int kept = 0;
    for (int i = 0; i < n; i++) {
        int c = obs[i], j;
        double y = yc[c];
        if (kept == m && !(y < yc[obs[m - 1]]))
            continue;
        j = kept < m ? kept++ : m - 1;
        for (; j > 0 && yc[obs[j - 1]] > y; j--)
            obs[j] = obs[j - 1];
        obs[j] = c;
    }
}

/* The candidates in st->cand: the unmeasured configurations, at most BO_MAX_CAND of them drawn at random (a partial
 * Fisher-Yates shuffle on v->rng). Returns their number. */
static int draw_candidates(struct st_bo *st, const struct pol_view *v)
{
    int n_cand = 0;
    for (int c = 0; c < v->n_configs; c++)
        if (!st->tried[c])
            st->cand[n_cand++] = c;
    if (n_cand > BO_MAX_CAND) {
        for (int i = 0; i < BO_MAX_CAND; i++) {
            int j = i + (int)gsl_rng_uniform_int(v->rng, (unsigned long)(n_cand - i)), t = st->cand[i];
            st->cand[i] = st->cand[j];
            st->cand[j] = t;
        }
        n_cand = BO_MAX_CAND;
    }
    return n_cand;
}

/* The GP on obs[0..n_obs) with y yc[obs[i]] (yc indexed by configuration), into st: K^-1 (st->Kinv), alpha = K^-1 y
 * (st->alpha) and the lowest standardised y (st->gp_ybest). Not fitted again when the observations and their y are
 * the bits of the last fit (st->gp_obs, st->gp_y): then st->gp, the fit's number, stays, and so do the EIs cached
 * under it. */
static void gp_fit(struct st_bo *st, const struct pol_view *v, int n_obs, const double *yc)
{
    gsl_matrix_view Ki = gsl_matrix_submatrix(st->Kinv, 0, 0, (size_t)n_obs, (size_t)n_obs);
    gsl_vector_view al = gsl_vector_subvector(st->alpha, 0, (size_t)n_obs);
    int same_gp = n_obs == st->gp_n && memcmp(st->obs, st->gp_obs, (size_t)n_obs * sizeof *st->obs) == 0;
    for (int i = 0; i < n_obs && same_gp; i++)
        same_gp = memcmp(&yc[st->obs[i]], &st->gp_y[i], sizeof(double)) == 0;
    if (!same_gp) {
        double mean = 0, var = 0;
        for (int i = 0; i < n_obs; i++)
            mean += yc[st->obs[i]];
        mean /= n_obs;
        for (int i = 0; i < n_obs; i++)
            var += (yc[st->obs[i]] - mean) * (yc[st->obs[i]] - mean);
        double sd = var > 0 ? sqrt(var / n_obs) : 1, ybest = INFINITY;
        /* the GP on the n_obs observations: K = L D L^T (permuted), alpha = K^-1 y */
        gsl_matrix_view K = gsl_matrix_submatrix(st->K, 0, 0, (size_t)n_obs, (size_t)n_obs);
        gsl_vector_view ys = gsl_vector_subvector(st->ys, 0, (size_t)n_obs);
        gsl_permutation perm = {(size_t)n_obs, st->perm->data};
        oxi_fill(st, v, st->obs, n_obs);
        for (int i = 0; i < n_obs; i++) {
            double yi = (yc[st->obs[i]] - mean) / sd;
            gsl_vector_set(&ys.vector, (size_t)i, yi);
            if (yi < ybest)
                ybest = yi;
            double *krow = K.matrix.data + (size_t)i * K.matrix.tda;
            kern_row(st, v, st->obs[i], n_obs, krow);
            krow[i] += BO_JITTER;
        }
        gsl_linalg_mcholesky_decomp(&K.matrix, &perm, NULL);
        gsl_linalg_mcholesky_invert(&K.matrix, &perm, &Ki.matrix);
        gsl_blas_dgemv(CblasNoTrans, 1, &Ki.matrix, &ys.vector, 0, &al.vector);
        st->gp_n = n_obs;
        st->gp++;
        st->gp_ybest = ybest;
        for (int i = 0; i < n_obs; i++) {
            st->gp_obs[i] = st->obs[i];
            st->gp_y[i] = yc[st->obs[i]];
        }
    }
}

/* Expected improvement of configuration c under the fitted GP (kinv: K^-1 with row stride tda; alpha: K^-1 y). */
static double cand_ei(const struct st_bo *st, const struct pol_view *v, int c, int n_obs, const double *kinv,
                      size_t tda, const double *alpha, double ybest, double *kvec)
{
    double ei;
    kern_row(st, v, c, n_obs, kvec);
    double mu = 0, kw = 0;
    int r = 0;
    for (int j = 0; j < n_obs; j++)
        mu += kvec[j] * alpha[j];
    /* w_r = (K^-1 k)_r four rows at a time: each row still summed in j order (the same bits), the four
     * chains independent, so they do not wait on each other's additions */
    for (; r + 4 <= n_obs; r += 4) {
        const double *k0 = kinv + (size_t)r * tda, *k1 = k0 + tda, *k2 = k1 + tda, *k3 = k2 + tda;
        double w0 = 0, w1 = 0, w2 = 0, w3 = 0;
        for (int j = 0; j < n_obs; j++) {
            double x = kvec[j];
            w0 += k0[j] * x;
            w1 += k1[j] * x;
            w2 += k2[j] * x;
            w3 += k3[j] * x;
        }
        kw += kvec[r] * w0;
        kw += kvec[r + 1] * w1;
        kw += kvec[r + 2] * w2;
        kw += kvec[r + 3] * w3;
    }
    for (; r < n_obs; r++) {
        double w = 0;
        for (int j = 0; j < n_obs; j++)
            w += kinv[(size_t)r * tda + (size_t)j] * kvec[j];
        kw += kvec[r] * w;
    }
    double s2 = 1 + BO_JITTER - kw, sigma = s2 > 0 ? sqrt(s2) : 0, imp = ybest - mu - BO_XI;
    if (sigma > 0) {
        double z = imp / sigma;
        ei = imp * gsl_cdf_ugaussian_P(z) + sigma * gsl_ran_ugaussian_pdf(z);
    } else {
        ei = imp > 0 ? imp : 0;
    }
    return ei;
}

static int bo_next(void *p, const struct pol_view *v)
{
    struct st_bo *st = p;
    int nc = v->n_configs, n_obs = 0, n_cand = 0;
    if (st->n_left == 0)
        return -1;
    /* observations: y = log estimate; failed ones get the worst valid y afterwards */
    double worst = -INFINITY;
    for (int c = 0; c < nc; c++) {
        if (v->failed[c] || v->n_exec[c] > 0) {
            if (!st->tried[c])
                take(st, c);
            st->obs[n_obs++] = c;
        }
        if (!v->failed[c] && v->n_exec[c] > 0) {
            if (st->ylog_n[c] != v->n_exec[c]) { /* the same log() as before, once per measurement */
                st->ylog[c] = log(v->est_ms[c]);
                st->ylog_n[c] = v->n_exec[c];
            }
            if (st->ylog[c] > worst)
                worst = st->ylog[c];
        }
    }
    int n_valid = 0;
    for (int i = 0; i < n_obs; i++)
        n_valid += !v->failed[st->obs[i]];
    if (st->n_left == 0)
        return -1;
    if (n_obs < BO_INIT || n_valid == 0)
        return random_untried(st, v);
    double *yc = st->y; /* indexed by configuration */
    for (int i = 0; i < n_obs; i++) {
        int c = st->obs[i];
        yc[c] = v->failed[c] ? worst : st->ylog[c];
    }
    if (n_obs > BO_MAX_OBS) {
        keep_lowest(st->obs, n_obs, BO_MAX_OBS, yc);
        n_obs = BO_MAX_OBS;
    }
    gsl_matrix_view Ki = gsl_matrix_submatrix(st->Kinv, 0, 0, (size_t)n_obs, (size_t)n_obs);
    gsl_vector_view al = gsl_vector_subvector(st->alpha, 0, (size_t)n_obs);
    gp_fit(st, v, n_obs, yc);
    double ybest = st->gp_ybest;
    n_cand = draw_candidates(st, v);
    int pick = -1;
    double best_ei = -INFINITY;
    /* mu = k . alpha and kw = k . (K^-1 k), summed in the order gsl_blas_ddot and gsl_blas_dgemv sum (so the
     * same bits), in plain loops: for 16 x 16 the BLAS calls cost more than the arithmetic */
    const double *kinv = Ki.matrix.data, *alpha = al.vector.data;
    double *kvec = st->k->data;
    size_t tda = Ki.matrix.tda;
    for (int i = 0; i < n_cand; i++) {
        int c = st->cand[i];
        double ei;
        if (st->ei_gp[c] == st->gp) { /* scored under this GP before */
            if (st->ei[c] > best_ei) {
                best_ei = st->ei[c];
                pick = c;
            }
            continue;
        }
        ei = cand_ei(st, v, c, n_obs, kinv, tda, alpha, ybest, kvec);
        st->ei[c] = ei;
        st->ei_gp[c] = st->gp;
        if (ei > best_ei) {
            best_ei = ei;
            pick = c;
        }
    }
    return pick >= 0 ? take(st, pick) : random_untried(st, v);
}

static double bo_rep(void *p, const struct pol_view *v, int c)
{
    (void)p;
    return v->n_exec[c] > 0 || v->failed[c] ? 0 : v->rep_ms;
}

static void bo_stop(void *p)
{
    bo_free(p);
}

const struct policy_ops policy_bo = {
    "bo-ei",
    "Bayesian optimisation: Gaussian process on log time, expected improvement, <= 16 points, <= 64 candidates",
    "Jones, Schonlau & Welch, J. Global Optim. 1998", bo_start, bo_next, bo_rep, NULL, bo_stop, 0,
};
