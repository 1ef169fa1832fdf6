// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The standard kernel's instances for volumetric scattering (cvr.h,
 * cvr_shading): every feature and the shadow rays, from the texture, in
 * blocks of at most CVR_SCATTER_MAX_THREADS (cuda_internal.cuh). A file of
 * their own, so that their module, compressed (kernels/CMakeLists.txt), is
 * loaded only by frames that scatter. */
#include "standard_kernel.cuh"

template <int KIND>
__global__ void __launch_bounds__(CVR_SCATTER_MAX_THREADS)
    cvr_standard_scatter_kernel(const cvr_cuda_launch l) {
  cvr_standard_body<KIND, CVR_SAMPLE_ALL | CVR_SAMPLE_SCATTER, cvr_texture_sampler>(l);
}

cudaError_t cvr_cuda_launch_standard_scatter(const cvr_cuda_launch *l, dim3 block,
                                             cudaStream_t stream) {
  switch (l->ray.blend) {
  case CVR_BLEND_COMPOSITE:
    return cvr_launch_ray_kernel(cvr_standard_scatter_kernel<CVR_COMPOSITE_GRADIENT>, *l, block, stream);
  case CVR_BLEND_ISOSURFACE:
    return cvr_launch_ray_kernel(cvr_standard_scatter_kernel<CVR_ISOSURFACE>, *l, block, stream);
  case CVR_BLEND_SLICE:
    return cvr_launch_ray_kernel(cvr_standard_scatter_kernel<CVR_SLICE>, *l, block, stream);
  default: return cudaErrorInvalidValue;
  }
}

cudaError_t cvr_cuda_load_standard_scatter(cvr_blend_mode blend) {
  switch (blend) {
  case CVR_BLEND_COMPOSITE:
    return cvr_cuda_load({(const void *)cvr_standard_scatter_kernel<CVR_COMPOSITE_GRADIENT>});
  case CVR_BLEND_ISOSURFACE: return cvr_cuda_load({(const void *)cvr_standard_scatter_kernel<CVR_ISOSURFACE>});
  case CVR_BLEND_SLICE: return cvr_cuda_load({(const void *)cvr_standard_scatter_kernel<CVR_SLICE>});
  default: return cudaSuccess; /* (no scattering) */
  }
}
