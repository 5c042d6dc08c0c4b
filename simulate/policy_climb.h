/* policy_climb.h — hill climbing on Kernel Tuner's neighbourhoods (its hillclimbers.base_hillclimb), shared by the
 * local-search policies (mls, greedy_ils, basinhopping, transfer), and the bookkeeping of what a policy asked
 * for. Not for use outside simulate/. */
#ifndef POLICY_CLIMB_H
#define POLICY_CLIMB_H

#include "policy.h"

/* One climb. The neighbours of the base configuration are tried in Kernel Tuner's order: the parameters in a
 * random order, each parameter's neighbours in a random order. Steepest (first_improvement 0): every neighbour is
 * costed and the climb moves to the best if it beats the base, then goes on from there; first improvement: the
 * climb moves to the first neighbour that beats the base and ends there (Kernel Tuner's restart = True). */
struct pol_climb {
    enum pol_nbr method;
    int first_improvement;
    int cur;             /* the base configuration */
    double cur_cost;
    int improved;        /* the climb moved at least once */
    int *child, n_child, pos; /* the neighbours of cur in the order tried; n_child -1: not listed yet */
    int best;            /* the best neighbour so far (steepest), or -1 */
    double best_cost;
    int *rank;           /* scratch: a parameter's place in the random order (n_params) */
    int *vbuf;           /* scratch: value indices (n_params) */
};

/* What a policy has asked for: asked[k] once it returned k from next (so k is benchmarked or the run ended). */
struct pol_asked {
    int *asked, n_asked;
};

int pol_climb_init(struct pol_climb *cl, const struct pol_view *v, enum pol_nbr method, int first_improvement);
void pol_climb_free(struct pol_climb *cl);
/* Start a climb at configuration start. */
void pol_climb_begin(struct pol_climb *cl, int start);
/* The configuration to benchmark next for the climb (>= 0: the base or a neighbour whose cost is not known), or -1:
 * the climb is over and cl->cur is where it ended (a local optimum unless first_improvement), cl->cur_cost its
 * cost. */
int pol_climb_step(struct pol_climb *cl, const struct pol_view *v);

int pol_asked_init(struct pol_asked *a, const struct pol_view *v);
void pol_asked_free(struct pol_asked *a);
/* Mark k asked; returns k. */
int pol_asked_mark(struct pol_asked *a, int k);
/* A uniformly random configuration of the whole space (Kernel Tuner's get_random_sample(1)), except that after
 * `fruitless` consecutive calls that found nothing new the draw is among the configurations not asked for, so
 * that a policy that only revisits ends; -1 when everything was asked. */
int pol_asked_random(struct pol_asked *a, const struct pol_view *v, int fruitless);

#endif
