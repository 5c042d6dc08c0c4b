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

/* Load lib<name> once and resolve the n symbols syms[] into *slots[]. */
static int load_toolkit(const char *name, int *loaded_flag, const char *const *syms, void **const *slots, size_t n)
{
    void *lib;
    if (*loaded_flag)
        return 0;
    if ((lib = open_toolkit_lib(name)) == NULL)
        return -1;
    for (size_t i = 0; i < n; i++)
        if ((*slots[i] = dlsym(lib, syms[i])) == NULL)
            return tc_seterr("lib%s of the CUDA toolkit lacks %s", name, syms[i]);
    *loaded_flag = 1;
    return 0;
}

#define SYM_NAME(f) #f,
#define NVR_SLOT(f) (void **)&nvr.f,
#define CBL_SLOT(f) (void **)&cbl.f,
#define CPT_SLOT(f) (void **)&cpt.f,
static const char *const nvr_syms[] = {NVRAPI_FUNCS(SYM_NAME)};
static void **const nvr_slots[] = {NVRAPI_FUNCS(NVR_SLOT)};
static const char *const cbl_syms[] = {CBLAPI_FUNCS(SYM_NAME)};
static void **const cbl_slots[] = {CBLAPI_FUNCS(CBL_SLOT)};
static const char *const cpt_syms[] = {CPTAPI_FUNCS(SYM_NAME)};
static void **const cpt_slots[] = {CPTAPI_FUNCS(CPT_SLOT)};

int cuapi_load_nvrtc(void)
{
    return load_toolkit("nvrtc", &nvr_loaded, nvr_syms, nvr_slots, sizeof nvr_syms / sizeof *nvr_syms);
}

int cuapi_load_cublas(void)
{
    return load_toolkit("cublas", &cbl_loaded, cbl_syms, cbl_slots, sizeof cbl_syms / sizeof *cbl_syms);
}

int cuapi_load_cupti(void)
{
    return load_toolkit("cupti", &cpt_loaded, cpt_syms, cpt_slots, sizeof cpt_syms / sizeof *cpt_syms);
}

int cuapi_load(void)
{
    void *lib;
    __typeof__(cuGetProcAddress) *get_proc;

    if (loaded)
        return 0;
    lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (lib == NULL)
        return tc_seterr("no CUDA driver: cannot load libcuda.so.1 (%s); collect needs an NVIDIA GPU and driver "
                         "to measure (collect --compile-only, which only compiles the kernels, works without one)",
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
