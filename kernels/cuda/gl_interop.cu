// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* CUDA side of OpenGL interop: registering OpenGL buffers and mapping them
 * for a frame, so that the opaque depth is read and the image written on the
 * GPU (the buffers' OpenGL context current on the calling thread). */
#include "cuda_internal.cuh"

#include <cuda_gl_interop.h>

extern "C" cvr_status cvr_cuda_gl_register(cvr_context *ctx, unsigned int gl_buffer,
                                           void **resource) {
  cvr_cuda_context *c = ctx->cuda;
  cvr_status st = CVR_OK;
  cudaGraphicsResource_t r = NULL;
  device_scope scope;
  CVR_CUDA_TRY(ctx, enter_device(c->device, &scope), "cannot select the CUDA device");
  {
    /* the current OpenGL context must run on this device: CUDA cannot map
     * another GPU's (or a software renderer's) buffers */
    unsigned int count = 0;
    int devices[8];
    const cudaError_t e = cudaGLGetDevices(&count, devices, 8, cudaGLDeviceListAll);
    if (e != cudaSuccess || count == 0) {
      cudaGetLastError();
      st = cvr_fail(ctx, CVR_ERROR_UNSUPPORTED,
                    "OpenGL interop: the current OpenGL context runs on no CUDA device (%s)",
                    e != cudaSuccess ? cudaGetErrorString(e) : "none listed");
      goto done;
    }
    int same = 0;
    for (unsigned int i = 0; i < count && i < 8; ++i) same |= devices[i] == c->device;
    if (!same) {
      st = cvr_fail(ctx, CVR_ERROR_UNSUPPORTED,
                    "OpenGL interop: the current OpenGL context runs on CUDA device %d, the "
                    "context renders on device %d", devices[0], c->device);
      goto done;
    }
  }
  CVR_CUDA_TRY(ctx, cudaGraphicsGLRegisterBuffer(&r, gl_buffer, cudaGraphicsRegisterFlagsNone),
               "OpenGL interop: registering the buffer");
  *resource = r;
done:
  leave_device(&scope);
  return st;
}

extern "C" void cvr_cuda_gl_unregister(cvr_context *ctx, void *resource) {
  if (!resource || !ctx->cuda) return;
  device_scope scope;
  if (enter_device(ctx->cuda->device, &scope) == cudaSuccess) {
    if (cudaGraphicsUnregisterResource((cudaGraphicsResource_t)resource) != cudaSuccess)
      cudaGetLastError();
    leave_device(&scope);
  }
}

cvr_status cvr_cuda_gl_map(cvr_context *ctx, cvr_gl_mapping *m, const cvr_gl_buffer *depth,
                           const cvr_gl_buffer *color, size_t pixels, cudaStream_t stream) {
  cvr_status st = CVR_OK;
  m->count = 0;
  m->depth = NULL;
  m->color = NULL;
  if (depth) m->resources[m->count++] = (cudaGraphicsResource_t)depth->resource;
  if (color) m->resources[m->count++] = (cudaGraphicsResource_t)color->resource;
  if (!m->count) return CVR_OK;
  {
    const cudaError_t e = cudaGraphicsMapResources(m->count, m->resources, stream);
    if (e != cudaSuccess) {
      m->count = 0;
      return device_failure(ctx, e, "OpenGL interop: mapping the buffers");
    }
  }
  for (int i = 0; i < m->count; ++i) {
    void *p = NULL;
    size_t bytes = 0;
    CVR_CUDA_TRY(ctx, cudaGraphicsResourceGetMappedPointer(&p, &bytes, m->resources[i]),
                 "OpenGL interop: the buffer's address");
    const int is_depth = depth && i == 0;
    const size_t need = pixels * (is_depth ? sizeof(float) : sizeof(float4));
    if (bytes < need) {
      st = cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "OpenGL interop: the %s buffer holds %zu bytes, the frame needs %zu",
                    is_depth ? "opaque-depth" : "image", bytes, need);
      goto done;
    }
    if (is_depth)
      m->depth = (const float *)p;
    else
      m->color = (float4 *)p;
  }
  return CVR_OK;
done:
  cvr_cuda_gl_unmap(m, stream);
  return st;
}

void cvr_cuda_gl_unmap(cvr_gl_mapping *m, cudaStream_t stream) {
  if (m->count && cudaGraphicsUnmapResources(m->count, m->resources, stream) != cudaSuccess)
    cudaGetLastError();
  m->count = 0;
}
