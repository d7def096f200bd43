/* Random walks on the device (include/petrel/gpu.h: pn_gpu_walk), the GPU
 * form of host/engine/walk.c's memory-less walks (ITS-Tools' first step;
 * Thierry-Mieg, "Structural reductions revisited", Petri Nets 2020): one
 * walk per resident thread, each launch a few dozen steps of every walk
 * (gpu_walk_kernel, with the per-state code of kernels/pn_walk.h and
 * kernels/pn_items.h), the host polling the deadline and the items'
 * counters between launches. A field that overflows is flagged by the
 * walk, which restarts; the host then widens the flagged places
 * (pn_layout_widen, the one policy), repacks m0 and restarts every walk. */
#include "petrel/gpu.h"

#include <stdlib.h>
#include <string.h>

#include "net/layout.h"
#include "petrel/walk.h"
#include "gpu_launch.h"
#include "pn_walk.h"

#define GPU_WALK_STEPS 100000ULL
/* Walk state on the device at most: fewer walks on very wide markings. */
#define GPU_WALK_STATE_BYTES (256ULL << 20)

typedef struct gpu_walker {
    const pn_cnet *cn;
    const pn_walk_opts *o;
    pn_error *err;
    cudaStream_t stream;
    bool have_stream;
    gpu_policy pol;
    uint64_t walks, max_steps;
    uint8_t *widths, *widen;
    pn_layout *lay;
    void *d_blob;
    pn_prog d_prog;
    gpu_items dev;
    gpu_counters *d_ctr, h_ctr;
    uint8_t *d_widen;
    uint64_t *d_m0, *d_state, *d_rng, *d_step;
} gpu_walker;

#define GPU_WALK_TRY(w, call, what)                                                        \
    do {                                                                                   \
        cudaError_t rc_ = (call);                                                          \
        if (rc_ != cudaSuccess)                                                            \
            return gpu_dev_fail((w)->err, rc_, what, "gpu_walk.cu", __LINE__);            \
    } while (0)

/* Every walk back at m0 (packed in the current layout), step 0. */
static int gpu_walk_reset(gpu_walker *w)
{
    const uint32_t W = w->lay->prog.words;
    uint64_t *m0 = (uint64_t *)calloc(W, sizeof *m0);
    uint64_t *all = (uint64_t *)malloc(w->walks * W * sizeof *all);
    int r = 0;
    if (m0 == NULL || all == NULL) {
        pn_fail(w->err, PN_ERR_NOMEM, "out of memory for random walks");
        r = GPU_FAILED;
    } else {
        pn_layout_pack(w->lay, w->cn->m0, m0);
        for (uint64_t i = 0; i < w->walks; i++)
            memcpy(all + i * W, m0, W * sizeof *m0);
        gpu_dev_free(w->d_m0);
        gpu_dev_free(w->d_state);
        w->d_m0 = w->d_state = NULL;
        r = gpu_dev_upload(w->err, (void **)&w->d_m0, m0, W * sizeof *m0, w->stream);
        if (r == 0)
            r = gpu_dev_upload(w->err, (void **)&w->d_state, all, w->walks * W * sizeof *all,
                               w->stream);
    }
    free(m0);
    free(all);
    if (r == 0)
        GPU_WALK_TRY(w, cudaMemsetAsync(w->d_step, 0, w->walks * sizeof(uint64_t), w->stream),
                     "cudaMemsetAsync");
    return r;
}

/* The packing for the current widths, on the device. */
static int gpu_walk_layout(gpu_walker *w)
{
    pn_layout *lay = NULL;
    if (pn_layout_new(w->cn, w->widths, &lay, w->err) != PN_OK)
        return GPU_FAILED;
    pn_layout_free(w->lay);
    w->lay = lay;
    gpu_dev_free(w->d_blob);
    w->d_blob = NULL;
    return gpu_dev_upload_prog(w->err, &lay->prog, &w->d_blob, &w->d_prog, w->stream);
}

static int gpu_walk_setup(gpu_walker *w, const pn_item *items, uint32_t n)
{
    int dev = 0, sms = 0, per_sm = 0, cc = 0;
    GPU_WALK_TRY(w, cudaGetDevice(&dev), "cudaGetDevice");
    GPU_WALK_TRY(w, cudaDeviceGetAttribute(&cc, cudaDevAttrComputeCapabilityMajor, dev),
                 "cudaDeviceGetAttribute");
    GPU_WALK_TRY(w, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev),
                 "cudaDeviceGetAttribute");
    GPU_WALK_TRY(w, cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev),
                 "cudaDeviceGetAttribute");
    GPU_WALK_TRY(w, cudaStreamCreateWithFlags(&w->stream, cudaStreamNonBlocking),
                 "cudaStreamCreateWithFlags");
    w->have_stream = true;
    w->pol = gpu_policy_for(cc, GPU_K_WALK);
    w->widen = (uint8_t *)calloc((size_t)w->cn->n_places + 1, 1);
    if (w->widen == NULL || pn_layout_initial_widths(w->cn, &w->widths, w->err) != PN_OK) {
        pn_fail(w->err, PN_ERR_NOMEM, "out of memory for random walks");
        return GPU_FAILED;
    }
    int r = gpu_walk_layout(w);
    if (r != 0)
        return r;
    uint64_t words = w->lay->prog.words;
    w->walks = (uint64_t)(sms > 0 ? sms : 1) * (uint64_t)(per_sm > 0 ? per_sm : 1);
    if (w->walks > GPU_WALKS_MAX)
        w->walks = GPU_WALKS_MAX;
    if (w->walks * words * sizeof(uint64_t) > GPU_WALK_STATE_BYTES)
        w->walks = GPU_WALK_STATE_BYTES / (words * sizeof(uint64_t)) + 1;
    uint64_t *rng = (uint64_t *)malloc(w->walks * sizeof *rng);
    if (rng == NULL) {
        pn_fail(w->err, PN_ERR_NOMEM, "out of memory for random walks");
        return GPU_FAILED;
    }
    for (uint64_t i = 0; i < w->walks; i++)
        rng[i] = pn_walk_seed(w->o->seed, i);
    r = gpu_dev_upload(w->err, (void **)&w->d_rng, rng, w->walks * sizeof *rng, w->stream);
    free(rng);
    memset(&w->h_ctr, 0, sizeof w->h_ctr);
    if (r == 0)
        r = gpu_dev_upload(w->err, (void **)&w->d_ctr, &w->h_ctr, sizeof w->h_ctr, w->stream);
    if (r == 0)
        r = gpu_dev_upload(w->err, (void **)&w->d_widen, w->widen, w->cn->n_places + 1,
                           w->stream);
    if (r == 0)
        r = gpu_dev_alloc(w->err, (void **)&w->d_step, w->walks * sizeof(uint64_t));
    if (r == 0)
        r = gpu_items_upload(&w->dev, items, n, false, false, w->cn->n_transitions,
                             w->cn->n_places, w->stream, w->err);
    return r != 0 ? r : gpu_walk_reset(w);
}

/* A field overflowed: the flagged places double, every walk starts over.
 * 1: a place is at 64 bits already (the walks stop; the answers stand). */
static int gpu_walk_widen(gpu_walker *w)
{
    const uint32_t P = w->cn->n_places;
    GPU_WALK_TRY(w, cudaMemcpyAsync(w->widen, w->d_widen, P ? P : 1, cudaMemcpyDeviceToHost,
                                    w->stream),
                 "reading the overflow flags");
    GPU_WALK_TRY(w, cudaStreamSynchronize(w->stream), "cudaStreamSynchronize");
    if (!pn_layout_widen(w->widths, w->widen, P))
        return 1;
    int r = gpu_walk_layout(w);
    if (r == 0)
        r = gpu_walk_reset(w);
    if (r != 0)
        return r;
    GPU_WALK_TRY(w, cudaMemsetAsync(w->d_widen, 0, P ? P : 1, w->stream), "cudaMemsetAsync");
    GPU_WALK_TRY(w, cudaMemsetAsync(&w->d_ctr->overflow, 0, sizeof(uint64_t), w->stream),
                 "cudaMemsetAsync");
    return 0;
}

static int gpu_walk_launch(gpu_walker *w)
{
    gpu_walk_args a;
    memset(&a, 0, sizeof a);
    a.g = w->d_prog;
    a.items = gpu_items_view(&w->dev, w->d_ctr, w->d_m0);
    a.m0 = w->d_m0;
    a.state = w->d_state;
    a.rng = w->d_rng;
    a.step = w->d_step;
    a.walks = w->walks;
    a.steps = w->pol.per_thread;
    a.max_steps = w->max_steps;
    a.widen = w->d_widen;
    a.ctr = w->d_ctr;
    uint64_t blocks = (w->walks + w->pol.block - 1) / w->pol.block;
    gpu_kernels_walk(&a, blocks, w->pol.block, w->stream);
    GPU_WALK_TRY(w, cudaGetLastError(), "launching the walks");
    GPU_WALK_TRY(w, cudaMemcpyAsync(&w->h_ctr, w->d_ctr, sizeof w->h_ctr,
                                    cudaMemcpyDeviceToHost, w->stream),
                 "reading the walk counters");
    GPU_WALK_TRY(w, cudaStreamSynchronize(w->stream), "cudaStreamSynchronize");
    return 0;
}

static int gpu_walk_run(gpu_walker *w)
{
    const pn_walk_opts *o = w->o;
    uint64_t per = w->pol.per_thread ? w->pol.per_thread : 1;
    uint64_t launches = o->max_walks ? (o->max_walks * w->max_steps + per - 1) / per : 0;
    for (uint64_t k = 0; launches == 0 || k < launches; k++) {
        if (w->h_ctr.decided == w->dev.n || pn_budget_expired(o->budget))
            return 0;
        int r = gpu_walk_launch(w);
        if (r == 0 && w->h_ctr.overflow != 0)
            r = gpu_walk_widen(w);
        if (r != 0)
            return r < 0 ? r : 0;
    }
    return 0;
}

static void gpu_walk_release(gpu_walker *w)
{
    gpu_items_free(&w->dev);
    gpu_dev_free(w->d_blob);
    gpu_dev_free(w->d_ctr);
    gpu_dev_free(w->d_widen);
    gpu_dev_free(w->d_m0);
    gpu_dev_free(w->d_state);
    gpu_dev_free(w->d_rng);
    gpu_dev_free(w->d_step);
    if (w->have_stream)
        (void)cudaStreamDestroy(w->stream);
    pn_layout_free(w->lay);
    free(w->widths);
    free(w->widen);
}

/* pn_gpu_walk once a device is known to be there. */
GPU_ENTRY pn_status gpu_walk_impl(const pn_cnet *cn, const pn_item *items, uint32_t n,
                               const pn_walk_opts *o, pn_item_found *found, pn_error *err)
{
    for (uint32_t k = 0; k < n; k++) {
        found[k].witness = PN_ITEM_NONE;
        found[k].max = 0;
    }
    bool bounded = (o->budget != NULL && o->budget->deadline > 0) || o->max_walks > 0;
    if (n == 0 || !bounded)
        return PN_OK;
    gpu_walker w;
    memset(&w, 0, sizeof w);
    w.cn = cn;
    w.o = o;
    w.err = err;
    w.max_steps = o->max_steps ? o->max_steps : GPU_WALK_STEPS;
    int r = gpu_walk_setup(&w, items, n);
    if (r == 0)
        r = gpu_walk_run(&w);
    if (r == 0)
        r = gpu_items_read(&w.dev, false, w.stream, err);
    if (r == 0)
        memcpy(found, w.dev.h_found, (size_t)n * sizeof *found);
    gpu_walk_release(&w);
    if (r == PN_RUN_OUT_OF_MEMORY)
        return pn_fail(err, PN_ERR_NOMEM, "no usable GPU: out of device memory for the walks");
    return r == 0 ? PN_OK : err != NULL && err->code != PN_OK ? err->code : PN_ERR_INTERNAL;
}

#ifndef PN_GPU_EMULATE
extern "C" pn_status pn_gpu_walk(const pn_cnet *cn, const struct pn_item *items, uint32_t n,
                                 const struct pn_walk_opts *o, struct pn_item_found *found,
                                 pn_error *err)
{
    char why[256];
    if (!pn_gpu_available(why, sizeof why))
        return pn_fail(err, PN_ERR_UNSUPPORTED, "no usable GPU: %s", why);
    return gpu_walk_impl(cn, items, n, o, found, err);
}
#endif
