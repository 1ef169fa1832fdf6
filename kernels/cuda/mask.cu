// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* A volume's mask in device memory (cvr_volume_set_mask): one byte per voxel
 * in the volume's own index order, whatever layout and orientation the
 * volume's copy takes (the rays find their voxel through
 * cvr_ray_params.mask_axis, raycast.h). */
#include "cuda_backend.h"
#include "cuda_internal.cuh"

extern "C" cvr_status cvr_cuda_mask_upload(cvr_context *ctx, cvr_volume *volume,
                                           const unsigned char *labels) {
  cvr_cuda_context *c = ctx->cuda;
  const size_t bytes = (size_t)volume->dims[0] * volume->dims[1] * volume->dims[2];
  void *mask = NULL;
  cvr_status st = CVR_OK;
  device_scope scope;
  CVR_CUDA_TRY(ctx, enter_device(c->device, &scope), "cannot select the CUDA device");
  {
    const cudaError_t e = cudaMalloc(&mask, bytes);
    if (e != cudaSuccess) {
      char what[128];
      snprintf(what, sizeof what, "mask: cannot allocate %d x %d x %d labels", volume->dims[0],
               volume->dims[1], volume->dims[2]);
      st = cvr_cuda_allocation_failure(ctx, e, bytes, what);
      goto done;
    }
  }
  CVR_CUDA_TRY(ctx, cudaMemcpy(mask, labels, bytes, cudaMemcpyHostToDevice), "mask upload");
  CVR_CUDA_TRY(ctx, cudaStreamSynchronize(c->stream), "mask upload"); /* frames reading the old one */
  cudaFree(volume->mask_device);
  volume->mask_device = mask;
  mask = NULL;
done:
  cudaFree(mask);
  leave_device(&scope);
  return st;
}

extern "C" void cvr_cuda_mask_release(cvr_volume *volume) {
  cvr_cuda_context *c = volume->ctx->cuda;
  device_scope scope;
  if (volume->mask_device && c && enter_device(c->device, &scope) == cudaSuccess) {
    cudaStreamSynchronize(c->stream); /* a frame in flight may still read it */
    cudaFree(volume->mask_device);
    leave_device(&scope);
  }
  volume->mask_device = NULL;
}
