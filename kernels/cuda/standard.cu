// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The standard strategy: one thread per ray, a 2D thread block of w x h
 * rays, the volume read through a 3D texture (Wang et al. section 3.2; the
 * CUDA sample volumeRender). */
#include "standard_kernel.cuh"


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
        acc = cvr_slice_pixel<FEATURES>(l.ray, ray, Sampler(l.volume), table, l.table_copies, t);
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

int cvr_cuda_standard_max_threads(void) { return CVR_STANDARD_MAX_THREADS; }

/* What the driver says of every instance (the global-memory sampler uses
 * more registers than the texture's): a test's check of the bound. */
int cvr_cuda_standard_instances_max_threads(void) {
  int limit = 1024;
  const auto bound = [&](auto kernel) { return cvr_lower_thread_limit((const void *)kernel, &limit); };
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
  constexpr unsigned scatter = CVR_SAMPLE_ALL | CVR_SAMPLE_SCATTER;
  const bool ok = bound(cvr_standard_kernel<CVR_COMPOSITE_GRADIENT, scatter, cvr_texture_sampler>) &&
                  bound(cvr_standard_kernel<CVR_ISOSURFACE, scatter, cvr_texture_sampler>) &&
                  bound(cvr_standard_kernel<CVR_SLICE, scatter, cvr_texture_sampler>) &&
                  bound(cvr_standard_kernel<CVR_COMPOSITE, 0, cvr_texture_sampler>) &&
                  bound(cvr_standard_kernel<CVR_COMPOSITE, CVR_SAMPLE_SKIP, cvr_texture_sampler>) &&
                  bound(cvr_standard_kernel<CVR_COMPOSITE_GRADIENT, 0, cvr_texture_sampler>) &&
                  bound(cvr_standard_kernel<CVR_COMPOSITE_GRADIENT, CVR_SAMPLE_SKIP, cvr_texture_sampler>);
  const int split = cvr_cuda_standard_split_instances_max_threads();
  return ok && split > 0 ? (split < limit ? split : limit) : 0;
}

template <int KIND, unsigned FEATURES, typename Sampler>
static cudaError_t launch(cvr_cuda_launch l, dim3 block, cudaStream_t stream) {
  const auto kernel = cvr_standard_kernel<KIND, FEATURES, Sampler>;
  block.z = 1;
  l.table_copies = cvr_table_copies(kernel, (int)(block.x * block.y), l.ray.tf_size, 0);
  const dim3 grid((l.ray.width + block.x - 1) / block.x, (l.ray.height + block.y - 1) / block.y);
  const size_t shared = (size_t)l.ray.tf_size * l.table_copies * sizeof(uint4);
  kernel<<<grid, block, shared, stream>>>(l);
  return cudaGetLastError();
}

/* Compositing: the instance of the frame's features (see the kernel); with
 * block.z > 1 ray segments (standard_split.cu: the backend sets it only
 * where cvr_cuda_splits and the volume is a texture). */
template <int KIND, typename Sampler>
static cudaError_t launch_composite(const cvr_cuda_launch &l, dim3 block, cudaStream_t stream) {
  if constexpr (Sampler::specialized) {
    if (block.z > 1) return cvr_cuda_launch_standard_split(&l, block, stream);
    const unsigned features = cvr_sample_features(&l.ray);
    if (features == 0) return launch<KIND, 0, Sampler>(l, block, stream);
    if (features == CVR_SAMPLE_SKIP) return launch<KIND, CVR_SAMPLE_SKIP, Sampler>(l, block, stream);
  }
  return launch<KIND, CVR_SAMPLE_ALL, Sampler>(l, block, stream);
}

/* Volumetric scattering (cvr.h, cvr_shading): its own instances, from the
 * texture alone (render.c renders such frames so). */
template <typename Sampler>
static cudaError_t launch_scattering(const cvr_cuda_launch &l, dim3 block, cudaStream_t stream) {
  if constexpr (Sampler::specialized) {
    constexpr unsigned F = CVR_SAMPLE_ALL | CVR_SAMPLE_SCATTER;
    switch (l.ray.blend) {
    case CVR_BLEND_COMPOSITE: return launch<CVR_COMPOSITE_GRADIENT, F, Sampler>(l, block, stream);
    case CVR_BLEND_ISOSURFACE: return launch<CVR_ISOSURFACE, F, Sampler>(l, block, stream);
    case CVR_BLEND_SLICE: return launch<CVR_SLICE, F, Sampler>(l, block, stream);
    default: break;
    }
  }
  return cudaErrorInvalidValue;
}

/* block.z: ray segments, compositing only (the other modes take 1). */
cudaError_t cvr_cuda_launch_standard(const cvr_cuda_launch *l, cvr_memory_layout layout,
                                     dim3 block, cudaStream_t stream) {
  return cvr_with_sampler(layout, [&](auto tag) {
    typedef typename decltype(tag)::type S;
    if (l->ray.shading.scattering.blend > 0.0f) return launch_scattering<S>(*l, block, stream);
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
