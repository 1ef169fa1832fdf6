// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* What the standard strategy's two kernels share: one thread a ray
 * (standard.cu) and a ray's samples in parts (standard_split.cu). */
#ifndef CVR_STANDARD_KERNEL_CUH
#define CVR_STANDARD_KERNEL_CUH

#include "ray_march.cuh"

/* Register budget: threads per block at most, and blocks of that size per
 * SM at least (65536 / product = registers per thread). Capping registers
 * for more resident threads loses more to spills than it gains
 * (doc/tuning.md, the standard kernel), so the default leaves the compiler
 * free. */
#ifndef CVR_STANDARD_MAX_THREADS
#  define CVR_STANDARD_MAX_THREADS 1024
#endif
/* Texture fetches in flight per ray (cvr_march): more hide more of the
 * texture's latency, most at the slow views (doc/tuning.md, the standard
 * kernel). */
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

#endif
