/* helpers.cu — the collector's utility kernels, compiled once per collection by NVRTC (collect/bench.c):
 * random fp16 inputs, output poisoning, the L2 flush (its own kernel, so CUPTI times it apart from the GEMM)
 * and the relative Frobenius error against the cuBLAS result. No tunable parameters. */
typedef unsigned short u16;
typedef unsigned long long u64;

__device__ __forceinline__ u16 tc_f2h(float f)
{
    u16 h;
    asm("cvt.rn.f16.f32 %0, %1;\n" : "=h"(h) : "f"(f));
    return h;
}

__device__ __forceinline__ float tc_h2f(u16 h)
{
    float f;
    asm("cvt.f32.f16 %0, %1;\n" : "=f"(f) : "h"(h));
    return f;
}

/* splitmix64: a counter-based generator, so the data depend on (seed, index) alone. */
__device__ __forceinline__ u64 tc_mix(u64 z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* p[i] = uniform in [-1, 1), rounded to fp16. */
extern "C" __global__ void tc_fill_random(u16 *p, u64 n, u64 seed)
{
    for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
        u64 z = tc_mix(seed * 0x100000001b3ULL + i);
        float u = (float)(z >> 40) * (1.0f / 16777216.0f); /* [0, 1) with 24 bits */
        p[i] = tc_f2h(2.0f * u - 1.0f);
    }
}

/* p[i] = v (poison outputs with NaN before a verification launch). */
extern "C" __global__ void tc_fill_u16(u16 *p, u64 n, u16 v)
{
    for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x)
        p[i] = v;
}

/* The L2 flush: write zeros over the whole buffer (Triton's cache.zero_()); n16 = bytes / 16. */
extern "C" __global__ void tc_flush_l2(uint4 *p, u64 n16)
{
    uint4 z = make_uint4(0, 0, 0, 0);
    for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n16; i += (u64)gridDim.x * blockDim.x)
        p[i] = z;
}

/* out[0] += sum (c - ref)^2, out[1] += sum ref^2, out[2] += count of non-finite c; out zeroed by the caller.
 * blockDim.x must be 256. */
extern "C" __global__ void tc_rel_error(const u16 *c, const u16 *ref, u64 n, double *out)
{
    __shared__ double s_d[256], s_r[256], s_bad[256];
    double d2 = 0.0, r2 = 0.0, bad = 0.0;
    for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
        float x = tc_h2f(c[i]), y = tc_h2f(ref[i]);
        if (!isfinite(x)) {
            bad += 1.0;
            continue;
        }
        double d = (double)x - (double)y;
        d2 += d * d;
        r2 += (double)y * (double)y;
    }
    s_d[threadIdx.x] = d2;
    s_r[threadIdx.x] = r2;
    s_bad[threadIdx.x] = bad;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (threadIdx.x < s) {
            s_d[threadIdx.x] += s_d[threadIdx.x + s];
            s_r[threadIdx.x] += s_r[threadIdx.x + s];
            s_bad[threadIdx.x] += s_bad[threadIdx.x + s];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        atomicAdd(&out[0], s_d[0]);
        atomicAdd(&out[1], s_r[0]);
        atomicAdd(&out[2], s_bad[0]);
    }
}
