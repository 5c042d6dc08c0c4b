/* policy_kt_scipy.c — Kernel Tuner's `basinhopping` and `dual_annealing` (kernel_tuner/strategies/, release 1.5.0):
 * SciPy's global optimisers (1.17) over Kernel Tuner's scaled space, with its cost function snapping to the grid.
 *
 * The scaled space (Kernel Tuner's CostFunc with scaling=True): eps = min over the parameters of 1 / (its number of
 * values); parameter p lies in [0, eps n_p], value index k at eps (k + 1/2), and a point snaps per parameter to the
 * nearest such centre (the lower on a tie, as np.argmin). A snapped point that is no configuration of the space (or
 * one known invalid) costs DBL_MAX (sys.float_info.max) and nothing is charged, as Kernel Tuner's InvalidConfig; a
 * configuration costs what kt_cost says. The start x0 is a random configuration's centre.
 *
 * basinhopping (T 1.0, stepsize eps, niter 100, interval 50): a local minimisation from x0, then 100 hops: each adds
 * U(-stepsize, stepsize) per coordinate, minimises locally and accepts by Metropolis (w = exp(min(0, -(new - old) /
 * T)) >= U); every 50 hops the stepsize is divided by 0.9 when more than half were accepted, else multiplied by it.
 * Kernel Tuner's local method is L-BFGS-B (maxiter = maxfun = 100, finite-difference step eps, the bounds). SciPy's
 * L-BFGS-B cannot be reproduced step for step here; in its place (docs/simulation.md says so) what it does on
 * this piecewise-constant function, as traced in SciPy 1.17: the point and its forward-difference gradient (step
 * eps, backward where that passes the upper bound; infinite wherever a neighbour costs DBL_MAX, as DBL_MAX / eps
 * overflows), then the trial x - g clipped to the bounds (the first Cauchy point of a boxed problem, step 1) with
 * its gradient; a strictly lower cost there with a finite gradient at x moves to it and repeats; otherwise the
 * minimisation ends where it began (L-BFGS-B's line search then only revisits x and its neighbours until maxfun,
 * or ends abnormally on an infinite gradient), and after 100 evaluations or a relative decrease below 2.2e-9.
 *
 * dual_annealing (SciPy's defaults: initial_temp 5230, restart_temp_ratio 2e-5, visit 2.62, accept -5, maxiter 1000;
 * maxfun = the space's size, Kernel Tuner's max_fevals): SciPy's loop ported line by line (the visiting distribution,
 * the strategy chain of 2 x dimensions visits per temperature, the acceptance, the local-search rules, the restart
 * at T < 0.1046, maxfun checked after each visit and each local search). Kernel Tuner asks for COBYLA with no
 * options and SciPy passes it no bounds (rhobeg 1, tol 1e-4); in its place: a compass search from rho 1 (+rho then
 * -rho along each coordinate in turn, moving on a strict decrease) with PRIMA's rho reductions (x0.1 while rho >
 * 250 tol, then sqrt(rho tol), then tol) to rho 1e-4, at most 1000 evaluations; a result out of the bounds is
 * discarded, as SciPy's wrapper does.
 *
 * Both are replayed: each step re-runs the optimiser from its start with the generator saved at the start and the
 * costs known so far, up to the first configuration not yet benchmarked, which is the next one asked for (a revisit
 * is free under Kernel Tuner's charging and is not asked again). Options: T (basinhopping), max_fevals. */
#include "policy.h"
#include "policy_kt.h"

#include <float.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#define SP_MAXP 64

struct st_sp {
    const struct pol_view *v;
    gsl_rng *rng0, *rng;    /* the generator at the start, and the replay's copy */
    jmp_buf out;
    int np, need, done;
    long nfev, maxfun;
    double eps, lb[SP_MAXP], ub[SP_MAXP], x0[SP_MAXP];
    double T;               /* basinhopping's temperature */
    int dual;               /* 1: dual_annealing */
};

/* The cost of the scaled point x (the file's comment); leaves the replay for an unbenchmarked configuration. */
static double sp_f(struct st_sp *st, const double *x)
{
    const struct pol_view *v = st->v;
    int vidx[SP_MAXP];
    st->nfev++;
    for (int p = 0; p < st->np; p++) {
        int k = (int)ceil((x[p] - 0.5 * st->eps) / st->eps - 0.5);
        vidx[p] = k < 0 ? 0 : k >= v->n_values[p] ? v->n_values[p] - 1 : k;
    }
    int c = pol_config_at(v, vidx);
    double cost;
    if (c < 0)
        return DBL_MAX;
    if (!pol_cost(v, c, &cost)) {
        st->need = c;
        longjmp(st->out, 1);
    }
    return cost < DBL_MAX ? cost : DBL_MAX;
}

static void clip(const struct st_sp *st, double *x)
{
    for (int p = 0; p < st->np; p++)
        x[p] = x[p] < st->lb[p] ? st->lb[p] : x[p] > st->ub[p] ? st->ub[p] : x[p];
}

/* The forward-difference gradient at x of cost f into g (backward where the step passes the upper bound);
 * 1 when every component is finite. */
static int sp_gradient(struct st_sp *st, const double *x, double f, double *g)
{
    double xt[SP_MAXP];
    int finite = 1;
    for (int p = 0; p < st->np; p++) {
        double h = x[p] + st->eps > st->ub[p] ? -st->eps : st->eps;
        memcpy(xt, x, (size_t)st->np * sizeof *x);
        xt[p] += h;
        g[p] = (sp_f(st, xt) - f) / h;
        finite &= isfinite(g[p]) != 0;
    }
    return finite;
}

/* L-BFGS-B's place (the file's comment): minimise from x (clipped to the bounds) in place; returns its cost. */
static double sp_descent(struct st_sp *st, double *x)
{
    double g[SP_MAXP], gt[SP_MAXP], xt[SP_MAXP], f;
    long start = st->nfev;
    clip(st, x);
    f = sp_f(st, x);
    int finite = sp_gradient(st, x, f, g);
    while (st->nfev - start < 100) {
        int zero = 1;
        for (int p = 0; p < st->np; p++) {
            if ((x[p] <= st->lb[p] && g[p] > 0) || (x[p] >= st->ub[p] && g[p] < 0))
                g[p] = 0; /* the projected gradient */
            zero &= g[p] == 0;
            xt[p] = x[p] - g[p]; /* the first trial: the Cauchy point of B = I, step 1 (a boxed problem) */
        }
        if (zero)
            break;
        clip(st, xt);
        double ft = sp_f(st, xt);
        int finite_t = sp_gradient(st, xt, ft, gt);
        if (!finite || !(ft < f))
            break; /* no sufficient decrease: L-BFGS-B's line search ends abnormally (revisits only) */
        memcpy(x, xt, (size_t)st->np * sizeof *x);
        memcpy(g, gt, (size_t)st->np * sizeof *g);
        double rel = (f - ft) / fmax(fmax(fabs(f), fabs(ft)), 1);
        f = ft;
        finite = finite_t;
        if (rel <= 2.2e-9)
            break;
    }
    return f;
}

/* SciPy's basinhopping (the file's comment). */
static void sp_basinhopping(struct st_sp *st)
{
    double x[SP_MAXP], xn[SP_MAXP], step = st->eps;
    int nstep = 0, naccept = 0;
    memcpy(x, st->x0, sizeof x);
    double e = sp_descent(st, x);
    for (int i = 0; i < 100; i++) {
        memcpy(xn, x, sizeof x);
        if (++nstep % 50 == 0)
            step = (double)naccept / nstep > 0.5 ? step / 0.9 : step * 0.9;
        for (int p = 0; p < st->np; p++)
            xn[p] += step * (2 * gsl_rng_uniform(st->rng) - 1);
        double en = sp_descent(st, xn);
        double w = exp(fmin(0, -(en - e) / st->T));
        if (w >= gsl_rng_uniform(st->rng)) {
            naccept++;
            e = en;
            memcpy(x, xn, sizeof x);
        }
    }
}

/* COBYLA's place in dual_annealing (the file's comment): from x, in place; returns its cost. */
static double sp_compass(struct st_sp *st, double *x)
{
    const double tol = 1e-4;
    double f = sp_f(st, x), xt[SP_MAXP];
    long start = st->nfev;
    for (double rho = 1.0;;) {
        int improved = 0;
        for (int p = 0; p < st->np && !improved; p++)
            for (int s = 1; s >= -1 && !improved; s -= 2) {
                memcpy(xt, x, (size_t)st->np * sizeof *x);
                xt[p] += s * rho;
                double ft = sp_f(st, xt);
                if (ft < f) {
                    f = ft;
                    memcpy(x, xt, (size_t)st->np * sizeof *x);
                    improved = 1;
                }
            }
        if (st->nfev - start >= 1000)
            break;
        if (!improved) {
            if (rho <= tol)
                break;
            rho = rho > 250 * tol ? 0.1 * rho : rho > 16 * tol ? sqrt(rho * tol) : tol;
        }
    }
    return f;
}

struct sp_da {
    double cur[SP_MAXP], best[SP_MAXP], xmin[SP_MAXP], e_cur, e_best, emin, tstep;
    int not_improved, not_improved_max, improved;
};

/* SciPy's LocalSearchWrapper.local_search on (x, e): the better of the two, the result only when in bounds. */
static double sp_local(struct st_sp *st, const double *x, double e, double *out)
{
    double xt[SP_MAXP];
    memcpy(xt, x, sizeof xt);
    double f = sp_compass(st, xt);
    int in = 1;
    for (int p = 0; p < st->np; p++)
        in &= xt[p] >= st->lb[p] && xt[p] <= st->ub[p];
    memcpy(out, in && f < e ? xt : x, sizeof xt);
    return in && f < e ? f : e;
}

/* SciPy's VisitingDistribution.visit_fn for one component at temperature t (visit 2.62). */
static double sp_visit_fn(struct st_sp *st, double t)
{
    const double q = 2.62;
    double f2 = exp((4.0 - q) * log(q - 1.0)), f3 = exp((2.0 - q) * log(2.0) / (q - 1.0));
    double f4p = sqrt(M_PI) * f2 / (f3 * (3.0 - q)), f5 = 1.0 / (q - 1.0) - 0.5;
    double f6 = M_PI * (1.0 - f5) / sin(M_PI * (1.0 - f5)) / exp(lgamma(2.0 - f5));
    double xg = gsl_ran_gaussian(st->rng, 1.0), yg = gsl_ran_gaussian(st->rng, 1.0);
    double f4 = f4p * exp(log(t) / (q - 1.0));
    xg *= exp(-(q - 1.0) * log(f6 / f4) / (3.0 - q));
    return xg / exp((q - 1.0) * log(fabs(yg)) / (3.0 - q));
}

static double sp_wrap(const struct st_sp *st, int p, double x)
{
    double r = st->ub[p] - st->lb[p], b = fmod(x - st->lb[p], r) + r, y = fmod(b, r) + st->lb[p];
    return fabs(y - st->lb[p]) < 1e-10 ? y + 1e-10 : y;
}

/* One StrategyChain.run at step i, temperature t; 1 when maxfun is reached. */
static int sp_chain(struct st_sp *st, struct sp_da *d, int i, double t)
{
    double xv[SP_MAXP];
    d->tstep = t / (double)(i + 1);
    d->not_improved++;
    for (int j = 0; j < 2 * st->np; j++) {
        if (j == 0)
            d->improved = i == 0;
        memcpy(xv, d->cur, sizeof xv);
        if (j < st->np) {
            double vis[SP_MAXP];
            for (int p = 0; p < st->np; p++)
                vis[p] = sp_visit_fn(st, t);
            double up = gsl_rng_uniform(st->rng), lo = gsl_rng_uniform(st->rng);
            for (int p = 0; p < st->np; p++) {
                double s = vis[p] > 1e8 ? 1e8 * up : vis[p] < -1e8 ? -1e8 * lo : vis[p];
                xv[p] = sp_wrap(st, p, s + d->cur[p]);
            }
        } else {
            int p = j - st->np;
            double s = sp_visit_fn(st, t);
            s = s > 1e8 ? 1e8 * gsl_rng_uniform(st->rng) : s < -1e8 ? -1e8 * gsl_rng_uniform(st->rng) : s;
            xv[p] = sp_wrap(st, p, s + d->cur[p]);
        }
        double e = sp_f(st, xv);
        if (e < d->e_cur) {
            d->e_cur = e;
            memcpy(d->cur, xv, sizeof xv);
            if (e < d->e_best) {
                d->e_best = e;
                memcpy(d->best, xv, sizeof xv);
                d->improved = 1;
                d->not_improved = 0;
            }
        } else { /* accept_reject */
            double r = gsl_rng_uniform(st->rng), pqv_t = 1.0 - (1.0 + 5.0) * (e - d->e_cur) / d->tstep;
            double pqv = pqv_t <= 0 ? 0 : exp(log(pqv_t) / (1.0 + 5.0));
            if (r <= pqv) {
                d->e_cur = e;
                memcpy(d->cur, xv, sizeof xv);
                memcpy(d->xmin, d->cur, sizeof xv);
            }
            if (d->not_improved >= d->not_improved_max && (j == 0 || d->e_cur < d->emin)) {
                d->emin = d->e_cur;
                memcpy(d->xmin, d->cur, sizeof xv);
            }
        }
        if (st->nfev >= st->maxfun)
            return 1;
    }
    return 0;
}

/* StrategyChain.local_search; 1 when maxfun is reached. */
static int sp_chain_local(struct st_sp *st, struct sp_da *d)
{
    double x[SP_MAXP];
    if (d->improved) {
        double e = sp_local(st, d->best, d->e_best, x);
        if (e < d->e_best) {
            d->not_improved = 0;
            d->e_best = d->e_cur = e;
            memcpy(d->best, x, sizeof x);
            memcpy(d->cur, x, sizeof x);
        }
        if (st->nfev >= st->maxfun)
            return 1;
    }
    int do_ls = 0;
    if (100 * st->np < 90 * st->np) { /* SciPy's K < 90 dim: never, as K = 100 dim */
        double pls = exp(100 * st->np * (d->e_best - d->e_cur) / d->tstep);
        do_ls = pls >= gsl_rng_uniform(st->rng);
    }
    if (d->not_improved >= d->not_improved_max)
        do_ls = 1;
    if (do_ls) {
        double e = sp_local(st, d->xmin, d->emin, x);
        memcpy(d->xmin, x, sizeof x);
        d->emin = e;
        d->not_improved = 0;
        d->not_improved_max = st->np;
        if (e < d->e_best) {
            d->e_best = d->e_cur = e;
            memcpy(d->best, x, sizeof x);
            memcpy(d->cur, x, sizeof x);
        }
        if (st->nfev >= st->maxfun)
            return 1;
    }
    return 0;
}

/* SciPy's dual_annealing (the file's comment). */
static void sp_dual_annealing(struct st_sp *st)
{
    struct sp_da d = {.not_improved_max = 1000};
    const double t0 = 5230.0, q = 2.62, t_restart = t0 * 2e-5, t1 = exp((q - 1) * log(2.0)) - 1.0;
    memcpy(d.cur, st->x0, sizeof d.cur);
    d.e_cur = sp_f(st, d.cur);
    d.e_best = d.emin = d.e_cur;
    memcpy(d.best, d.cur, sizeof d.cur);
    memcpy(d.xmin, d.cur, sizeof d.cur);
    for (int iteration = 0;;) {
        for (int i = 0; i < 1000; i++) {
            double t = t0 * t1 / (exp((q - 1) * log((double)i + 2.0)) - 1.0);
            if (iteration >= 1000)
                return;
            if (t < t_restart) { /* EnergyState.reset: a uniform point in the bounds */
                for (int p = 0; p < st->np; p++)
                    d.cur[p] = st->lb[p] + (st->ub[p] - st->lb[p]) * gsl_rng_uniform(st->rng);
                d.e_cur = sp_f(st, d.cur);
                break;
            }
            if (sp_chain(st, &d, i, t) || sp_chain_local(st, &d))
                return;
            iteration++;
        }
    }
}

static void sp_stop(void *p)
{
    struct st_sp *st = p;
    if (st == NULL)
        return;
    if (st->rng0 != NULL)
        gsl_rng_free(st->rng0);
    if (st->rng != NULL)
        gsl_rng_free(st->rng);
    free(st);
}

static void *sp_start_common(const struct pol_view *v, int dual)
{
    struct st_sp *st = calloc(1, sizeof *st);
    if (st == NULL || v->n_params > SP_MAXP || (st->rng0 = gsl_rng_clone(v->rng)) == NULL ||
        (st->rng = gsl_rng_clone(v->rng)) == NULL) {
        sp_stop(st);
        return NULL;
    }
    st->np = v->n_params;
    st->dual = dual;
    st->eps = 1;
    for (int p = 0; p < st->np; p++)
        st->eps = fmin(st->eps, 1.0 / v->n_values[p]);
    for (int p = 0; p < st->np; p++) {
        st->lb[p] = 0;
        st->ub[p] = st->eps * v->n_values[p];
    }
    int c = kt_random_config(v);
    for (int p = 0; p < st->np && c >= 0; p++)
        st->x0[p] = 0.5 * st->eps + pol_vidx(v, c, p) * st->eps;
    st->done = c < 0;
    st->T = pol_option(v, "T", 1.0);
    long size = 0;
    for (int k = 0; k < v->n_configs; k++)
        size += !v->cfg[k].known_invalid;
    st->maxfun = (long)pol_option(v, "max_fevals", (double)size);
    gsl_rng_memcpy(st->rng0, v->rng); /* after the draws of x0 */
    return st;
}

static void *bh_start(const struct pol_view *v) { return sp_start_common(v, 0); }
static void *da_start(const struct pol_view *v) { return sp_start_common(v, 1); }

static int sp_next(void *p, const struct pol_view *v)
{
    struct st_sp *st = p;
    if (st->done)
        return -1;
    st->v = v;
    st->need = -1;
    st->nfev = 0;
    gsl_rng_memcpy(st->rng, st->rng0);
    if (setjmp(st->out) == 0) {
        if (st->dual)
            sp_dual_annealing(st);
        else
            sp_basinhopping(st);
        st->done = 1;
        return -1;
    }
    return st->need;
}

const struct policy_ops policy_kt_basinhopping = {
    "basinhopping", "Kernel Tuner's basinhopping: SciPy's basin hopping (T 1, stepsize eps, 100 hops) on the scaled "
                    "space, a projected-gradient descent in L-BFGS-B's place",
    "Kernel Tuner 1.5, strategies/basinhopping.py; Wales & Doye 1997", bh_start, sp_next, pol_rep_once, NULL, sp_stop,
    0,
};

const struct policy_ops policy_kt_dual_annealing = {
    "dual_annealing", "Kernel Tuner's dual_annealing: SciPy's dual annealing (5230, visit 2.62, accept -5, maxfun "
                      "the space's size) on the scaled space, a compass search in COBYLA's place",
    "Kernel Tuner 1.5, strategies/dual_annealing.py; Xiang et al. 1997", da_start, sp_next, pol_rep_once, NULL,
    sp_stop, 0,
};
