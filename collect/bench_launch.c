/* bench_launch.c — the benchmarking child's launches: the GEMM of the current module (with the wgmma path's tensor
 * maps), cuBLAS's reference call, the L2 flush and the 1-D helper kernels. The floor below bench_protocol.c (which
 * times them) and bench_gpu.c (which sets up what they launch): it calls neither. */
#include "bench_int.h"

#include <string.h>

CUresult bench_launch_1d(struct gpu *g, CUfunction f, unsigned blocks, unsigned threads, void **args)
{
    return cu.cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0, g->stream, args, NULL);
}

CUresult bench_launch_flush(struct gpu *g)
{
    uint64_t n16 = (uint64_t)g->d.flush_bytes / 16;
    void *args[] = {&g->flush, &n16};
    return bench_launch_1d(g, g->f_flush, (unsigned)g->d.sms * 8, 256, args);
}

/* The wgmma path's tensor maps of the current input (kernels/gemm_f16_wgmma.cu's header says what it expects):
 * A as {K, M}, B as {N, K}, fp16, boxes of one panel (A_W x BLOCK_M, B_W x BLOCK_K) swizzled by the panel's
 * width in bytes, zeros out of bounds. Encoded once per (module, input). */
static CUresult encode_tmaps(struct gpu *g, struct module *md)
{
    const int32_t *p = md->params;
    int a_w, b_w;
    CUresult r;
    space_wgmma_panels(p, &a_w, &b_w);
    cuuint64_t dim_a[2] = {(cuuint64_t)g->k, (cuuint64_t)g->m}, dim_b[2] = {(cuuint64_t)g->n, (cuuint64_t)g->k};
    cuuint64_t str_a[1] = {(cuuint64_t)g->k * 2}, str_b[1] = {(cuuint64_t)g->n * 2};
    cuuint32_t box_a[2] = {(cuuint32_t)a_w, (cuuint32_t)p[SP_BLOCK_M]}, box_b[2] = {(cuuint32_t)b_w, (cuuint32_t)p[SP_BLOCK_K]};
    cuuint32_t es[2] = {1, 1};
#define TC_SWZ(w) ((w) == 64 ? CU_TENSOR_MAP_SWIZZLE_128B : (w) == 32 ? CU_TENSOR_MAP_SWIZZLE_64B : CU_TENSOR_MAP_SWIZZLE_32B)
    CUtensorMap ta, tb; /* aligned as the driver requires (64 bytes); the module array is only malloc-aligned */
    r = cu.cuTensorMapEncodeTiled(&ta, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, (void *)g->a, dim_a, str_a, box_a, es,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE, TC_SWZ(a_w), CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r == CUDA_SUCCESS)
        r = cu.cuTensorMapEncodeTiled(&tb, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, (void *)g->b, dim_b, str_b, box_b,
                                      es, CU_TENSOR_MAP_INTERLEAVE_NONE, TC_SWZ(b_w), CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
#undef TC_SWZ
    if (r == CUDA_SUCCESS) {
        memcpy(&md->tm[0], &ta, sizeof ta);
        memcpy(&md->tm[1], &tb, sizeof tb);
        md->tmap_input = g->input_gen;
    }
    return r;
}

CUresult bench_launch_gemm(struct gpu *g)
{
    struct module *md = g->cur;
    const int32_t *p = md->params;
    int m = (int)g->m, n = (int)g->n, k = (int)g->k;
    unsigned grid = (unsigned)(((m + p[SP_BLOCK_M] - 1) / p[SP_BLOCK_M]) * ((n + p[SP_BLOCK_N] - 1) / p[SP_BLOCK_N]));
    unsigned smem = (unsigned)space_smem_bytes_on(p, md->path);
    if (md->path == SPACE_PATH_WGMMA) {
        CUresult r = md->tmap_input == g->input_gen ? CUDA_SUCCESS : encode_tmaps(g, md);
        void *wargs[] = {&md->tm[0], &md->tm[1], &g->c, &m, &n, &k};
        unsigned slots = (unsigned)(g->d.sms * (md->resident > 0 ? md->resident : 1));
        if (r != CUDA_SUCCESS)
            return r;
        return cu.cuLaunchKernel(md->fn, grid < slots ? grid : slots, 1, 1, (unsigned)space_wgmma_threads(p), 1, 1,
                                 smem, g->stream, wargs, NULL);
    }
    void *args[] = {&g->a, &g->b, &g->c, &m, &n, &k};
    return cu.cuLaunchKernel(md->fn, grid, 1, 1, (unsigned)p[SP_NUM_WARPS] * 32, 1, 1, smem, g->stream, args, NULL);
}

/* cuBLAS, row-major C = A B computed as column-major C^T = B^T A^T. Returns 0 or -1. */
int bench_launch_ref(struct gpu *g)
{
    const float alpha = 1.0f, beta = 0.0f;
    int rc = -1;
    TC_TRY(cublas, cbl.cublasGemmEx(g->blas, CUBLAS_OP_N, CUBLAS_OP_N, (int)g->n, (int)g->m, (int)g->k, &alpha,
                                (const void *)g->b, CUDA_R_16F, (int)g->n, (const void *)g->a, CUDA_R_16F,
                                (int)g->k, &beta, (void *)g->cref, CUDA_R_16F, (int)g->n, CUBLAS_COMPUTE_32F,
                                CUBLAS_GEMM_DEFAULT));
    rc = 0;
out:
    return rc;
}

int bench_launch_target(struct gpu *g, enum target t)
{
    int rc = -1;
    if (t == T_REF)
        return bench_launch_ref(g);
    TC_TRY(cu, bench_launch_gemm(g));
    rc = 0;
out:
    return rc;
}

