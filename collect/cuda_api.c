/* cuda_api.c — dlopen the CUDA driver and resolve the collector's table of driver functions; error checkers. */
#include "cuda_api.h"
#include "tc_err.h"

#include <dlfcn.h>
#include <stdio.h>

struct cuapi cu;
static int loaded;

int cuapi_load(void)
{
    void *lib;
    __typeof__(cuGetProcAddress) *get_proc;

    if (loaded)
        return 0;
    lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (lib == NULL)
        return tc_seterr("no CUDA driver: cannot load libcuda.so.1 (%s); collect needs an NVIDIA GPU and driver",
                         dlerror());
    get_proc = (__typeof__(cuGetProcAddress) *)dlsym(lib, "cuGetProcAddress_v2");
    if (get_proc == NULL)
        return tc_seterr("the CUDA driver is too old: libcuda.so.1 has no cuGetProcAddress_v2 (this build needs "
                         "a driver for CUDA %d.%d or newer)", CUDA_VERSION / 1000, CUDA_VERSION % 1000 / 10);
#define CUAPI_RESOLVE(f)                                                                                      \
    {                                                                                                         \
        void *p = NULL;                                                                                       \
        CUdriverProcAddressQueryResult q = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;                              \
        if (get_proc(#f, &p, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &q) != CUDA_SUCCESS || p == NULL)     \
            return tc_seterr("the CUDA driver lacks %s for CUDA %d.%d (query result %d): update the driver",  \
                             #f, CUDA_VERSION / 1000, CUDA_VERSION % 1000 / 10, (int)q);                     \
        *(void **)&cu.f = p;                                                                                  \
    }
    CUAPI_FUNCS(CUAPI_RESOLVE)
#undef CUAPI_RESOLVE
    loaded = 1;
    return 0;
}

int cuapi_check_cu(CUresult r, const char *expr, const char *file, int line)
{
    const char *name = NULL, *desc = NULL;
    if (r == CUDA_SUCCESS)
        return 0;
    if (loaded) {
        cu.cuGetErrorName(r, &name);
        cu.cuGetErrorString(r, &desc);
    }
    return tc_seterr("%s failed: %s (%s) at %s:%d", expr, name ? name : "?", desc ? desc : "?", file, line);
}

int cuapi_check_nvrtc(nvrtcResult r, const char *expr, const char *file, int line)
{
    if (r == NVRTC_SUCCESS)
        return 0;
    return tc_seterr("%s failed: %s at %s:%d", expr, nvrtcGetErrorString(r), file, line);
}

int cuapi_check_cupti(CUptiResult r, const char *expr, const char *file, int line)
{
    const char *s = NULL;
    if (r == CUPTI_SUCCESS)
        return 0;
    cuptiGetResultString(r, &s);
    return tc_seterr("%s failed: %s at %s:%d", expr, s ? s : "?", file, line);
}

int cuapi_check_cublas(cublasStatus_t r, const char *expr, const char *file, int line)
{
    if (r == CUBLAS_STATUS_SUCCESS)
        return 0;
    return tc_seterr("%s failed: %s (%s) at %s:%d", expr, cublasGetStatusName(r), cublasGetStatusString(r), file,
                     line);
}
