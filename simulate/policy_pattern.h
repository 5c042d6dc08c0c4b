/* policy_pattern.h — Helion's population-based pattern search (its PatternSearch), the frame shared by the `pattern`
 * policy (policy_pattern.c) and its random-forest-filtered variant `lfbo` (policy_lfbo.c), which supplies its own
 * neighbours and selection. Not for use outside simulate/. */
#ifndef POLICY_PATTERN_H
#define POLICY_PATTERN_H

#include "policy.h"

/* One search copy: a walk from one of the initial population's best configurations. */
struct pat_copy {
    int cur;      /* the configuration it stands on */
    int active;   /* 0 once it stopped (no new neighbours, or no improvement) */
    int patience; /* generations without improvement it may still take (lfbo) */
    int *cand, n_cand; /* this generation's candidates (cur first when the selection kept it) */
};

struct pat_search;
/* The candidates of copy c for this generation: configurations not yet visited (marked visited here), into
 * c->cand (room for n_configs + 1), n_cand set. The default is Helion's PatternSearch._generate_neighbors. */
typedef void (*pat_neighbours_fn)(struct pat_search *ps, const struct pol_view *v, struct pat_copy *c);

struct pat_search {
    int init_pop, n_copies, max_gen; /* Helion's initial_population, copies, max_generations */
    double min_delta;                /* min_improvement_delta: a copy stops below this relative improvement */
    int patience;                    /* generations a copy may go on without improvement (0: PatternSearch) */
    unsigned char *visited;          /* n_configs */
    int *batch, n_batch, pos;        /* the configurations to benchmark now, in order */
    int *pop, n_pop;                 /* the initial population */
    int phase;                       /* 0 start, 1 initial population, 2 generations, 3 done */
    int gen;                         /* the generation being benchmarked (0: the initial population) */
    struct pat_copy *copy;
    int n_copy;
    int *vbuf, *vbuf2;               /* n_params scratch */
    pat_neighbours_fn neighbours;
    /* called once the initial population, then each generation, is benchmarked (lfbo trains its forest): the
     * configurations just benchmarked are batch[0 .. n_batch) */
    void (*after_batch)(struct pat_search *ps, const struct pol_view *v);
    void *ext; /* the variant's state */
};

/* Helion's full-effort defaults (effort_profile.PATTERN_SEARCH_DEFAULTS): 100, 5, 20, and 0.001. */
int pat_init(struct pat_search *ps, const struct pol_view *v);
void pat_free(struct pat_search *ps);
/* The next configuration to benchmark, or -1 when the search is over (the policy's `next`). */
int pat_next(struct pat_search *ps, const struct pol_view *v);
/* Performance as Helion ranks it: the estimate so far, +inf for a failed or unmeasured configuration. */
double pat_perf(const struct pol_view *v, int c);
/* The value indices of parameter p within radius steps of value index x (a choice parameter: every other value),
 * into out; returns how many. */
int pat_param_neighbours(const struct pol_view *v, int p, int x, int radius, int *out);
/* Add configuration k (the grid point vidx) to copy c's candidates when it is in the space and not visited. */
void pat_offer(struct pat_search *ps, const struct pol_view *v, struct pat_copy *c, const int *vidx);

#endif
