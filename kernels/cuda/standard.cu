// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The standard strategy: one thread per ray, a 2D thread block of w x h
 * rays, the volume read through a 3D texture (Wang et al. section 3.2; the
 * CUDA sample volumeRender). */
#include "standard_kernel.cuh"


template <int KIND, unsigned FEATURES, typename Sampler>
__global__ void __launch_bounds__(CVR_STANDARD_MAX_THREADS, CVR_STANDARD_MIN_BLOCKS)
    cvr_standard_kernel(const cvr_cuda_launch l) {
  cvr_standard_body<KIND, FEATURES, Sampler>(l);
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
  const bool ok = bound(cvr_standard_kernel<CVR_COMPOSITE, 0, cvr_texture_sampler>) &&
                  bound(cvr_standard_kernel<CVR_COMPOSITE, CVR_SAMPLE_SKIP, cvr_texture_sampler>) &&
                  bound(cvr_standard_kernel<CVR_COMPOSITE_GRADIENT, 0, cvr_texture_sampler>) &&
                  bound(cvr_standard_kernel<CVR_COMPOSITE_GRADIENT, CVR_SAMPLE_SKIP, cvr_texture_sampler>);
  const int split = cvr_cuda_standard_split_instances_max_threads();
  return ok && split > 0 ? (split < limit ? split : limit) : 0;
}

template <int KIND, unsigned FEATURES, typename Sampler>
static cudaError_t launch(const cvr_cuda_launch &l, dim3 block, cudaStream_t stream) {
  return cvr_launch_ray_kernel(cvr_standard_kernel<KIND, FEATURES, Sampler>, l, block, stream);
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

/* Compositing's instances: launch_composite's. */
template <int KIND, typename Sampler>
static cudaError_t load_composite(void) {
  if constexpr (Sampler::specialized)
    return cvr_cuda_load({(const void *)cvr_standard_kernel<KIND, 0, Sampler>,
                          (const void *)cvr_standard_kernel<KIND, CVR_SAMPLE_SKIP, Sampler>,
                          (const void *)cvr_standard_kernel<KIND, CVR_SAMPLE_ALL, Sampler>});
  return cvr_cuda_load({(const void *)cvr_standard_kernel<KIND, CVR_SAMPLE_ALL, Sampler>});
}

/* What cvr_cuda_launch_standard launches for blend mode `blend` (block.z 1,
 * no scattering); gradient: shading or gradient opacity. */
cudaError_t cvr_cuda_load_standard(cvr_memory_layout layout, cvr_blend_mode blend, bool gradient) {
  return cvr_with_sampler(layout, [&](auto tag) {
    typedef typename decltype(tag)::type S;
    switch (blend) {
    case CVR_BLEND_COMPOSITE:
      return gradient ? load_composite<CVR_COMPOSITE_GRADIENT, S>() : load_composite<CVR_COMPOSITE, S>();
    case CVR_BLEND_ISOSURFACE:
      return cvr_cuda_load({(const void *)cvr_standard_kernel<CVR_ISOSURFACE, CVR_SAMPLE_ALL, S>});
    case CVR_BLEND_SLICE:
      return cvr_cuda_load({(const void *)cvr_standard_kernel<CVR_SLICE, CVR_SAMPLE_ALL, S>});
    default: return cvr_cuda_load({(const void *)cvr_standard_kernel<CVR_PROJECT, CVR_SAMPLE_ALL, S>});
    }
  });
}

/* block.z: ray segments, compositing only (the other modes take 1). */
cudaError_t cvr_cuda_launch_standard(const cvr_cuda_launch *l, cvr_memory_layout layout,
                                     dim3 block, cudaStream_t stream) {
  if (l->ray.shading.scattering.blend > 0.0f) /* (from the texture: frame.c) */
    return layout == CVR_LAYOUT_TEXTURE ? cvr_cuda_launch_standard_scatter(l, block, stream)
                                        : cudaErrorInvalidValue;
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
