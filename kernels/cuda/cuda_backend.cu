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

/* Makes ctx's device current for the duration of a call and restores the
 * caller's, so the library never disturbs other CUDA users in the process. */
typedef struct device_scope {
  int previous;
  int changed;
} device_scope;

static cudaError_t enter_device(int device, device_scope *scope) {
  scope->changed = 0;
  cudaError_t e = cudaGetDevice(&scope->previous);
  if (e != cudaSuccess) return e;
  if (scope->previous == device) return cudaSuccess;
  scope->changed = 1;
  return cudaSetDevice(device);
}

static void leave_device(const device_scope *scope) {
  if (scope->changed) cudaSetDevice(scope->previous);
}

static cvr_status device_failure(cvr_context *ctx, cudaError_t e, const char *what) {
  const cvr_status st = e == cudaErrorMemoryAllocation ? CVR_ERROR_OUT_OF_MEMORY
                        : (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver)
                            ? CVR_ERROR_NO_DEVICE
                            : CVR_ERROR_DEVICE;
  cudaGetLastError(); /* clear non-sticky errors so the context stays usable */
  return cvr_fail(ctx, st, "%s: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
}

#define CVR_CUDA_TRY(ctx, call, what)                                                              \
  do {                                                                                             \
    const cudaError_t e_ = (call);                                                                 \
    if (e_ != cudaSuccess) {                                                                       \
      st = device_failure((ctx), e_, (what));                                                      \
      goto done;                                                                                   \
    }                                                                                              \
  } while (0)

extern "C" int cvr_cuda_count_devices(void) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return n;
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
  CVR_CUDA_TRY(ctx, cudaMalloc(&c->table, CVR_TRANSFER_FUNCTION_TABLE_SIZE * sizeof(uint4)),
               "transfer-function table");
  CVR_CUDA_TRY(ctx, cudaMalloc(&c->counters, 2 * sizeof(unsigned long long)), "counters");
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
    cudaFree(c->table);
    if (c->kernel_start) cudaEventDestroy(c->kernel_start);
    if (c->kernel_stop) cudaEventDestroy(c->kernel_stop);
    if (c->stream) cudaStreamDestroy(c->stream);
    leave_device(&scope);
  }
  free(c);
  ctx->cuda = NULL;
}

static cudaChannelFormatDesc channel_for(cvr_scalar_type stored) {
  switch (stored) {
  case CVR_INT8: return cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindSigned);
  case CVR_UINT8: return cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
  case CVR_INT16: return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindSigned);
  case CVR_UINT16: return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindUnsigned);
  default: return cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  }
}

static cudaError_t create_texture(cudaArray_t array, cvr_scalar_type stored,
                                  cudaTextureFilterMode filter, cudaTextureObject_t *out) {
  cudaResourceDesc res;
  memset(&res, 0, sizeof res);
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaTextureDesc tex;
  memset(&tex, 0, sizeof tex);
  tex.addressMode[0] = tex.addressMode[1] = tex.addressMode[2] = cudaAddressModeClamp;
  tex.filterMode = filter;
  tex.readMode = stored == CVR_FLOAT32 ? cudaReadModeElementType : cudaReadModeNormalizedFloat;
  tex.normalizedCoords = 0;
  return cudaCreateTextureObject(out, &res, &tex, NULL);
}

/* Copies z-slices [z0, z0 + nz) from host memory laid out as dims. */
static cudaError_t copy_slices(cudaArray_t array, const void *src, size_t elem, const int *dims,
                               int z0, int nz) {
  cudaMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcPtr = make_cudaPitchedPtr((void *)src, (size_t)dims[0] * elem, (size_t)dims[0],
                                 (size_t)dims[1]);
  p.dstArray = array;
  p.dstPos = make_cudaPos(0, 0, (size_t)z0);
  p.extent = make_cudaExtent((size_t)dims[0], (size_t)dims[1], (size_t)nz);
  p.kind = cudaMemcpyHostToDevice;
  return cudaMemcpy3D(&p);
}

extern "C" cvr_status cvr_cuda_volume_upload(cvr_context *ctx, cvr_volume *volume,
                                             const void *data) {
  cvr_cuda_context *c = ctx->cuda;
  const int *dims = volume->dims;
  for (int a = 0; a < 3; ++a)
    if (dims[a] > c->props.maxTexture3D[a])
      return cvr_fail(ctx, CVR_ERROR_UNSUPPORTED,
                      "volume: %d x %d x %d exceeds the device's 3D texture limit %d x %d x %d",
                      dims[0], dims[1], dims[2], c->props.maxTexture3D[0],
                      c->props.maxTexture3D[1], c->props.maxTexture3D[2]);
  cvr_cuda_volume *v = (cvr_cuda_volume *)calloc(1, sizeof *v);
  if (!v) return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY, "volume: out of host memory");
  volume->cuda = v;
  const size_t elem = cvr_scalar_type_size(volume->stored_type);
  const size_t slice = (size_t)dims[0] * dims[1];
  void *staging = NULL;
  cvr_status st = CVR_OK;
  device_scope scope;
  CVR_CUDA_TRY(ctx, enter_device(c->device, &scope), "cannot select the CUDA device");
  {
    const cudaChannelFormatDesc channel = channel_for(volume->stored_type);
    const cudaError_t e = cudaMalloc3DArray(
        &v->array, &channel, make_cudaExtent((size_t)dims[0], (size_t)dims[1], (size_t)dims[2]), 0);
    if (e != cudaSuccess) {
      size_t free_bytes = 0, total = 0;
      cudaGetLastError();
      cudaMemGetInfo(&free_bytes, &total);
      st = cvr_fail(ctx, e == cudaErrorMemoryAllocation ? CVR_ERROR_OUT_OF_MEMORY : CVR_ERROR_DEVICE,
                    "volume: cannot allocate a %d x %d x %d array of %.1f MiB on the device "
                    "(%.1f MiB free): %s",
                    dims[0], dims[1], dims[2], (double)(slice * dims[2] * elem) / 1048576.0,
                    (double)free_bytes / 1048576.0, cudaGetErrorString(e));
      goto done;
    }
  }
  if (volume->stored_type == volume->type) {
    CVR_CUDA_TRY(ctx, copy_slices(v->array, data, elem, dims, 0, dims[2]), "volume upload");
  } else {
    /* convert in slabs of about 64 MiB so host memory stays bounded */
    const int slab = (int)(((size_t)64 << 20) / (slice * elem)) > 0
                         ? (int)(((size_t)64 << 20) / (slice * elem))
                         : 1;
    const int nz = slab < dims[2] ? slab : dims[2];
    staging = malloc((size_t)nz * slice * elem);
    if (!staging) {
      st = cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY, "volume: no host memory for conversion");
      goto done;
    }
    const size_t in_elem = cvr_scalar_type_size(volume->type);
    for (int z = 0; z < dims[2]; z += nz) {
      const int n = z + nz <= dims[2] ? nz : dims[2] - z;
      cvr_convert_to_stored(volume->type, (const char *)data + (size_t)z * slice * in_elem,
                            (size_t)n * slice, staging);
      CVR_CUDA_TRY(ctx, copy_slices(v->array, staging, elem, dims, z, n), "volume upload");
    }
  }
  CVR_CUDA_TRY(ctx, create_texture(v->array, volume->stored_type, cudaFilterModeLinear, &v->linear),
               "volume texture");
  CVR_CUDA_TRY(ctx, create_texture(v->array, volume->stored_type, cudaFilterModePoint, &v->nearest),
               "volume texture");
done:
  free(staging);
  leave_device(&scope);
  if (st != CVR_OK) cvr_cuda_volume_release(volume);
  return st;
}

extern "C" void cvr_cuda_volume_release(cvr_volume *volume) {
  cvr_cuda_volume *v = volume->cuda;
  if (!v) return;
  cvr_cuda_context *c = volume->ctx->cuda;
  device_scope scope;
  if (c && enter_device(c->device, &scope) == cudaSuccess) {
    cudaStreamSynchronize(c->stream); /* a frame in flight may still read it */
    if (v->linear) cudaDestroyTextureObject(v->linear);
    if (v->nearest) cudaDestroyTextureObject(v->nearest);
    if (v->array) cudaFreeArray(v->array);
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
static cudaError_t ensure_buffer(void **buffer, size_t *capacity, size_t bytes) {
  if (bytes <= *capacity) return cudaSuccess;
  cudaFree(*buffer);
  *buffer = NULL;
  *capacity = 0;
  cudaError_t e = cudaMalloc(buffer, bytes);
  if (e == cudaSuccess) *capacity = bytes;
  return e;
}

extern "C" cvr_status cvr_cuda_render(cvr_context *ctx, const cvr_frame *frame,
                                      const cvr_image *image, cvr_render_stats *stats) {
  cvr_cuda_context *c = ctx->cuda;
  const cvr_render_settings *s = frame->settings;
  const size_t pixels = (size_t)frame->ray.width * frame->ray.height;
  unsigned long long counters[2] = {0, 0};
  float ms = 0.0f;
  cvr_status st = CVR_OK;
  cvr_cuda_launch l;
  memset(&l, 0, sizeof l);
  device_scope scope;
  CVR_CUDA_TRY(ctx, enter_device(c->device, &scope), "cannot select the CUDA device");

  if (c->table_version != frame->tf->version ||
      c->table_sample_distance != frame->ray.sample_distance) {
    pack_table(frame->sample_table, frame->ray.tf_size, c->packed);
    CVR_CUDA_TRY(ctx,
                 cudaMemcpyAsync(c->table, c->packed, (size_t)frame->ray.tf_size * sizeof(uint4),
                                 cudaMemcpyHostToDevice, c->stream),
                 "transfer-function upload");
    c->table_version = frame->tf->version;
    c->table_sample_distance = frame->ray.sample_distance;
  }
  CVR_CUDA_TRY(ctx,
               ensure_buffer(&c->output, &c->output_bytes,
                             pixels * (sizeof(float4) + sizeof(uchar4) + sizeof(float))),
               "output buffer");
  if (frame->opaque_depth) {
    CVR_CUDA_TRY(ctx,
                 ensure_buffer((void **)&c->opaque_depth, &c->opaque_depth_bytes,
                               pixels * sizeof(float)),
                 "opaque depth buffer");
    CVR_CUDA_TRY(ctx, cudaMemcpyAsync(c->opaque_depth, frame->opaque_depth, pixels * sizeof(float),
                                      cudaMemcpyHostToDevice, c->stream),
                 "opaque depth upload");
    l.opaque_depth = c->opaque_depth;
  }
  l.ray = frame->ray;
  l.volume = s->interpolation == CVR_INTERPOLATION_NEAREST ? frame->volume->cuda->nearest
                                                            : frame->volume->cuda->linear;
  l.table = c->table;
  l.counters = c->counters;
  if (image->rgba32f) l.rgba32f = (float4 *)c->output;
  if (image->rgba8) l.rgba8 = (uchar4 *)((char *)c->output + pixels * sizeof(float4));
  if (image->depth)
    l.depth = (float *)((char *)c->output + pixels * (sizeof(float4) + sizeof(uchar4)));
  CVR_CUDA_TRY(ctx, cudaMemsetAsync(c->counters, 0, 2 * sizeof(unsigned long long), c->stream),
               "counter reset");
  {
    /* the launch shape: the standard block, the block-shape strategy's
     * choice for this view, or warp marching's warps */
    int block[2] = {s->block_width, s->block_height};
    if (s->strategy == CVR_STRATEGY_BLOCK_SHAPE) {
      cvr_block_shape_choice choice;
      cvr_choose_block_shape_for(&frame->ray, &choice);
      const int *b = choice.horizontal ? s->horizontal_block : s->vertical_block;
      block[0] = b[0];
      block[1] = b[1];
    } else if (s->strategy == CVR_STRATEGY_WARP_MARCHING) {
      block[0] = 32 * s->block_warps[0] * s->block_warps[1];
      block[1] = 1;
      cvr_warp_rays_layout(s, stats->warp_rays);
      stats->warp_width = s->warp_width;
    }
    CVR_CUDA_TRY(ctx, cudaEventRecord(c->kernel_start, c->stream), "event");
    if (s->strategy == CVR_STRATEGY_WARP_MARCHING)
      CVR_CUDA_TRY(ctx, cvr_cuda_launch_warp_marching(&l, s, c->stream),
                   "warp-marching kernel launch");
    else
      CVR_CUDA_TRY(ctx,
                   cvr_cuda_launch_standard(&l, dim3((unsigned)block[0], (unsigned)block[1]),
                                            c->stream),
                   "standard kernel launch");
    stats->block_width = block[0];
    stats->block_height = block[1];
  }
  CVR_CUDA_TRY(ctx, cudaEventRecord(c->kernel_stop, c->stream), "event");
  if (l.rgba32f)
    CVR_CUDA_TRY(ctx, cudaMemcpyAsync(image->rgba32f, l.rgba32f, pixels * sizeof(float4),
                                      cudaMemcpyDeviceToHost, c->stream), "image readback");
  if (l.rgba8)
    CVR_CUDA_TRY(ctx, cudaMemcpyAsync(image->rgba8, l.rgba8, pixels * sizeof(uchar4),
                                      cudaMemcpyDeviceToHost, c->stream), "image readback");
  if (l.depth)
    CVR_CUDA_TRY(ctx, cudaMemcpyAsync(image->depth, l.depth, pixels * sizeof(float),
                                      cudaMemcpyDeviceToHost, c->stream), "depth readback");
  CVR_CUDA_TRY(ctx, cudaMemcpyAsync(counters, c->counters, sizeof counters, cudaMemcpyDeviceToHost,
                                    c->stream), "statistics readback");
  CVR_CUDA_TRY(ctx, cudaStreamSynchronize(c->stream), "ray casting");
  CVR_CUDA_TRY(ctx, cudaEventElapsedTime(&ms, c->kernel_start, c->kernel_stop), "event timing");
  stats->kernel_ms = ms;
  stats->rays = counters[0];
  stats->samples = counters[1];
done:
  leave_device(&scope);
  return st;
}
