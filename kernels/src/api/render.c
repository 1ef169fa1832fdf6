// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* cvr_render, the API's frame: checks its inputs and the caller's settings
 * once, then hands AUTO's frames to auto.c and the others to the frame
 * layer (frame.c). */
#include "cuda_backend.h"

cvr_status cvr_render(cvr_context *ctx, const cvr_volume *volume, const cvr_transfer_function *tf,
                      const cvr_view *view, const cvr_render_settings *settings,
                      const cvr_image *image, cvr_render_stats *stats) {
  if (!ctx) return cvr_fail(NULL, CVR_ERROR_INVALID_ARGUMENT, "cvr_render: ctx is NULL");
  if (!volume || !tf || !view || !settings || !image)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "cvr_render: volume, tf, view, settings and image must not be NULL");
  if (volume->ctx != ctx || tf->ctx != ctx)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "cvr_render: volume or transfer function belongs to another context");
  if ((image->gl_rgba32f && image->rgba32f) || (view->gl_opaque_depth && view->opaque_depth))
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "cvr_render: give the image (rgba32f) and the opaque depth either in host "
                    "memory or in an OpenGL buffer, not both");
  if ((image->gl_rgba32f && image->gl_rgba32f->ctx != ctx) ||
      (view->gl_opaque_depth && view->gl_opaque_depth->ctx != ctx))
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "cvr_render: an OpenGL buffer was registered with another context");
  if (ctx->lost) return cvr_lost_failure(ctx, "cvr_render");
  if (ctx->backend == CVR_BACKEND_CUDA && ++ctx->renders == (unsigned long long)ctx->debug.lose_device_at_render)
    return cvr_debug_lose_device(ctx); /* a test's device loss */
  /* the caller's settings, once: AUTO's frames are made of them */
  cvr_status st = cvr_validate_settings(ctx, settings);
  if (st == CVR_OK && ctx->backend == CVR_BACKEND_CUDA) st = cvr_cuda_validate_settings(ctx, settings);
  if (st != CVR_OK) return st;
  if (tf->component_count != volume->components)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "cvr_render: the volume has %d component%s per voxel, the transfer function "
                    "describes %d", volume->components, volume->components == 1 ? "" : "s",
                    tf->component_count);
  cvr_render_settings adjusted;
  if (cvr_frame_settings(volume, settings, &adjusted)->strategy == CVR_STRATEGY_AUTO)
    return cvr_auto_render(ctx, volume, tf, view, settings, image, stats);
  return cvr_render_frame(ctx, volume, tf, view, settings, image, stats);
}

