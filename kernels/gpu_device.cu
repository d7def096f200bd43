/* Device memory and CUDA errors for the GPU engine's host drivers (the BFS,
 * gpu_engine.cu, and the random walks, gpu_walk.cu): a failed cudaMalloc
 * is an outcome (GPU_OUT_OF_MEMORY), any other CUDA failure an error
 * naming the call. */
#include <stdlib.h>
#include <string.h>

#include "gpu_launch.h"

GPU_GLUE int gpu_dev_fail(pn_error *err, cudaError_t rc, const char *what, const char *file,
                          int line)
{
    pn_fail(err, PN_ERR_INTERNAL, "CUDA error in the GPU engine (%s:%d, %s): %s", file, line,
            what, cudaGetErrorString(rc));
    return GPU_FAILED;
}

GPU_GLUE int gpu_dev_alloc(pn_error *err, void **p, uint64_t bytes)
{
    *p = NULL;
    cudaError_t rc = cudaMalloc(p, bytes ? (size_t)bytes : 1);
    if (rc == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError(); /* not sticky: clear it */
        *p = NULL;
        return GPU_OUT_OF_MEMORY;
    }
    if (rc != cudaSuccess) {
        *p = NULL;
        return gpu_dev_fail(err, rc, "cudaMalloc", "gpu_device.cu", __LINE__);
    }
    return 0;
}

GPU_GLUE void gpu_dev_free(void *p)
{
    if (p != NULL)
        (void)cudaFree(p);
}

GPU_GLUE int gpu_dev_upload(pn_error *err, void **p, const void *src, uint64_t bytes,
                            cudaStream_t stream)
{
    int r = gpu_dev_alloc(err, p, bytes);
    if (r != 0)
        return r;
    cudaError_t rc = bytes ? cudaMemcpyAsync(*p, src, bytes, cudaMemcpyHostToDevice, stream)
                           : cudaSuccess;
    if (rc == cudaSuccess)
        rc = cudaStreamSynchronize(stream);
    if (rc != cudaSuccess) {
        gpu_dev_free(*p);
        *p = NULL;
        return gpu_dev_fail(err, rc, "copying to the device", "gpu_device.cu", __LINE__);
    }
    return 0;
}

/* Copies lay->prog's arrays into one device block; *d gets the same prog
 * with device pointers. */
GPU_GLUE int gpu_dev_upload_prog(pn_error *err, const pn_prog *h, void **blob, pn_prog *d,
                                 cudaStream_t stream)
{
    const uint32_t P = h->n_places, T = h->n_transitions;
    struct {
        const void *src;
        size_t bytes;
        const void **dst;
    } part[] = {
        {h->field, (size_t)P * sizeof(pn_op), (const void **)&d->field},
        {h->pre_off, ((size_t)T + 1) * sizeof(uint32_t), (const void **)&d->pre_off},
        {h->pre, (size_t)h->pre_off[T] * sizeof(pn_op), (const void **)&d->pre},
        {h->dec_off, ((size_t)T + 1) * sizeof(uint32_t), (const void **)&d->dec_off},
        {h->dec, (size_t)h->dec_off[T] * sizeof(pn_op), (const void **)&d->dec},
        {h->inc_off, ((size_t)T + 1) * sizeof(uint32_t), (const void **)&d->inc_off},
        {h->inc, (size_t)h->inc_off[T] * sizeof(pn_op), (const void **)&d->inc},
        {h->trig_off, ((size_t)P + 1) * sizeof(uint32_t), (const void **)&d->trig_off},
        {h->trig, (size_t)h->trig_off[P] * sizeof(uint32_t), (const void **)&d->trig},
        {h->free_trans, (size_t)h->n_free * sizeof(uint32_t), (const void **)&d->free_trans},
        {h->bit_place, (size_t)h->words * 64 * sizeof(uint32_t), (const void **)&d->bit_place},
    };
    const size_t n_parts = sizeof part / sizeof part[0];
    size_t total = 0;
    for (size_t i = 0; i < n_parts; i++)
        total += (part[i].bytes + 15) & ~(size_t)15;
    *d = *h;
    *blob = NULL;
    uint8_t *staging = (uint8_t *)malloc(total ? total : 1);
    if (staging == NULL) {
        pn_fail(err, PN_ERR_NOMEM, "out of memory preparing the GPU engine");
        return GPU_FAILED;
    }
    int r = gpu_dev_alloc(err, blob, total);
    if (r != 0) {
        free(staging);
        return r;
    }
    size_t off = 0;
    for (size_t i = 0; i < n_parts; i++) {
        if (part[i].bytes != 0)
            memcpy(staging + off, part[i].src, part[i].bytes);
        *part[i].dst = (const uint8_t *)*blob + off;
        off += (part[i].bytes + 15) & ~(size_t)15;
    }
    cudaError_t rc = cudaMemcpyAsync(*blob, staging, total, cudaMemcpyHostToDevice, stream);
    if (rc == cudaSuccess)
        rc = cudaStreamSynchronize(stream);
    free(staging);
    if (rc != cudaSuccess) {
        gpu_dev_free(*blob);
        *blob = NULL;
        return gpu_dev_fail(err, rc, "copying the net to the device", "gpu_device.cu", __LINE__);
    }
    return 0;
}
