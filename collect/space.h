/* space.h — the GEMM family's search space and inputs: parameter sets, seeded sampling, shapes and shards.
 * No CUDA here (unit-tested in CI). */
#ifndef COLLECT_SPACE_H
#define COLLECT_SPACE_H

#include <stdint.h>

enum space_param { SP_BLOCK_M, SP_BLOCK_N, SP_BLOCK_K, SP_GROUP_M, SP_NUM_STAGES, SP_NUM_WARPS, SP_N_PARAMS };
#define SPACE_MAX_VALUES 16
#define SPACE_N_DIMS 3 /* M, N, K */

extern const char *const space_param_names[SP_N_PARAMS]; /* "BLOCK_M", ..., "NUM_WARPS" */
extern const char *const space_dim_names[SPACE_N_DIMS];  /* "M", "N", "K" */

/* The cartesian product of one value list per parameter, enumerated with BLOCK_M varying slowest. */
struct space {
    int n_values[SP_N_PARAMS];
    int32_t values[SP_N_PARAMS][SPACE_MAX_VALUES];
};

/* The paper's space: BLOCK_M/N/K in {32,64,128,256}, GROUP_M 8, NUM_STAGES {3,4,5}, NUM_WARPS {2,4,8} (576). */
void space_default(struct space *s);
/* Apply "NAME=v1,v2,..." (NAME case-insensitive, values checked against what the kernel accepts). -1 on error. */
int space_set_param(struct space *s, const char *spec);
long space_size(const struct space *s);
/* Configuration number idx (0 <= idx < size) as SP_N_PARAMS values. */
void space_config(const struct space *s, long idx, int32_t *params);
/* n configurations drawn without replacement with a Mersenne twister seeded with `seed` (gsl_ran_choose, so in
 * enumeration order); n >= size gives the whole space. Same seed, same configurations. Returns the count written
 * (min(n, size)) into params (count x SP_N_PARAMS), or -1 on allocation failure. */
long space_sample(const struct space *s, long n, uint64_t seed, int32_t *params);

/* Dynamic shared memory of a configuration on the mma.sync path, bytes: NUM_STAGES * (BLOCK_M + BLOCK_N) *
 * BLOCK_K * 2. */
int64_t space_smem_bytes(const int32_t *params);

/* The kernel families: "native" takes the Hopper path (kernels/gemm_f16_wgmma.cu) where the device and the
 * configuration allow it, as Triton does on Hopper; "mma-sync" keeps every configuration on kernels/gemm_f16.cu. */
enum space_family { SPACE_FAMILY_NATIVE = 0, SPACE_FAMILY_MMA_SYNC = 1 };
enum space_path { SPACE_PATH_MMA_SYNC = 0, SPACE_PATH_WGMMA = 1 };
/* The path a configuration takes on sm_<arch>: wgmma when the family is native, arch is 90 (sm_90a), NUM_WARPS
 * is a multiple of 4 and BLOCK_M a multiple of 64 (a warpgroup MMA is 64 rows tall); else mma.sync. */
int space_path(const int32_t *params, int arch, int family);
const char *space_path_name(int path); /* "mma.sync", "wgmma" */
/* The family a collection on sm_<arch> measures, as the trace's kernel_family attribute names it: "wgmma-tma" for
 * the native family on sm_90 (wgmma + TMA where a configuration fits, mma.sync otherwise), else "mma-sync". */
const char *space_family_name(int arch, int family);
/* Dynamic shared memory of a configuration on `path`, bytes, exactly what the kernel is launched with: for wgmma
 * the pipeline's NUM_STAGES * (BLOCK_M + BLOCK_N) * BLOCK_K * 2 plus two 8-byte mbarriers per stage. */
int64_t space_smem_bytes_on(const int32_t *params, int path);
/* Panel widths (elements) of the wgmma path's TMA boxes: A_W = min(64, BLOCK_K) and B_W = min(64, the warpgroup's
 * N extent), as kernels/gemm_f16_wgmma.cu lays out its shared memory. */
void space_wgmma_panels(const int32_t *params, int *a_w, int *b_w);

/* Threads of a wgmma-path block (consumer warps and the producer; kernels/gemm_f16_wgmma.cu). */
int space_wgmma_threads(const int32_t *p);
/* "BM=128 BN=256 BK=32 G=8 S=3 W=8" into buf. */
char *space_format_config(const int32_t *params, char *buf, int len);

/* The paper's 64 inputs: M, N, K in {256, 512, 1024, 4096}, M slowest. dims receives 64 x 3 values. */
int space_default_shapes(int64_t *dims);
#define SPACE_N_DEFAULT_SHAPES 64
/* 0 if M, N, K are all multiples of 8 (and >= 8), else -1 with a message naming `what`. */
int space_check_shape(const char *what, const int64_t *dims);
/* Read shapes "MxNxK", one per line ('#' comments and blank lines allowed). *dims is malloc'ed; -1 on error
 * (message names the file and line). */
int space_read_shapes(const char *path, int64_t **dims, int *n);
/* "i/n" with 1 <= i <= n: input j (0-based) belongs to shard i when j % n == i - 1. */
int space_parse_shard(const char *opt, const char *s, int *i, int *n);

#endif
