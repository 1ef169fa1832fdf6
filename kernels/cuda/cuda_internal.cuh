// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* State and launch parameters of the CUDA backend (CUDA C, not public). */
#ifndef CVR_CUDA_INTERNAL_CUH
#define CVR_CUDA_INTERNAL_CUH

#include <cuda_runtime.h>
#include <stdio.h>

#include <initializer_list>

#include "cuda_backend.h"

/* Makes ctx's device current for the duration of a call and restores the
 * caller's, so the library never disturbs other CUDA users in the process. */
typedef struct device_scope {
  int previous;
  int changed;
} device_scope;

static inline cudaError_t enter_device(int device, device_scope *scope) {
  scope->changed = 0;
  cudaError_t e = cudaGetDevice(&scope->previous);
  if (e != cudaSuccess) return e;
  if (scope->previous == device) return cudaSuccess;
  scope->changed = 1;
  return cudaSetDevice(device);
}

static inline void leave_device(const device_scope *scope) {
  if (scope->changed) cudaSetDevice(scope->previous);
}

/* CUDA's sticky errors, after which every call in the process fails on
 * that device, and the device's context gone: the context is lost. */
static inline int device_lost_by(cudaError_t e) {
  switch (e) {
  case cudaErrorIllegalAddress:
  case cudaErrorLaunchFailure:
  case cudaErrorHardwareStackError:
  case cudaErrorIllegalInstruction:
  case cudaErrorMisalignedAddress:
  case cudaErrorInvalidAddressSpace:
  case cudaErrorInvalidPc:
  case cudaErrorAssert:
  case cudaErrorLaunchTimeout:
  case cudaErrorECCUncorrectable:
  case cudaErrorDevicesUnavailable:
  case cudaErrorContextIsDestroyed:
  case cudaErrorDeviceUninitialized:
  case cudaErrorCudartUnloading: return 1;
  default: return 0;
  }
}

static inline cvr_status device_failure(cvr_context *ctx, cudaError_t e, const char *what) {
  if (ctx && device_lost_by(e)) {
    if (!ctx->lost)
      snprintf(ctx->lost_reason, sizeof ctx->lost_reason, "%s: %s (%s)", what, cudaGetErrorString(e),
               cudaGetErrorName(e));
    ctx->lost = 1;
    return cvr_fail(ctx, CVR_ERROR_DEVICE_LOST,
                    "the CUDA device is lost, this context renders no more: %s", ctx->lost_reason);
  }
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

/* staging.cu: a ring of pinned host buffers for volume transfers. Take a
 * buffer (it waits until the transfer last queued from or into it is
 * done), queue a transfer from or into it on a stream, then mark it queued;
 * wait for that before reading a download. Where pinning fails (a limit on
 * locked memory) or CVR_PINNED_STAGING=0 is set, the buffers are pageable:
 * the same transfers, each finished with its buffer before the queueing
 * call returns (CUDA's rule for pageable memory), so nothing overlaps. */
#define CVR_STAGING_BUFFERS 3
#define CVR_STAGING_CHUNK_BYTES ((size_t)32 << 20) /* whole z-slices up to this */
typedef struct cvr_cuda_staging {
  void *host[CVR_STAGING_BUFFERS];
  cudaEvent_t done[CVR_STAGING_BUFFERS];
  size_t bytes; /* each buffer's */
  int next;
  int pageable; /* the buffers are malloc's, not pinned */
} cvr_cuda_staging;
cudaError_t cvr_cuda_staging_take(cvr_cuda_staging *s, size_t bytes, void **buffer, int *slot);
cudaError_t cvr_cuda_staging_queued(cvr_cuda_staging *s, int slot, cudaStream_t stream);
cudaError_t cvr_cuda_staging_wait(cvr_cuda_staging *s, int slot);
void cvr_cuda_staging_free(cvr_cuda_staging *s);
/* z-slices per chunk of a transfer of dims voxels of voxel_bytes: at most
 * CVR_STAGING_CHUNK_BYTES and a quarter of the volume, at least one. */
int cvr_cuda_chunk_slices(const int dims[3], size_t voxel_bytes);

struct cvr_cuda_context {
  int device;
  cudaDeviceProp props;
  cudaStream_t stream;
  cudaEvent_t kernel_start, kernel_stop;
  cudaEvent_t copy_start, copy_stop; /* around the frame's host-device copies */
  uint4 *table;                   /* CVR_TRANSFER_FUNCTION_TABLE_SIZE entry pairs */
  unsigned long long table_version; /* the transfer function the device table holds */
  uint4 packed[CVR_TRANSFER_FUNCTION_TABLE_SIZE]; /* host staging of the table */
  float *gradient_table;          /* the function's gradient opacity, same version */
  void *table_2d;                 /* its 2D function (cvr_rgba entries), same version */
  size_t table_2d_bytes;
  void *label_table, *label_gradient; /* its label functions (cvr_rgba, float), same version */
  size_t label_table_bytes, label_gradient_bytes;
  int table_mask; /* label functions make cells visible (visible_prefix) */
  /* a multi-component volume's tables and gradient opacity (cvr_rgba,
   * float), component c at c * the largest size; same version */
  void *component_tables, *component_gradients;
  float table_sample_distance;
  int table_blend; /* the table's opacity depends on the blend mode too */
  unsigned long long *counters;   /* the last frame's (cvr_cuda_launch) */
  int *visible_prefix;            /* the table's (empty_space.h), same version */
  int visible_host[CVR_TRANSFER_FUNCTION_TABLE_SIZE + 1];
  void *output;                   /* rgba32f, rgba8 and depth planes */
  size_t output_bytes;
  float *opaque_depth;            /* the view's opaque-geometry depth, per frame */
  size_t opaque_depth_bytes;
  cvr_cuda_staging staging;       /* volume uploads and read-backs */
  void *brick_states;             /* bricked frames: a cvr_ray_state per pixel */
  size_t brick_states_bytes;
  void *brick_skip;               /* ... and the empty cells of the volume's host copy */
  size_t brick_skip_bytes;
  unsigned long long brick_skip_generation; /* the cells' (cvr_skip_grid), 0: none */
  void *brick_items;              /* ... and the frame's bricks as its launches read them */
  size_t brick_items_bytes;
};

/* A frame's OpenGL buffers, mapped (gl_interop.cu): the opaque depth read
 * and the image written in place. Unmapping hands them back to OpenGL. */
typedef struct cvr_gl_mapping {
  cudaGraphicsResource_t resources[2];
  int count;
  const float *depth;
  float4 *color;
} cvr_gl_mapping;
cvr_status cvr_cuda_gl_map(cvr_context *ctx, cvr_gl_mapping *m, const cvr_gl_buffer *depth,
                           const cvr_gl_buffer *color, size_t pixels, cudaStream_t stream);
void cvr_cuda_gl_unmap(cvr_gl_mapping *m, cudaStream_t stream);

/* Where stored voxel s of the device copy comes from: s[a] = sign[a] *
 * i[axis[a]] + offset[a] for volume index i (a signed permutation: the
 * in-place rotation's quarter turns compose to one). */
typedef struct cvr_orientation {
  int axis[3], sign[3], offset[3];
} cvr_orientation;

/* The device copy of a volume in one memory layout (volume_storage.cu). */
struct cvr_cuda_volume {
  cvr_memory_layout layout;
  int padded;       /* x and `partner` padded to one length, for rotation */
  int partner;      /* the axis x trades places with when turned: 1 or 2 */
  int dims[3];      /* stored extent, padding included */
  cvr_orientation orientation;
  cudaArray_t array; /* TEXTURE: bound to two textures and a surface */
  cudaTextureObject_t linear, nearest;
  cudaSurfaceObject_t surface;
  void *data;                /* ARRAY_ORDER, Z_ORDER */
  unsigned long long *index; /* their lookup tables Lx, Ly, Lz back to back */
  size_t bytes;              /* device memory of the voxels */
  int components;            /* > 1: a texture of 2 or 4 channels (components.cu) */
  cvr_skip_grid skip;        /* empty-space skipping over this copy (device memory) */
};

/* What a kernel needs to read the volume, by value: the sampler of the
 * layout picks its fields (volume_sampler.cuh). */
typedef struct cvr_storage_view {
  cudaTextureObject_t texture; /* linear or nearest filtering, per frame */
  const void *data;
  const unsigned long long *index;
  int dims[3];
  int nearest;
  int stored_type; /* cvr_scalar_type of data */
  /* texel coordinates of the stored copy from the volume's: T[a] = sign[a] *
   * t[axis[a]] + offset[a]; identity skips it */
  int identity;
  int axis[3];
  float sign[3], offset[3];
} cvr_storage_view;

/* Everything a ray-casting kernel reads, passed by value. */
typedef struct cvr_cuda_launch {
  cvr_ray_params ray;
  cvr_storage_view volume;
  const uint4 *table; /* pair i: entries i and i + 1 as eight halves */
  int table_copies;   /* replicas in shared memory (ray_march.cuh), set by the launcher */
  float4 *rgba32f; /* each output may be NULL */
  uchar4 *rgba8;
  float *depth;
  const float *opaque_depth; /* window depth of opaque geometry, or NULL */
  /* rays, samples taken, the rays' lattice samples, those skipped as empty */
  unsigned long long *counters;
} cvr_cuda_launch;
#define CVR_CUDA_COUNTERS 4

/* volume_storage.cu */
cvr_status cvr_cuda_storage_build(cvr_context *ctx, cvr_volume *volume, cvr_memory_layout layout,
                                  int padded, const cvr_upload *upload);
/* New scalars over the copy the volume has (cvr_volume_update): its layout
 * and memory kept, the original voxel order restored. */
cvr_status cvr_cuda_storage_rewrite(cvr_context *ctx, cvr_volume *volume, const cvr_upload *upload);
void cvr_cuda_storage_free(cvr_context *ctx, cvr_cuda_volume *v);
/* The volume's voxels in their original order, as stored_type, into host memory. */
cvr_status cvr_cuda_storage_read(cvr_context *ctx, const cvr_volume *volume, void *out);
/* Makes the device copy match the settings' layout and padding. */
cvr_status cvr_cuda_storage_prepare(cvr_context *ctx, cvr_volume *volume,
                                    const cvr_render_settings *s);
cvr_storage_view cvr_cuda_storage_view(const cvr_volume *volume, int nearest);

/* empty_space.cu: the copy's grid of cells of 2^shift texels, built when
 * missing (or of another size; freed with the copy), and the empty cells
 * for the frame's table, whose visible prefix is on the device; sets
 * ray->skip_* (NULL where device memory is short: the frame renders
 * without skipping). */
cvr_status cvr_cuda_skip_prepare(cvr_context *ctx, cvr_volume *volume, const cvr_frame *frame,
                                 int shift, const int *visible_prefix, cvr_ray_params *ray,
                                 cudaStream_t stream);
void cvr_cuda_skip_free(cvr_cuda_volume *v);

/* rotation.cu: quarter turns of the stored voxels in place about the axis
 * that is neither x nor `partner` (1 or 2, one of cvr_cuda_partners);
 * tile = t x k (k resolved). */
cudaError_t cvr_cuda_rotate(cvr_cuda_volume *v, cvr_scalar_type stored_type, int partner,
                            int turns, int t, int k, cudaStream_t stream);
/* The axes x may trade places with (bit a for axis a): those as long as x
 * in a copy that turns (padded); v->partner's always. */
int cvr_cuda_partners(const cvr_cuda_volume *v);
/* The same for a copy of dims whose x and partner are padded alike. */
static inline int cvr_cuda_partner_set(const int dims[3], int partner) {
  int partners = 1 << partner;
  for (int a = 1; a <= 2; ++a)
    if (dims[a] == dims[0]) partners |= 1 << a;
  return partners;
}
/* k itself if its tiles fit, for k = 0 the largest of 4, 2, 1 that fits; 0 if none. */
int cvr_cuda_rotation_depth(const cudaDeviceProp *props, cvr_scalar_type stored_type, int t, int k);

/* volume_storage.cu: a texture over a volume's array (clamped, unnormalized
 * coordinates; integers read as normalized floats), and a CUDA error while
 * storing a volume as the library reports it. */
/* A device buffer of at least `bytes`, grown (contents lost) where smaller. */
cudaError_t cvr_cuda_ensure_buffer(void **buffer, size_t *capacity, size_t bytes);
/* bricks.cu: a bricked volume's frame (bricks.h) in place of the
 * strategies' launch, between the kernel events. */
extern "C" cvr_status cvr_cuda_bricks_launch(cvr_context *ctx, const cvr_frame *frame,
                                             cvr_cuda_launch *l, cvr_render_stats *stats);
cudaChannelFormatDesc cvr_cuda_channel_for(cvr_scalar_type stored);
cudaError_t cvr_cuda_volume_texture(cudaArray_t array, cvr_scalar_type stored,
                                    cudaTextureFilterMode filter, cudaTextureObject_t *out);
cvr_status cvr_cuda_volume_failure(cvr_context *ctx, cudaError_t e, const char *what);
/* A device allocation of `bytes` that failed with e: "<what>, N MiB, on the
 * device (M MiB free): <CUDA's word>", out of memory or a device error. */
cvr_status cvr_cuda_allocation_failure(cvr_context *ctx, cudaError_t e, size_t bytes,
                                       const char *what);

/* components.cu: multi-component volumes (a texture of 2 or 4 channels,
 * identity orientation) and their kernel */
extern "C" cvr_status cvr_cuda_components_build(cvr_context *ctx, cvr_volume *volume,
                                                const cvr_upload *upload);
/* New scalars into the volume's texture (cvr_volume_update). */
extern "C" cvr_status cvr_cuda_components_write(cvr_context *ctx, cvr_volume *volume,
                                                const cvr_upload *upload);
extern "C" cvr_status cvr_cuda_components_read(cvr_context *ctx, const cvr_volume *volume, void *out);
#define CVR_COMPONENTS_MAX_THREADS 256 /* larger standard blocks launch as 16 x 16 */
/* Volumetric scattering's instances of the standard kernel: at most this many
 * threads a block, so that their shadow loops keep their registers (at 1024,
 * 64 registers, they spilled); larger blocks launch as 16 x 16 */
#define CVR_SCATTER_MAX_THREADS 256
cudaError_t cvr_cuda_launch_components(const cvr_cuda_launch *launch, dim3 block, cudaStream_t stream);

/* standard.cu; block.z: ray segments (compositing from the texture) */
cudaError_t cvr_cuda_launch_standard(const cvr_cuda_launch *launch, cvr_memory_layout layout,
                                     dim3 block, cudaStream_t stream);
/* Volumetric scattering's frames (standard_scatter.cu): the standard kernel
 * from the texture, COMPOSITE, ISOSURFACE or SLICE. */
cudaError_t cvr_cuda_launch_standard_scatter(const cvr_cuda_launch *launch, dim3 block,
                                             cudaStream_t stream);
/* standard_split.cu: whether a frame's rays may be split (unshaded
 * compositing, at most empty-space skipping; from the texture, one
 * component: the caller's part), and the launch of block.z ray segments */
int cvr_cuda_splits(const cvr_ray_params *ray);
cudaError_t cvr_cuda_launch_standard_split(const cvr_cuda_launch *launch, dim3 block,
                                           cudaStream_t stream);
int cvr_cuda_standard_split_instances_max_threads(void);
/* The most threads a block of each kernel may have: the launch bound its
 * instances are compiled with (nvcc fits an instance's registers to it,
 * spilling if it must). Not asked of the driver: under CUDA's lazy loading
 * cudaFuncGetAttributes loads the instance it is asked about, and asking
 * about every instance loaded all 30 standard ones on a context's first
 * frame (doubling its time), 8 warp-marching and 4 slab ones where one of
 * each was used. The *_instances_* forms ask the driver
 * about every instance, for a test (cvr_debug_thread_limits). */
int cvr_cuda_standard_max_threads(void);
int cvr_cuda_standard_instances_max_threads(void);
/* Loads kernel instances without launching them: under CUDA's lazy loading
 * the driver loads an instance (and its module) when first asked about it.
 * AUTO's helper thread (kernel_preload.c, cvr_cuda_load_kernels) loads a
 * candidate's instances so, ahead of its first frame. The cvr_cuda_load_*
 * functions load what a frame of their strategy may launch: every feature
 * instance of its kind and sampler, a few more than one frame needs. */
static inline cudaError_t cvr_cuda_load(std::initializer_list<const void *> kernels) {
  for (const void *k : kernels) {
    cudaFuncAttributes a;
    const cudaError_t e = cudaFuncGetAttributes(&a, k);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}
cudaError_t cvr_cuda_load_standard(cvr_memory_layout layout, cvr_blend_mode blend, bool gradient);
cudaError_t cvr_cuda_load_standard_split(void);
cudaError_t cvr_cuda_load_standard_scatter(cvr_blend_mode blend);
cudaError_t cvr_cuda_load_warp_marching(cvr_memory_layout layout, int variant, bool gradient);
cudaError_t cvr_cuda_load_slab(cvr_memory_layout layout, int depth, bool gathered, bool gradient);
cudaError_t cvr_cuda_load_slab_global(int depth, bool gathered, bool gradient);
cudaError_t cvr_cuda_load_rotation(cvr_memory_layout layout, cvr_scalar_type stored_type);
cudaError_t cvr_cuda_load_empty_space(cvr_memory_layout layout);
/* Lowers *limit to the block size the driver allows a kernel (the
 * *_instances_* forms); false where the driver cannot say. */
static inline bool cvr_lower_thread_limit(const void *kernel, int *limit) {
  cudaFuncAttributes a;
  if (cudaFuncGetAttributes(&a, kernel) != cudaSuccess) return false;
  if (a.maxThreadsPerBlock < *limit) *limit = a.maxThreadsPerBlock;
  return true;
}

/* warp_marching.cu */
cudaError_t cvr_cuda_launch_warp_marching(const cvr_cuda_launch *launch, cvr_memory_layout layout,
                                          const cvr_render_settings *settings, cudaStream_t stream);
int cvr_cuda_warp_marching_max_threads(void);
int cvr_cuda_warp_marching_instances_max_threads(void);

/* slab.cu; one_sided: the test hook that ignores the border rays */
cudaError_t cvr_cuda_launch_slab(const cvr_cuda_launch *launch, cvr_memory_layout layout,
                                 const cvr_render_settings *settings, int one_sided,
                                 cudaStream_t stream);
int cvr_cuda_slab_max_threads(void);
int cvr_cuda_slab_instances_max_threads(void);
/* slab_global.cu: the same for the layouts other than the texture */
cudaError_t cvr_cuda_launch_slab_global(const cvr_cuda_launch *launch,
                                        const cvr_render_settings *settings, int one_sided,
                                        cudaStream_t stream);
int cvr_cuda_slab_global_instances_max_threads(void);
/* Shared memory of the slab block of `settings` with the largest transfer
 * function, once. */
size_t cvr_cuda_slab_shared_bytes(const cvr_render_settings *settings);

#endif
