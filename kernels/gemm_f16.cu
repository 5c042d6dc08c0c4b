/* gemm_f16.cu — the tuned GEMM family of tunecost: C = A x B, fp16 in and out, fp32 accumulation.
 * CUDA C++ compiled at run time by NVRTC (collect/compile.c) once per configuration, for the device's arch.
 *
 * Tunable parameters (defined with -D by the collector, every one required):
 *   BLOCK_M, BLOCK_N, BLOCK_K  tile of C computed by one thread block, and the K slice per pipeline stage;
 *                              each in {32, 64, 128, 256}
 *   GROUP_M                    block swizzle as in Triton's matmul: GROUP_M row-blocks are walked together
 *                              (>= 1; the paper's space uses 8)
 *   NUM_STAGES                 depth of the cp.async shared-memory pipeline, in {3, 4, 5} (any >= 2 works)
 *   NUM_WARPS                  warps per thread block, in {2, 4, 8}
 * Constraints between them (checked below with static_assert, so a violation is a compile error):
 *   - a warp tile is at least 16 x 8: BLOCK_M * BLOCK_N >= NUM_WARPS * 128 (always true in the sets above);
 *   - shared memory = NUM_STAGES * (BLOCK_M + BLOCK_N) * BLOCK_K * 2 bytes, all dynamic (TC_SMEM_BYTES). The
 *     collector calls a configuration `out of resources` when this exceeds the device's opt-in limit per block
 *     (232448 bytes on the H100/H200) and never launches it.
 * Problem sizes: row-major A (M x K), B (K x N), C (M x N), every one of M, N, K a multiple of 8 (16-byte rows;
 * the collector rejects others). Edges that are not multiples of the tile are handled (zero-filled loads,
 * guarded stores).
 *
 * Launch: grid = cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N) blocks (1-D), NUM_WARPS * 32 threads, TC_SMEM_BYTES of
 * dynamic shared memory. Entry point: extern "C" tc_gemm_f16(A, B, C, M, N, K).
 *
 * Method: per k-tile, cp.async (16-byte, L2-only .cg) copies of the A and B tiles into a NUM_STAGES-deep ring
 * of shared-memory stages (XOR-swizzled 16-byte chunks so that ldmatrix is free of bank conflicts); each warp
 * computes a (BLOCK_M / WARPS_M) x (BLOCK_N / WARPS_N) tile with ldmatrix(.trans) + mma.sync.m16n8k16.
 *
 * Test-only variants (collect --variant, gpu tests): TC_VARIANT 1 = wrong result (one element perturbed),
 * 2 = faulting (writes far outside C), 3 = compile error, 4 = faulting only where NUM_WARPS == 4 (the others
 * are correct: a fault followed by normal configurations).
 */
#ifndef BLOCK_M
#error "BLOCK_M must be defined (-DBLOCK_M=...)"
#endif
#ifndef BLOCK_N
#error "BLOCK_N must be defined"
#endif
#ifndef BLOCK_K
#error "BLOCK_K must be defined"
#endif
#ifndef GROUP_M
#error "GROUP_M must be defined"
#endif
#ifndef NUM_STAGES
#error "NUM_STAGES must be defined"
#endif
#ifndef NUM_WARPS
#error "NUM_WARPS must be defined"
#endif
#ifndef TC_VARIANT
#define TC_VARIANT 0
#endif

#define NUM_THREADS (NUM_WARPS * 32)
#define TC_SMEM_BYTES (NUM_STAGES * (BLOCK_M + BLOCK_N) * BLOCK_K * 2)

typedef unsigned short u16;
typedef unsigned int u32;

/* Warps along M: the split of NUM_WARPS whose warp tile is closest to square (first one on ties). */
__host__ __device__ constexpr int tc_warps_m()
{
    int best = 0, best_num = 0, best_den = 1;
    for (int wm = 1; wm <= NUM_WARPS; wm *= 2) {
        int wn = NUM_WARPS / wm;
        if (BLOCK_M % (wm * 16) != 0 || BLOCK_N % (wn * 8) != 0)
            continue;
        int tm = BLOCK_M / wm, tn = BLOCK_N / wn;
        int num = tm > tn ? tm : tn, den = tm > tn ? tn : tm; /* aspect ratio num/den >= 1 */
        if (best == 0 || num * best_den < best_num * den) {
            best = wm;
            best_num = num;
            best_den = den;
        }
    }
    return best;
}

#define WARPS_M (tc_warps_m())
#define WARPS_N (NUM_WARPS / WARPS_M)
#define WARP_TM (BLOCK_M / WARPS_M)   /* warp tile rows */
#define WARP_TN (BLOCK_N / WARPS_N)   /* warp tile columns */
#define MI (WARP_TM / 16)             /* m16 fragments per warp */
#define NI (WARP_TN / 8)              /* n8 fragments per warp */
#define A_CHUNKS (BLOCK_K / 8)        /* 16-byte chunks per row of an A stage (BLOCK_M x BLOCK_K) */
#define B_CHUNKS (BLOCK_N / 8)        /* 16-byte chunks per row of a B stage (BLOCK_K x BLOCK_N) */

/* Thread blocks per SM the compiler should leave room for (__launch_bounds__'s second argument): as many as
 * the shared memory allows, capped by a register estimate of accumulators + 64 per thread, at least 1. This is
 * what keeps small warp tiles from taking 255 registers and one block per SM. */
__host__ __device__ constexpr int tc_min_blocks()
{
    int acc = (BLOCK_M / tc_warps_m()) * (BLOCK_N / (NUM_WARPS / tc_warps_m())) / 32; /* fp32 per thread */
    int by_regs = 65536 / (NUM_THREADS * (acc + 64));
    int by_smem = (228 * 1024) / (TC_SMEM_BYTES + 1024);
    int b = by_regs < by_smem ? by_regs : by_smem;
    b = b < 1 ? 1 : b;
    return b > 8 ? 8 : b;
}
#define MIN_BLOCKS (tc_min_blocks())

static_assert(BLOCK_M >= 16 && BLOCK_N >= 8 && BLOCK_K >= 32, "tiles too small");
static_assert(BLOCK_K % 16 == 0 && BLOCK_N % 32 == 0 && BLOCK_M % 16 == 0, "tile sizes must be multiples of 32");
static_assert(NUM_WARPS == 1 || NUM_WARPS == 2 || NUM_WARPS == 4 || NUM_WARPS == 8, "NUM_WARPS in {1,2,4,8}");
static_assert(NUM_STAGES >= 2, "NUM_STAGES >= 2");
static_assert(GROUP_M >= 1, "GROUP_M >= 1");
static_assert(tc_warps_m() > 0, "no warp layout: BLOCK_M * BLOCK_N must be >= NUM_WARPS * 128");

/* Physical chunk of logical 16-byte chunk c in row r of a stage with `chunks` chunks per row (>= 4): the eight
 * rows that one ldmatrix reads at the same logical chunk land in eight different 128-byte bank groups. */
__device__ __forceinline__ int tc_swz(int r, int c, int chunks)
{
    return chunks >= 8 ? (c ^ (r & 7)) : (c ^ ((r >> 1) & 3));
}

__device__ __forceinline__ u32 tc_smem_addr(const void *p)
{
    return (u32)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void tc_cp_async16(u32 dst, const void *src, int src_bytes)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes));
}

__device__ __forceinline__ void tc_cp_async_commit()
{
    asm volatile("cp.async.commit_group;\n" ::);
}

template <int N>
__device__ __forceinline__ void tc_cp_async_wait()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

/* Per-thread state of the global -> shared copies, computed once per block so that the main loop spends a few
 * instructions per 16-byte chunk. NUM_THREADS is a multiple of the chunks per row (A_CHUNKS, B_CHUNKS <= 32), so
 * a thread copies the same chunk column of rows r0, r0 + RP, r0 + 2 RP, ... of each tile. */
#define A_RP (NUM_THREADS / A_CHUNKS)                              /* A rows per pass of the whole block */
#define A_IT (BLOCK_M >= A_RP ? BLOCK_M / A_RP : 1)
#define B_RP (NUM_THREADS / B_CHUNKS)                              /* B rows (k) per pass */
#define B_IT (BLOCK_K >= B_RP ? BLOCK_K / B_RP : 1)

struct tc_loader {
    const u16 *a_src;  /* A[bm0 + a_r0][a_c * 8] of k-tile 0 */
    const u16 *b_src;  /* B[b_r0][bn0 + b_c * 8] of k-tile 0 */
    int a_rows;        /* rows of A left below this thread's first row (M - bm0 - a_r0) */
    int a_col;         /* a_c * 8 */
    int b_row;         /* b_r0 */
    bool b_ok;         /* this thread's B column is inside N */
    int a_r0, a_c, b_r0, b_c;
};

__device__ __forceinline__ void tc_loader_init(tc_loader &L, const u16 *A, const u16 *B, int M, int N, int K, int bm0,
                                               int bn0, int tid)
{
    L.a_c = tid % A_CHUNKS;
    L.a_r0 = tid / A_CHUNKS;
    L.b_c = tid % B_CHUNKS;
    L.b_r0 = tid / B_CHUNKS;
    L.a_src = A + (size_t)(bm0 + L.a_r0) * K + L.a_c * 8;
    L.b_src = B + (size_t)L.b_r0 * N + bn0 + L.b_c * 8;
    L.a_rows = M - bm0 - L.a_r0;
    L.a_col = L.a_c * 8;
    L.b_row = L.b_r0;
    L.b_ok = bn0 + L.b_c * 8 < N;
}

/* Copy k-tile `kt` of A and B into stage buffers sA (BLOCK_M x BLOCK_K) and sB (BLOCK_K x BLOCK_N). */
__device__ __forceinline__ void tc_load_tile(const tc_loader &L, const u16 *A, const u16 *B, u16 *sA, u16 *sB, int N,
                                             int K, int kt)
{
    const int k0 = kt * BLOCK_K;
    const bool a_kok = k0 + L.a_col < K;
#pragma unroll
    for (int j = 0; j < A_IT; j++) {
        int r = L.a_r0 + j * A_RP;
        if (A_RP > BLOCK_M && r >= BLOCK_M)
            break;
        bool ok = a_kok && j * A_RP < L.a_rows;
        const u16 *src = ok ? L.a_src + (size_t)j * A_RP * K + k0 : A;
        tc_cp_async16(tc_smem_addr(sA + r * BLOCK_K + tc_swz(r, L.a_c, A_CHUNKS) * 8), src, ok ? 16 : 0);
    }
#pragma unroll
    for (int j = 0; j < B_IT; j++) {
        int r = L.b_r0 + j * B_RP;
        if (B_RP > BLOCK_K && r >= BLOCK_K)
            break;
        bool ok = L.b_ok && k0 + r < K;
        const u16 *src = ok ? L.b_src + (size_t)(k0 + j * B_RP) * N : B;
        tc_cp_async16(tc_smem_addr(sB + r * BLOCK_N + tc_swz(r, L.b_c, B_CHUNKS) * 8), src, ok ? 16 : 0);
    }
}

/* ldmatrix the A fragments (MI x 16x16) and B fragments (NI x 16x8) of k-step ks from one stage. */
__device__ __forceinline__ void tc_load_frags(const u16 *a_st, const u16 *b_st, int ks, int wm0, int wn0, int lane,
                                              u32 (&af)[MI][4], u32 (&bf)[NI][2])
{
#pragma unroll
    for (int i = 0; i < MI; i++) {
        int r = wm0 + i * 16 + (lane & 15), c = ks * 2 + (lane >> 4);
        u32 addr = tc_smem_addr(a_st + r * BLOCK_K + tc_swz(r, c, A_CHUNKS) * 8);
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                     : "=r"(af[i][0]), "=r"(af[i][1]), "=r"(af[i][2]), "=r"(af[i][3])
                     : "r"(addr));
    }
#pragma unroll
    for (int j = 0; j + 1 < NI; j += 2) {
        int r = ks * 16 + (lane & 7) + ((lane >> 3) & 1) * 8, c = (wn0 + j * 8) / 8 + (lane >> 4);
        u32 addr = tc_smem_addr(b_st + r * BLOCK_N + tc_swz(r, c, B_CHUNKS) * 8);
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                     : "=r"(bf[j][0]), "=r"(bf[j][1]), "=r"(bf[j + 1][0]), "=r"(bf[j + 1][1])
                     : "r"(addr));
    }
    if (NI % 2 == 1) {
        const int j = NI - 1;
        int r = ks * 16 + (lane & 7) + ((lane >> 3) & 1) * 8, c = (wn0 + j * 8) / 8;
        u32 addr = tc_smem_addr(b_st + r * BLOCK_N + tc_swz(r, c, B_CHUNKS) * 8);
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];\n"
                     : "=r"(bf[j][0]), "=r"(bf[j][1])
                     : "r"(addr));
    }
}

__device__ __forceinline__ u32 tc_pack_f16x2(float lo, float hi)
{
    u32 d;
    asm("cvt.rn.f16x2.f32 %0, %1, %2;\n" : "=r"(d) : "f"(hi), "f"(lo));
    return d;
}

extern "C" __global__ void __launch_bounds__(NUM_THREADS, MIN_BLOCKS)
tc_gemm_f16(const u16 *__restrict__ A, const u16 *__restrict__ B, u16 *__restrict__ C, int M, int N, int K)
{
    extern __shared__ __align__(128) u16 smem[];
    u16 *sA = smem;                                        /* NUM_STAGES x BLOCK_M x BLOCK_K */
    u16 *sB = smem + NUM_STAGES * BLOCK_M * BLOCK_K;       /* NUM_STAGES x BLOCK_K x BLOCK_N */

    /* GROUP_M swizzle, exactly Triton's matmul tutorial. */
    const int pid = blockIdx.x;
    const int num_pid_m = (M + BLOCK_M - 1) / BLOCK_M;
    const int num_pid_n = (N + BLOCK_N - 1) / BLOCK_N;
    const int num_pid_in_group = GROUP_M * num_pid_n;
    const int group_id = pid / num_pid_in_group;
    const int first_pid_m = group_id * GROUP_M;
    const int group_size_m = min(num_pid_m - first_pid_m, GROUP_M);
    const int pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m);
    const int pid_n = (pid % num_pid_in_group) / group_size_m;
    const int bm0 = pid_m * BLOCK_M, bn0 = pid_n * BLOCK_N;

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int wm0 = (warp / WARPS_N) * WARP_TM; /* warp tile origin inside the block tile */
    const int wn0 = (warp % WARPS_N) * WARP_TN;

    float acc[MI][NI][4];
#pragma unroll
    for (int i = 0; i < MI; i++)
#pragma unroll
        for (int j = 0; j < NI; j++)
#pragma unroll
            for (int e = 0; e < 4; e++)
                acc[i][j][e] = 0.0f;

    tc_loader L;
    tc_loader_init(L, A, B, M, N, K, bm0, bn0, tid);
    const int KT = (K + BLOCK_K - 1) / BLOCK_K;
    constexpr int KS = BLOCK_K / 16; /* mma k-steps per k-tile (>= 2) */
#pragma unroll
    for (int s = 0; s < NUM_STAGES - 1; s++) {
        if (s < KT)
            tc_load_tile(L, A, B, sA + s * BLOCK_M * BLOCK_K, sB + s * BLOCK_K * BLOCK_N, N, K, s);
        tc_cp_async_commit();
    }
    tc_cp_async_wait<NUM_STAGES - 2>(); /* k-tile 0 has landed (for this thread) */
    __syncthreads();                     /* ... for every thread */

    /* Main loop in the manner of CUTLASS's multistage GEMM: fragments double-buffered in registers; the wait for
     * the next k-tile and the barrier come after the second-to-last k-step's mma, so the last k-step's mma (its
     * fragments already loaded) covers the barrier and the first ldmatrix of the next tile. Each k-tile
     * iteration commits one cp.async group (k-tile kt + NUM_STAGES - 1, into the stage read in iteration kt - 1,
     * which every thread has left behind at that iteration's barrier). */
    int rd = 0, wr = NUM_STAGES - 1;
    u32 af[2][MI][4], bf[2][NI][2];
    tc_load_frags(sA, sB, 0, wm0, wn0, lane, af[0], bf[0]);
    for (int kt = 0; kt < KT; kt++) {
#pragma unroll
        for (int ks = 0; ks < KS; ks++) {
            if (ks == 0) {
                if (kt + NUM_STAGES - 1 < KT)
                    tc_load_tile(L, A, B, sA + wr * BLOCK_M * BLOCK_K, sB + wr * BLOCK_K * BLOCK_N, N, K,
                                 kt + NUM_STAGES - 1);
            }
            /* fragments of the next k-step: this stage's, or after the barrier the next stage's first */
            tc_load_frags(sA + rd * BLOCK_M * BLOCK_K, sB + rd * BLOCK_K * BLOCK_N, (ks + 1) % KS, wm0, wn0, lane,
                          af[(ks + 1) & 1], bf[(ks + 1) & 1]);
#pragma unroll
            for (int i = 0; i < MI; i++)
#pragma unroll
                for (int j = 0; j < NI; j++)
                    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
                                 "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                                 : "+f"(acc[i][j][0]), "+f"(acc[i][j][1]), "+f"(acc[i][j][2]), "+f"(acc[i][j][3])
                                 : "r"(af[ks & 1][i][0]), "r"(af[ks & 1][i][1]), "r"(af[ks & 1][i][2]),
                                   "r"(af[ks & 1][i][3]), "r"(bf[ks & 1][j][0]), "r"(bf[ks & 1][j][1]));
            if (ks == KS - 2) {
                tc_cp_async_commit();
                tc_cp_async_wait<NUM_STAGES - 2>(); /* k-tile kt + 1 has landed */
                __syncthreads();
                rd = rd + 1 == NUM_STAGES ? 0 : rd + 1;
                wr = wr + 1 == NUM_STAGES ? 0 : wr + 1;
            }
        }
    }
    tc_cp_async_wait<0>();

#if TC_VARIANT == 1
    if (pid == 0 && tid == 0)
        acc[0][0][0] += 1000.0f; /* deliberately wrong: C[0][0] off by 1000 */
#endif
#if TC_VARIANT == 2 || (TC_VARIANT == 4 && NUM_WARPS == 4)
    if (tid == 0)
        C[(size_t)1 << 40] = 0; /* deliberately faulting: far outside any allocation */
#endif
#if TC_VARIANT == 3
    this is not C++; /* deliberately a compile error */
#endif

    /* Epilogue: accumulator element e of fragment (i, j) is row lane/4 (+8 for e >= 2), columns 2*(lane%4)+{0,1}.
     * N is a multiple of 8, so a column pair is either wholly inside or wholly outside. */
#pragma unroll
    for (int i = 0; i < MI; i++) {
#pragma unroll
        for (int j = 0; j < NI; j++) {
            int row = bm0 + wm0 + i * 16 + (lane >> 2);
            int col = bn0 + wn0 + j * 8 + (lane & 3) * 2;
            if (col < N) {
                if (row < M)
                    *(u32 *)(C + (size_t)row * N + col) = tc_pack_f16x2(acc[i][j][0], acc[i][j][1]);
                if (row + 8 < M)
                    *(u32 *)(C + (size_t)(row + 8) * N + col) = tc_pack_f16x2(acc[i][j][2], acc[i][j][3]);
            }
        }
    }
}
