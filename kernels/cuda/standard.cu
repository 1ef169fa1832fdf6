// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The standard strategy: one thread per ray, a 2D thread block of w x h
 * rays, the volume read through a 3D texture (Wang et al. section 3.2; the
 * CUDA sample volumeRender). */
#include "ray_march.cuh"

/* Register budget: threads per block at most, and blocks of that size per
 * SM at least (65536 / product = registers per thread). Measured on an H100:
 * capping at 32 registers for more resident threads lost 3-10% to spills at
 * 1024^3, so the default leaves the compiler free. */
#ifndef CVR_STANDARD_MAX_THREADS
#  define CVR_STANDARD_MAX_THREADS 1024
#endif
/* Texture fetches in flight per ray (cvr_march). On an H100 at 1024^3 with
 * 16x16 blocks, 1, 2, 4 and 8 gave 351, 373, 378 and 381 G samples/s at the
 * best view, 245, 271, 296 and 328 on average over the views, and 57, 106,
 * 168 and 228 at the worst (tools/bench/results/2026-11-22-h100-standard). */
#ifndef CVR_STANDARD_FETCH_AHEAD
#  define CVR_STANDARD_FETCH_AHEAD 8
#endif
#ifndef CVR_STANDARD_MIN_BLOCKS
#  define CVR_STANDARD_MIN_BLOCKS 1
#endif

/* The kernel's instances: compositing, compositing with gradients (shading
 * or gradient opacity; its own instance so that the plain one carries none
 * of the gradient's registers), the projections (cvr_project; the mode is a
 * uniform branch), isosurfaces and slices (shading a uniform branch). */
enum {
  CVR_COMPOSITE = 0,
  CVR_COMPOSITE_GRADIENT,
  CVR_PROJECT,
  CVR_ISOSURFACE,
  CVR_SLICE,
  CVR_KINDS
};

/* Ray segments (compositing only): a block of w x h x S threads renders w x h
 * pixels, thread z marching part z of its ray's samples (cvr_ray_segment)
 * from a transparent start. Where a frame has few rays for the GPU (a 512^2
 * image fills an H100 about twice), the work then comes in S times as many,
 * S times shorter pieces, and the rays that miss the volume leave less of the
 * last wave idle. The parts meet in shared memory, where thread z = 0 puts
 * them behind each other in order ("over" is associative). With early ray
 * termination the pixel stays exactly the one-thread ray's: where a part
 * would carry the opacity past the stop, that thread marches the part again
 * behind what lies in front of it and stops at the same sample. */
struct cvr_segment_slot {
  float4 color; /* premultiplied */
  float t_hit;
  unsigned samples, skipped; /* taken, and stepped over as empty */
};

/* Thread z = 0 of a pixel: puts the parts from `next` on behind `acc` (the
 * parts in front, composited), adding their counts to the pixel's, up to the
 * part where the opacity would pass the stop: returns that part, to be
 * marched again behind `acc`, or -1 once every part is in or the ray stopped.
 * The pixel's counts are then the one-thread ray's: the samples past its
 * stop are work done, not samples of the pixel. */
__device__ __forceinline__ int cvr_join_segments(const cvr_segment_slot *slots, int stride,
                                                 int segments, float stop, int &next,
                                                 cvr_rgba &acc, float &t_hit, unsigned &samples,
                                                 unsigned &skipped) {
  for (; next < segments; ++next) {
    if (acc.a >= stop) return -1;
    const cvr_segment_slot &part = slots[next * stride];
    const float4 c = cvr_over(make_float4(acc.r, acc.g, acc.b, acc.a), part.color);
    if (c.w >= stop) return next++;
    acc = cvr_rgba{c.x, c.y, c.z, c.w};
    if (t_hit < 0.0f) t_hit = part.t_hit;
    samples += part.samples;
    skipped += part.skipped;
  }
  return -1;
}

/* Puts this thread's part in the block's slots (shared memory after the
 * table) and waits for the block; returns its pixel's first slot. */
__device__ __forceinline__ const cvr_segment_slot *cvr_share_segment(const cvr_cuda_launch &l,
                                                                     int segment, cvr_rgba acc,
                                                                     float t_hit, unsigned samples,
                                                                     unsigned skipped) {
  extern __shared__ uint4 shared[];
  cvr_segment_slot *slots = (cvr_segment_slot *)(shared + l.ray.tf_size * l.table_copies) +
                            threadIdx.x + blockDim.x * threadIdx.y;
  slots[segment * blockDim.x * blockDim.y] = {make_float4(acc.r, acc.g, acc.b, acc.a), t_hit,
                                              samples, skipped};
  __syncthreads();
  return slots;
}

/* FEATURES: the per-sample work compiled in (ray_march.cuh,
 * cvr_sample_features). Compositing with the texture, the frames that
 * matter for speed, has an instance per feature set a frame commonly uses
 * (none; empty-space skipping; everything); the other kinds and samplers
 * have the one that renders everything. */
/* Writes the pixel and its depth, that of the first visible sample (the ray
 * set up again rather than keeping its world coordinates live in registers
 * through the loop). */
template <int KIND>
__device__ __forceinline__ void cvr_finish_pixel(const cvr_cuda_launch &l, int px, int py,
                                                 size_t pixel, const cvr_rgba &acc, float t_hit,
                                                 cvr_ray *ray) {
  float depth = 1.0f, t_slice;
  const float opaque = l.opaque_depth ? l.opaque_depth[pixel] : 1.0f;
  if (t_hit >= 0.0f && (KIND == CVR_SLICE ? cvr_slice_setup(&l.ray, px, py, opaque, ray, &t_slice)
                                          : cvr_ray_setup(&l.ray, px, py, opaque, ray)))
    depth = cvr_ray_depth(&l.ray, ray, t_hit);
  cvr_write_pixel(l, px, py, acc, depth);
}

template <int KIND, unsigned FEATURES, typename Sampler>
__global__ void __launch_bounds__(CVR_STANDARD_MAX_THREADS, CVR_STANDARD_MIN_BLOCKS)
    cvr_standard_kernel(const cvr_cuda_launch l) {
  constexpr bool GRADIENT = KIND == CVR_COMPOSITE_GRADIENT || KIND == CVR_ISOSURFACE;
  extern __shared__ uint4 shared_table[];
  cvr_load_table(shared_table, l.table, l.ray.tf_size, l.table_copies);
  const uint4 *table = cvr_table_copy(shared_table, l.table_copies);

  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  const int py = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned hit = 0, samples = 0, lattice = 0, skipped = 0;
  if (px < l.ray.width && py < l.ray.height) {
    cvr_rgba acc = {0.0f, 0.0f, 0.0f, 0.0f};
    float t_hit = -1.0f; /* lattice parameter of the first visible sample */
    cvr_ray ray;
    const size_t pixel = (size_t)py * l.ray.width + px;
    if constexpr (KIND == CVR_SLICE) {
      float t;
      if (cvr_setup_slice(l, px, py, &ray, &t)) {
        hit = samples = lattice = 1;
        acc = cvr_slice_pixel(l.ray, ray, Sampler(l.volume), table, l.table_copies, t);
        if (acc.a > 0.0f) t_hit = t;
      }
    } else if (cvr_setup_ray(l, px, py, &ray)) {
      hit = 1;
      lattice = cvr_lattice_samples(ray);
      const Sampler volume(l.volume);
      /* shading needs registers for its gradient: fewer fetches in flight */
      constexpr int ahead = Sampler::fetch_ahead < CVR_STANDARD_FETCH_AHEAD ? Sampler::fetch_ahead
                                                                            : CVR_STANDARD_FETCH_AHEAD;
      if constexpr (KIND == CVR_PROJECT) {
        samples = cvr_project<ahead>(l.ray, ray, volume, table, l.table_copies, acc);
        if (acc.a > 0.0f) t_hit = cvr_ray_t_first(&ray, l.ray.lattice_offset);
      } else {
        samples = cvr_march<GRADIENT ? (ahead < 2 ? ahead : 2) : ahead, GRADIENT, KIND == CVR_ISOSURFACE,
                            FEATURES>(l.ray, ray, volume, table, l.table_copies, acc, t_hit, skipped);
      }
    }
    cvr_finish_pixel<KIND>(l, px, py, pixel, acc, t_hit, &ray);
  }
  cvr_count(l.counters, hit, samples, lattice, skipped);
}

/* The standard kernel with ray segments (see above); compositing only. */
template <int KIND, unsigned FEATURES, typename Sampler>
__global__ void __launch_bounds__(CVR_STANDARD_MAX_THREADS, CVR_STANDARD_MIN_BLOCKS)
    cvr_standard_split_kernel(const cvr_cuda_launch l) {
  static_assert(KIND == CVR_COMPOSITE || KIND == CVR_COMPOSITE_GRADIENT, "ray segments composite");
  constexpr bool GRADIENT = KIND == CVR_COMPOSITE_GRADIENT;
  constexpr int ahead = Sampler::fetch_ahead < CVR_STANDARD_FETCH_AHEAD ? Sampler::fetch_ahead
                                                                        : CVR_STANDARD_FETCH_AHEAD;
  constexpr int fetches = GRADIENT ? (ahead < 2 ? ahead : 2) : ahead;
  extern __shared__ uint4 shared_table[];
  cvr_load_table(shared_table, l.table, l.ray.tf_size, l.table_copies);
  const uint4 *table = cvr_table_copy(shared_table, l.table_copies);

  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  const int py = blockIdx.y * blockDim.y + threadIdx.y;
  const bool inside = px < l.ray.width && py < l.ray.height;
  const int segments = (int)blockDim.z, segment = (int)threadIdx.z;
  unsigned hit = 0, samples = 0, lattice = 0, skipped = 0;
  cvr_rgba acc = {0.0f, 0.0f, 0.0f, 0.0f};
  float t_hit = -1.0f; /* lattice parameter of the first visible sample */
  cvr_ray ray;
  ray.k_first = ray.k_last = 0;
  const bool marching = inside && cvr_setup_ray(l, px, py, &ray);
  if (marching && segment == 0) {
    hit = 1;
    lattice = cvr_lattice_samples(ray);
  }
  const int k_first = ray.k_first, k_last = ray.k_last;
  const cvr_segment_slot *slots = nullptr; /* this pixel's parts, once they met */
  /* each thread marches its own part; then thread z = 0 marches again the
   * part where early termination stops the ray, if any */
  for (int part = segment, next = 1;;) {
    unsigned taken = 0, stepped_over = 0;
    if (marching) {
      ray.k_first = k_first;
      ray.k_last = k_last;
      cvr_ray_segment(&ray, part, segments);
      taken = cvr_march<fetches, GRADIENT, false, FEATURES>(l.ray, ray, Sampler(l.volume), table,
                                                            l.table_copies, acc, t_hit, stepped_over);
    }
    if (!slots) { /* every thread of the block */
      slots = cvr_share_segment(l, segment, acc, t_hit, taken, stepped_over);
      if (segment != 0 || !marching) break;
    }
    samples += taken;
    skipped += stepped_over;
    part = cvr_join_segments(slots, blockDim.x * blockDim.y, segments, cvr_stop_opacity(l.ray),
                             next, acc, t_hit, samples, skipped);
    if (part < 0) break;
  }
  if (inside && segment == 0)
    cvr_finish_pixel<KIND>(l, px, py, (size_t)py * l.ray.width + px, acc, t_hit, &ray);
  cvr_count(l.counters, hit, samples, lattice, skipped);
}

int cvr_cuda_standard_max_threads(void) { return CVR_STANDARD_MAX_THREADS; }

/* What the driver says of every instance (the global-memory sampler uses
 * more registers than the texture's): a test's check of the bound. */
int cvr_cuda_standard_instances_max_threads(void) {
  int limit = 1024;
  const auto bound = [&](auto kernel) {
    cudaFuncAttributes a;
    if (cudaFuncGetAttributes(&a, kernel) != cudaSuccess) return false;
    if (a.maxThreadsPerBlock < limit) limit = a.maxThreadsPerBlock;
    return true;
  };
  for (int sampler = 0; sampler < 2; ++sampler) {
    const cvr_memory_layout layout = sampler == 0 ? CVR_LAYOUT_TEXTURE : CVR_LAYOUT_ARRAY_ORDER;
    if (cvr_with_sampler(layout, [&](auto tag) {
          typedef typename decltype(tag)::type S;
          const bool ok = bound(cvr_standard_kernel<CVR_COMPOSITE, CVR_SAMPLE_ALL, S>) &&
                          bound(cvr_standard_kernel<CVR_COMPOSITE_GRADIENT, CVR_SAMPLE_ALL, S>) &&
                          bound(cvr_standard_kernel<CVR_PROJECT, CVR_SAMPLE_ALL, S>) &&
                          bound(cvr_standard_kernel<CVR_ISOSURFACE, CVR_SAMPLE_ALL, S>) &&
                          bound(cvr_standard_kernel<CVR_SLICE, CVR_SAMPLE_ALL, S>);
          return ok ? cudaSuccess : cudaErrorInvalidValue;
        }) != cudaSuccess)
      return 0;
  }
  const bool ok = bound(cvr_standard_kernel<CVR_COMPOSITE, 0, cvr_texture_sampler>) &&
                  bound(cvr_standard_kernel<CVR_COMPOSITE, CVR_SAMPLE_SKIP, cvr_texture_sampler>) &&
                  bound(cvr_standard_kernel<CVR_COMPOSITE_GRADIENT, 0, cvr_texture_sampler>) &&
                  bound(cvr_standard_kernel<CVR_COMPOSITE_GRADIENT, CVR_SAMPLE_SKIP, cvr_texture_sampler>);
  return ok ? limit : 0;
}

template <int KIND, unsigned FEATURES, typename Sampler, bool SPLIT = false>
static cudaError_t launch(cvr_cuda_launch l, dim3 block, cudaStream_t stream) {
  const auto kernel = [] {
    if constexpr (SPLIT) return cvr_standard_split_kernel<KIND, FEATURES, Sampler>;
    else return cvr_standard_kernel<KIND, FEATURES, Sampler>;
  }();
  if (!SPLIT) block.z = 1;
  const int threads = (int)(block.x * block.y * block.z);
  const size_t slots = SPLIT ? (size_t)threads * sizeof(cvr_segment_slot) : 0;
  l.table_copies = cvr_table_copies(kernel, threads, l.ray.tf_size, slots);
  const dim3 grid((l.ray.width + block.x - 1) / block.x, (l.ray.height + block.y - 1) / block.y);
  const size_t shared = (size_t)l.ray.tf_size * l.table_copies * sizeof(uint4) + slots;
  kernel<<<grid, block, shared, stream>>>(l);
  return cudaGetLastError();
}

/* Compositing: the instance of the frame's features (see the kernel), split
 * into block.z ray segments where the volume is a texture (the global-memory
 * layouts render each ray in one thread). */
template <int KIND, typename Sampler>
static cudaError_t launch_composite(const cvr_cuda_launch &l, dim3 block, cudaStream_t stream) {
  if constexpr (Sampler::specialized) {
    const unsigned features = cvr_sample_features(&l.ray);
    if (block.z > 1) {
      if (features == 0) return launch<KIND, 0, Sampler, true>(l, block, stream);
      if (features == CVR_SAMPLE_SKIP) return launch<KIND, CVR_SAMPLE_SKIP, Sampler, true>(l, block, stream);
      return launch<KIND, CVR_SAMPLE_ALL, Sampler, true>(l, block, stream);
    }
    if (features == 0) return launch<KIND, 0, Sampler>(l, block, stream);
    if (features == CVR_SAMPLE_SKIP) return launch<KIND, CVR_SAMPLE_SKIP, Sampler>(l, block, stream);
  }
  return launch<KIND, CVR_SAMPLE_ALL, Sampler>(l, block, stream);
}

/* block.z: ray segments, compositing only (the other modes take 1). */
cudaError_t cvr_cuda_launch_standard(const cvr_cuda_launch *l, cvr_memory_layout layout,
                                     dim3 block, cudaStream_t stream) {
  return cvr_with_sampler(layout, [&](auto tag) {
    typedef typename decltype(tag)::type S;
    switch (l->ray.blend) {
    case CVR_BLEND_COMPOSITE:
      return cvr_needs_gradient(&l->ray) ? launch_composite<CVR_COMPOSITE_GRADIENT, S>(*l, block, stream)
                                         : launch_composite<CVR_COMPOSITE, S>(*l, block, stream);
    case CVR_BLEND_ISOSURFACE: return launch<CVR_ISOSURFACE, CVR_SAMPLE_ALL, S>(*l, block, stream);
    case CVR_BLEND_SLICE: return launch<CVR_SLICE, CVR_SAMPLE_ALL, S>(*l, block, stream);
    default: return launch<CVR_PROJECT, CVR_SAMPLE_ALL, S>(*l, block, stream);
    }
  });
}
