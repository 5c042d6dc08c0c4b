/* cuda_api.h — the CUDA driver, NVRTC, CUPTI and cuBLAS through dlopen, and one checking-macro family for all
 * four. `tunecost` links none of them: it starts (and runs every other subcommand) on machines without an NVIDIA
 * driver or CUDA libraries, and its start does not pay for mapping and relocating ~700 MB of cuBLAS/NVRTC that
 * only the benchmarking child and the compile workers use (each loads what it needs, in parallel). */
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
    X(cuStreamCreate) X(cuStreamSynchronize) X(cuGetErrorString) X(cuGetErrorName) X(cuTensorMapEncodeTiled)   \
    X(cuOccupancyMaxActiveBlocksPerMultiprocessor)

struct cuapi {
#define CUAPI_SLOT(f) __typeof__(f) *f;
    CUAPI_FUNCS(CUAPI_SLOT)
#undef CUAPI_SLOT
};

/* The table; valid after cuapi_load() returned 0. */
extern struct cuapi cu;

/* The NVRTC, cuBLAS and CUPTI functions the collector uses, by their header names. */
#define NVRAPI_FUNCS(X)                                                                                       \
    X(nvrtcCreateProgram) X(nvrtcCompileProgram) X(nvrtcDestroyProgram) X(nvrtcGetCUBINSize) X(nvrtcGetCUBIN) \
    X(nvrtcGetProgramLogSize) X(nvrtcGetProgramLog) X(nvrtcGetErrorString)
#define CBLAPI_FUNCS(X)                                                                                       \
    X(cublasCreate_v2) X(cublasSetStream_v2) X(cublasGemmEx) X(cublasGetStatusName) X(cublasGetStatusString)
#define CPTAPI_FUNCS(X)                                                                                       \
    X(cuptiActivityRegisterCallbacks) X(cuptiActivityEnable) X(cuptiActivityFlushAll)                        \
    X(cuptiActivityGetNextRecord) X(cuptiGetResultString)

#define CUAPI_SLOT(f) __typeof__(f) *f;
struct nvrapi {
    NVRAPI_FUNCS(CUAPI_SLOT)
};
struct cblapi {
    CBLAPI_FUNCS(CUAPI_SLOT)
};
struct cptapi {
    CPTAPI_FUNCS(CUAPI_SLOT)
};
#undef CUAPI_SLOT

/* The tables; valid after the matching loader returned 0. */
extern struct nvrapi nvr;
extern struct cblapi cbl;
extern struct cptapi cpt;

/* Load libnvrtc / libcublas / libcupti of the toolkit this build used (its lib64 first, then the loader's search
 * path) and resolve the table. Idempotent; not thread-safe (load before starting threads). 0, or -1 with a one-line
 * message naming the library. */
int cuapi_load_nvrtc(void);
int cuapi_load_cublas(void);
int cuapi_load_cupti(void);

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
