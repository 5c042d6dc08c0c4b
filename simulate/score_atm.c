/* score_atm.c — the methodology's score (score_atm.h): an input's frame (its linear time range and the random
 * search baseline from order statistics), a run's ranks over it, an input's score, and the bootstrap over runs and
 * inputs. */
#include "score_atm.h"
#include "tc_err.h"
#include "tc_mt.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RUN_RESAMPLES 200 /* bootstrap: run resamples per input */

double atm_expected_rank(int v, double k)
{
    return (v + 1.0) / (k + 1.0);
}

double atm_ms_of_rank(const struct atm_frame *f, double rho)
{
    int v = f->n_valid;
    if (rho <= 1)
        return f->f_asc[0];
    if (rho >= v)
        return f->f_asc[v - 1];
    int k = (int)floor(rho);
    return f->f_asc[k - 1] + (rho - k) * (f->f_asc[k] - f->f_asc[k - 1]);
}

double atm_rank_of_ms(const struct atm_frame *f, double ms)
{
    int lo = 0, hi = f->n_valid; /* the first index whose time is not below ms (with the tolerance) */
    double x = ms * (1 - 1e-9);
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (f->f_asc[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo + 1.0;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The frame's scale: sorted valid times, median, f_cut, time per evaluation, t0. Returns 1 when the input can be
 * scored (so far), 0 when not. */
static int frame_scale(struct atm_frame *f, int n, const int *valid, const double *true_ms, const double *cost_ms,
                       double cutoff)
{
    double a = 0, b = 0, t0 = INFINITY;
    int v = 0;
    for (int k = 0; k < n; k++) {
        if (valid[k]) {
            f->f_asc[v++] = true_ms[k];
            a += cost_ms[k];
            t0 = cost_ms[k] < t0 ? cost_ms[k] : t0;
        } else {
            b += cost_ms[k];
        }
    }
    f->n_valid = v;
    if (v < 2)
        return 0;
    qsort(f->f_asc, (size_t)v, sizeof *f->f_asc, cmp_dbl);
    a /= v;
    b = n > v ? b / (n - v) : 0;
    f->opt_ms = f->f_asc[0];
    f->median_ms = atm_ms_of_rank(f, (v + 1) / 2.0); /* numpy's median: the mean of the middle two when v is even */
    f->cut_ms = f->opt_ms + (f->median_ms - f->opt_ms) * (1 - cutoff);
    f->per_eval_s = (a + (double)(n - v) / (v + 1.0) * b) * 1e-3;
    f->t0_s = t0 * 1e-3;
    return f->median_ms > f->opt_ms && f->per_eval_s > 0;
}

/* The fractional rank where the run times reach f_cut: k of them are at most f_cut, then linear to the next. */
static double cut_rank(const struct atm_frame *f)
{
    int k = 0, v = f->n_valid;
    while (k < v && f->f_asc[k] <= f->cut_ms)
        k++;
    return k >= v ? v : k + (f->cut_ms - f->f_asc[k - 1]) / (f->f_asc[k] - f->f_asc[k - 1]);
}

/* A change of one order's expected best rank: at t_ms its j-th valid evaluation is done. */
struct rank_ev {
    double t_ms, delta;
};

static int cmp_ev(const void *a, const void *b)
{
    const struct rank_ev *x = a, *y = b;
    if (x->t_ms != y->t_ms)
        return x->t_ms < y->t_ms ? -1 : 1;
    return (x->delta > y->delta) - (x->delta < y->delta); /* a total order: the same sums on every run */
}

static int ev_before(const struct rank_ev *x, const struct rank_ev *y)
{
    return x->t_ms < y->t_ms || (x->t_ms == y->t_ms && x->delta < y->delta);
}

/* Sort ev[0..m) in cmp_ev's order, given that each order's events ev[start[p]..start[p + 1]) already are (an
 * order's clock only advances, and at one time its later events change the rank by less): the runs merged pairwise,
 * about log2(ATM_PERMS) passes, instead of a sort of the whole through a comparison callback. Any order that sorts
 * gives the same array (cmp_ev is total up to equal events), so the sums are the same bits. Falls back to qsort
 * where a run is out of order (a NaN or negative cost) or memory is short. */
static void sort_events(struct rank_ev *ev, long m, long *start, int n_runs)
{
    struct rank_ev *tmp = NULL, *src = ev, *dst;
    for (int p = 0; p < n_runs; p++)
        for (long e = start[p]; e < start[p + 1]; e++)
            if (isnan(ev[e].t_ms) || isnan(ev[e].delta) || (e > start[p] && ev_before(&ev[e], &ev[e - 1])))
                goto fallback;
    if (m < 2 || n_runs < 2)
        return;
    if ((tmp = malloc((size_t)m * sizeof *tmp)) == NULL)
        goto fallback;
    dst = tmp;
    while (n_runs > 1) {
        int out = 0;
        for (int p = 0; p < n_runs; p += 2, out++) {
            long a = start[p], a_end = start[p + 1], b = a_end, b_end = p + 2 <= n_runs ? start[p + 2] : a_end, o = a;
            while (a < a_end && b < b_end)
                dst[o++] = ev_before(&src[b], &src[a]) ? src[b++] : src[a++]; /* ties: the earlier run first */
            while (a < a_end)
                dst[o++] = src[a++];
            while (b < b_end)
                dst[o++] = src[b++];
            start[out] = start[p];
        }
        start[out] = m;
        n_runs = out;
        struct rank_ev *t = src;
        src = dst;
        dst = t;
    }
    if (src != ev)
        memcpy(ev, src, (size_t)m * sizeof *ev);
    free(tmp);
    return;
fallback:
    qsort(ev, (size_t)m, sizeof *ev, cmp_ev);
}

/* ATM_PERMS random orders (Fisher-Yates prefixes, each uniform whatever the array held before), each followed until
 * j_stop valid evaluations are done: the events where its expected best rank (v + 1) / (j + 1) changes, sorted.
 * *t_stop_ms: the earliest time an order reached j_stop (its J is exact before). Returns the number of events. */
static long order_events(int n, const int *valid, const double *cost_ms, int v, int j_stop, struct tc_mt *r, int *perm,
                         struct rank_ev *ev, double *t_stop_ms)
{
    long m = 0, start[ATM_PERMS + 1];
    *t_stop_ms = INFINITY;
    for (int p = 0; p < ATM_PERMS; p++) {
        double now = 0;
        start[p] = m;
        for (int k = 0, j = 0; k < n && j < j_stop; k++) {
            int q = k + (int)tc_mt_uniform_int(r, (unsigned long)(n - k)), c = perm[q];
            perm[q] = perm[k];
            perm[k] = c;
            now += cost_ms[c];
            if (!valid[c])
                continue;
            if (++j > 1) /* the first one leaves the uninformed (v + 1) / 2 as it is */
                ev[m++] = (struct rank_ev){now, (v + 1.0) / (j + 1.0) - (v + 1.0) / j};
            if (j == j_stop && now < *t_stop_ms)
                *t_stop_ms = now;
        }
    }
    start[ATM_PERMS] = m;
    sort_events(ev, m, start, ATM_PERMS);
    return m;
}

/* The first event time at which the mean expected rank over the orders is at most rho_cut, or NaN. */
static double reach_time(const struct rank_ev *ev, long m, int v, double rho_cut)
{
    double sum = ATM_PERMS * (v + 1.0) / 2;
    for (long e = 0; e < m; e++) {
        sum += ev[e].delta;
        if ((e + 1 == m || ev[e + 1].t_ms > ev[e].t_ms) && sum / ATM_PERMS <= rho_cut)
            return ev[e].t_ms;
    }
    return NAN;
}

/* The range and the baseline at its times from the sorted events (t1 already set). */
static int frame_grid(struct atm_frame *f, const struct rank_ev *ev, long m, int n_points)
{
    double sum = ATM_PERMS * (f->n_valid + 1.0) / 2;
    f->n_points = n_points;
    f->time_s = malloc((size_t)n_points * sizeof *f->time_s);
    f->base_ms = malloc((size_t)n_points * sizeof *f->base_ms);
    if (f->time_s == NULL || f->base_ms == NULL)
        return tc_seterr_env("policies: out of memory");
    for (int g = 0, e = 0; g < n_points; g++) {
        f->time_s[g] = f->t0_s + (f->t1_s - f->t0_s) * g / n_points;
        while (e < m && ev[e].t_ms <= f->time_s[g] * 1e3)
            sum += ev[e++].delta;
        f->base_ms[g] = atm_ms_of_rank(f, sum / ATM_PERMS);
    }
    return 0;
}

int atm_frame_init(struct atm_frame *f, int n, const int *valid, const double *true_ms, const double *cost_ms,
                   double cutoff, int n_points, double end_s, uint64_t seed)
{
    int rc = 0, *perm = NULL;
    struct rank_ev *ev = NULL;
    struct tc_mt *r = NULL; /* gsl_rng_mt19937's stream, inline (tc_mt.h) */
    memset(f, 0, sizeof *f);
    if ((f->f_asc = malloc(((size_t)n + 1) * sizeof *f->f_asc)) == NULL)
        return tc_seterr_env("policies: out of memory");
    if (!frame_scale(f, n, valid, true_ms, cost_ms, cutoff))
        return 0;
    double rho_cut = cut_rank(f), t_stop = 0, t1 = NAN;
    int v = f->n_valid, j_stop = (int)ceil(2 * ((v + 1) / rho_cut - 1)) + 4;
    perm = malloc((size_t)n * sizeof *perm);
    r = malloc(sizeof *r);
    if (perm == NULL || r == NULL) {
        rc = tc_seterr_env("policies: out of memory");
        goto out;
    }
    for (int k = 0; k < n; k++)
        perm[k] = k;
    tc_mt_seed(r, (unsigned long)(seed ^ 0x5DEECE66DULL));
    for (;;) { /* follow the orders far enough that every one is exact up to the time the cutoff is reached */
        long m;
        j_stop = j_stop < v ? j_stop : v;
        free(ev);
        if ((ev = malloc(((size_t)ATM_PERMS * (size_t)j_stop + 1) * sizeof *ev)) == NULL) {
            rc = tc_seterr_env("policies: out of memory");
            goto out;
        }
        m = order_events(n, valid, cost_ms, v, j_stop, r, perm, ev, &t_stop);
        t1 = reach_time(ev, m, v, rho_cut);
        if (j_stop == v || (!isnan(t1) && t1 <= t_stop)) {
            f->t_cut_s = f->t1_s = t1 * 1e-3;
            f->t1_s = f->t1_s > end_s ? end_s : f->t1_s;
            if (!isnan(t1) && f->t1_s > f->t0_s && (rc = frame_grid(f, ev, m, n_points)) == 0)
                f->usable = 1;
            break;
        }
        j_stop *= 2;
    }
out:
    free(perm);
    free(ev);
    free(r);
    return rc;
}

int atm_frame_copy(struct atm_frame *dst, const struct atm_frame *src)
{
    size_t nv = (size_t)(src->n_valid > 0 ? src->n_valid : 0), np = src->time_s != NULL ? (size_t)src->n_points : 0;
    *dst = *src;
    dst->f_asc = src->f_asc != NULL ? malloc((nv + 1) * sizeof *dst->f_asc) : NULL;
    dst->time_s = np > 0 ? malloc(np * sizeof *dst->time_s) : NULL;
    dst->base_ms = np > 0 && src->base_ms != NULL ? malloc(np * sizeof *dst->base_ms) : NULL;
    if ((src->f_asc != NULL && dst->f_asc == NULL) || (np > 0 && (dst->time_s == NULL || dst->base_ms == NULL))) {
        free(dst->f_asc);
        free(dst->time_s);
        free(dst->base_ms);
        memset(dst, 0, sizeof *dst);
        return tc_seterr_env("policies: out of memory");
    }
    if (src->f_asc != NULL)
        memcpy(dst->f_asc, src->f_asc, nv * sizeof *dst->f_asc);
    if (np > 0) {
        memcpy(dst->time_s, src->time_s, np * sizeof *dst->time_s);
        memcpy(dst->base_ms, src->base_ms, np * sizeof *dst->base_ms);
    }
    return 0;
}

void atm_frame_free(struct atm_frame *f)
{
    free(f->f_asc);
    free(f->time_s);
    free(f->base_ms);
    memset(f, 0, sizeof *f);
}

void atm_run_ranks(const struct atm_frame *f, const double *t_s, const double *f_ms, int n, double *rank)
{
    double none = atm_expected_rank(f->n_valid, 1), cur = none;
    for (int g = 0, e = 0; g < f->n_points; g++) {
        int moved = 0;
        while (e < n && t_s[e] <= f->time_s[g])
            e++, moved = 1;
        if (moved)
            cur = isnan(f_ms[e - 1]) ? none : atm_rank_of_ms(f, f_ms[e - 1]);
        rank[g] = cur;
    }
}

double atm_input_score(const struct atm_frame *f, const double *mean_rank, double *f_ms)
{
    double s = 0;
    for (int g = 0; g < f->n_points; g++) {
        double y = atm_ms_of_rank(f, mean_rank[g]);
        s += (f->base_ms[g] - y) / (f->base_ms[g] - f->opt_ms);
        if (f_ms != NULL)
            f_ms[g] = y;
    }
    return s / f->n_points;
}

/* The score of input i with its runs weighted by w (counts summing to runs; NULL: each once). mean: scratch. */
static double weighted_score(const struct atm_frame *f, const double *rank, int runs, const int *w, double *mean)
{
    int G = f->n_points;
    for (int g = 0; g < G; g++)
        mean[g] = 0;
    for (int r = 0; r < runs; r++) {
        if (w != NULL && w[r] <= 0)
            continue;
        const double k = w != NULL ? w[r] : 1, *row = rank + (size_t)r * G;
        for (int g = 0; g < G; g++)
            mean[g] += k * row[g];
    }
    for (int g = 0; g < G; g++)
        mean[g] /= runs;
    return atm_input_score(f, mean, NULL);
}

/* The percentile interval of n_boot replicates: inputs drawn with replacement, each with one of its run resamples
 * (rs: m x RUN_RESAMPLES input scores) drawn uniformly. */
static void boot_interval(const double *rs, int m, gsl_rng *r, int n_boot, double *rep, double *lo, double *hi,
                          double *replicates)
{
    for (int b = 0; b < n_boot; b++) {
        double s = 0;
        for (int q = 0; q < m; q++) {
            unsigned long u = gsl_rng_uniform_int(r, (unsigned long)m);
            s += rs[u * RUN_RESAMPLES + gsl_rng_uniform_int(r, RUN_RESAMPLES)];
        }
        rep[b] = s / m;
    }
    if (replicates != NULL)
        memcpy(replicates, rep, (size_t)n_boot * sizeof *rep);
    qsort(rep, (size_t)n_boot, sizeof *rep, cmp_dbl);
    double h[2] = {0.025 * (n_boot - 1), 0.975 * (n_boot - 1)}, *out[2] = {lo, hi};
    for (int k = 0; k < 2; k++) { /* linear between order statistics, as numpy's percentile */
        int j = (int)floor(h[k]);
        *out[k] = j + 1 < n_boot ? rep[j] + (h[k] - j) * (rep[j + 1] - rep[j]) : rep[n_boot - 1];
    }
}

int atm_aggregate(const struct atm_frame *fr, const double *rank, int n_in, int runs, int n_points, uint64_t seed,
                  int n_boot, double *input_score, double *mean, double *lo, double *hi, double *replicates)
{
    int m = 0, *w = malloc(((size_t)runs + 1) * sizeof *w);
    double *scratch = malloc(((size_t)n_points + 1) * sizeof *scratch), sum = 0;
    double *rs = malloc(((size_t)n_in * RUN_RESAMPLES + 1) * sizeof *rs);
    double *rep = malloc(((size_t)n_boot + 1) * sizeof *rep);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    *mean = *lo = *hi = NAN;
    if (w == NULL || scratch == NULL || rs == NULL || rep == NULL || r == NULL) {
        m = tc_seterr_env("policies: out of memory");
        goto out;
    }
    gsl_rng_set(r, (unsigned long)(seed ^ 0xA7B1C3D5E7F90B1DULL)); /* the bootstrap's own stream */
    for (int i = 0; i < n_in; i++) {
        const double *ri = rank + (size_t)i * runs * n_points;
        input_score[i] = NAN;
        if (!fr[i].usable)
            continue;
        sum += input_score[i] = weighted_score(&fr[i], ri, runs, NULL, scratch);
        for (int b = 0; n_boot > 0 && b < RUN_RESAMPLES; b++) { /* this input's runs drawn with replacement */
            memset(w, 0, (size_t)runs * sizeof *w);
            for (int k = 0; k < runs; k++)
                w[gsl_rng_uniform_int(r, (unsigned long)runs)]++;
            rs[(size_t)m * RUN_RESAMPLES + b] = weighted_score(&fr[i], ri, runs, w, scratch);
        }
        m++;
    }
    if (m > 0) {
        *mean = sum / m;
        if (n_boot > 0) /* else the score alone, lo and hi NaN */
            boot_interval(rs, m, r, n_boot, rep, lo, hi, replicates);
    }
out:
    free(w);
    free(scratch);
    free(rs);
    free(rep);
    if (r != NULL)
        gsl_rng_free(r);
    return m;
}

void atm_first_share(const double *const *rep, int n_pol, int n_boot, double *share)
{
    for (int p = 0; p < n_pol; p++)
        share[p] = rep[p] != NULL ? 0 : NAN;
    for (int b = 0; b < n_boot; b++) {
        double top = -INFINITY;
        int n_top = 0;
        for (int p = 0; p < n_pol; p++)
            if (rep[p] != NULL && rep[p][b] >= top) {
                n_top = rep[p][b] > top ? 1 : n_top + 1;
                top = rep[p][b];
            }
        for (int p = 0; p < n_pol; p++)
            if (rep[p] != NULL && rep[p][b] == top)
                share[p] += 1.0 / n_top;
    }
    for (int p = 0; p < n_pol && n_boot > 0; p++)
        share[p] /= n_boot;
}
