/* cuda_api.h — the CUDA driver API through dlopen("libcuda.so.1"), and one checking-macro family for the
 * driver, NVRTC, CUPTI and cuBLAS. `tunecost` never links libcuda, so it starts (and runs every other
 * subcommand) on machines without an NVIDIA driver; collect then fails with one clear line. */
#ifndef COLLECT_CUDA_API_H
#define COLLECT_CUDA_API_H

#include <cublas_v2.h>
#include <cuda.h>
#include <cupti.h>
#include <nvrtc.h>

/* The driver functions the collector uses. Each slot has the prototype of the header's (versioned) symbol and
 * is resolved with cuGetProcAddress for the CUDA_VERSION the collector was built with. */
#define CUAPI_FUNCS(X)                                                                                        \
    X(cuInit) X(cuDriverGetVersion) X(cuDeviceGet) X(cuDeviceGetCount) X(cuDeviceGetName)                    \
    X(cuDeviceGetAttribute) X(cuDevicePrimaryCtxRetain) X(cuCtxSetCurrent) X(cuCtxSynchronize)               \
    X(cuMemAlloc) X(cuMemFree) X(cuMemcpyDtoH) X(cuMemcpyHtoD) X(cuMemsetD8) X(cuModuleLoadData)             \
    X(cuModuleUnload) X(cuModuleGetFunction) X(cuFuncSetAttribute) X(cuFuncGetAttribute) X(cuLaunchKernel)   \
    X(cuEventCreate) X(cuEventRecord) X(cuEventSynchronize) X(cuEventElapsedTime) X(cuEventDestroy)          \
    X(cuStreamCreate) X(cuStreamSynchronize) X(cuGetErrorString) X(cuGetErrorName)

struct cuapi {
#define CUAPI_SLOT(f) __typeof__(f) *f;
    CUAPI_FUNCS(CUAPI_SLOT)
#undef CUAPI_SLOT
};

/* The table; valid after cuapi_load() returned 0. */
extern struct cuapi cu;

/* Load libcuda.so.1 and resolve every slot. Idempotent. Returns 0, or -1 with a one-line message (no driver,
 * driver too old for this build). */
int cuapi_load(void);

/* Checkers: 0 if `r` is success, else -1 with "EXPR failed: NAME (description) at FILE:LINE" in tc_errmsg. */
int cuapi_check_cu(CUresult r, const char *expr, const char *file, int line);
int cuapi_check_nvrtc(nvrtcResult r, const char *expr, const char *file, int line);
int cuapi_check_cupti(CUptiResult r, const char *expr, const char *file, int line);
int cuapi_check_cublas(cublasStatus_t r, const char *expr, const char *file, int line);

/* TC_TRY(cu, cu.cuMemAlloc(&p, n)) -> on failure sets the message and jumps to the function's `out:` label. */
#define TC_TRY(kind, expr)                                                                                    \
    do {                                                                                                      \
        if (cuapi_check_##kind((expr), #expr, __FILE__, __LINE__) != 0)                                      \
            goto out;                                                                                         \
    } while (0)

#endif
