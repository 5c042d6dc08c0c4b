/* score_atm.h — the published methodology's score for tuning policies (Willemsen et al. 2024, "A Methodology for
 * Comparing Optimization Algorithms for Auto-Tuning"; the autotuning_methodology package): per search space (input),
 * at each time of a linear range, (f_rand - f_s) / (f_rand - f_opt) in objective (run-time) space against the
 * random-search baseline (exact by order statistics: after j valid evaluations without replacement the best has
 * expected rank (v + 1) / (j + 1); the number j done by time t from permutations of the input's own costs); the
 * mean over the range, then over inputs, with a bootstrap CI over runs and inputs. As in the package, curves are averaged in rank space (the position of a run time among
 * the input's valid ones) and read back as run times. docs/simulation.md ("The methodology's score") gives the
 * definitions and where they differ from the package. */
#ifndef SCORE_ATM_H
#define SCORE_ATM_H

#include <stdint.h>

/* One input's frame: everything the score of a run on it needs, fixed before any run. */
struct atm_frame {
    int usable;            /* 0: the input cannot be scored (fewer than 2 valid times, a median equal to the optimum,
                            * or random search reaching the cutoff before anything can finish); left out */
    int n_valid;           /* v: valid configurations */
    double *f_asc;         /* v valid true times (ms), ascending: rank rho (1-based, fractional) reads as run time
                            * by linear interpolation */
    double opt_ms;         /* f_opt: the best true time */
    double median_ms;      /* the median valid true time (rank (v + 1) / 2) */
    double cut_ms;         /* f_cut = f_opt + (median - f_opt)(1 - cutoff) */
    double per_eval_s;     /* expected tuning time per valid evaluation of random search without replacement over
                            * all n configurations: E[T_j] / j = mean valid cost + (n - v) / (v + 1) x mean cost of
                            * a failure, T_j the time the j-th valid one is done */
    double t0_s, t1_s;     /* the range [t0, t1): the cheapest valid configuration's cost (the first time a
                            * configuration can be done); the time random search's expected best reaches f_cut, or
                            * the end given (the budget) when that comes first */
    double t_cut_s;        /* the time random search's expected best reaches f_cut (t1_s unless the end came first) */
    int n_points;
    double *time_s;        /* n_points: t0 + (t1 - t0) g / n_points, g = 0 .. n_points - 1 */
    double *base_ms;       /* n_points: the baseline f_rand at each time */
};

#define ATM_PERMS 1000     /* permutations of an input's costs that give the baseline's time axis */

/* The expected rank (1 = best) of the best of k configurations drawn without replacement from v: (v + 1) / (k + 1)
 * (order statistics; for real k, the same formula). */
double atm_expected_rank(int v, double k);
/* Run time at fractional rank rho in [1, v], and the 1-based rank of a run time (1 + how many valid times are
 * smaller, with a relative tolerance of 1e-9 so that a time computed back from a speedup finds its own rank). */
double atm_ms_of_rank(const struct atm_frame *f, double rho);
double atm_rank_of_ms(const struct atm_frame *f, double ms);

/* Build the frame of one input from its n configurations: valid[k], true_ms[k] (valid ones), cost_ms[k] (what
 * one visit costs). cutoff in (0, 1), n_points >= 2. The range ends at end_s where random search reaches the cutoff
 * later (the tuning budget: no run is charged beyond it, so a policy cannot be compared with the baseline there;
 * INFINITY: no end). The baseline at time t is the mean over ATM_PERMS uniformly
 * random orders of the n configurations (drawn from `seed`) of the expected rank (v + 1) / (J + 1), J the valid
 * evaluations done by t in that order ((v + 1) / 2 while J = 0), read as run time. Returns 0, or -1 (tc_errmsg:
 * out of memory); an input that cannot be scored gets usable = 0 and returns 0. */
int atm_frame_init(struct atm_frame *f, int n, const int *valid, const double *true_ms, const double *cost_ms,
                   double cutoff, int n_points, double end_s, uint64_t seed);
void atm_frame_free(struct atm_frame *f);
/* dst = a deep copy of src (its arrays its own; free with atm_frame_free). Returns 0, or -1 (tc_errmsg: out of
 * memory; dst then holds nothing to free). */
int atm_frame_copy(struct atm_frame *dst, const struct atm_frame *src);

/* A run's incumbent over time, as the engine logs it: from t_s[e] (ascending) on its choice has true time f_ms[e]
 * (NaN: none yet).
 * rank[g] receives its rank at the frame's time g: that of the last entry with t_s <= time_s[g], and before the
 * first one (v + 1) / 2, the expected rank of an uninformed choice (the baseline's one evaluation). */
void atm_run_ranks(const struct atm_frame *f, const double *t_s, const double *f_ms, int n, double *rank);

/* An input's score from the mean rank over its runs at each time: the mean over the range of
 * (base - f) / (base - f_opt), f = the run time at that rank. f_ms (if not NULL) receives those run times. */
double atm_input_score(const struct atm_frame *f, const double *mean_rank, double *f_ms);

/* The score over inputs: rank holds, for each input i and run r, the run's ranks at the frame's times
 * (rank + ((size_t)i * runs + r) * n_points; every usable frame has n_points times). input_score[i]: the input's score (NaN when not usable); *mean: the
 * mean over usable inputs; [*lo, *hi]: the 95% percentile interval of a two-stage bootstrap (inputs drawn with
 * replacement, each drawn input with its runs drawn with replacement: 200 run resamples per input, n_boot
 * replicates over inputs) from its own random stream of `seed`. Returns the number of usable inputs (mean, lo and
 * hi NaN when 0), or -1 (tc_errmsg: out of memory). */
int atm_aggregate(const struct atm_frame *fr, const double *rank, int n_in, int runs, int n_points, uint64_t seed,
                  int n_boot, double *input_score, double *mean, double *lo, double *hi, double *replicates);
/* The replicates (if not NULL: n_boot values, in draw order) are paired across policies evaluated with the same
 * seed, inputs and runs: replicate b draws the same inputs and the same runs for each. atm_first_share gives, from
 * n_pol policies' replicates (rep[p] NULL: left out), the share of replicates in which policy p scores highest
 * (ties shared) into share[p]. */
void atm_first_share(const double *const *rep, int n_pol, int n_boot, double *share);

#endif
