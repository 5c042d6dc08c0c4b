/* policy_pattern.c — Helion's PatternSearch (helion/autotuner/pattern_search.py, Helion 1.4.0) as a policy, and the
 * search frame its LFBO variant shares (policy_pattern.h). A random initial population of 100 configurations is
 * benchmarked; its 5 best that did not fail start 5 search copies. In each generation (at most 20) every active copy
 * proposes the neighbours of the configuration it stands on that nobody visited yet — every single-parameter change
 * (an ordered parameter one step up or down in its sorted values, a choice parameter every other value) and, for
 * each pair of block-size parameters, every combination of their changes — and all copies' proposals are
 * benchmarked together; then each copy moves to the best of its configuration and its proposals, and stops when
 * that is where it stood, when the relative improvement is below 0.001, or when it had nothing new to propose. The
 * search ends when no copy is active. Each configuration is benchmarked once, for --rep-ms.
 * Differences from Helion (docs/simulation.md): the space is the trace's configurations (a neighbour the trace lacks
 * does not exist); the initial population is drawn uniformly (Helion puts its default configuration first); a
 * power-of-two parameter's neighbour is the next value the trace has; the rebenchmarking of the best
 * configurations at higher accuracy is not replayed (it changes no choice in a replay, where a configuration's
 * estimate is its executions' mean). */
#include "policy_pattern.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double pat_perf(const struct pol_view *v, int c)
{
    if (c < 0 || v->failed[c] || v->n_exec[c] == 0 || isnan(v->est_ms[c]))
        return INFINITY;
    return v->est_ms[c];
}

int pat_param_neighbours(const struct pol_view *v, int p, int x, int radius, int *out)
{
    int n = 0;
    int choice = v->param_kind != NULL && (v->param_kind[p] & POL_PARAM_CHOICE);
    for (int i = 0; i < v->n_values[p]; i++)
        if (i != x && (choice || abs(i - x) <= radius))
            out[n++] = i;
    return n;
}

void pat_offer(struct pat_search *ps, const struct pol_view *v, struct pat_copy *c, const int *vidx)
{
    int k = pol_config_at(v, vidx);
    if (k >= 0 && !ps->visited[k]) {
        ps->visited[k] = 1;
        c->cand[c->n_cand++] = k;
    }
}

static int pat_is_block(const struct pol_view *v, int p)
{
    return v->param_kind != NULL && (v->param_kind[p] & POL_PARAM_BLOCK);
}

/* PatternSearch._generate_neighbors: single changes, then pairs of block sizes; the copy's own configuration first. */
static void pat_pattern_neighbours(struct pat_search *ps, const struct pol_view *v, struct pat_copy *c)
{
    int np = v->n_params, *base = ps->vbuf, *nv = ps->vbuf2;
    int *nb1 = ps->vbuf + np, *nb2 = ps->vbuf2 + np;
    c->n_cand = 0;
    c->cand[c->n_cand++] = c->cur;
    for (int p = 0; p < np; p++)
        base[p] = pol_vidx(v, c->cur, p);
    for (int p = 0; p < np; p++) {
        int n = pat_param_neighbours(v, p, base[p], 1, nb1);
        memcpy(nv, base, (size_t)np * sizeof *nv);
        for (int i = 0; i < n; i++) {
            nv[p] = nb1[i];
            pat_offer(ps, v, c, nv);
        }
    }
    for (int p = 0; p < np; p++) {
        if (!pat_is_block(v, p))
            continue;
        int n1 = pat_param_neighbours(v, p, base[p], 1, nb1);
        for (int q = p + 1; q < np && n1 > 0; q++) {
            if (!pat_is_block(v, q))
                continue;
            int n2 = pat_param_neighbours(v, q, base[q], 1, nb2);
            memcpy(nv, base, (size_t)np * sizeof *nv);
            for (int i = 0; i < n1; i++)
                for (int j = 0; j < n2; j++) {
                    nv[p] = nb1[i];
                    nv[q] = nb2[j];
                    pat_offer(ps, v, c, nv);
                }
        }
    }
}

int pat_init(struct pat_search *ps, const struct pol_view *v)
{
    int nc = v->n_configs, max_nv = 1;
    for (int p = 0; p < v->n_params; p++)
        if (v->n_values[p] > max_nv)
            max_nv = v->n_values[p];
    memset(ps, 0, sizeof *ps);
    ps->init_pop = 100;
    ps->n_copies = 5;
    ps->max_gen = 20;
    ps->min_delta = 0.001;
    ps->neighbours = pat_pattern_neighbours;
    ps->visited = calloc((size_t)nc + 1, 1);
    ps->batch = malloc(((size_t)nc + 1) * sizeof *ps->batch);
    ps->pop = malloc(((size_t)nc + 1) * sizeof *ps->pop);
    ps->vbuf = malloc(((size_t)v->n_params + (size_t)max_nv + 1) * sizeof *ps->vbuf);
    ps->vbuf2 = malloc(((size_t)v->n_params + (size_t)max_nv + 1) * sizeof *ps->vbuf2);
    if (ps->visited == NULL || ps->batch == NULL || ps->pop == NULL || ps->vbuf == NULL || ps->vbuf2 == NULL)
        return -1;
    return 0;
}

void pat_free(struct pat_search *ps)
{
    for (int i = 0; i < ps->n_copy; i++)
        free(ps->copy[i].cand);
    free(ps->copy);
    free(ps->visited);
    free(ps->batch);
    free(ps->pop);
    free(ps->vbuf);
    free(ps->vbuf2);
}

/* The initial population: init_pop configurations of the space (not known invalid) drawn without replacement. */
static void pat_initial_population(struct pat_search *ps, const struct pol_view *v)
{
    int n = 0;
    for (int k = 0; k < v->n_configs; k++)
        if (!v->cfg[k].known_invalid)
            ps->pop[n++] = k;
    int m = n < ps->init_pop ? n : ps->init_pop;
    for (int i = 0; i < m; i++) { /* a partial Fisher-Yates shuffle */
        int j = i + (int)gsl_rng_uniform_int(v->rng, (unsigned long)(n - i));
        int t = ps->pop[i];
        ps->pop[i] = ps->pop[j];
        ps->pop[j] = t;
        ps->visited[ps->pop[i]] = 1;
        ps->batch[i] = ps->pop[i];
    }
    ps->n_pop = ps->n_batch = m;
    ps->pos = 0;
}

/* The population sorted by performance (stable, as Python's sort); its n_copies best that did not fail start the
 * copies. Returns how many copies there are (0: nothing ran, the search is over), or -1 on out of memory. */
static int pat_start_copies(struct pat_search *ps, const struct pol_view *v)
{
    for (int i = 1; i < ps->n_pop; i++) { /* insertion sort: stable */
        int k = ps->pop[i], j = i;
        for (; j > 0 && pat_perf(v, ps->pop[j - 1]) > pat_perf(v, k); j--)
            ps->pop[j] = ps->pop[j - 1];
        ps->pop[j] = k;
    }
    if ((ps->copy = calloc((size_t)ps->n_copies + 1, sizeof *ps->copy)) == NULL)
        return -1;
    for (int i = 0; i < ps->n_pop && i < ps->n_copies; i++) {
        if (!isfinite(pat_perf(v, ps->pop[i])))
            continue;
        struct pat_copy *c = &ps->copy[ps->n_copy];
        if ((c->cand = malloc(((size_t)v->n_configs + 1) * sizeof *c->cand)) == NULL)
            return -1;
        c->cur = ps->pop[i];
        c->active = 1;
        c->patience = ps->patience;
        ps->n_copy++;
    }
    return ps->n_copy;
}

/* After a generation: each copy moves to the best of its candidates (the first of equals, its own configuration
 * first), or stops (PatternSearch._check_early_stopping; the LFBO variant first spends its patience). */
static void pat_move_copies(struct pat_search *ps, const struct pol_view *v)
{
    for (int i = 0; i < ps->n_copy; i++) {
        struct pat_copy *c = &ps->copy[i];
        if (!c->active)
            continue;
        int best = c->cand[0];
        for (int j = 1; j < c->n_cand; j++)
            if (pat_perf(v, c->cand[j]) < pat_perf(v, best))
                best = c->cand[j];
        double pb = pat_perf(v, best), pc = pat_perf(v, c->cur);
        int stop = best == c->cur || (ps->min_delta > 0 && isfinite(pb) && isfinite(pc) && pc != 0 &&
                                      fabs(pb / pc - 1) < ps->min_delta);
        if (stop && c->patience > 0)
            c->patience--;
        else if (stop)
            c->active = 0;
        c->cur = best;
    }
}

/* The next generation's batch: every active copy's candidates (each configuration once). Returns 0 when no copy
 * proposed anything (the search is over). */
static int pat_next_generation(struct pat_search *ps, const struct pol_view *v)
{
    int n_active = 0;
    ps->n_batch = ps->pos = 0;
    for (int i = 0; i < ps->n_copy; i++) {
        struct pat_copy *c = &ps->copy[i];
        if (!c->active)
            continue;
        ps->neighbours(ps, v, c);
        if (c->n_cand <= 1) {
            c->active = 0;
            continue;
        }
        n_active++;
        for (int j = 0; j < c->n_cand; j++) {
            int k = c->cand[j], seen = 0;
            for (int b = 0; b < ps->n_batch && !seen; b++)
                seen = ps->batch[b] == k;
            if (!seen)
                ps->batch[ps->n_batch++] = k;
        }
    }
    return n_active > 0;
}

/* Move on once the batch is benchmarked. Returns 1 with a new batch, 0 when the search is over. */
static int pat_advance(struct pat_search *ps, const struct pol_view *v)
{
    if (ps->phase == 0) {
        pat_initial_population(ps, v);
        ps->phase = 1;
        return ps->n_batch > 0;
    }
    if (ps->phase == 1) {
        if (ps->after_batch != NULL)
            ps->after_batch(ps, v);
        if (pat_start_copies(ps, v) <= 0) {
            ps->phase = 3;
            return 0;
        }
        ps->phase = 2;
    } else if (ps->phase == 2) {
        if (ps->after_batch != NULL && ps->gen != ps->max_gen)
            ps->after_batch(ps, v); /* Helion does not retrain after the last generation */
        pat_move_copies(ps, v);
    }
    if (ps->phase != 2 || ++ps->gen > ps->max_gen || !pat_next_generation(ps, v)) {
        ps->phase = 3;
        return 0;
    }
    return 1;
}

int pat_next(struct pat_search *ps, const struct pol_view *v)
{
    for (;;) {
        while (ps->pos < ps->n_batch) {
            int k = ps->batch[ps->pos++];
            if (v->n_exec[k] == 0 && !v->failed[k])
                return k; /* not benchmarked yet (a copy's own configuration was) */
        }
        if (ps->phase == 3 || !pat_advance(ps, v))
            return -1;
    }
}

static void *pattern_start(const struct pol_view *v)
{
    struct pat_search *ps = malloc(sizeof *ps);
    if (ps == NULL)
        return NULL;
    if (pat_init(ps, v) != 0) {
        pat_free(ps);
        free(ps);
        return NULL;
    }
    return ps;
}

static int pattern_next(void *st, const struct pol_view *v)
{
    return pat_next(st, v);
}

static void pattern_stop(void *st)
{
    pat_free(st);
    free(st);
}

const struct policy_ops policy_pattern = {
    "pattern", "Helion's PatternSearch: 100 random, 5 copies walk single and block-pair neighbours, 20 generations",
    "Helion 1.4.0 helion/autotuner/pattern_search.py (PatternSearch, full effort)", pattern_start, pattern_next,
    pol_rep_once, NULL, pattern_stop, 0,
};
