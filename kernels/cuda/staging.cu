// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The context's pinned staging ring for volume transfers. A copy from
 * pageable memory goes through the driver's own small pinned buffer, one
 * piece at a time, while the host waits; a pinned buffer is copied by the
 * copy engine at the link's speed while the host fills the next one. The
 * ring is allocated on the first upload and kept (at most
 * CVR_STAGING_BUFFERS x the largest chunk) until the context goes. */
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.cuh"

static void release(cvr_cuda_staging *s) {
  for (int i = 0; i < CVR_STAGING_BUFFERS; ++i) {
    if (s->done[i]) cudaEventSynchronize(s->done[i]);
    if (s->pageable) free(s->host[i]);
    else cudaFreeHost(s->host[i]);
    s->host[i] = NULL;
  }
  s->bytes = 0;
}

/* The ring's buffers of `bytes`, pinned or (s->pageable) not. */
static cudaError_t allocate(cvr_cuda_staging *s, size_t bytes) {
  cudaError_t e = cudaSuccess;
  for (int i = 0; i < CVR_STAGING_BUFFERS && e == cudaSuccess; ++i)
    if (s->pageable) e = (s->host[i] = malloc(bytes)) ? cudaSuccess : cudaErrorMemoryAllocation;
    else e = cudaHostAlloc(&s->host[i], bytes, cudaHostAllocPortable);
  if (e != cudaSuccess) release(s);
  return e;
}

cudaError_t cvr_cuda_staging_take(cvr_cuda_staging *s, size_t bytes, void **buffer, int *slot) {
  cudaError_t e = cudaSuccess;
  for (int i = 0; i < CVR_STAGING_BUFFERS && e == cudaSuccess; ++i)
    if (!s->done[i]) e = cudaEventCreateWithFlags(&s->done[i], cudaEventDisableTiming);
  if (e != cudaSuccess) return e;
  if (bytes > s->bytes) {
    release(s);
    const char *pinned = getenv("CVR_PINNED_STAGING");
    s->pageable = pinned && !strcmp(pinned, "0");
    e = allocate(s, bytes);
    if (e != cudaSuccess && !s->pageable) { /* pinning refused: pageable, slower */
      cudaGetLastError();
      s->pageable = 1;
      e = allocate(s, bytes);
    }
    if (e != cudaSuccess) return e;
    s->bytes = bytes;
  }
  const int i = s->next;
  s->next = (i + 1) % CVR_STAGING_BUFFERS;
  /* (an event never recorded counts as done) */
  if ((e = cudaEventSynchronize(s->done[i])) != cudaSuccess) return e;
  *buffer = s->host[i];
  *slot = i;
  return cudaSuccess;
}

cudaError_t cvr_cuda_staging_queued(cvr_cuda_staging *s, int slot, cudaStream_t stream) {
  return cudaEventRecord(s->done[slot], stream);
}

cudaError_t cvr_cuda_staging_wait(cvr_cuda_staging *s, int slot) {
  return cudaEventSynchronize(s->done[slot]);
}

void cvr_cuda_staging_free(cvr_cuda_staging *s) {
  release(s);
  for (int i = 0; i < CVR_STAGING_BUFFERS; ++i)
    if (s->done[i]) cudaEventDestroy(s->done[i]);
  memset(s, 0, sizeof *s);
}

int cvr_cuda_chunk_slices(const int dims[3], size_t voxel_bytes) {
  const size_t slice = (size_t)dims[0] * dims[1] * voxel_bytes;
  const size_t total = slice * dims[2];
  /* at least four chunks where the volume allows, so that small volumes
   * overlap too */
  size_t target = total / 4 < CVR_STAGING_CHUNK_BYTES ? total / 4 : CVR_STAGING_CHUNK_BYTES;
  const size_t n = target / slice;
  return n < 1 ? 1 : (n > (size_t)dims[2] ? dims[2] : (int)n);
}
