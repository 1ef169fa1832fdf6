// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* OpenGL buffers registered with the CUDA backend, so that a frame's opaque
 * depth and image stay on the GPU (see cvr.h). */
#include <stdlib.h>

#include "cuda_backend.h"

cvr_status cvr_gl_buffer_register(cvr_context *ctx, unsigned int gl_buffer, cvr_gl_buffer **out) {
  if (!ctx) return cvr_fail(NULL, CVR_ERROR_INVALID_ARGUMENT, "cvr_gl_buffer_register: ctx is NULL");
  if (!out) return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "cvr_gl_buffer_register: out is NULL");
  *out = NULL;
  if (gl_buffer == 0)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "cvr_gl_buffer_register: 0 is not an OpenGL buffer object");
  if (ctx->backend != CVR_BACKEND_CUDA)
    return cvr_fail(ctx, CVR_ERROR_UNSUPPORTED,
                    "OpenGL interop needs the CUDA backend; the %s backend renders in host memory",
                    cvr_backend_name(ctx->backend));
  cvr_gl_buffer *b = calloc(1, sizeof *b);
  if (!b) return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY, "cvr_gl_buffer_register: out of host memory");
  b->ctx = ctx;
  b->gl_buffer = gl_buffer;
  const cvr_status st = ctx->lost ? cvr_lost_failure(ctx, "cvr_gl_buffer_register")
                                  : cvr_cuda_gl_register(ctx, gl_buffer, &b->resource);
  if (st != CVR_OK) {
    free(b);
    return st;
  }
  *out = b;
  return CVR_OK;
}

void cvr_gl_buffer_unregister(cvr_gl_buffer *buffer) {
  if (!buffer) return;
  cvr_cuda_gl_unregister(buffer->ctx, buffer->resource);
  free(buffer);
}
