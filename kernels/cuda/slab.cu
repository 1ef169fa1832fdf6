// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The slab strategy with the texture sampler, and the strategy's entry
 * points (slab_kernel.cuh: the kernel; slab_global.cu: the global-memory
 * layouts' samplers, a module of their own). */
#include "slab_kernel.cuh"

int cvr_cuda_slab_max_threads(void) { return CVR_SLAB_MAX_THREADS; }

/* What the driver says of the largest shaded instances. */
int cvr_cuda_slab_instances_max_threads(void) {
  const int texture = cvr_slab_instances_max_threads<cvr_texture_sampler>();
  const int global = cvr_cuda_slab_global_instances_max_threads();
  return texture < global ? texture : global;
}

size_t cvr_cuda_slab_shared_bytes(const cvr_render_settings *s) { /* shaded, with the static k_range */
  return slab_shared_bytes(slab_shape(s), s->slab_depth, CVR_TRANSFER_FUNCTION_TABLE_SIZE, 1, true) +
         2 * sizeof(int);
}

cudaError_t cvr_cuda_load_slab(cvr_memory_layout layout, int depth, bool gathered, bool gradient) {
  if (layout != CVR_LAYOUT_TEXTURE) return cvr_cuda_load_slab_global(depth, gathered, gradient);
  return cvr_slab_load<cvr_texture_sampler>(depth, gathered, gradient);
}

cudaError_t cvr_cuda_launch_slab(const cvr_cuda_launch *l, cvr_memory_layout layout,
                                 const cvr_render_settings *s, int one_sided,
                                 cudaStream_t stream) {
  if (layout != CVR_LAYOUT_TEXTURE) return cvr_cuda_launch_slab_global(l, s, one_sided, stream);
  return cvr_slab_launch<cvr_texture_sampler>(l, s, one_sided, stream);
}
