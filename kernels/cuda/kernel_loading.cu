// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The kernel instances a frame may launch, loaded without launching it
 * (cuda_internal.cuh, cvr_cuda_load): AUTO's helper thread loads its
 * candidates' so (kernel_preload.c). The choices mirror cvr_cuda_render's
 * and each strategy's launch; where a frame's features pick one of several
 * instances, every one of them loads. */
#include "cuda_internal.cuh"

static cudaError_t load_strategy(const cvr_kernel_use *u) {
  const cvr_render_settings *s = &u->settings;
  const cvr_memory_layout layout = s->memory_layout;
  const bool gradient = u->gradients != 0;
  if (u->scatters) return cvr_cuda_load_standard_scatter(s->blend_mode);
  switch (s->strategy) {
  case CVR_STRATEGY_WARP_MARCHING: return cvr_cuda_load_warp_marching(layout, s->warp_variant, gradient);
  case CVR_STRATEGY_SLAB:
    return cvr_cuda_load_slab(layout, s->slab_depth, s->slab_border == CVR_SLAB_BORDER_GATHERED,
                              gradient);
  default: break;
  }
  /* ray segments where a frame may split them (cvr_cuda_splits), the
   * standard instances where it may not after all */
  if (s->strategy == CVR_STRATEGY_STANDARD && s->ray_segments > 1 && layout == CVR_LAYOUT_TEXTURE &&
      s->blend_mode == CVR_BLEND_COMPOSITE && !gradient) {
    const cudaError_t e = cvr_cuda_load_standard_split();
    if (e != cudaSuccess) return e;
  }
  return cvr_cuda_load_standard(layout, s->blend_mode, gradient);
}

extern "C" cvr_status cvr_cuda_load_kernels(int device, const cvr_kernel_use *use) {
  device_scope scope;
  cudaError_t e = enter_device(device, &scope);
  if (e != cudaSuccess) return CVR_ERROR_DEVICE;
  const cvr_render_settings *s = &use->settings;
  e = load_strategy(use);
  if (e == cudaSuccess && s->empty_space_skipping) e = cvr_cuda_load_empty_space(s->memory_layout);
  if (e == cudaSuccess && s->rotation_policy != CVR_ROTATION_NEVER)
    e = cvr_cuda_load_rotation(s->memory_layout, use->stored_type);
  if (e != cudaSuccess) cudaGetLastError(); /* (the frame that needs it will say) */
  leave_device(&scope);
  return e == cudaSuccess ? CVR_OK : CVR_ERROR_DEVICE;
}
