/* The check's items (kernels/pn_items.h) in device memory, for the BFS and
 * the walk kernels: one block holding the items with their formula
 * programs, place lists and bound places (pointers rewritten to point into
 * it), the per-item findings (witness, maximum), and the per-transition /
 * per-place flags of QuasiLiveness and StableMarking; and the copies back. */
#include <stdlib.h>
#include <string.h>

#include "gpu_launch.h"

static uint64_t gpu_items_align(uint64_t n) { return (n + 15) & ~(uint64_t)15; }

/* Entries of f->list the program reads. */
static uint32_t gpu_items_list_len(const pn_sformula *f)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < f->len; i++) {
        const pn_sf_instr *in = &f->code[i];
        bool terms = in->op == PN_SF_FIREABLE || in->op == PN_SF_LE;
        if (terms && in->a.n != 0 && in->a.off + in->a.n > n)
            n = in->a.off + in->a.n;
        if (in->op == PN_SF_LE && in->b.n != 0 && in->b.off + in->b.n > n)
            n = in->b.off + in->b.n;
    }
    return n;
}

/* One item's arrays: where they go in the blob (*off advances), copied
 * into staging when it is not NULL, the item's pointers set to dev + off. */
static void gpu_items_place(pn_item *it, const pn_item *src, uint8_t *staging, uint8_t *dev,
                            uint64_t *off)
{
    const uint64_t code = (uint64_t)src->f.len * sizeof(pn_sf_instr);
    const uint64_t list = (uint64_t)gpu_items_list_len(&src->f) * sizeof(uint32_t);
    const uint64_t places = (uint64_t)src->n_places * sizeof(uint32_t);
    struct {
        const void *from;
        uint64_t bytes;
        const void **to;
    } part[] = {{src->f.code, code, (const void **)&it->f.code},
                {src->f.list, list, (const void **)&it->f.list},
                {src->places, places, (const void **)&it->places}};
    for (size_t k = 0; k < sizeof part / sizeof part[0]; k++) {
        if (staging != NULL && part[k].bytes != 0)
            memcpy(staging + *off, part[k].from, part[k].bytes);
        *part[k].to = part[k].bytes != 0 ? dev + *off : NULL;
        *off += gpu_items_align(part[k].bytes);
    }
}

static int gpu_items_blob(gpu_items *d, const pn_item *items, cudaStream_t stream, pn_error *err)
{
    uint64_t total = gpu_items_align((uint64_t)d->n * sizeof(pn_item));
    pn_item scratch;
    for (uint32_t k = 0; k < d->n; k++)
        gpu_items_place(&scratch, &items[k], NULL, NULL, &total);
    uint8_t *staging = (uint8_t *)calloc(total ? total : 1, 1);
    if (staging == NULL) {
        pn_fail(err, PN_ERR_NOMEM, "out of memory preparing the formulas for the GPU");
        return GPU_FAILED;
    }
    int r = gpu_dev_alloc(err, &d->d_blob, total);
    if (r == 0) {
        uint64_t off = gpu_items_align((uint64_t)d->n * sizeof(pn_item));
        for (uint32_t k = 0; k < d->n; k++) {
            d->item[k] = items[k];
            gpu_items_place(&d->item[k], &items[k], staging, (uint8_t *)d->d_blob, &off);
        }
        memcpy(staging, d->item, (size_t)d->n * sizeof(pn_item));
        cudaError_t rc = cudaMemcpyAsync(d->d_blob, staging, total, cudaMemcpyHostToDevice,
                                         stream);
        if (rc == cudaSuccess)
            rc = cudaStreamSynchronize(stream);
        if (rc != cudaSuccess)
            r = gpu_dev_fail(err, rc, "copying the formulas", "gpu_items.cu", __LINE__);
    }
    free(staging);
    return r;
}

GPU_GLUE int gpu_items_upload(gpu_items *d, const pn_item *items, uint32_t n, bool quasi,
                              bool stable, uint32_t n_trans, uint32_t n_places,
                              cudaStream_t stream, pn_error *err)
{
    memset(d, 0, sizeof *d);
    d->n = n;
    d->quasi = quasi;
    d->stable = stable;
    d->n_trans = n_trans;
    d->n_places = n_places;
    for (uint32_t k = 0; k < n; k++)
        if (items[k].kind == PN_ITEM_BOUND && items[k].local != UINT32_MAX &&
            items[k].local + 1 > d->n_local)
            d->n_local = items[k].local + 1;
    d->item = (pn_item *)calloc((size_t)n + 1, sizeof *d->item);
    d->h_found = (pn_item_found *)calloc((size_t)n + 1, sizeof *d->h_found);
    d->h_seen = (uint32_t *)calloc((size_t)n_trans + 1, sizeof *d->h_seen);
    d->h_moved = (uint32_t *)calloc((size_t)n_places + 1, sizeof *d->h_moved);
    if (d->item == NULL || d->h_found == NULL || d->h_seen == NULL || d->h_moved == NULL) {
        pn_fail(err, PN_ERR_NOMEM, "out of memory preparing the formulas for the GPU");
        return GPU_FAILED;
    }
    for (uint32_t k = 0; k < n; k++)
        d->h_found[k].witness = PN_ITEM_NONE;
    int r = gpu_items_blob(d, items, stream, err);
    if (r == 0)
        r = gpu_dev_upload(err, (void **)&d->d_found, d->h_found, (uint64_t)n * sizeof *d->h_found,
                           stream);
    if (r == 0)
        r = gpu_dev_upload(err, (void **)&d->d_seen, d->h_seen,
                           (uint64_t)(quasi ? n_trans : 0) * sizeof(uint32_t), stream);
    if (r == 0)
        r = gpu_dev_upload(err, (void **)&d->d_moved, d->h_moved,
                           (uint64_t)(stable ? n_places : 0) * sizeof(uint32_t), stream);
    return r;
}

GPU_GLUE pn_items_view gpu_items_view(const gpu_items *d, gpu_counters *ctr, const uint64_t *m0)
{
    pn_items_view v;
    memset(&v, 0, sizeof v);
    v.item = (const pn_item *)d->d_blob;
    v.n = d->n;
    v.track_quasi = d->quasi;
    v.track_stable = d->stable;
    v.n_local = d->n_local;
    v.found = d->d_found;
    v.seen = d->d_seen;
    v.moved = d->d_moved;
    v.m0 = m0;
    v.decided = &ctr->decided;
    v.n_seen = &ctr->n_seen;
    v.n_moved = &ctr->n_moved;
    return v;
}

GPU_GLUE int gpu_items_read(gpu_items *d, bool flags, cudaStream_t stream, pn_error *err)
{
    cudaError_t rc = cudaSuccess;
    if (d->n != 0)
        rc = cudaMemcpyAsync(d->h_found, d->d_found, (size_t)d->n * sizeof *d->h_found,
                             cudaMemcpyDeviceToHost, stream);
    if (rc == cudaSuccess && flags && d->quasi && d->n_trans != 0)
        rc = cudaMemcpyAsync(d->h_seen, d->d_seen, (size_t)d->n_trans * sizeof *d->h_seen,
                             cudaMemcpyDeviceToHost, stream);
    if (rc == cudaSuccess && flags && d->stable && d->n_places != 0)
        rc = cudaMemcpyAsync(d->h_moved, d->d_moved, (size_t)d->n_places * sizeof *d->h_moved,
                             cudaMemcpyDeviceToHost, stream);
    if (rc == cudaSuccess)
        rc = cudaStreamSynchronize(stream);
    return rc == cudaSuccess ? 0 : gpu_dev_fail(err, rc, "reading the formulas' findings",
                                                "gpu_items.cu", __LINE__);
}

GPU_GLUE void gpu_items_free(gpu_items *d)
{
    gpu_dev_free(d->d_blob);
    gpu_dev_free(d->d_found);
    gpu_dev_free(d->d_seen);
    gpu_dev_free(d->d_moved);
    free(d->item);
    free(d->h_found);
    free(d->h_seen);
    free(d->h_moved);
    memset(d, 0, sizeof *d);
}
