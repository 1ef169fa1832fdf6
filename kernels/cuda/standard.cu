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

/* FEATURES: the per-sample work compiled in (ray_march.cuh,
 * cvr_sample_features). Compositing with the texture, the frames that
 * matter for speed, has an instance per feature set a frame commonly uses
 * (none; empty-space skipping; everything); the other kinds and samplers
 * have the one that renders everything. */
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
    /* the ray is set up again for its depth rather than keeping its world
     * coordinates live in registers through the loop */
    float depth = 1.0f, t_slice;
    const float opaque = l.opaque_depth ? l.opaque_depth[pixel] : 1.0f;
    if (t_hit >= 0.0f && (KIND == CVR_SLICE ? cvr_slice_setup(&l.ray, px, py, opaque, &ray, &t_slice)
                                            : cvr_ray_setup(&l.ray, px, py, opaque, &ray)))
      depth = cvr_ray_depth(&l.ray, &ray, t_hit);
    cvr_write_pixel(l, px, py, acc, depth);
  }
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

template <int KIND, unsigned FEATURES, typename Sampler>
static cudaError_t launch(cvr_cuda_launch l, dim3 block, cudaStream_t stream) {
  const auto kernel = cvr_standard_kernel<KIND, FEATURES, Sampler>;
  l.table_copies = cvr_table_copies(kernel, (int)(block.x * block.y), l.ray.tf_size, 0);
  const dim3 grid((l.ray.width + block.x - 1) / block.x, (l.ray.height + block.y - 1) / block.y);
  const size_t shared = (size_t)l.ray.tf_size * l.table_copies * sizeof(uint4);
  kernel<<<grid, block, shared, stream>>>(l);
  return cudaGetLastError();
}

/* Compositing: the instance of the frame's features (see the kernel). */
template <int KIND, typename Sampler>
static cudaError_t launch_composite(const cvr_cuda_launch &l, dim3 block, cudaStream_t stream) {
  if constexpr (Sampler::specialized) {
    const unsigned features = cvr_sample_features(&l.ray);
    if (features == 0) return launch<KIND, 0, Sampler>(l, block, stream);
    if (features == CVR_SAMPLE_SKIP) return launch<KIND, CVR_SAMPLE_SKIP, Sampler>(l, block, stream);
  }
  return launch<KIND, CVR_SAMPLE_ALL, Sampler>(l, block, stream);
}

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
