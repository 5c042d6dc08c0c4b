/* policy_lfbo.c — Helion's default search, LFBOTreeSearch (helion/autotuner/surrogate_pattern_search.py, Helion
 * 1.4.0: the likelihood-free Bayesian optimisation of Song et al. 2022 over pattern search, with LFBOPatternSearch's
 * selection) as a policy, on the frame of policy_pattern.c. After the initial population a random forest
 * classifier learns which configurations are "good" (performance at or below the 10% quantile of the finite ones,
 * weighted by how far below; failures and the rest "bad", weight 1). Each generation every active copy draws 200
 * neighbours of its configuration — in generations 1 and 2 at random (one block size moved up to 2 steps, num_warps
 * up to 2 steps, 0 to 2 other parameters one step or, for a choice, to another value), from generation 3 by a greedy
 * walk of one random tree of the forest (the parameters on its decision path, a block size and num_warps, each set
 * to the value within 2 steps that tree scores best) — keeps the unvisited ones, and benchmarks only 10% of them
 * (with its own configuration counted in), picked greedily by the forest's probability of "good" less the mean leaf
 * co-occurrence with those already picked (similarity penalty 1); the forest is refitted on everything measured after
 * each generation but the last. A copy stops as in pattern search after one generation of patience. Without both
 * classes the picks are random.
 * The forest is sklearn's RandomForestClassifier as Helion configures it (log-loss splits, bootstrap samples,
 * sqrt(features) tried per split, grown until pure, 100 trees), written here in C; its random numbers come from the
 * policy's stream, so its trees are not sklearn's. Simplification (docs/simulation.md): features are each
 * parameter's value index (a choice parameter of more than two values one-hot), which orders a power-of-two
 * parameter as its log2 does. */
#include "policy_pattern.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LF_TREES 100
#define LF_NEIGHBOURS 200 /* LFBOTreeSearch's num_neighbors (LFBOPatternSearch's is 300) */
#define LF_RADIUS 2
#define LF_FRAC 0.10
#define LF_QUANTILE 0.1
#define LF_PENALTY 1.0

struct lf_node {
    int feat;     /* -1: a leaf */
    double thr;   /* x[feat] <= thr goes left */
    int left, right;
    double p1;    /* a leaf's weighted fraction of "good" */
};

struct lfbo {
    struct pat_search ps;
    int n_feat, *fparam, *fval;   /* feature f: parameter fparam[f]; one-hot of value fval[f], or -1: the index */
    int max_nv;
    double *x, *y;                /* training rows (n_train x n_feat) and their performance (+inf: failed) */
    int n_train, cap_train;
    unsigned char *in_train;      /* per configuration */
    struct lf_node *node;         /* every tree's nodes */
    int n_node, cap_node, root[LF_TREES], have_forest;
    double *w, *wb;               /* per training row: weight; times its bootstrap count */
    int *idx, *tmp, *fperm;       /* scratch */
    double *hist;                 /* 2 x (max_nv + 1) class weights per feature value */
    double *cx, *proba, *sim;     /* candidates' features, probabilities, similarity sums */
    int *leaf, *pick;             /* candidates' leaves (n x LF_TREES); selection */
};

/* Parameter p's features in row for value index x. */
static void lf_encode_param(const struct lfbo *lf, int p, int x, double *row)
{
    for (int f = 0; f < lf->n_feat; f++)
        if (lf->fparam[f] == p)
            row[f] = lf->fval[f] < 0 ? x : (x == lf->fval[f]);
}

static void lf_encode(const struct lfbo *lf, const struct pol_view *v, int k, double *row)
{
    for (int f = 0; f < lf->n_feat; f++) {
        int x = pol_vidx(v, k, lf->fparam[f]);
        row[f] = lf->fval[f] < 0 ? x : (x == lf->fval[f]);
    }
}

static double lf_entropy(double w0, double w1)
{
    double w = w0 + w1, h = 0;
    if (w0 > 0)
        h -= w0 / w * log(w0 / w);
    if (w1 > 0)
        h -= w1 / w * log(w1 / w);
    return h;
}

static int lf_new_node(struct lfbo *lf)
{
    if (lf->n_node == lf->cap_node) {
        int cap = lf->cap_node ? 2 * lf->cap_node : 1024;
        struct lf_node *p = realloc(lf->node, (size_t)cap * sizeof *p);
        if (p == NULL)
            return -1;
        lf->node = p;
        lf->cap_node = cap;
    }
    lf->node[lf->n_node].feat = -1;
    return lf->n_node++;
}

/* The best split of rows idx[0..n) on feature f: its threshold and weighted child impurity (INFINITY: constant). */
static double lf_best_split(struct lfbo *lf, const int *idx, int n, int f, double *thr)
{
    int nv = lf->max_nv + 1;
    double *h0 = lf->hist, *h1 = lf->hist + nv, best = INFINITY, t0 = 0, t1 = 0, l0 = 0, l1 = 0;
    memset(lf->hist, 0, 2 * (size_t)nv * sizeof *lf->hist);
    for (int i = 0; i < n; i++) {
        int r = idx[i], b = (int)lf->x[(size_t)r * lf->n_feat + f];
        (lf->y[r] < 0 ? h1 : h0)[b] += lf->wb[r]; /* y < 0 marks "good" while fitting */
    }
    for (int b = 0; b < nv; b++) {
        t0 += h0[b];
        t1 += h1[b];
    }
    for (int b = 0; b < nv; b++) {
        if (h0[b] + h1[b] == 0)
            continue;
        l0 += h0[b];
        l1 += h1[b];
        int next = b + 1; /* the next value present: the threshold lies midway, as sklearn's */
        while (next < nv && h0[next] + h1[next] == 0)
            next++;
        double r0 = t0 - l0, r1 = t1 - l1;
        if (next >= nv || r0 + r1 <= 0)
            break;
        double imp = (l0 + l1) * lf_entropy(l0, l1) + (r0 + r1) * lf_entropy(r0, r1);
        if (imp < best) {
            best = imp;
            *thr = (b + next) / 2.0;
        }
    }
    return best;
}

/* Grow a node over rows idx[0..n) (all with bootstrap weight > 0). Returns its index, or -1 on out of memory. */
static int lf_grow(struct lfbo *lf, const struct pol_view *v, int *idx, int n)
{
    int me = lf_new_node(lf);
    double w0 = 0, w1 = 0, thr = 0, best = INFINITY, bthr = 0;
    int bf = -1, mtry = (int)sqrt((double)lf->n_feat);
    if (me < 0)
        return -1;
    for (int i = 0; i < n; i++)
        *(lf->y[idx[i]] < 0 ? &w1 : &w0) += lf->wb[idx[i]];
    lf->node[me].p1 = w1 / (w0 + w1);
    if (n < 2 || w0 == 0 || w1 == 0)
        return me;
    for (int f = 0; f < lf->n_feat; f++)
        lf->fperm[f] = f;
    for (int f = 0; f < lf->n_feat && (f < (mtry > 0 ? mtry : 1) || bf < 0); f++) { /* sklearn draws more when
                                                                                   * those tried are constant */
        int j = f + (int)gsl_rng_uniform_int(v->rng, (unsigned long)(lf->n_feat - f)), t = lf->fperm[f];
        lf->fperm[f] = lf->fperm[j];
        lf->fperm[j] = t;
        double imp = lf_best_split(lf, idx, n, lf->fperm[f], &thr);
        if (imp < best) {
            best = imp;
            bf = lf->fperm[f];
            bthr = thr;
        }
    }
    if (bf < 0)
        return me;
    int nl = 0;
    for (int i = 0, nr = n - 1; i <= nr;) { /* partition: left first */
        if (lf->x[(size_t)idx[i] * lf->n_feat + bf] <= bthr) {
            i++;
            nl++;
        } else {
            int t = idx[i];
            idx[i] = idx[nr];
            idx[nr--] = t;
        }
    }
    int l = lf_grow(lf, v, idx, nl), r = l < 0 ? -1 : lf_grow(lf, v, idx + nl, n - nl);
    if (r < 0)
        return -1;
    lf->node[me].feat = bf;
    lf->node[me].thr = bthr;
    lf->node[me].left = l;
    lf->node[me].right = r;
    return me;
}

static int lf_leaf_of(const struct lfbo *lf, int t, const double *row)
{
    int k = lf->root[t];
    while (lf->node[k].feat >= 0)
        k = row[lf->node[k].feat] <= lf->node[k].thr ? lf->node[k].left : lf->node[k].right;
    return k;
}

/* Labels and weights (_fit_surrogate): "good" at or below the finite performances' LF_QUANTILE (numpy's linear
 * interpolation), weighted by max(1e-5, threshold - perf) normalised to a mean of 1; returns 0 when one class is
 * missing (no forest). Marks "good" rows by negating y for the fit (restored after). */
static int lf_label(struct lfbo *lf)
{
    int m = 0, n_good = 0;
    for (int r = 0; r < lf->n_train; r++)
        if (isfinite(lf->y[r]))
            lf->tmp[m++] = r;
    if (m == 0)
        return 0;
    for (int i = 1; i < m; i++) { /* sort the finite rows by performance */
        int r = lf->tmp[i], j = i;
        for (; j > 0 && lf->y[lf->tmp[j - 1]] > lf->y[r]; j--)
            lf->tmp[j] = lf->tmp[j - 1];
        lf->tmp[j] = r;
    }
    double pos = LF_QUANTILE * (m - 1), thr = lf->y[lf->tmp[(int)pos]], sum = 0;
    if ((int)pos + 1 < m)
        thr += (pos - (int)pos) * (lf->y[lf->tmp[(int)pos + 1]] - thr);
    for (int r = 0; r < lf->n_train; r++) {
        lf->w[r] = 1;
        if (lf->y[r] <= thr) {
            lf->w[r] = fmax(1e-5, thr - lf->y[r]);
            sum += lf->w[r];
            n_good++;
        }
    }
    if (n_good == lf->n_train)
        return 0;
    for (int r = 0; r < lf->n_train; r++)
        if (lf->y[r] <= thr) {
            lf->w[r] /= sum / n_good;
            lf->y[r] = -lf->y[r] - 1; /* < 0: good */
        }
    return 1;
}

static void lf_unlabel(struct lfbo *lf)
{
    for (int r = 0; r < lf->n_train; r++)
        if (lf->y[r] < 0)
            lf->y[r] = -lf->y[r] - 1;
}

/* Add the batch's configurations to the training set and refit the forest. */
static void lf_fit(struct pat_search *ps, const struct pol_view *v)
{
    struct lfbo *lf = ps->ext;
    for (int b = 0; b < ps->n_batch && lf->n_train < lf->cap_train; b++) {
        int k = ps->batch[b];
        if (lf->in_train[k] || (v->n_exec[k] == 0 && !v->failed[k]))
            continue;
        lf->in_train[k] = 1;
        lf_encode(lf, v, k, lf->x + (size_t)lf->n_train * lf->n_feat);
        lf->y[lf->n_train++] = pat_perf(v, k);
    }
    lf->have_forest = 0;
    lf->n_node = 0;
    if (!lf_label(lf))
        return;
    for (int t = 0; t < LF_TREES; t++) {
        int n = 0;
        for (int r = 0; r < lf->n_train; r++)
            lf->wb[r] = 0;
        for (int i = 0; i < lf->n_train; i++)
            lf->wb[gsl_rng_uniform_int(v->rng, (unsigned long)lf->n_train)] += 1;
        for (int r = 0; r < lf->n_train; r++)
            if (lf->wb[r] > 0) {
                lf->wb[r] *= lf->w[r];
                lf->idx[n++] = r;
            }
        if ((lf->root[t] = lf_grow(lf, v, lf->idx, n)) < 0) {
            lf_unlabel(lf);
            return; /* out of memory: no forest, random picks */
        }
    }
    lf_unlabel(lf);
    lf->have_forest = 1;
}

/* _surrogate_select: n_sel of cand[0..n) by probability less similarity to those picked, or at random. */
static int lf_select(struct lfbo *lf, const struct pol_view *v, int *cand, int n, int n_sel)
{
    if (!lf->have_forest) {
        for (int i = 0; i < n_sel; i++) { /* sorting by random scores picks a random subset in random order */
            int j = i + (int)gsl_rng_uniform_int(v->rng, (unsigned long)(n - i)), t = cand[i];
            cand[i] = cand[j];
            cand[j] = t;
        }
        return n_sel;
    }
    for (int i = 0; i < n; i++) {
        lf_encode(lf, v, cand[i], lf->cx);
        lf->proba[i] = 0;
        lf->sim[i] = 0;
        for (int t = 0; t < LF_TREES; t++) {
            int k = lf_leaf_of(lf, t, lf->cx);
            lf->leaf[(size_t)i * LF_TREES + t] = k;
            lf->proba[i] += lf->node[k].p1 / LF_TREES;
        }
        lf->tmp[i] = 1; /* remaining */
    }
    for (int s = 0; s < n_sel; s++) {
        int best = -1;
        double bs = -INFINITY;
        for (int i = 0; i < n; i++)
            if (lf->tmp[i] && lf->proba[i] - (s ? LF_PENALTY * lf->sim[i] / s : 0) > bs) {
                bs = lf->proba[i] - (s ? LF_PENALTY * lf->sim[i] / s : 0);
                best = i;
            }
        lf->tmp[best] = 0;
        lf->pick[s] = cand[best];
        for (int i = 0; i < n; i++) {
            int same = 0;
            for (int t = 0; t < LF_TREES; t++)
                same += lf->leaf[(size_t)i * LF_TREES + t] == lf->leaf[(size_t)best * LF_TREES + t];
            lf->sim[i] += (double)same / LF_TREES;
        }
    }
    memcpy(cand, lf->pick, (size_t)n_sel * sizeof *cand);
    return n_sel;
}

/* One random neighbour (LFBOPatternSearch._generate_neighbors) of base into nv. */
static void lf_neighbour(const struct pol_view *v, const int *base, int *nv, int *nb, int *rem)
{
    int np = v->n_params, n_block = 0, warps = -1, n_rem = 0;
    memcpy(nv, base, (size_t)np * sizeof *nv);
    for (int p = 0; p < np; p++) {
        n_block += v->param_kind != NULL && (v->param_kind[p] & POL_PARAM_BLOCK);
        if (v->param_kind != NULL && (v->param_kind[p] & POL_PARAM_WARPS))
            warps = p;
    }
    int bp = -1;
    if (n_block > 0) {
        int pick = (int)gsl_rng_uniform_int(v->rng, (unsigned long)n_block);
        for (int p = 0; p < np && bp < 0; p++)
            if ((v->param_kind[p] & POL_PARAM_BLOCK) && pick-- == 0)
                bp = p;
        int n = pat_param_neighbours(v, bp, base[bp], LF_RADIUS, nb);
        if (n > 0)
            nv[bp] = nb[gsl_rng_uniform_int(v->rng, (unsigned long)n)];
    }
    if (warps >= 0) {
        int n = pat_param_neighbours(v, warps, base[warps], LF_RADIUS, nb);
        if (n > 0)
            nv[warps] = nb[gsl_rng_uniform_int(v->rng, (unsigned long)n)];
    }
    for (int p = 0; p < np; p++)
        if (p != bp && p != warps && pat_param_neighbours(v, p, base[p], 1, nb) > 0)
            rem[n_rem++] = p;
    int k = (int)gsl_rng_uniform_int(v->rng, (unsigned long)((n_rem < LF_RADIUS ? n_rem : LF_RADIUS) + 1));
    for (int i = 0; i < k; i++) { /* k distinct parameters */
        int j = i + (int)gsl_rng_uniform_int(v->rng, (unsigned long)(n_rem - i)), t = rem[i];
        rem[i] = rem[j];
        rem[j] = t;
        int n = pat_param_neighbours(v, rem[i], base[rem[i]], 1, nb);
        nv[rem[i]] = nb[gsl_rng_uniform_int(v->rng, (unsigned long)n)];
    }
}

/* One neighbour by LFBOTreeSearch's greedy walk: a random tree; the parameters its decision path for base tests,
 * then a random block size and num_warps; each in turn set to the value (its own or one within LF_RADIUS) that this
 * tree scores best, ties at random. nb: scratch of max values + 1; path: n_params + 2; enc: n_feat. */
static void lf_tree_neighbour(struct lfbo *lf, const struct pol_view *v, const int *base, int *nv, int *nb,
                              int *path, double *enc)
{
    int np = v->n_params, n_path = 0, t = (int)gsl_rng_uniform_int(v->rng, LF_TREES), n_block = 0, warps = -1;
    memcpy(nv, base, (size_t)np * sizeof *nv);
    for (int p = 0; p < np; p++)
        lf_encode_param(lf, p, base[p], enc);
    for (int k = lf->root[t]; lf->node[k].feat >= 0;) {
        int p = lf->fparam[lf->node[k].feat], seen = 0;
        for (int i = 0; i < n_path && !seen; i++)
            seen = path[i] == p;
        if (!seen)
            path[n_path++] = p;
        k = enc[lf->node[k].feat] <= lf->node[k].thr ? lf->node[k].left : lf->node[k].right;
    }
    for (int p = 0; p < np; p++) {
        n_block += v->param_kind != NULL && (v->param_kind[p] & POL_PARAM_BLOCK);
        if (v->param_kind != NULL && (v->param_kind[p] & POL_PARAM_WARPS))
            warps = p;
    }
    int extra[2] = {-1, warps};
    if (n_block > 0) {
        int pick = (int)gsl_rng_uniform_int(v->rng, (unsigned long)n_block);
        for (int p = 0; p < np && extra[0] < 0; p++)
            if ((v->param_kind[p] & POL_PARAM_BLOCK) && pick-- == 0)
                extra[0] = p;
    }
    for (int e = 0; e < 2; e++) {
        int seen = extra[e] < 0;
        for (int i = 0; i < n_path && !seen; i++)
            seen = path[i] == extra[e];
        if (!seen)
            path[n_path++] = extra[e];
    }
    for (int i = 0; i < n_path; i++) {
        int p = path[i], n = pat_param_neighbours(v, p, nv[p], LF_RADIUS, nb + 1), n_top = 0;
        double best = -1;
        if (n == 0)
            continue;
        nb[0] = nv[p];
        for (int j = 0; j <= n; j++) { /* this tree's probability of each value; the best gathered at nb's front */
            lf_encode_param(lf, p, nb[j], enc);
            double pr = lf->node[lf_leaf_of(lf, t, enc)].p1;
            if (pr > best) {
                best = pr;
                n_top = 0;
            }
            if (pr == best) {
                int x = nb[j];
                nb[j] = nb[n_top];
                nb[n_top++] = x;
            }
        }
        nv[p] = nb[gsl_rng_uniform_int(v->rng, (unsigned long)n_top)];
        lf_encode_param(lf, p, nv[p], enc);
    }
}

/* _pruned_pattern_search_from: LF_NEIGHBOURS neighbours (random, or by tree walks), the unvisited kept, LF_FRAC of
 * them (with the copy's own configuration) selected. */
static void lf_neighbours(struct pat_search *ps, const struct pol_view *v, struct pat_copy *c)
{
    struct lfbo *lf = ps->ext;
    int np = v->n_params, *base = ps->vbuf, *nv = ps->vbuf2, *nb = ps->vbuf + np, *rem = lf->fperm;
    c->n_cand = 0;
    c->cand[c->n_cand++] = c->cur;
    for (int p = 0; p < np; p++)
        base[p] = pol_vidx(v, c->cur, p);
    int tree = lf->have_forest && ps->gen >= 3; /* LFBOTreeSearch walks trees once Helion's generation count,
                                                  * one behind the generation being drawn, is past 1 */
    for (int t = 0; t < LF_NEIGHBOURS; t++) {
        if (tree)
            lf_tree_neighbour(lf, v, base, nv, nb, rem, lf->cx);
        else
            lf_neighbour(v, base, nv, nb, rem);
        if (memcmp(nv, base, (size_t)np * sizeof *nv) != 0)
            pat_offer(ps, v, c, nv);
    }
    int n_sel = (int)(c->n_cand * LF_FRAC);
    c->n_cand = n_sel <= 0 ? 0 : lf_select(lf, v, c->cand, c->n_cand, n_sel);
}

static void lfbo_stop(void *st)
{
    struct lfbo *lf = st;
    if (lf == NULL)
        return;
    pat_free(&lf->ps);
    free(lf->fparam);
    free(lf->fval);
    free(lf->x);
    free(lf->y);
    free(lf->in_train);
    free(lf->node);
    free(lf->w);
    free(lf->wb);
    free(lf->idx);
    free(lf->tmp);
    free(lf->fperm);
    free(lf->hist);
    free(lf->cx);
    free(lf->proba);
    free(lf->sim);
    free(lf->leaf);
    free(lf->pick);
    free(lf);
}

static void *lfbo_start(const struct pol_view *v)
{
    struct lfbo *lf = calloc(1, sizeof *lf);
    size_t nc = (size_t)v->n_configs + 1, nf = 0;
    if (lf == NULL || pat_init(&lf->ps, v) != 0) {
        lfbo_stop(lf);
        return NULL;
    }
    lf->ps.patience = 1; /* Helion's LFBO defaults: patience 1, the rest PatternSearch's */
    lf->ps.neighbours = lf_neighbours;
    lf->ps.after_batch = lf_fit;
    lf->ps.ext = lf;
    for (int p = 0; p < v->n_params; p++) {
        int onehot = v->param_kind != NULL && (v->param_kind[p] & POL_PARAM_CHOICE) && v->n_values[p] > 2;
        nf += onehot ? (size_t)v->n_values[p] : 1;
        if (v->n_values[p] > lf->max_nv)
            lf->max_nv = v->n_values[p];
    }
    lf->fparam = malloc((nf + 1) * sizeof *lf->fparam);
    lf->fval = malloc((nf + 1) * sizeof *lf->fval);
    lf->x = malloc(nc * (nf + 1) * sizeof *lf->x);
    lf->y = malloc(nc * sizeof *lf->y);
    lf->in_train = calloc(nc, 1);
    lf->w = malloc(nc * sizeof *lf->w);
    lf->wb = malloc(nc * sizeof *lf->wb);
    lf->idx = malloc(nc * sizeof *lf->idx);
    lf->tmp = malloc(nc * sizeof *lf->tmp);
    lf->fperm = malloc((nf + (size_t)v->n_params + 1) * sizeof *lf->fperm);
    lf->hist = malloc(2 * ((size_t)lf->max_nv + 2) * sizeof *lf->hist);
    lf->cx = malloc((nf + 1) * sizeof *lf->cx);
    lf->proba = malloc(nc * sizeof *lf->proba);
    lf->sim = malloc(nc * sizeof *lf->sim);
    lf->leaf = malloc(nc * LF_TREES * sizeof *lf->leaf);
    lf->pick = malloc(nc * sizeof *lf->pick);
    if (lf->fparam == NULL || lf->fval == NULL || lf->x == NULL || lf->y == NULL || lf->in_train == NULL ||
        lf->w == NULL || lf->wb == NULL || lf->idx == NULL || lf->tmp == NULL || lf->fperm == NULL ||
        lf->hist == NULL || lf->cx == NULL || lf->proba == NULL || lf->sim == NULL || lf->leaf == NULL ||
        lf->pick == NULL) {
        lfbo_stop(lf);
        return NULL;
    }
    for (int p = 0; p < v->n_params; p++) {
        int onehot = v->param_kind != NULL && (v->param_kind[p] & POL_PARAM_CHOICE) && v->n_values[p] > 2;
        for (int i = 0; i < (onehot ? v->n_values[p] : 1); i++) {
            lf->fparam[lf->n_feat] = p;
            lf->fval[lf->n_feat++] = onehot ? i : -1;
        }
    }
    lf->cap_train = v->n_configs;
    return lf;
}

static int lfbo_next(void *st, const struct pol_view *v)
{
    return pat_next(&((struct lfbo *)st)->ps, v);
}

const struct policy_ops policy_lfbo = {
    "lfbo", "Helion's default LFBOTreeSearch: pattern search whose neighbours a random forest draws and filters to 10%",
    "Helion 1.4.0 helion/autotuner/surrogate_pattern_search.py (LFBOTreeSearch; Song et al., ICML 2022)",
    lfbo_start, lfbo_next, pol_rep_once, NULL, lfbo_stop, 0,
};
