// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The slab strategy with the global-memory layouts' sampler (slab_kernel.cuh:
 * why a module of its own). */
#include "slab_kernel.cuh"

cudaError_t cvr_cuda_launch_slab_global(const cvr_cuda_launch *l, const cvr_render_settings *s,
                                        int one_sided, cudaStream_t stream) {
  return cvr_slab_launch<cvr_global_sampler>(l, s, one_sided, stream);
}

int cvr_cuda_slab_global_instances_max_threads(void) {
  return cvr_slab_instances_max_threads<cvr_global_sampler>();
}

cudaError_t cvr_cuda_load_slab_global(int depth, bool gathered, bool gradient) {
  return cvr_slab_load<cvr_global_sampler>(depth, gathered, gradient);
}
