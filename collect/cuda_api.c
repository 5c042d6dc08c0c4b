/* cuda_api.c — dlopen the CUDA driver, NVRTC, cuBLAS and CUPTI and resolve the collector's tables; error
 * checkers. */
#include "cuda_api.h"
#include "tc_err.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

struct cuapi cu;
struct nvrapi nvr;
struct cblapi cbl;
struct cptapi cpt;
static int loaded, nvr_loaded, cbl_loaded, cpt_loaded;

#ifndef TC_CUDA_LIBDIRS
#define TC_CUDA_LIBDIRS "/usr/local/cuda/lib64"
#endif

/* dlopen lib<name>.so.<CUDA major> from the toolkit's library folders (TC_CUDA_LIBDIRS, ':'-separated, set by
 * meson from -Dcudadir), then by the loader's search path. */
static void *open_toolkit_lib(const char *name)
{
    char path[1024], soname[64], dirs[] = TC_CUDA_LIBDIRS, *save = NULL;
    void *lib;
    snprintf(soname, sizeof soname, "lib%s.so.%d", name, CUDA_VERSION / 1000);
    for (char *d = strtok_r(dirs, ":", &save); d != NULL; d = strtok_r(NULL, ":", &save)) {
        snprintf(path, sizeof path, "%s/%s", d, soname);
        if ((lib = dlopen(path, RTLD_NOW | RTLD_LOCAL)) != NULL)
            return lib;
    }
    lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL)
        tc_seterr("cannot load %s of the CUDA %d toolkit (looked in %s and the loader's path): %s", soname,
                  CUDA_VERSION / 1000, TC_CUDA_LIBDIRS, dlerror());
    return lib;
}

#define TOOLKIT_RESOLVE(f)                                                                                    \
    if ((*(void **)&tab.f = dlsym(lib, #f)) == NULL)                                                          \
        return tc_seterr("%s of the CUDA toolkit lacks %s", libname, #f);

int cuapi_load_nvrtc(void)
{
    const char *libname = "libnvrtc";
    void *lib;
    if (nvr_loaded)
        return 0;
    if ((lib = open_toolkit_lib("nvrtc")) == NULL)
        return -1;
#define tab nvr
    NVRAPI_FUNCS(TOOLKIT_RESOLVE)
#undef tab
    nvr_loaded = 1;
    return 0;
}

int cuapi_load_cublas(void)
{
    const char *libname = "libcublas";
    void *lib;
    if (cbl_loaded)
        return 0;
    if ((lib = open_toolkit_lib("cublas")) == NULL)
        return -1;
#define tab cbl
    CBLAPI_FUNCS(TOOLKIT_RESOLVE)
#undef tab
    cbl_loaded = 1;
    return 0;
}

int cuapi_load_cupti(void)
{
    const char *libname = "libcupti";
    void *lib;
    if (cpt_loaded)
        return 0;
    if ((lib = open_toolkit_lib("cupti")) == NULL)
        return -1;
#define tab cpt
    CPTAPI_FUNCS(TOOLKIT_RESOLVE)
#undef tab
    cpt_loaded = 1;
    return 0;
}

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
    return tc_seterr("%s failed: %s at %s:%d", expr, nvr_loaded ? nvr.nvrtcGetErrorString(r) : "?", file, line);
}

int cuapi_check_cupti(CUptiResult r, const char *expr, const char *file, int line)
{
    const char *s = NULL;
    if (r == CUPTI_SUCCESS)
        return 0;
    if (cpt_loaded)
        cpt.cuptiGetResultString(r, &s);
    return tc_seterr("%s failed: %s at %s:%d", expr, s ? s : "?", file, line);
}

int cuapi_check_cublas(cublasStatus_t r, const char *expr, const char *file, int line)
{
    if (r == CUBLAS_STATUS_SUCCESS)
        return 0;
    if (!cbl_loaded)
        return tc_seterr("%s failed: status %d at %s:%d", expr, (int)r, file, line);
    return tc_seterr("%s failed: %s (%s) at %s:%d", expr, cbl.cublasGetStatusName(r), cbl.cublasGetStatusString(r),
                     file, line);
}
