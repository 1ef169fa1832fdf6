// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The CUDA backend's host side: device, stream, volume arrays and textures,
 * the transfer-function table, output buffers, and one frame's launch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.cuh"

extern "C" {
#include "half.h"
#include "volume_convert.h"
}

extern "C" int cvr_cuda_count_devices(void) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return n;
}

extern "C" int cvr_cuda_driver_version(void) {
  int v = 0;
  if (cudaDriverGetVersion(&v) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return v;
}

extern "C" cvr_status cvr_cuda_context_create(cvr_context *ctx, int device_index) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e == cudaErrorInsufficientDriver) {
    cudaGetLastError();
    return cvr_fail(ctx, CVR_ERROR_NO_DEVICE,
                    "no NVIDIA driver is loaded, or it is older than the CUDA %d.%d runtime "
                    "this library was built with", CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
  }
  if (e != cudaSuccess) return device_failure(ctx, e, "no usable CUDA device");
  if (device_index >= count)
    return cvr_fail(ctx, CVR_ERROR_NO_DEVICE, "CUDA device %d requested, but %d device%s found",
                    device_index, count, count == 1 ? " is" : "s are");
  cvr_cuda_context *c = (cvr_cuda_context *)calloc(1, sizeof *c);
  if (!c) return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY, "CUDA context: out of host memory");
  c->device = device_index;
  cvr_status st = CVR_OK;
  device_scope scope;
  CVR_CUDA_TRY(ctx, enter_device(device_index, &scope), "cannot select the CUDA device");
  CVR_CUDA_TRY(ctx, cudaGetDeviceProperties(&c->props, device_index), "cudaGetDeviceProperties");
  if (c->props.major < 7) {
    st = cvr_fail(ctx, CVR_ERROR_UNSUPPORTED,
                  "CUDA device %d (%s) has compute capability %d.%d; cvr needs 7.0 or newer",
                  device_index, c->props.name, c->props.major, c->props.minor);
    goto done;
  }
  CVR_CUDA_TRY(ctx, cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking), "stream");
  CVR_CUDA_TRY(ctx, cudaEventCreate(&c->kernel_start), "event");
  CVR_CUDA_TRY(ctx, cudaEventCreate(&c->kernel_stop), "event");
  CVR_CUDA_TRY(ctx, cudaEventCreate(&c->copy_start), "event");
  CVR_CUDA_TRY(ctx, cudaEventCreate(&c->copy_stop), "event");
  CVR_CUDA_TRY(ctx, cudaMalloc(&c->table, CVR_TRANSFER_FUNCTION_TABLE_SIZE * sizeof(uint4)),
               "transfer-function table");
  CVR_CUDA_TRY(ctx, cudaMalloc(&c->gradient_table, CVR_GRADIENT_OPACITY_TABLE_SIZE * sizeof(float)),
               "gradient-opacity table");
  CVR_CUDA_TRY(ctx, cudaMalloc(&c->counters, CVR_CUDA_COUNTERS * sizeof(unsigned long long)),
               "counters");
  CVR_CUDA_TRY(ctx, cudaMalloc(&c->component_tables, (size_t)CVR_MAX_COMPONENTS *
                                                         CVR_TRANSFER_FUNCTION_TABLE_SIZE * sizeof(cvr_rgba)),
               "component tables");
  CVR_CUDA_TRY(ctx, cudaMalloc(&c->component_gradients, (size_t)CVR_MAX_COMPONENTS *
                                                            CVR_GRADIENT_OPACITY_TABLE_SIZE * sizeof(float)),
               "component gradient opacity");
  CVR_CUDA_TRY(ctx, cudaMalloc(&c->visible_prefix, (CVR_TRANSFER_FUNCTION_TABLE_SIZE + 1) * sizeof(int)),
               "transfer-function visibility");
  ctx->multiprocessors = c->props.multiProcessorCount;
  ctx->l2_bytes = (size_t)c->props.l2CacheSize;
  snprintf(ctx->description, sizeof ctx->description,
           "CUDA: %s (device %d, sm_%d%d, %d SMs, %.1f GiB)", c->props.name, device_index,
           c->props.major, c->props.minor, c->props.multiProcessorCount,
           (double)c->props.totalGlobalMem / (1024.0 * 1024.0 * 1024.0));
done:
  ctx->cuda = c;
  if (st != CVR_OK) cvr_cuda_context_destroy(ctx);
  leave_device(&scope);
  return st;
}

extern "C" void cvr_cuda_context_destroy(cvr_context *ctx) {
  cvr_cuda_context *c = ctx->cuda;
  if (!c) return;
  device_scope scope;
  if (enter_device(c->device, &scope) == cudaSuccess) {
    if (c->stream) cudaStreamSynchronize(c->stream);
    cudaFree(c->output);
    cudaFree(c->opaque_depth);
    cudaFree(c->counters);
    cudaFree(c->visible_prefix);
    cudaFree(c->table);
    cudaFree(c->gradient_table);
    cudaFree(c->table_2d);
    cudaFree(c->label_table);
    cudaFree(c->label_gradient);
    cudaFree(c->component_tables);
    cudaFree(c->component_gradients);
    cudaFree(c->brick_states);
    cudaFree(c->brick_skip);
    cudaFree(c->brick_items);
    if (c->kernel_start) cudaEventDestroy(c->kernel_start);
    if (c->kernel_stop) cudaEventDestroy(c->kernel_stop);
    if (c->copy_start) cudaEventDestroy(c->copy_start);
    if (c->copy_stop) cudaEventDestroy(c->copy_stop);
    cvr_cuda_staging_free(&c->staging);
    if (c->stream) cudaStreamDestroy(c->stream);
    leave_device(&scope);
  }
  free(c);
  ctx->cuda = NULL;
}

extern "C" cvr_status cvr_cuda_volume_upload(cvr_context *ctx, cvr_volume *volume,
                                             const cvr_upload *upload) {
  device_scope scope;
  cvr_status st = CVR_OK;
  CVR_CUDA_TRY(ctx, enter_device(ctx->cuda->device, &scope), "cannot select the CUDA device");
  st = volume->components > 1 ? cvr_cuda_components_build(ctx, volume, upload)
                               : cvr_cuda_storage_build(ctx, volume, CVR_LAYOUT_TEXTURE, 0, upload);
done:
  leave_device(&scope);
  return st;
}

extern "C" cvr_status cvr_cuda_volume_update(cvr_context *ctx, cvr_volume *volume,
                                             const cvr_upload *upload) {
  device_scope scope;
  cvr_status st = CVR_OK;
  CVR_CUDA_TRY(ctx, enter_device(ctx->cuda->device, &scope), "cannot select the CUDA device");
  st = volume->components > 1 ? cvr_cuda_components_write(ctx, volume, upload)
                               : cvr_cuda_storage_rewrite(ctx, volume, upload);
done:
  leave_device(&scope);
  return st;
}

extern "C" void cvr_cuda_volume_release(cvr_volume *volume) {
  cvr_cuda_volume *v = volume->cuda;
  if (!v) return;
  cvr_cuda_context *c = volume->ctx->cuda;
  device_scope scope;
  if (c && enter_device(c->device, &scope) == cudaSuccess) {
    cudaStreamSynchronize(c->stream); /* a frame in flight may still read it */
    cvr_cuda_storage_free(volume->ctx, v);
    leave_device(&scope);
  }
  free(v);
  volume->cuda = NULL;
}

/* A w x h block against the device's and the kernel's limits. */
static cvr_status check_block(cvr_context *ctx, const char *what, int w, int h, int kernel_max) {
  const cudaDeviceProp *p = &ctx->cuda->props;
  if (w * h > kernel_max)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: %s %d x %d has more threads than the kernel's limit of %d", what, w,
                    h, kernel_max);
  if (w * h > p->maxThreadsPerBlock || w > p->maxThreadsDim[0] || h > p->maxThreadsDim[1])
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: %s %d x %d exceeds this device's limits (%d threads, %d x %d)", what,
                    w, h, p->maxThreadsPerBlock, p->maxThreadsDim[0], p->maxThreadsDim[1]);
  return CVR_OK;
}

extern "C" cvr_status cvr_cuda_validate_settings(cvr_context *ctx,
                                                 const cvr_render_settings *s) {
  const int standard_max = cvr_cuda_standard_max_threads();
  cvr_status st = CVR_OK;
  switch (s->strategy) {
  case CVR_STRATEGY_STANDARD:
    st = check_block(ctx, "thread block", s->block_width, s->block_height, standard_max);
    if (st == CVR_OK && s->block_width * s->block_height * s->ray_segments > standard_max)
      st = cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: thread block %d x %d with %d ray segments has more threads than "
                    "the kernel's limit of %d", s->block_width, s->block_height, s->ray_segments,
                    standard_max);
    break;
  case CVR_STRATEGY_BLOCK_SHAPE:
    st = check_block(ctx, "horizontal-warp block", s->horizontal_block[0], s->horizontal_block[1],
                     standard_max);
    if (st == CVR_OK)
      st = check_block(ctx, "vertical-warp block", s->vertical_block[0], s->vertical_block[1],
                       standard_max);
    break;
  case CVR_STRATEGY_WARP_MARCHING:
    st = check_block(ctx, "warp-marching block", 32 * s->block_warps[0] * s->block_warps[1], 1,
                     cvr_cuda_warp_marching_max_threads());
    break;
  case CVR_STRATEGY_SLAB: {
    st = check_block(ctx, "slab block", s->slab_block[0], s->slab_block[1],
                     cvr_cuda_slab_max_threads());
    const size_t need = cvr_cuda_slab_shared_bytes(s);
    if (st == CVR_OK && need > ctx->cuda->props.sharedMemPerBlockOptin)
      st = cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: a slab block of %d x %d threads (%s border) and slabs of %d "
                    "samples needs %zu bytes of shared memory with the transfer function; this "
                    "device has %zu per block (fewer threads or a smaller slab depth)",
                    s->slab_block[0], s->slab_block[1], cvr_slab_border_name(s->slab_border),
                    s->slab_depth, need, ctx->cuda->props.sharedMemPerBlockOptin);
    break;
  }
  }
  return st;
}

/* Entry pairs for the kernels' shared memory (see cvr_classify_packed). The
 * table's values are already rounded to half precision, so this is exact. */
static void pack_table(const cvr_rgba *table, int size, uint4 *out) {
  for (int i = 0; i < size; ++i) {
    const cvr_rgba a = table[i], b = table[i + 1 < size ? i + 1 : i];
    out[i].x = cvr_half_bits(a.r) | (unsigned)cvr_half_bits(a.g) << 16;
    out[i].y = cvr_half_bits(a.b) | (unsigned)cvr_half_bits(a.a) << 16;
    out[i].z = cvr_half_bits(b.r) | (unsigned)cvr_half_bits(b.g) << 16;
    out[i].w = cvr_half_bits(b.b) | (unsigned)cvr_half_bits(b.a) << 16;
  }
}

/* A device buffer that only grows, so frames of a steady size allocate nothing. */
cudaError_t cvr_cuda_ensure_buffer(void **buffer, size_t *capacity, size_t bytes) {
  if (bytes <= *capacity) return cudaSuccess;
  cudaFree(*buffer);
  *buffer = NULL;
  *capacity = 0;
  cudaError_t e = cudaMalloc(buffer, bytes);
  if (e == cudaSuccess) *capacity = bytes;
  return e;
}

/* The rotation tile's depth k for the volume's type on this device. */
static cvr_status rotation_tile(cvr_context *ctx, const cvr_volume *volume,
                                const cvr_render_settings *s, int *k) {
  *k = cvr_cuda_rotation_depth(&ctx->cuda->props, volume->stored_type, s->rotation_tile[0],
                               s->rotation_tile[1]);
  if (*k > 0) return CVR_OK;
  return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                  "settings: rotation tile %d x %d of %s voxels needs two tiles of shared memory, "
                  "more than this device's %zu bytes per block",
                  s->rotation_tile[0], s->rotation_tile[1],
                  volume->stored_type == CVR_FLOAT32 ? "32-bit" : volume->stored_type >= CVR_INT16 ? "16-bit" : "8-bit",
                  ctx->cuda->props.sharedMemPerBlockOptin);
}

/* In-place rotation before the frame when its policy asks for it (Misaki et
 * al.): the view direction in the stored copy's axes decides. */
static cvr_status rotate_for_view(cvr_context *ctx, cvr_volume *volume, const cvr_frame *frame,
                                  const cvr_render_settings *s, cvr_render_stats *stats) {
  cvr_cuda_context *c = ctx->cuda;
  cvr_cuda_volume *v = volume->cuda;
  if (s->rotation_policy == CVR_ROTATION_NEVER) return CVR_OK;
  const cvr_orientation *o = &v->orientation;
  cvr_ray_params stored;
  cvr_reorient_ray_params(&frame->ray, o->axis, o->sign, o->offset, &stored);
  float dir[3];
  cvr_view_direction_index(&stored, dir);
  /* one thread a ray wants stored x across the rays, warp marching along
   * them; AUTO's tables keep the first rule for every candidate */
  const int partner = cvr_rotation_turn(dir, cvr_cuda_partners(v), v->partner, s->rotation_policy,
                                        s->rotation_hysteresis,
                                        s->strategy == CVR_STRATEGY_WARP_MARCHING && !ctx->auto_rendering);
  if (!partner) return CVR_OK;
  int k = 0;
  cvr_status st = rotation_tile(ctx, volume, s, &k);
  if (st != CVR_OK) return st;
  float ms = 0.0f;
  CVR_CUDA_TRY(ctx, cudaEventRecord(c->kernel_start, c->stream), "event");
  CVR_CUDA_TRY(ctx, cvr_cuda_rotate(v, volume->stored_type, partner, 1, s->rotation_tile[0], k,
                                    c->stream),
               "in-place rotation");
  CVR_CUDA_TRY(ctx, cudaEventRecord(c->kernel_stop, c->stream), "event");
  CVR_CUDA_TRY(ctx, cudaEventSynchronize(c->kernel_stop), "in-place rotation");
  CVR_CUDA_TRY(ctx, cudaEventElapsedTime(&ms, c->kernel_start, c->kernel_stop), "event timing");
  stats->rotations = 1;
  stats->rotation_ms = ms;
done:
  return st;
}

/* Quarter turns of the device copy now: `turns` about its partner, or
 * (order not NULL) the fewest that take it to voxel order `order`, *made of
 * them. */
static cvr_status turn_copy(cvr_volume *volume, const cvr_render_settings *s, int turns,
                            const int *order, int *made, double *ms) {
  cvr_context *ctx = volume->ctx;
  cvr_cuda_context *c = ctx->cuda;
  device_scope scope;
  cvr_status st = CVR_OK;
  int k = 0, path[8], steps = 0;
  float elapsed = 0.0f;
  if (made) *made = 0;
  CVR_CUDA_TRY(ctx, enter_device(c->device, &scope), "cannot select the CUDA device");
  if (volume->components > 1) {
    st = cvr_fail(ctx, CVR_ERROR_UNSUPPORTED, "rotation: multi-component volumes are not turned");
    goto done;
  }
  if ((st = cvr_cuda_storage_prepare(ctx, volume, s)) != CVR_OK) goto done;
  if (!volume->cuda->padded) {
    st = cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "rotation: the rotation policy is NEVER");
    goto done;
  }
  if (order) {
    const cvr_orientation *o = &volume->cuda->orientation;
    int from[3];
    for (int a = 0; a < 3; ++a) from[a] = o->sign[a] * (o->axis[a] + 1);
    steps = cvr_rotation_path(from, order, cvr_cuda_partners(volume->cuda), path, 8);
    if (steps < 0) {
      st = cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "rotation: no quarter turns of this copy reach voxel order %d %d %d",
                    order[0], order[1], order[2]);
      goto done;
    }
  } else {
    steps = turns > 0 ? 1 : 0; /* (all of them about the partner) */
    path[0] = volume->cuda->partner;
  }
  if ((st = rotation_tile(ctx, volume, s, &k)) != CVR_OK) goto done;
  CVR_CUDA_TRY(ctx, cudaEventRecord(c->kernel_start, c->stream), "event");
  for (int i = 0; i < steps; ++i)
    CVR_CUDA_TRY(ctx, cvr_cuda_rotate(volume->cuda, volume->stored_type, path[i],
                                      order ? 1 : turns, s->rotation_tile[0], k, c->stream),
                 "in-place rotation");
  CVR_CUDA_TRY(ctx, cudaEventRecord(c->kernel_stop, c->stream), "event");
  CVR_CUDA_TRY(ctx, cudaEventSynchronize(c->kernel_stop), "in-place rotation");
  CVR_CUDA_TRY(ctx, cudaEventElapsedTime(&elapsed, c->kernel_start, c->kernel_stop), "event");
  if (ms) *ms = elapsed;
  if (made) *made = order ? steps : turns;
done:
  leave_device(&scope);
  return st;
}

extern "C" cvr_status cvr_cuda_debug_rotate(cvr_volume *volume, const cvr_render_settings *s, int turns,
                                       double *ms) {
  return turn_copy(volume, s, turns, NULL, NULL, ms);
}

extern "C" cvr_status cvr_cuda_turn_to(cvr_volume *volume, const cvr_render_settings *s,
                                  const int order[3], int *turns, double *ms) {
  return turn_copy(volume, s, 0, order, turns, ms);
}

extern "C" void cvr_cuda_volume_orientation(const cvr_volume *volume, int axis[3], int sign[3],
                                            int offset[3]) {
  const cvr_orientation *o = &volume->cuda->orientation;
  for (int a = 0; a < 3; ++a) axis[a] = o->axis[a], sign[a] = o->sign[a], offset[a] = o->offset[a];
}

extern "C" cvr_status cvr_cuda_debug_read_volume(const cvr_volume *volume, void *out) {
  cvr_context *ctx = volume->ctx;
  device_scope scope;
  cvr_status st = CVR_OK;
  CVR_CUDA_TRY(ctx, enter_device(ctx->cuda->device, &scope), "cannot select the CUDA device");
  st = volume->components > 1 ? cvr_cuda_components_read(ctx, volume, out)
                               : cvr_cuda_storage_read(ctx, volume, out);
done:
  leave_device(&scope);
  return st;
}

extern "C" void cvr_cuda_debug_thread_limits(cvr_context *ctx, int bound[3], int driver[3]) {
  device_scope scope;
  const int entered = enter_device(ctx->cuda->device, &scope) == cudaSuccess;
  bound[0] = cvr_cuda_standard_max_threads();
  bound[1] = cvr_cuda_warp_marching_max_threads();
  bound[2] = cvr_cuda_slab_max_threads();
  driver[0] = entered ? cvr_cuda_standard_instances_max_threads() : 0;
  driver[1] = entered ? cvr_cuda_warp_marching_instances_max_threads() : 0;
  driver[2] = entered ? cvr_cuda_slab_instances_max_threads() : 0;
  if (entered) leave_device(&scope);
}

extern "C" size_t cvr_cuda_debug_free_bytes(cvr_context *ctx) {
  size_t free_bytes = 0, total = 0;
  device_scope scope;
  if (enter_device(ctx->cuda->device, &scope) != cudaSuccess)
    return 0;
  cudaMemGetInfo(&free_bytes, &total);
  leave_device(&scope);
  return free_bytes;
}

/* A fault as a broken kernel makes one (cvr_debug_lose_device). */
__global__ void cvr_fault_kernel(int *invalid) { *invalid = 1; }

extern "C" cvr_status cvr_cuda_debug_lose_device(cvr_context *ctx) {
  cvr_status st = CVR_OK;
  device_scope scope;
  CVR_CUDA_TRY(ctx, enter_device(ctx->cuda->device, &scope), "cannot select the CUDA device");
  cvr_fault_kernel<<<1, 1, 0, ctx->cuda->stream>>>((int *)(uintptr_t)0x10);
  CVR_CUDA_TRY(ctx, cudaStreamSynchronize(ctx->cuda->stream), "a faulting kernel (test hook)");
  st = cvr_fail(ctx, CVR_ERROR_INTERNAL, "cvr_debug_lose_device: the faulting kernel did not fault");
done:
  leave_device(&scope);
  return st;
}

/* The frame's transfer-function tables on the device: uploaded again when
 * the function, the sample distance, the blend mode or the mask changed
 * since the frame before (the opacity correction and the visibility depend
 * on them). */
static cvr_status upload_tables(cvr_context *ctx, const cvr_frame *frame) {
  cvr_cuda_context *c = ctx->cuda;
  cvr_status st = CVR_OK;
  if (c->table_version == frame->tf->version &&
      c->table_sample_distance == frame->ray.sample_distance &&
      c->table_blend == frame->ray.blend && c->table_mask == frame->ray.mask)
    return CVR_OK;
  pack_table(frame->sample_table, frame->ray.tf_size, c->packed);
  CVR_CUDA_TRY(ctx,
               cudaMemcpyAsync(c->table, c->packed, (size_t)frame->ray.tf_size * sizeof(uint4),
                               cudaMemcpyHostToDevice, c->stream),
               "transfer-function upload");
  if (frame->tf->gradient_size) /* small, and only a new version changes it */
    CVR_CUDA_TRY(ctx,
                 cudaMemcpyAsync(c->gradient_table, frame->tf->gradient_table,
                                 (size_t)frame->tf->gradient_size * sizeof(float),
                                 cudaMemcpyHostToDevice, c->stream),
                 "gradient-opacity upload");
  if (frame->tf->table_2d) {
    const size_t bytes = (size_t)frame->tf->size_2d[0] * frame->tf->size_2d[1] * sizeof(cvr_rgba);
    CVR_CUDA_TRY(ctx, cvr_cuda_ensure_buffer(&c->table_2d, &c->table_2d_bytes, bytes),
                 "2D transfer function");
    CVR_CUDA_TRY(ctx,
                 cudaMemcpyAsync(c->table_2d, frame->tf->table_2d, bytes, cudaMemcpyHostToDevice,
                                 c->stream),
                 "2D transfer-function upload");
  }
  if (frame->tf->label_count) { /* only a new version changes them */
    const size_t bytes = (size_t)frame->tf->label_count * frame->tf->size * sizeof(cvr_rgba);
    CVR_CUDA_TRY(ctx, cvr_cuda_ensure_buffer(&c->label_table, &c->label_table_bytes, bytes),
                 "label functions");
    CVR_CUDA_TRY(ctx,
                 cudaMemcpyAsync(c->label_table, frame->tf->label_table, bytes,
                                 cudaMemcpyHostToDevice, c->stream),
                 "label-function upload");
  }
  if (frame->tf->label_gradient) {
    const size_t bytes =
        (size_t)frame->tf->label_count * frame->tf->label_gradient_size * sizeof(float);
    CVR_CUDA_TRY(ctx, cvr_cuda_ensure_buffer(&c->label_gradient, &c->label_gradient_bytes, bytes),
                 "label gradient opacity");
    CVR_CUDA_TRY(ctx,
                 cudaMemcpyAsync(c->label_gradient, frame->tf->label_gradient, bytes,
                                 cudaMemcpyHostToDevice, c->stream),
                 "label gradient-opacity upload");
  }
  /* every component's table as colours (the frame's own is packed for
   * the one-component kernels: component 0's goes up again unpacked) */
  for (int k = 0; k < frame->ray.components && frame->ray.components > 1; ++k)
    CVR_CUDA_TRY(ctx,
                 cudaMemcpyAsync((cvr_rgba *)c->component_tables + (size_t)k * CVR_TRANSFER_FUNCTION_TABLE_SIZE,
                                 frame->ray.component_table[k],
                                 (size_t)frame->ray.component_size[k] * sizeof(cvr_rgba),
                                 cudaMemcpyHostToDevice, c->stream),
                 "component table upload");
  for (int k = 0; k < frame->ray.components; ++k)
    if (frame->ray.component_gradient[k])
      CVR_CUDA_TRY(ctx,
                   cudaMemcpyAsync((float *)c->component_gradients + (size_t)k * CVR_GRADIENT_OPACITY_TABLE_SIZE,
                                   frame->ray.component_gradient[k],
                                   (size_t)frame->ray.component_gradient_size[k] * sizeof(float),
                                   cudaMemcpyHostToDevice, c->stream),
                   "component gradient-opacity upload");
  cvr_skip_visible_prefix(frame->visibility_table, frame->ray.tf_size, c->visible_host);
  CVR_CUDA_TRY(ctx,
               cudaMemcpyAsync(c->visible_prefix, c->visible_host,
                               (size_t)(frame->ray.tf_size + 1) * sizeof(int),
                               cudaMemcpyHostToDevice, c->stream),
               "transfer-function visibility upload");
  c->table_version = frame->tf->version;
  c->table_sample_distance = frame->ray.sample_distance;
  c->table_blend = frame->ray.blend;
  c->table_mask = frame->ray.mask;
done:
  return st;
}

/* The frame's kernel launched between the kernel events: its block (the
 * standard block, the block-shape strategy's choice for this view, warp
 * marching's warps or the slab's tile; 16 x 16 where a kernel's registers
 * allow no more) and ray segments, written into stats. o: the copy's
 * orientation. */
static cvr_status launch_frame(cvr_context *ctx, const cvr_frame *frame, const cvr_orientation *o,
                               const cvr_cuda_launch &l, cvr_render_stats *stats) {
  cvr_cuda_context *c = ctx->cuda;
  const cvr_render_settings *s = frame->settings;
  cvr_status st = CVR_OK;
  int block[2] = {s->block_width, s->block_height};
  if (s->strategy == CVR_STRATEGY_BLOCK_SHAPE) {
    cvr_ray_params stored; /* strides are the stored copy's */
    cvr_reorient_ray_params(&frame->ray, o->axis, o->sign, o->offset, &stored);
    cvr_block_shape_choice choice;
    cvr_choose_block_shape_for(&stored, &choice);
    const int *b = choice.horizontal ? s->horizontal_block : s->vertical_block;
    block[0] = b[0];
    block[1] = b[1];
  } else if (s->strategy == CVR_STRATEGY_WARP_MARCHING) {
    block[0] = 32 * s->block_warps[0] * s->block_warps[1];
    block[1] = 1;
    cvr_warp_rays_layout(s, stats->warp_rays);
    stats->warp_width = s->warp_width;
    stats->warp_variant = s->warp_variant;
  } else if (s->strategy == CVR_STRATEGY_SLAB) {
    block[0] = s->slab_block[0];
    block[1] = s->slab_block[1];
    stats->slab_depth = s->slab_depth;
    stats->slab_border = s->slab_border;
  }
  if (frame->volume->components > 1 && block[0] * block[1] > CVR_COMPONENTS_MAX_THREADS)
    block[0] = block[1] = 16;
  if (l.ray.shading.scattering.blend > 0.0f && block[0] * block[1] > CVR_SCATTER_MAX_THREADS)
    block[0] = block[1] = 16;
  /* ray segments: unshaded compositing of one component from the texture
   * (standard_split.cu) */
  const int segments = s->strategy == CVR_STRATEGY_STANDARD && cvr_cuda_splits(&l.ray) &&
                               frame->volume->components == 1 &&
                               frame->volume->cuda->layout == CVR_LAYOUT_TEXTURE
                           ? s->ray_segments
                           : 1;
  const cvr_memory_layout layout = frame->volume->cuda->layout;
  CVR_CUDA_TRY(ctx, cudaEventRecord(c->kernel_start, c->stream), "event");
  if (frame->volume->components > 1)
    CVR_CUDA_TRY(ctx,
                 cvr_cuda_launch_components(&l, dim3((unsigned)block[0], (unsigned)block[1]), c->stream),
                 "multi-component kernel launch");
  else if (s->strategy == CVR_STRATEGY_WARP_MARCHING)
    CVR_CUDA_TRY(ctx, cvr_cuda_launch_warp_marching(&l, layout, s, c->stream),
                 "warp-marching kernel launch");
  else if (s->strategy == CVR_STRATEGY_SLAB)
    CVR_CUDA_TRY(ctx, cvr_cuda_launch_slab(&l, layout, s, ctx->debug.slab_one_sided,
                                           c->stream), "slab kernel launch");
  else
    CVR_CUDA_TRY(ctx,
                 cvr_cuda_launch_standard(&l, layout,
                                          dim3((unsigned)block[0], (unsigned)block[1],
                                               (unsigned)segments), c->stream),
                 "standard kernel launch");
  stats->block_width = block[0];
  stats->block_height = block[1];
  stats->ray_segments = segments;
  CVR_CUDA_TRY(ctx, cudaEventRecord(c->kernel_stop, c->stream), "event");
done:
  return st;
}

/* The volume's device copy made ready for the frame's settings and view:
 * its layout and padding, and its turn toward the rays. The copy is a cache
 * of the voxels in some layout and order: rendering may rearrange it, never
 * change what it holds. */
static cvr_status prepare_copy(cvr_context *ctx, const cvr_frame *frame, cvr_render_stats *stats) {
  cvr_volume *volume = (cvr_volume *)frame->volume;
  if (!volume->cuda)
    return cvr_fail(ctx, CVR_ERROR_DEVICE,
                    "volume: its device copy was lost when changing its layout failed; create it again");
  cvr_status st = CVR_OK;
  /* (multi-component volumes keep their one texture: frame.c asks for it) */
  if (volume->components == 1 && (st = cvr_cuda_storage_prepare(ctx, volume, frame->settings)) != CVR_OK)
    return st;
  return rotate_for_view(ctx, volume, frame, frame->settings, stats);
}

/* What the rays sample, in the copy's orientation o: the frame's ray
 * parameters (set up in the volume's index space) with the device's tables,
 * the mask's axes and the empty cells. */
static cvr_status sampling_params(cvr_context *ctx, const cvr_frame *frame,
                                  const cvr_orientation *o, int bricked, cvr_cuda_launch *l) {
  cvr_cuda_context *c = ctx->cuda;
  const cvr_render_settings *s = frame->settings;
  if (bricked)
    l->volume.identity = 1;
  else
    l->volume = cvr_cuda_storage_view(frame->volume, s->interpolation == CVR_INTERPOLATION_NEAREST);
  l->ray = frame->ray;
  cvr_reorient_sample_params(&frame->ray, o->axis, o->sign, o->offset, &l->ray);
  l->ray.gradient_table = c->gradient_table;
  if (l->ray.tf2d) l->ray.tf2d = (const cvr_rgba *)c->table_2d;
  if (l->ray.label_table) l->ray.label_table = (const cvr_rgba *)c->label_table;
  if (l->ray.label_gradient) l->ray.label_gradient = (const float *)c->label_gradient;
  for (int k = 0; k < l->ray.components && l->ray.components > 1; ++k) {
    l->ray.component_table[k] = (const cvr_rgba *)c->component_tables + (size_t)k * CVR_TRANSFER_FUNCTION_TABLE_SIZE;
    if (l->ray.component_gradient[k])
      l->ray.component_gradient[k] = (const float *)c->component_gradients + (size_t)k * CVR_GRADIENT_OPACITY_TABLE_SIZE;
  }
  for (int a = 0; a < 3 && l->ray.mask; ++a) { /* stored texel T -> the volume's (cvr_orientation) */
    l->ray.mask_axis[a] = o->axis[a];
    l->ray.mask_sign[a] = (float)o->sign[a];
    l->ray.mask_shift[a] = o->sign[a] > 0 ? (float)-o->offset[a] : (float)(o->offset[a] + 1);
  }
  l->table = c->table;
  l->counters = c->counters;
  if (const int shift = bricked ? 0 : cvr_skip_shift_for(s)) /* (bricks.cu: its own) */
    return cvr_cuda_skip_prepare(ctx, (cvr_volume *)frame->volume, frame, shift, c->visible_prefix,
                                 &l->ray, c->stream);
  return CVR_OK;
}

/* Where the rays read the opaque depth and write the image: OpenGL's
 * buffers in place (gl, mapped), else the context's output buffer, the
 * depth copied in from the host. */
static cvr_status frame_buffers(cvr_context *ctx, const cvr_frame *frame, const cvr_image *image,
                                const cvr_gl_mapping *gl, cvr_cuda_launch *l) {
  cvr_cuda_context *c = ctx->cuda;
  const size_t pixels = (size_t)frame->ray.width * frame->ray.height;
  cvr_status st = CVR_OK;
  l->opaque_depth = gl->depth;
  if (frame->opaque_depth) {
    CVR_CUDA_TRY(ctx,
                 cvr_cuda_ensure_buffer((void **)&c->opaque_depth, &c->opaque_depth_bytes,
                                        pixels * sizeof(float)),
                 "opaque depth buffer");
    CVR_CUDA_TRY(ctx, cudaMemcpyAsync(c->opaque_depth, frame->opaque_depth, pixels * sizeof(float),
                                      cudaMemcpyHostToDevice, c->stream),
                 "opaque depth upload");
    l->opaque_depth = c->opaque_depth;
  }
  if (image->rgba32f) l->rgba32f = (float4 *)c->output;
  if (gl->color) l->rgba32f = gl->color;
  if (image->rgba8) l->rgba8 = (uchar4 *)((char *)c->output + pixels * sizeof(float4));
  if (image->depth)
    l->depth = (float *)((char *)c->output + pixels * (sizeof(float4) + sizeof(uchar4)));
done:
  return st;
}

/* The image into host memory (what of it is asked for there) and the
 * frame's counters, once the stream is done. */
static cvr_status read_back(cvr_context *ctx, const cvr_image *image, const cvr_cuda_launch &l,
                            size_t pixels, cvr_gl_mapping *gl,
                            unsigned long long counters[CVR_CUDA_COUNTERS]) {
  cvr_cuda_context *c = ctx->cuda;
  cvr_status st = CVR_OK;
  if (image->rgba32f)
    CVR_CUDA_TRY(ctx, cudaMemcpyAsync(image->rgba32f, l.rgba32f, pixels * sizeof(float4),
                                      cudaMemcpyDeviceToHost, c->stream), "image readback");
  if (l.rgba8)
    CVR_CUDA_TRY(ctx, cudaMemcpyAsync(image->rgba8, l.rgba8, pixels * sizeof(uchar4),
                                      cudaMemcpyDeviceToHost, c->stream), "image readback");
  if (l.depth)
    CVR_CUDA_TRY(ctx, cudaMemcpyAsync(image->depth, l.depth, pixels * sizeof(float),
                                      cudaMemcpyDeviceToHost, c->stream), "depth readback");
  cvr_cuda_gl_unmap(gl, c->stream); /* OpenGL's again once the kernel is done */
  CVR_CUDA_TRY(ctx, cudaEventRecord(c->copy_stop, c->stream), "event");
  CVR_CUDA_TRY(ctx, cudaMemcpyAsync(counters, c->counters, CVR_CUDA_COUNTERS * sizeof *counters,
                                    cudaMemcpyDeviceToHost, c->stream), "statistics readback");
  CVR_CUDA_TRY(ctx, cudaStreamSynchronize(c->stream), "ray casting");
done:
  return st;
}

/* The frame's times, counts and copy into stats. */
static cvr_status frame_stats(cvr_context *ctx, const cvr_frame *frame, const cvr_orientation *o,
                              int bricked, const unsigned long long counters[CVR_CUDA_COUNTERS],
                              cvr_render_stats *stats) {
  cvr_cuda_context *c = ctx->cuda;
  cvr_status st = CVR_OK;
  float ms = 0.0f, in_ms = 0.0f, out_ms = 0.0f;
  CVR_CUDA_TRY(ctx, cudaEventElapsedTime(&ms, c->kernel_start, c->kernel_stop), "event timing");
  CVR_CUDA_TRY(ctx, cudaEventElapsedTime(&in_ms, c->copy_start, c->kernel_start), "event timing");
  CVR_CUDA_TRY(ctx, cudaEventElapsedTime(&out_ms, c->kernel_stop, c->copy_stop), "event timing");
  stats->kernel_ms = ms;
  stats->transfer_ms = (double)in_ms + out_ms;
  stats->rays = counters[0];
  stats->samples = counters[1];
  stats->samples_skipped_empty = counters[3];
  stats->samples_skipped_terminated = counters[2] - counters[1] - counters[3];
  stats->memory_layout = bricked ? CVR_LAYOUT_TEXTURE : frame->volume->cuda->layout;
  if (!bricked) stats->volume_bytes = frame->volume->cuda->bytes; /* (bricked: the cache's) */
  for (int a = 0; a < 3; ++a) stats->volume_axes[a] = o->sign[a] * (o->axis[a] + 1);
done:
  return st;
}

extern "C" cvr_status cvr_cuda_render(cvr_context *ctx, const cvr_frame *frame,
                                      const cvr_image *image, cvr_render_stats *stats) {
  cvr_cuda_context *c = ctx->cuda;
  const size_t pixels = (size_t)frame->ray.width * frame->ray.height;
  unsigned long long counters[CVR_CUDA_COUNTERS] = {0, 0, 0, 0};
  cvr_status st = CVR_OK;
  cvr_cuda_launch l;
  memset(&l, 0, sizeof l);
  cvr_gl_mapping gl;
  gl.count = 0;
  device_scope scope;
  /* a bricked volume (bricks.cu) has no device copy of its own, only the
   * cache its frames fill: unturned, from textures */
  static const cvr_orientation unturned = {{0, 1, 2}, {1, 1, 1}, {0, 0, 0}};
  const int bricked = frame->volume->bricks != NULL;
  const cvr_orientation *o = bricked ? &unturned : NULL;
  CVR_CUDA_TRY(ctx, enter_device(c->device, &scope), "cannot select the CUDA device");
  if (!bricked && (st = prepare_copy(ctx, frame, stats)) != CVR_OK) goto done;
  if (!bricked) o = &frame->volume->cuda->orientation;
  if ((st = upload_tables(ctx, frame)) != CVR_OK) goto done;
  CVR_CUDA_TRY(ctx,
               cvr_cuda_ensure_buffer(&c->output, &c->output_bytes,
                                      pixels * (sizeof(float4) + sizeof(uchar4) + sizeof(float))),
               "output buffer");
  CVR_CUDA_TRY(ctx, cudaEventRecord(c->copy_start, c->stream), "event");
  /* OpenGL buffers: read and written in place, no copies */
  if ((st = cvr_cuda_gl_map(ctx, &gl, frame->gl_opaque_depth, image->gl_rgba32f, pixels,
                            c->stream)) != CVR_OK ||
      (st = frame_buffers(ctx, frame, image, &gl, &l)) != CVR_OK ||
      (st = sampling_params(ctx, frame, o, bricked, &l)) != CVR_OK)
    goto done;
  CVR_CUDA_TRY(ctx, cudaMemsetAsync(c->counters, 0, CVR_CUDA_COUNTERS * sizeof(unsigned long long), c->stream),
               "counter reset");
  if ((st = bricked ? cvr_cuda_bricks_launch(ctx, frame, &l, stats)
                    : launch_frame(ctx, frame, o, l, stats)) != CVR_OK ||
      (st = read_back(ctx, image, l, pixels, &gl, counters)) != CVR_OK)
    goto done;
  st = frame_stats(ctx, frame, o, bricked, counters, stats);
done:
  cvr_cuda_gl_unmap(&gl, c->stream);
  leave_device(&scope);
  return st;
}
