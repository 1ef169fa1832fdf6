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

/* Writes the pixel and its depth, that of the first visible sample (the
 * ray's line found again rather than keeping its world coordinates live in
 * registers through the loop). */
template <int KIND>
__device__ __forceinline__ void cvr_finish_pixel(const cvr_cuda_launch &l, int px, int py,
                                                 size_t pixel, const cvr_rgba &acc, float t_hit,
                                                 cvr_ray *ray) {
  float depth = 1.0f, t_slice;
  const float opaque = l.opaque_depth ? l.opaque_depth[pixel] : 1.0f;
  if (t_hit >= 0.0f && (KIND == CVR_SLICE ? cvr_slice_setup(&l.ray, px, py, opaque, ray, &t_slice)
                                          : cvr_ray_phased_line(&l.ray, px, py, opaque, ray)))
    depth = cvr_ray_depth(&l.ray, ray, t_hit);
  cvr_write_pixel(l, px, py, acc, depth);
}

/* One ray of the standard kernel (standard.cu; standard_scatter.cu its
 * scattering instances). FEATURES: the per-sample work compiled in (ray_march.cuh,
 * cvr_sample_features). Compositing with the texture, the frames that
 * matter for speed, has an instance per feature set a frame commonly uses
 * (none; empty-space skipping; everything); the other kinds and samplers
 * have the one that renders everything. */
template <int KIND, unsigned FEATURES, typename Sampler>
__device__ __forceinline__ void cvr_standard_body(const cvr_cuda_launch &l) {
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

/* Launches a kernel of one thread a ray (the standard kernel's instances)
 * over the image in blocks of block.x x block.y, with the transfer
 * function's replicas in shared memory (cvr_table_copies). */
template <typename Kernel>
static cudaError_t cvr_launch_ray_kernel(Kernel kernel, cvr_cuda_launch l, dim3 block,
                                         cudaStream_t stream) {
  block.z = 1;
  l.table_copies = cvr_table_copies(kernel, (int)(block.x * block.y), l.ray.tf_size, 0);
  const dim3 grid((l.ray.width + block.x - 1) / block.x, (l.ray.height + block.y - 1) / block.y);
  const size_t shared = (size_t)l.ray.tf_size * l.table_copies * sizeof(uint4);
  kernel<<<grid, block, shared, stream>>>(l);
  return cudaGetLastError();
}

#endif
