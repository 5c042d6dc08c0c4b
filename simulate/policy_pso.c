/* policy_pso.c — Kernel Tuner's "pso" (particle swarm optimisation, strategies/pso.py). The grid is scaled as
 * Kernel Tuner scales it: parameter p's value i is the cell [i eps, (i + 1) eps) with eps = min over p of
 * 1 / values(p), a point snaps to the cell whose centre is nearest, and a cell that is no configuration is repaired
 * to the nearest configuration among its adjacent neighbours, else its Hamming neighbours, by Euclidean distance
 * to the point (Kernel Tuner's constraint-aware repair); with none it is invalid (not benchmarked, worst cost).
 * POPSIZE = min(50, round(configurations / 2)) particles start at distinct random configurations (particle 0 at
 * another random one, Kernel Tuner's x0) with velocities uniform in [-1, 1] per axis. Each iteration costs every
 * particle, updates its own best (a strictly lower cost) and, in particle order, the swarm's best (a cost at most
 * the best so far), then v = W v + C1 r1 (own best - x) + C2 r2 (swarm best - x), r1 and r2 uniform per particle,
 * and x = x + v clipped to the grid. Done after MAXITER iterations. Each configuration is benchmarked once, for
 * --rep-ms (a particle at a measured configuration costs nothing). Hyperparameters (Kernel Tuner's defaults):
 * POPSIZE 50, MAXITER 190, W 0.5, C1 3.5, C2 1.0. Reference: Kennedy & Eberhart, ICNN 1995; Kernel Tuner 1.5 pso. */
#include "policy_climb.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

#define PSO_POPSIZE 50
#define PSO_MAXITER 190
#define PSO_W 0.5
#define PSO_C1 3.5
#define PSO_C2 1.0

struct st_pso {
    struct pol_asked a;
    int n, np, iter, i;      /* particles, parameters, iteration, the particle being costed */
    double eps;
    double *x, *vel, *own, *swarm; /* n x np positions, velocities, own bests; the swarm's best (np) */
    double *own_cost, swarm_cost;
    int *cfg;                /* per particle: the configuration its position snaps to, or -1 (invalid) */
    int *vbuf, *nbr;
    /* the repair candidates of each grid cell that is no configuration, found once per run (grids of at most
     * PSO_MEMO_CELLS cells): memo[cell] = offset of its list in pool (-1: not yet), a list = count, then indices */
    int *memo, *pool, n_pool, cap_pool;
    size_t n_cells;
};
#define PSO_MEMO_CELLS 65536

static void pso_stop(void *p)
{
    struct st_pso *st = p;
    pol_asked_free(&st->a);
    free(st->x);
    free(st->vel);
    free(st->own);
    free(st->swarm);
    free(st->own_cost);
    free(st->cfg);
    free(st->vbuf);
    free(st->nbr);
    free(st->memo);
    free(st->pool);
    free(st);
}

/* The repair candidates of the cell vbuf (not a configuration): its adjacent neighbours, else its Hamming ones;
 * from the memo when the grid is small enough, else into st->nbr. *list receives them; returns how many. */
static int repair_candidates(struct st_pso *st, const struct pol_view *v, const int **list)
{
    size_t cell = 0, stride = 1;
    for (int p = 0; p < st->np; p++) {
        cell += (size_t)st->vbuf[p] * stride;
        stride *= (size_t)v->n_values[p];
    }
    if (st->memo != NULL && st->memo[cell] >= 0) {
        *list = &st->pool[st->memo[cell] + 1];
        return st->pool[st->memo[cell]];
    }
    int n = pol_neighbours(v, st->vbuf, POL_NBR_ADJACENT, st->nbr);
    if (n == 0)
        n = pol_neighbours(v, st->vbuf, POL_NBR_HAMMING, st->nbr);
    *list = st->nbr;
    if (st->memo != NULL) {
        if (st->n_pool + n + 1 > st->cap_pool) {
            int cap = 2 * (st->n_pool + n + 1) + 256, *np = realloc(st->pool, (size_t)cap * sizeof *np);
            if (np == NULL)
                return n; /* no room to remember it: answered from st->nbr */
            st->pool = np;
            st->cap_pool = cap;
        }
        st->memo[cell] = st->n_pool;
        st->pool[st->n_pool] = n;
        for (int j = 0; j < n; j++)
            st->pool[st->n_pool + 1 + j] = st->nbr[j];
        st->n_pool += n + 1;
    }
    return n;
}

/* The configuration point x snaps to (Kernel Tuner's unscale_and_snap_to_nearest, then its repair), or -1. */
static int snap(struct st_pso *st, const struct pol_view *v, const double *x)
{
    for (int p = 0; p < st->np; p++) {
        long i = lround(x[p] / st->eps - 0.5);
        st->vbuf[p] = i < 0 ? 0 : i >= v->n_values[p] ? v->n_values[p] - 1 : (int)i;
    }
    int k = pol_config_at(v, st->vbuf);
    if (k >= 0)
        return k;
    const int *cand;
    int n = repair_candidates(st, v, &cand);
    double best = INFINITY;
    for (int j = 0; j < n; j++) {
        double d2 = 0;
        for (int p = 0; p < st->np; p++) {
            double c = (pol_vidx(v, cand[j], p) + 0.5) * st->eps - x[p];
            d2 += c * c;
        }
        if (d2 < best) {
            best = d2;
            k = cand[j];
        }
    }
    return k;
}

static void place_at(struct st_pso *st, const struct pol_view *v, int particle, int c)
{
    for (int p = 0; p < st->np; p++)
        st->x[particle * st->np + p] = (pol_vidx(v, c, p) + 0.5) * st->eps;
}

static void *pso_start(const struct pol_view *v)
{
    struct st_pso *st = calloc(1, sizeof *st);
    if (st == NULL)
        return NULL;
    st->np = v->n_params;
    st->n = (int)lround(v->n_configs / 2.0);
    st->n = st->n > PSO_POPSIZE ? PSO_POPSIZE : st->n < 1 ? 1 : st->n;
    size_t nx = (size_t)st->n * st->np + 1;
    st->x = malloc(nx * sizeof *st->x);
    st->vel = malloc(nx * sizeof *st->vel);
    st->own = malloc(nx * sizeof *st->own);
    st->swarm = malloc(((size_t)st->np + 1) * sizeof *st->swarm);
    st->own_cost = malloc(((size_t)st->n + 1) * sizeof *st->own_cost);
    st->cfg = malloc(((size_t)st->n + 1) * sizeof *st->cfg);
    st->vbuf = malloc(((size_t)st->np + 1) * sizeof *st->vbuf);
    st->nbr = malloc(((size_t)v->n_configs + 1) * sizeof *st->nbr);
    if (st->x == NULL || st->vel == NULL || st->own == NULL || st->swarm == NULL || st->own_cost == NULL ||
        st->cfg == NULL || st->vbuf == NULL || st->nbr == NULL || pol_asked_init(&st->a, v) != 0) {
        pso_stop(st);
        return NULL;
    }
    st->n_cells = 1;
    for (int p = 0; p < st->np && st->n_cells <= PSO_MEMO_CELLS; p++)
        st->n_cells *= (size_t)(v->n_values[p] > 0 ? v->n_values[p] : 1);
    if (v->grid_cfg != NULL && st->n_cells <= PSO_MEMO_CELLS && (st->memo = malloc(st->n_cells * sizeof *st->memo)))
        for (size_t j = 0; j < st->n_cells; j++)
            st->memo[j] = -1;
    st->eps = 1;
    for (int p = 0; p < st->np; p++)
        st->eps = fmin(st->eps, 1.0 / (v->n_values[p] > 0 ? v->n_values[p] : 1));
    for (size_t j = 0; j + 1 < nx; j++)
        st->vel[j] = 2 * gsl_rng_uniform(v->rng) - 1;
    int *picked = st->a.asked; /* borrowed for the distinct start sample, cleared after */
    for (int j = 0, left = v->n_configs; j < st->n; j++) {
        int c = left > 0 ? pol_pick_unmarked(v, picked, left--) : (int)gsl_rng_uniform_int(v->rng, v->n_configs);
        picked[c] = 1;
        place_at(st, v, j, c);
    }
    for (int k = 0; k < v->n_configs; k++)
        picked[k] = 0;
    place_at(st, v, 0, (int)gsl_rng_uniform_int(v->rng, (unsigned long)v->n_configs)); /* x0 */
    for (int j = 0; j < st->n; j++)
        st->own_cost[j] = DBL_MAX;
    for (size_t j = 0; j + 1 < nx; j++) /* Kernel Tuner's best_pos starts at the position */
        st->own[j] = st->x[j];
    st->swarm_cost = DBL_MAX;
    st->cfg[0] = -2; /* not snapped yet */
    return st;
}

/* After every particle was costed: bests, then velocities and positions. */
static void move_swarm(struct st_pso *st, const struct pol_view *v)
{
    for (int j = 0; j < st->n; j++) {
        double cost = DBL_MAX, *x = &st->x[j * st->np];
        if (st->cfg[j] >= 0)
            pol_cost(v, st->cfg[j], &cost);
        if (cost < st->own_cost[j]) {
            st->own_cost[j] = cost;
            for (int p = 0; p < st->np; p++)
                st->own[j * st->np + p] = x[p];
        }
        if (cost <= st->swarm_cost) {
            st->swarm_cost = cost;
            for (int p = 0; p < st->np; p++)
                st->swarm[p] = x[p];
        }
    }
    for (int j = 0; j < st->n; j++) {
        double r1 = gsl_rng_uniform(v->rng), r2 = gsl_rng_uniform(v->rng);
        for (int p = 0; p < st->np; p++) {
            size_t q = (size_t)j * st->np + p;
            double hi = st->eps * v->n_values[p];
            st->vel[q] = PSO_W * st->vel[q] + PSO_C1 * r1 * (st->own[q] - st->x[q]) +
                         PSO_C2 * r2 * (st->swarm[p] - st->x[q]);
            st->x[q] = fmax(0, fmin(hi, st->x[q] + st->vel[q]));
        }
    }
}

static int pso_next(void *p, const struct pol_view *v)
{
    struct st_pso *st = p;
    for (;;) {
        if (st->i == st->n) {
            move_swarm(st, v);
            st->i = 0;
            st->cfg[0] = -2;
            if (++st->iter >= PSO_MAXITER || st->a.n_asked >= v->n_configs)
                return -1;
        }
        if (st->cfg[st->i] == -2)
            st->cfg[st->i] = snap(st, v, &st->x[st->i * st->np]);
        int k = st->cfg[st->i];
        double cost;
        if (k >= 0 && !pol_cost(v, k, &cost))
            return pol_asked_mark(&st->a, k);
        if (++st->i < st->n)
            st->cfg[st->i] = -2;
    }
}

const struct policy_ops policy_pso = {
    "pso", "Kernel Tuner's particle swarm: 50 particles, w 0.5, c1 3.5, c2 1.0, 190 iterations",
    "Kennedy & Eberhart 1995; Kernel Tuner 1.5 pso", pso_start, pso_next, pol_rep_once, NULL, pso_stop, 0,
};
