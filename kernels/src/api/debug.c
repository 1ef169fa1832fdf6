// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Test and benchmark hooks of the device copy (cvr_internal.h). */
#include <string.h>

#include "cuda_backend.h"

cvr_status cvr_debug_rotate(cvr_volume *volume, const cvr_render_settings *settings, int turns,
                            double *ms) {
  if (!volume || !settings || turns < 0)
    return cvr_fail(volume ? volume->ctx : NULL, CVR_ERROR_INVALID_ARGUMENT,
                    "rotation: NULL volume or settings, or negative turns");
  if (volume->ctx->backend != CVR_BACKEND_CUDA)
    return cvr_fail(volume->ctx, CVR_ERROR_UNSUPPORTED,
                    "rotation: the CPU backend keeps its volume in array order");
  const cvr_status st = cvr_validate_settings(volume->ctx, settings);
  return st != CVR_OK ? st : cvr_cuda_debug_rotate(volume, settings, turns, ms);
}

cvr_status cvr_debug_turn_to(cvr_volume *volume, const cvr_render_settings *settings,
                            const int order[3], int *turns, double *ms) {
  if (!volume || !settings || !order)
    return cvr_fail(volume ? volume->ctx : NULL, CVR_ERROR_INVALID_ARGUMENT,
                    "rotation: NULL volume, settings or voxel order");
  if (volume->ctx->backend != CVR_BACKEND_CUDA)
    return cvr_fail(volume->ctx, CVR_ERROR_UNSUPPORTED,
                    "rotation: the CPU backend keeps its volume in array order");
  const cvr_status st = cvr_validate_settings(volume->ctx, settings);
  return st != CVR_OK ? st : cvr_cuda_turn_to(volume, settings, order, turns, ms);
}

cvr_status cvr_debug_read_volume(const cvr_volume *volume, void *out) {
  if (!volume || !out)
    return cvr_fail(volume ? volume->ctx : NULL, CVR_ERROR_INVALID_ARGUMENT,
                    "read-back: NULL volume or output");
  if (volume->ctx->backend == CVR_BACKEND_CUDA) return cvr_cuda_debug_read_volume(volume, out);
  memcpy(out, volume->host_data, (size_t)volume->dims[0] * volume->dims[1] * volume->dims[2] *
                                     volume->components * cvr_scalar_type_size(volume->stored_type));
  return CVR_OK;
}

int cvr_debug_host_pinned(const cvr_volume *volume) {
  return volume && volume->ctx->backend == CVR_BACKEND_CUDA && cvr_cuda_bricks_pinned(volume);
}

void cvr_debug_thread_limits(cvr_context *ctx, int bound[3], int driver[3]) {
  for (int k = 0; k < 3; ++k) bound[k] = driver[k] = 0;
  if (ctx && ctx->backend == CVR_BACKEND_CUDA) cvr_cuda_debug_thread_limits(ctx, bound, driver);
}

size_t cvr_debug_device_free_bytes(cvr_context *ctx) {
  return ctx && ctx->backend == CVR_BACKEND_CUDA ? cvr_cuda_debug_free_bytes(ctx) : 0;
}
