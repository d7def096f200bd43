/* The GPU engine's API in builds without CUDA (PETREL_CUDA=OFF, or no nvcc
 * found): no device, and every exploration is refused. Builds with CUDA get
 * kernels/gpu_engine.cu instead. */
#ifndef PETREL_HAVE_CUDA

#include "petrel/gpu.h"

#include <stdio.h>
#include <string.h>

bool pn_gpu_available(char *why, size_t len)
{
    if (why != NULL && len > 0)
        snprintf(why, len, "this build has no CUDA engine");
    return false;
}

pn_status pn_gpu_explore(const pn_cnet *cn, const pn_engine_opts *opts,
                         pn_engine_result *res, pn_error *err)
{
    (void)cn;
    (void)opts;
    if (res != NULL)
        memset(res, 0, sizeof *res);
    return pn_fail(err, PN_ERR_UNSUPPORTED,
                   "--engine gpu: this build has no CUDA engine (rebuild with nvcc and "
                   "-DPETREL_CUDA=ON)");
}

pn_status pn_gpu_walk(const pn_cnet *cn, const struct pn_item *items, uint32_t n,
                      const struct pn_walk_opts *o, struct pn_item_found *found,
                      pn_error *err)
{
    (void)cn;
    (void)items;
    (void)n;
    (void)o;
    (void)found;
    return pn_fail(err, PN_ERR_UNSUPPORTED, "no usable GPU: this build has no CUDA engine");
}

#else
/* ISO C forbids an empty translation unit. */
typedef int pn_gpu_stub_unused;
#endif
