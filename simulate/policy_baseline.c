/* policy_baseline.c — the analytic random-search baseline of an evaluation (pol_baseline in policy.h): the
 * expected speedup of random search at each grid time, from order statistics, without sampling. */
#include "policy_internal.h"
#include "tc_err.h"
#include "trace.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the analytic baseline -------------------------------------------------------------------------------------
 * Random search without replacement over all n configurations of an input, each benchmarked for rep_ms, with
 * perfect measurements. Of the n, v are valid (true speedups sorted s_1 >= ... >= s_v) and f = n - v fail.
 * After j valid configurations the tuned one is the best of j drawn uniformly from the v:
 *     E_j = sum_i s_i C(v - i, j - 1) / C(v, j)      (the i-th best is the best with that probability).
 * The j-th valid configuration is done at T_j = (the j valid costs) + (the costs of the m failures drawn before
 * it), where m is negative-hypergeometric: E[m] = j f / (v + 1), Var[m] = j f (v + 1 - j)(v + f + 1) /
 * ((v + 1)^2 (v + 2)). With the valid costs' mean and variance a, A and the failures' b, B (per-configuration
 * cost: compile / jobs, warm-up, the executions up to rep_ms and their overhead, or a failure's costs):
 *     E[T_j] = j a + E[m] b,  Var[T_j] = j A (v - j) / (v - 1) + E[m] B + Var[m] b^2,
 * and P(T_j <= t) from a gamma law for T_j - L_j with that variance and mean less L_j, where L_j, the sum of the j
 * cheapest valid costs, is a lower bound of T_j (T_j is a skewed sum; below L_j the probability is 0). Then
 *     E(t) = sum_{j >= 1} P(T_j <= t) (E_j - E_{j-1}).
 * No sampling: closed forms and a distribution function. What this approximates and by how much (the gamma law; the
 * independence of a configuration's cost and speed) is measured by pol_baseline_sampled, below, and stated in
 * docs/simulation.md; tests compare it with the random policy's replay. */
double pol_visit_cost_ms(const struct pol_data *d, const struct pcfg *c, const struct pol_settings *s)
{
    if (s->source_costs)
        return c->src_cost_ms; /* what an imported trace's source recorded (policy_source.c) */
    double cost = pol_visit_compile_ms(d, c, s);
    if (c->status != TRACE_OK)
        return cost + pol_visit_fail_ms(c, s);
    cost += c->warm_ms;
    double used = 0;
    for (int j = 0; j < c->n && used <= s->rep_ms; j++) {
        double x = (double)c->x[j] * 1e-6;
        used += x;
        cost += x + c->gap_ms;
    }
    return cost;
}

/* E[best speedup of k configurations drawn without replacement from nc], sp[0..nv) sorted descending. */
static double best_of(const double *sp, int nv, int nc, long k)
{
    double e = 0;
    if (k < 1)
        return 0;
    if (k > nc)
        k = nc;
    double lnck = gsl_sf_lnchoose((unsigned)nc, (unsigned)k);
    for (int r = 1; r <= nv && nc - r >= k - 1; r++)
        e += sp[r - 1] * exp(gsl_sf_lnchoose((unsigned)(nc - r), (unsigned)(k - 1)) - lnck);
    return e;
}

static int cmp_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

static int cmp_asc(const void *a, const void *b)
{
    return -cmp_desc(a, b);
}

void pol_baseline(const struct pol_data *d, const struct pol_settings *s, const double *grid_s, int n, double *out)
{
    int used = 0;
    double warm = pol_warmup_ms(d, s);
    for (int g = 0; g < n; g++)
        out[g] = 0;
    for (int i = 0; i < d->n_in; i++) {
        const struct pinput *in = &d->in[i];
        int nc = in->n_cfg, nv = 0, nf = 0;
        double a = 0, A = 0, b = 0, B = 0, *sp = NULL, *ek = NULL, *cost = NULL, *lo = NULL;
        if (in->n_valid == 0)
            continue;
        sp = malloc((size_t)in->n_valid * sizeof *sp);
        ek = malloc(((size_t)in->n_valid + 1) * sizeof *ek);
        cost = malloc((size_t)nc * sizeof *cost);
        lo = malloc((size_t)in->n_valid * sizeof *lo);
        if (sp == NULL || ek == NULL || cost == NULL || lo == NULL) {
            free(sp);
            free(ek);
            free(cost);
            free(lo);
            continue;
        }
        for (int k = 0; k < nc; k++) {
            cost[k] = pol_visit_cost_ms(d, &in->c[k], s);
            if (in->c[k].status == TRACE_OK) {
                sp[nv++] = pol_opt_ms(in, s) / pol_truth_ms(&in->c[k], s);
                a += cost[k];
            } else {
                nf++;
                b += cost[k];
            }
        }
        a /= nv;
        b = nf > 0 ? b / nf : 0;
        for (int k = 0; k < nc; k++) {
            if (in->c[k].status == TRACE_OK)
                A += (cost[k] - a) * (cost[k] - a) / nv;
            else
                B += (cost[k] - b) * (cost[k] - b) / nf;
        }
        qsort(sp, (size_t)nv, sizeof *sp, cmp_desc);
        /* lo[j]: the j cheapest valid costs, a lower bound of T_j (failures cost >= 0) */
        for (int k = 0, q = 0; k < nc; k++)
            if (in->c[k].status == TRACE_OK)
                lo[q++] = cost[k];
        qsort(lo, (size_t)nv, sizeof *lo, cmp_asc);
        for (int j = 1; j < nv; j++)
            lo[j] += lo[j - 1];
        /* P(T_j <= t) is 0 where t <= L_j: terms beyond the last j with L_j below the grid's last time add exactly 0,
         * so E_j is needed only up to there (O(v j_max) rather than O(v^2) on a large space) */
        int j_max = 0;
        while (j_max < nv && lo[j_max] < grid_s[n - 1] * 1e3 - warm)
            j_max++;
        for (int j = 0; j <= j_max; j++)
            ek[j] = best_of(sp, nv, nv, j);
        for (int g = 0; g < n; g++) {
            double t_ms = grid_s[g] * 1e3 - warm, e = 0; /* every T_j starts after the workers' warm-up */
            for (int j = 1; j <= j_max && lo[j - 1] < t_ms; j++) {
                double em = (double)j * nf / (nv + 1.0);
                double vm = (double)j * nf * (nv + 1.0 - j) * (nv + nf + 1.0) / ((nv + 1.0) * (nv + 1.0) * (nv + 2.0));
                double m = j * a + em * b;
                double v = (nv > 1 ? j * A * (nv - j) / (nv - 1.0) : 0) + em * B + vm * b * b;
                double x = t_ms - lo[j - 1], mx = m - lo[j - 1]; /* a gamma law for T_j above its lower bound */
                double p = x <= 0 ? 0 : v > 0 && mx > 0 ? gsl_cdf_gamma_P(x, mx * mx / v, v / mx) : (t_ms >= m ? 1 : 0);
                e += p * (ek[j] - ek[j - 1]);
            }
            out[g] += e;
        }
        free(sp);
        free(ek);
        free(cost);
        free(lo);
        used++;
    }
    for (int g = 0; g < n && used > 0; g++)
        out[g] /= used;
}

void pol_baseline_cached(const struct pol_data *d, const struct pol_settings *s, const double *grid_s, int n,
                         double *out)
{
    struct pol_bcache *bc = d->bcache;
    if (bc == NULL) {
        pol_baseline(d, s, grid_s, n, out);
        return;
    }
    pthread_mutex_lock(&bc->mu);
    if (bc->out == NULL || bc->n != n || bc->rep_ms != s->rep_ms || bc->compile_jobs != pol_cost_key(s) ||
        bc->failed_cost != (int)s->failed_cost + 2 * s->source_costs ||
        memcmp(bc->grid_s, grid_s, (size_t)n * sizeof *grid_s) != 0) {
        double *g = malloc((size_t)n * sizeof *g), *o = malloc((size_t)n * sizeof *o);
        if (g == NULL || o == NULL) {
            free(g);
            free(o);
            pthread_mutex_unlock(&bc->mu);
            pol_baseline(d, s, grid_s, n, out);
            return;
        }
        pol_baseline(d, s, grid_s, n, o);
        memcpy(g, grid_s, (size_t)n * sizeof *g);
        free(bc->grid_s);
        free(bc->out);
        bc->grid_s = g;
        bc->out = o;
        bc->n = n;
        bc->rep_ms = s->rep_ms;
        bc->compile_jobs = pol_cost_key(s);
        bc->failed_cost = (int)s->failed_cost + 2 * s->source_costs; /* the cost model the baseline charged */
    }
    memcpy(out, bc->out, (size_t)n * sizeof *out);
    pthread_mutex_unlock(&bc->mu);
}

int pol_baseline_sampled(const struct pol_data *d, const struct pol_settings *s, const double *grid_s, int n,
                         int perms, uint64_t seed, double *exact, double *indep)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    int used = 0, rc = -1;
    if (r == NULL)
        return tc_seterr_env("policies: out of memory");
    gsl_rng_set(r, (unsigned long)seed);
    for (int g = 0; g < n; g++)
        exact[g] = indep[g] = 0;
    for (int i = 0; i < d->n_in; i++) {
        const struct pinput *in = &d->in[i];
        int nc = in->n_cfg, nv = in->n_valid, q = 0;
        if (nv == 0)
            continue;
        double *cost = malloc((size_t)nc * sizeof *cost), *sp = malloc((size_t)nc * sizeof *sp);
        double *sorted = malloc((size_t)nv * sizeof *sorted), *ek = malloc(((size_t)nv + 1) * sizeof *ek);
        double *sum = calloc((size_t)n, sizeof *sum);
        long *done = calloc(((size_t)nv + 1) * (size_t)n, sizeof *done); /* runs whose j-th valid is done by g */
        int *perm = malloc((size_t)nc * sizeof *perm);
        if (cost == NULL || sp == NULL || sorted == NULL || ek == NULL || sum == NULL || done == NULL || perm == NULL) {
            free(cost), free(sp), free(sorted), free(ek), free(sum), free(done), free(perm);
            tc_seterr_env("policies: out of memory");
            goto out;
        }
        for (int k = 0; k < nc; k++) {
            cost[k] = pol_visit_cost_ms(d, &in->c[k], s);
            sp[k] = in->c[k].status == TRACE_OK ? pol_opt_ms(in, s) / pol_truth_ms(&in->c[k], s) : -1;
            if (sp[k] >= 0)
                sorted[q++] = sp[k];
        }
        qsort(sorted, (size_t)nv, sizeof *sorted, cmp_desc);
        for (int j = 0; j <= nv; j++)
            ek[j] = best_of(sorted, nv, nv, j);
        for (int p = 0; p < perms; p++) {
            double now = pol_warmup_ms(d, s), best = 0; /* the workers' warm-up first */
            int g = 0, jv = 0;
            for (int k = 0; k < nc; k++)
                perm[k] = k;
            for (int k = 0; k < nc; k++) { /* a uniformly random order, drawn as the random policy draws it */
                int j = k + (int)gsl_rng_uniform_int(r, (unsigned long)(nc - k)), t = perm[k];
                perm[k] = perm[j];
                perm[j] = t;
                int c = perm[k];
                now += cost[c];
                while (g < n && grid_s[g] * 1e3 < now) /* grid times before c is done see the best before it */
                    sum[g++] += best;
                if (sp[c] >= 0) {
                    best = sp[c] > best ? sp[c] : best;
                    jv++;
                    for (int h = g; h < n; h++)
                        done[(size_t)jv * (size_t)n + (size_t)h]++;
                }
            }
            while (g < n)
                sum[g++] += best;
        }
        for (int g = 0; g < n; g++) {
            double e = 0;
            for (int j = 1; j <= nv; j++)
                e += (double)done[(size_t)j * (size_t)n + (size_t)g] / perms * (ek[j] - ek[j - 1]);
            exact[g] += sum[g] / perms;
            indep[g] += e;
        }
        used++;
        free(cost), free(sp), free(sorted), free(ek), free(sum), free(done), free(perm);
    }
    for (int g = 0; g < n && used > 0; g++) {
        exact[g] /= used;
        indep[g] /= used;
    }
    rc = 0;
out:
    gsl_rng_free(r);
    return rc;
}
