/* plan.h — what a collection runs and where, decided before any GPU work: the sampled configurations, the
 * expected cost of compiling a configuration and of running a pair (input, configuration), the order compiles
 * are queued in, and the split of the pairs over the ranks of an MPI job balanced by expected cost.
 * Pure functions: no CUDA, no MPI, no trace (unit-tested in CI). */
#ifndef COLLECT_PLAN_H
#define COLLECT_PLAN_H

#include "space.h"

#include <stdint.h>

/* The configurations of a collection: the whole space (space_full) or n_configs sampled with `seed`. Returns
 * n x SP_N_PARAMS values (malloc'ed) with *n set, or NULL (message). */
int32_t *plan_configs(const struct space *s, int space_full, long n_configs, uint64_t seed, int *n);

/* Relative compile cost of a configuration: accumulators per thread x k-tile depth. */
long plan_compile_weight(const int32_t *params);
/* Sort config indices by plan_compile_weight, cheapest first (descending = 0) or dearest first (1); ties by
 * index. */
void plan_sort_compiles(int *order, int n, const int32_t *params, int descending);

/* The largest opt-in shared memory per block of any NVIDIA GPU the collector targets (H100/H200: 227 KiB); a
 * configuration needing more is never compiled (without --compile-invalid) nor run, so it costs nothing. */
#define PLAN_SMEM_MAX 232448

struct plan_model {
    double warmup_ms, rep_ms; /* the protocol's requested kernel time */
    int64_t flush_bytes;      /* L2 flush before each timed execution: 0 none, -1 the device's L2 */
    int compile_jobs;         /* compile workers of a rank: compiles overlap the GPU on that many cores */
    int compile_invalid;      /* --compile-invalid: configurations over PLAN_SMEM_MAX are compiled too */
};

/* Expected NVRTC time of a configuration, ms: 170 + 0.07 x plan_compile_weight (least squares on the 58
 * compiled configurations of data/compile-scaling/configs-100.tsv); 0 for one that is never compiled. */
double plan_compile_ms(const struct plan_model *m, const int32_t *params);
/* Expected wall time of one run on the GPU, ms: a fixed 10 ms (verification, estimate) plus the warm-up and
 * the timed kernel time, each execution with its launch gap (3 us) and each timed one with its flush (3 TB/s),
 * the kernel time taken as 2MNK at 400 TFLOP/s (at least 5 us). 0 for a configuration that is never run. */
double plan_run_ms(const struct plan_model *m, const int64_t *dims, const int32_t *params);

/* Split n_in x n_cfg pairs over n_ranks. run_ms[i * n_cfg + k] is the expected cost of pair (i, k) and
 * compile_ms[k] that of compiling configuration k, paid by every rank that runs at least one of its pairs.
 * Writes owner[i * n_cfg + k] in [0, n_ranks): every pair exactly once. Configurations are kept whole where
 * they are small (each is compiled once), larger ones are cut into runs of consecutive inputs; the pieces go,
 * dearest first, to the rank with the least expected cost so far (ties: the lower rank). The result depends only
 * on the arguments. Costs must be >= 0; all zero means equal. Returns 0, or -1 (out of memory; message). */
int plan_assign(int n_in, int n_cfg, const double *run_ms, const double *compile_ms, int n_ranks, int *owner);

/* --compile-isolated over the shards of one collection (--shard i/n): which shard measures configuration k's
 * isolated compile time, owner[k] in [0, n_shards), balanced by expected compile time (plan_compile_ms with every
 * configuration compiled, split with plan_assign). Depends only on the arguments, so every shard computes the same
 * split. Returns 0, or -1 (out of memory; message). */
int plan_isolated_shards(const int32_t *params, int n_cfg, int n_shards, int *owner);

/* The expected cost of each rank under `owner`, compiles included once per configuration it touches. */
void plan_loads(int n_in, int n_cfg, const double *run_ms, const double *compile_ms, const int *owner,
                int n_ranks, double *load);

#endif
