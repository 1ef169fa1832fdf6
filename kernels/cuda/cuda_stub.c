// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Stands in for the CUDA backend in a build without CUDA. */
#include "cuda_backend.h"

int cvr_cuda_count_devices(void) { return 0; }

int cvr_cuda_driver_version(void) { return 0; }

cvr_status cvr_cuda_context_create(cvr_context *ctx, int device_index) {
  (void)device_index;
  return cvr_fail(ctx, CVR_ERROR_NO_DEVICE,
                  "this build of cvr has no CUDA backend (configured with CVR_ENABLE_CUDA=OFF "
                  "or without a CUDA compiler)");
}

void cvr_cuda_context_destroy(cvr_context *ctx) { (void)ctx; }

cvr_status cvr_cuda_volume_upload(cvr_context *ctx, cvr_volume *volume, const cvr_upload *upload) {
  (void)volume;
  (void)upload;
  return cvr_fail(ctx, CVR_ERROR_INTERNAL, "CUDA volume upload in a build without CUDA");
}

cvr_status cvr_cuda_volume_update(cvr_context *ctx, cvr_volume *volume, const cvr_upload *upload) {
  (void)volume;
  (void)upload;
  return cvr_fail(ctx, CVR_ERROR_INTERNAL, "CUDA volume update in a build without CUDA");
}

void cvr_cuda_volume_release(cvr_volume *volume) { (void)volume; }

cvr_status cvr_cuda_mask_upload(cvr_context *ctx, cvr_volume *volume, const unsigned char *labels) {
  (void)volume;
  (void)labels;
  return cvr_fail(ctx, CVR_ERROR_INTERNAL, "CUDA mask upload in a build without CUDA");
}

void cvr_cuda_mask_release(cvr_volume *volume) { (void)volume; }

void cvr_cuda_volume_orientation(const cvr_volume *volume, int axis[3], int sign[3], int offset[3]) {
  (void)volume;
  for (int a = 0; a < 3; ++a) axis[a] = a, sign[a] = 1, offset[a] = 0;
}

int cvr_cuda_volume_partners(const cvr_volume *volume, int *fallback) {
  (void)volume;
  *fallback = 2;
  return 0;
}

cvr_status cvr_cuda_load_kernels(int device, const cvr_kernel_use *use) {
  (void)device;
  (void)use;
  return CVR_ERROR_NO_DEVICE;
}

cvr_status cvr_cuda_validate_settings(cvr_context *ctx, const cvr_render_settings *settings) {
  (void)settings;
  return cvr_fail(ctx, CVR_ERROR_INTERNAL, "CUDA settings check in a build without CUDA");
}

cvr_status cvr_cuda_render(cvr_context *ctx, const cvr_frame *frame, const cvr_image *image,
                           cvr_render_stats *stats) {
  (void)frame;
  (void)image;
  (void)stats;
  return cvr_fail(ctx, CVR_ERROR_INTERNAL, "CUDA render in a build without CUDA");
}

cvr_status cvr_cuda_gl_register(cvr_context *ctx, unsigned int gl_buffer, void **resource) {
  (void)gl_buffer;
  (void)resource;
  return cvr_fail(ctx, CVR_ERROR_INTERNAL, "OpenGL interop in a build without CUDA");
}

void cvr_cuda_gl_unregister(cvr_context *ctx, void *resource) {
  (void)ctx;
  (void)resource;
}

cvr_status cvr_cuda_debug_rotate(cvr_volume *volume, const cvr_render_settings *settings,
                                 int turns, double *ms) {
  (void)settings;
  (void)turns;
  (void)ms;
  return cvr_fail(volume->ctx, CVR_ERROR_INTERNAL, "CUDA rotation in a build without CUDA");
}

cvr_status cvr_cuda_turn_to(cvr_volume *volume, const cvr_render_settings *settings,
                            const int order[3], int *turns, double *ms) {
  (void)settings;
  (void)order;
  (void)turns;
  (void)ms;
  return cvr_fail(volume->ctx, CVR_ERROR_INTERNAL, "CUDA rotation in a build without CUDA");
}

cvr_status cvr_cuda_debug_read_volume(const cvr_volume *volume, void *out) {
  (void)out;
  return cvr_fail(volume->ctx, CVR_ERROR_INTERNAL, "CUDA read-back in a build without CUDA");
}

cvr_status cvr_cuda_debug_lose_device(cvr_context *ctx) {
  return cvr_fail(ctx, CVR_ERROR_NO_DEVICE, "this build of cvr has no CUDA backend");
}

void cvr_cuda_debug_thread_limits(cvr_context *ctx, int bound[3], int driver[3]) {
  (void)ctx;
  for (int k = 0; k < 3; ++k) bound[k] = driver[k] = 0;
}

size_t cvr_cuda_debug_free_bytes(cvr_context *ctx) {
  (void)ctx;
  return 0;
}

void cvr_cuda_bricks_pin(cvr_volume *volume, size_t bytes) {
  (void)volume;
  (void)bytes;
}

void cvr_cuda_bricks_unpin(cvr_volume *volume) { (void)volume; }

int cvr_cuda_bricks_pinned(const cvr_volume *volume) {
  (void)volume;
  return 0;
}

void cvr_cuda_bricks_release(cvr_volume *volume) { (void)volume; }
