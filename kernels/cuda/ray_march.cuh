// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Device helpers every CUDA strategy shares: the transfer-function table in
 * shared memory, volume sampling through the layout's sampler, one sample's
 * classification and compositing, writing a pixel, and statistics. The
 * arithmetic itself lives in raycast.h, shared with the CPU renderer. */
#ifndef CVR_RAY_MARCH_CUH
#define CVR_RAY_MARCH_CUH

#include <cuda_fp16.h>

#include "volume_sampler.cuh"

/* The table goes to shared memory: lookups with data-dependent indices would
 * serialize in constant memory and pollute the texture cache as a texture.
 * Each slot holds entry i and entry i + 1 in half precision, so one 16-byte
 * load serves a lookup, and the table is replicated `copies` times,
 * interleaved so that the eight lanes a 16-byte shared load serves at once
 * each read their own bank group: random scalar values then cause no bank
 * conflicts (copies = 8). Slot (i, copy c) sits at i * copies + c. */
__device__ __forceinline__ void cvr_load_table(uint4 *shared_table, const uint4 *table, int size,
                                               int copies) {
  const int threads = blockDim.x * blockDim.y * blockDim.z;
  const int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  for (int i = t; i < size * copies; i += threads) shared_table[i] = table[i / copies];
  __syncthreads();
}

/* Host side: the most table replicas (8, 4, 2) that cost no resident blocks
 * compared with a single copy, with `extra` bytes of other shared memory:
 * conflict-free lookups never at the price of occupancy. */
template <typename Kernel>
static int cvr_table_copies(Kernel kernel, int threads, int size, size_t extra) {
  const size_t bytes = (size_t)size * sizeof(uint4);
  int single = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&single, kernel, threads, bytes + extra) !=
      cudaSuccess)
    return 1;
  for (int copies = 8; copies > 1; copies /= 2) {
    int blocks = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads,
                                                      bytes * copies + extra) == cudaSuccess &&
        blocks >= single)
      return copies;
  }
  return 1;
}

/* This thread's view of the replicated table: slot i of its copy. */
__device__ __forceinline__ const uint4 *cvr_table_copy(const uint4 *shared_table, int copies) {
  const int lane = (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) & 31;
  return shared_table + (lane & (copies - 1));
}

/* Low or high half of w as a float: exact, and on sm_80 and later one
 * full-rate instruction (HADD2.F32), not a trip through the conversion unit. */
__device__ __forceinline__ float cvr_half_lo(unsigned w) {
  return __half2float(__ushort_as_half((unsigned short)(w & 0xffffu)));
}
__device__ __forceinline__ float cvr_half_hi(unsigned w) {
  return __half2float(__ushort_as_half((unsigned short)(w >> 16)));
}

/* cvr_classify on this thread's copy of the packed table: the same
 * coordinate and interpolation. */
__device__ __forceinline__ cvr_rgba cvr_classify_packed(const uint4 *table, int copies,
                                                        const cvr_ray_params &p, float value) {
  float f;
  const int i = cvr_table_coordinate(p.tf_size, p.tf_scale, p.tf_bias, value, &f);
  const uint4 q = table[i * copies];
  const cvr_rgba a = {cvr_half_lo(q.x), cvr_half_hi(q.x), cvr_half_lo(q.y), cvr_half_hi(q.y)};
  const cvr_rgba b = {cvr_half_lo(q.z), cvr_half_hi(q.z), cvr_half_lo(q.w), cvr_half_hi(q.w)};
  return cvr_lerp_rgba(a, b, f);
}

/* Sets up the ray of pixel (px, py) (raycast.h) and moves it into the stored
 * copy's coordinates; returns whether it takes any sample. */
__device__ __forceinline__ bool cvr_setup_ray(const cvr_cuda_launch &l, int px, int py, cvr_ray *ray) {
  const float depth = l.opaque_depth ? l.opaque_depth[(size_t)py * l.ray.width + px] : 1.0f;
  if (!cvr_ray_setup(&l.ray, px, py, depth, ray)) return false;
  cvr_ray_to_storage(l.volume, ray);
  return true;
}

/* cvr_setup_ray for SLICE: the ray and the parameter t where it meets the plane. */
__device__ __forceinline__ bool cvr_setup_slice(const cvr_cuda_launch &l, int px, int py,
                                                cvr_ray *ray, float *t) {
  const float depth = l.opaque_depth ? l.opaque_depth[(size_t)py * l.ray.width + px] : 1.0f;
  if (!cvr_slice_setup(&l.ray, px, py, depth, ray, t)) return false;
  cvr_ray_to_storage(l.volume, ray);
  return true;
}

/* The volume's value at lattice parameter t. */
template <typename Sampler>
__device__ __forceinline__ float cvr_fetch(const cvr_ray &ray, const Sampler &volume, float t) {
  float pos[3];
  cvr_ray_position(&ray, t, pos);
  return volume(pos[0], pos[1], pos[2]);
}

/* The gradient at texel position pos from its six neighbours (raycast.h,
 * cvr_gradient). */
template <typename Sampler>
__device__ __forceinline__ void cvr_gradient_at(const Sampler &volume, const float pos[3],
                                                float gradient[3]) {
  float neighbours[6];
#pragma unroll
  for (int a = 0; a < 3; ++a)
#pragma unroll
    for (int side = 0; side < 2; ++side) {
      float q[3] = {pos[0], pos[1], pos[2]};
      q[a] += side ? -1.0f : 1.0f;
      neighbours[2 * a + side] = volume(q[0], q[1], q[2]);
    }
  cvr_gradient(neighbours, gradient);
}

/* The light that reaches the sample at pos from each light through the
 * volume (raycast.h, cvr_shadow_setup): volumetric scattering's shadows,
 * opacity_at(q) the opacity of a shadow sample at texel position q. */
template <typename OpacityAt>
__device__ __forceinline__ void cvr_light_through(const cvr_ray_params &p, const cvr_ray &ray,
                                                  const float pos[3], OpacityAt opacity_at,
                                                  float through[CVR_MAX_LIGHTS]) {
#pragma unroll 1
  for (int i = 0; i < p.shading.light_count; ++i) {
    cvr_shadow_ray shadow;
    const int n = cvr_shadow_setup(&p.shading, i, &ray, pos, &shadow);
    float light = 1.0f;
    for (int k = 0; k < n && light >= shadow.cutoff; ++k) {
      float q[3];
#pragma unroll
      for (int a = 0; a < 3; ++a) q[a] = shadow.start[a] + (float)k * shadow.step[a];
      light *= 1.0f - opacity_at(q);
    }
    through[i] = light;
  }
}

/* A classified sample with the gradient from its six neighbours at lattice
 * parameter t applied (raycast.h, cvr_apply_gradient: gradient opacity and
 * shading, as enabled; with SCATTER volumetric scattering, its shadow
 * samples classified by the table). */
template <typename Sampler, bool SCATTER = false>
__device__ __forceinline__ cvr_rgba cvr_sample_gradient(const cvr_ray_params &p, const cvr_ray &ray,
                                                        const Sampler &volume, float t, float value,
                                                        int label, cvr_rgba s,
                                                        const uint4 *table = nullptr,
                                                        int copies = 1) {
  float pos[3], gradient[3];
  cvr_ray_position(&ray, t, pos);
  cvr_gradient_at(volume, pos, gradient);
  if constexpr (SCATTER) {
    float through[CVR_MAX_LIGHTS];
    if (p.shading.scattering.blend > 0.0f) {
      cvr_light_through(p, ray, pos, [&](const float q[3]) {
        const float v = volume(q[0], q[1], q[2]);
        const float a = cvr_classify_packed(table, copies, p, v).a;
        if (!cvr_shadow_needs_gradient(&p)) return a;
        float g[3];
        cvr_gradient_at(volume, q, g);
        return cvr_shadow_opacity(&p, v, a, g);
      }, through);
      return cvr_apply_gradient(&p, &ray, t, gradient, value, label, s, through);
    }
  }
  return cvr_apply_gradient(&p, &ray, t, gradient, value, label, s, nullptr);
}

/* The per-sample work a frame may not need, as compile-time flags of a
 * kernel instance: a frame launches the instance of the features it uses
 * (cvr_sample_features), so a plain frame's loop carries none of the others'
 * branches and registers. An instance with a flag set still renders frames
 * that do not use it (the runtime checks stay): a strategy compiled with
 * CVR_SAMPLE_ALL alone renders every frame. */
enum {
  CVR_SAMPLE_REMOVE = 1, /* cropping or a binary mask removes samples */
  CVR_SAMPLE_LABELS = 2, /* a label map classifies samples */
  CVR_SAMPLE_SKIP = 4,   /* empty-space skipping (cvr_ray_params.skip_empty) */
  CVR_SAMPLE_ALL = 7,
  /* volumetric scattering's shadow rays (gradient instances): not in ALL,
   * so that no other frame carries their registers; the frames that
   * scatter launch the standard strategy's ALL | SCATTER instances */
  CVR_SAMPLE_SCATTER = 8
};
static inline unsigned cvr_sample_features(const cvr_ray_params *p) {
  return (p->cropping || p->mask == CVR_MASK_REMOVES ? CVR_SAMPLE_REMOVE : 0u) |
         (p->mask == CVR_MASK_LABELS ? CVR_SAMPLE_LABELS : 0u) |
         (p->skip_empty ? CVR_SAMPLE_SKIP : 0u);
}

/* The classified sample of the value fetched at lattice parameter t (with a
 * label map, its label's function mixed in), with GRADIENT its gradient
 * applied where visible (the instance launched when shading or gradient
 * opacity is on, so that the plain one carries none of the gradient's
 * registers): straight colour, opacity corrected for the sample distance.
 * Every CUDA strategy takes its samples through here. */
template <bool GRADIENT, typename Sampler, unsigned FEATURES = CVR_SAMPLE_ALL>
__device__ __forceinline__ cvr_rgba cvr_sample_color(const cvr_ray_params &p, const cvr_ray &ray,
                                                     const Sampler &volume,
                                                     const uint4 *table, int copies, float value,
                                                     float t) {
  if ((FEATURES & CVR_SAMPLE_REMOVE) && cvr_ray_cropped(&p, &ray, t))
    return cvr_rgba{0.0f, 0.0f, 0.0f, 0.0f};
  const cvr_rgba s = cvr_classify_packed(table, copies, p, value);
  const int label = (FEATURES & CVR_SAMPLE_LABELS) ? cvr_ray_label(&p, &ray, t) : 0;
  const cvr_rgba c = (FEATURES & CVR_SAMPLE_LABELS) ? cvr_classify_label(&p, label, value, s) : s;
  if (GRADIENT && c.a > 0.0f)
    return cvr_sample_gradient<Sampler, (FEATURES & CVR_SAMPLE_SCATTER) != 0>(
        p, ray, volume, t, value, label, s, table, copies);
  return c;
}

/* Composites the sample of the value fetched at lattice parameter t; returns
 * whether the ray is finished. ISO: the ISOSURFACE mode, where a sample
 * counts only where the ray crosses an iso value (raycast.h, cvr_iso_take),
 * classified at that value; *interval is the ray's. */
template <bool GRADIENT, bool ISO, unsigned FEATURES, typename Sampler>
__device__ __forceinline__ void cvr_composite_value(const cvr_ray_params &p, const cvr_ray &ray,
                                                    const Sampler &volume, const uint4 *table,
                                                    int copies, float value, float t,
                                                    cvr_rgba &acc, float &t_hit, int &interval) {
  if (ISO && (cvr_ray_cropped(&p, &ray, t) || !cvr_iso_take(&p, &interval, &value))) return;
  const cvr_rgba s =
      cvr_sample_color<GRADIENT, Sampler, FEATURES>(p, ray, volume, table, copies, value, t);
  if (s.a > 0.0f && t_hit < 0.0f) t_hit = t;
  cvr_composite(&acc, s);
}

/* The opacity at which a ray stops (cvr_ray_done): one comparison a sample
 * instead of two; above any opacity without early termination. */
__device__ __forceinline__ float cvr_stop_opacity(const cvr_ray_params &p) {
  return p.early_termination ? p.termination_opacity : 2.0f;
}

/* Marches one ray over its lattice front to back, FETCH_AHEAD texture
 * fetches in flight before their values are composited, so a warp waits on
 * one texture round trip per FETCH_AHEAD samples. Full batches composite
 * without a bounds check per sample; the last, partial one with it. A batch
 * past early termination stops at the sample where the opacity reached it:
 * the composited samples are exactly the lattice's. With empty-space
 * skipping (FEATURES has CVR_SAMPLE_SKIP and p.skip_empty is set) the ray
 * looks at the macro-cell of its next sample before a batch and steps over
 * the samples an empty cell holds; batches are never cut short at a cell's
 * end (cvr-bench's empty-space step measured that slower where nothing was
 * empty). Without gradients it looks only after a batch that saw nothing (a
 * visible sample says its cell is not empty); with them, the register that
 * takes would spill. Returns the number of samples taken; *skipped counts
 * those stepped over. */
template <int FETCH_AHEAD, bool GRADIENT, bool ISO, unsigned FEATURES, typename Sampler>
__device__ __forceinline__ unsigned cvr_march(const cvr_ray_params &p, const cvr_ray &ray,
                                              const Sampler &volume, const uint4 *table,
                                              int copies, cvr_rgba &acc, float &t_hit,
                                              unsigned &skipped) {
  constexpr bool SKIP = (FEATURES & CVR_SAMPLE_SKIP) != 0;
  const float t_first = cvr_ray_t_first(&ray, p.lattice_offset);
  const float t_last = cvr_ray_t_last(&ray, p.lattice_offset);
  const float stop = cvr_stop_opacity(p);
  float t = t_first;
  int interval = -1; /* ISO */
  skipped = 0;
  bool look = SKIP && p.skip_empty != nullptr; /* for empty cells before the next batch */
  bool done = false;
  while (!done && t <= t_last) {
    if (SKIP && look) {
      int cell[3];
      if (cvr_skip_empty_at(&p, &ray, t, cell)) {
        const int n = cvr_skip_cell_samples(&p, &ray, t, cell, (int)(t_last - t));
        skipped += (unsigned)n;
        t += (float)n;
        continue;
      }
    }
    const float seen = GRADIENT ? 0.0f : acc.a; /* grows with every visible sample */
    float v[FETCH_AHEAD];
#pragma unroll
    for (int j = 0; j < FETCH_AHEAD; ++j) v[j] = cvr_fetch(ray, volume, t + (float)j);
    if (!GRADIENT && t + (float)(FETCH_AHEAD - 1) <= t_last) {
      /* a full batch: no bounds check per sample (only the small unshaded
       * body is worth the second copy of the loop) */
#pragma unroll
      for (int j = 0; j < FETCH_AHEAD; ++j) {
        cvr_composite_value<GRADIENT, ISO, FEATURES, Sampler>(p, ray, volume, table, copies, v[j],
                                                              t, acc, t_hit, interval);
        t += 1.0f;
        if (acc.a >= stop) return (unsigned)(t - t_first) - skipped;
      }
    } else {
#pragma unroll
      for (int j = 0; j < FETCH_AHEAD; ++j) {
        if (done || t > t_last) break;
        cvr_composite_value<GRADIENT, ISO, FEATURES, Sampler>(p, ray, volume, table, copies, v[j],
                                                              t, acc, t_hit, interval);
        done = acc.a >= stop;
        t += 1.0f;
      }
    }
    if (SKIP) look = p.skip_empty && (GRADIENT || acc.a == seen);
  }
  return (unsigned)(t - t_first) - skipped;
}

/* front over back, both premultiplied */
__device__ __forceinline__ float4 cvr_over(const float4 front, const float4 back) {
  const float w = 1.0f - front.w;
  return make_float4(front.x + w * back.x, front.y + w * back.y, front.z + w * back.z,
                     front.w + w * back.w);
}

/* Narrows the ray to part `segment` of `segments` consecutive parts of its
 * lattice samples, each a multiple of 8 samples long (full fetch batches)
 * but the last; a part past the ray's end takes no sample. */
__device__ __forceinline__ void cvr_ray_segment(cvr_ray *ray, int segment, int segments) {
  const int n = ray->k_last - ray->k_first + 1;
  const int length = ((n + segments - 1) / segments + 7) & ~7;
  const int first = ray->k_first + segment * length;
  ray->k_last = min(ray->k_last, first + length - 1);
  ray->k_first = first;
}

/* Marches one ray for a blend mode other than COMPOSITE (raycast.h,
 * cvr_blend_state), FETCH_AHEAD fetches in flight as cvr_march, and sets its
 * pixel; only the samples that add to a sum are classified. Returns the
 * number of samples taken. */
template <int FETCH_AHEAD, typename Sampler>
__device__ __forceinline__ unsigned cvr_project(const cvr_ray_params &p, const cvr_ray &ray,
                                                const Sampler &volume, const uint4 *table,
                                                int copies, cvr_rgba &pixel) {
  const float t_first = cvr_ray_t_first(&ray, p.lattice_offset);
  const float t_last = cvr_ray_t_last(&ray, p.lattice_offset);
  cvr_blend_state q;
  cvr_blend_init(&p, &q);
  unsigned samples = 0;
  for (float t = t_first; t <= t_last; t += (float)FETCH_AHEAD) {
    float v[FETCH_AHEAD];
#pragma unroll
    for (int j = 0; j < FETCH_AHEAD; ++j) v[j] = cvr_fetch(ray, volume, t + (float)j);
#pragma unroll
    for (int j = 0; j < FETCH_AHEAD; ++j) {
      if (t + (float)j > t_last) break;
      ++samples;
      if (cvr_ray_cropped(&p, &ray, t + (float)j)) continue;
      const float weight = cvr_blend_take(&p, &q, v[j]);
      if (weight > 0.0f) cvr_blend_add(&q, weight, cvr_classify_packed(table, copies, p, v[j]).a);
    }
  }
  pixel = cvr_blend_pixel(&p, &q, cvr_classify_packed(table, copies, p, q.extreme));
  return samples;
}

/* SLICE: the sample where the ray meets the plane (cvr_slice_setup, at t),
 * classified, its gradient applied where visible (gradient opacity, shading),
 * as premultiplied pixel. */
template <unsigned FEATURES, typename Sampler>
__device__ __forceinline__ cvr_rgba cvr_slice_pixel(const cvr_ray_params &p, const cvr_ray &ray,
                                                    const Sampler &volume, const uint4 *table,
                                                    int copies, float t) {
  cvr_rgba pixel = {0.0f, 0.0f, 0.0f, 0.0f};
  if (cvr_ray_cropped(&p, &ray, t)) return pixel;
  const float value = cvr_fetch(ray, volume, t);
  cvr_rgba s = cvr_classify_packed(table, copies, p, value);
  if (cvr_needs_gradient(&p) && s.a > 0.0f)
    s = cvr_sample_gradient<Sampler, (FEATURES & CVR_SAMPLE_SCATTER) != 0>(p, ray, volume, t, value,
                                                                            0, s, table, copies);
  cvr_composite(&pixel, s);
  return pixel;
}

__device__ __forceinline__ void cvr_write_pixel(const cvr_cuda_launch &l, int px, int py,
                                                const cvr_rgba &c, float depth) {
  const size_t o = (size_t)py * l.ray.width + px;
  if (l.rgba32f) l.rgba32f[o] = make_float4(c.r, c.g, c.b, c.a);
  if (l.rgba8)
    l.rgba8[o] = make_uchar4(cvr_to_unorm8(c.r), cvr_to_unorm8(c.g), cvr_to_unorm8(c.b),
                             cvr_to_unorm8(c.a));
  if (l.depth) l.depth[o] = depth;
}

/* Adds the block's rays and samples to the frame counters (cvr_cuda_launch:
 * rays, samples taken, the rays' lattice samples, samples skipped as
 * empty), one atomic each per full warp. Every thread of the block must
 * call it. */
__device__ __forceinline__ void cvr_count(unsigned long long *counters, unsigned rays,
                                          unsigned samples, unsigned lattice, unsigned skipped) {
  const int threads = blockDim.x * blockDim.y * blockDim.z;
  const int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned long long c[4] = {rays, samples, lattice, skipped};
  if ((t | 31) < threads) { /* this thread's warp is full */
#pragma unroll
    for (int i = 0; i < 4; ++i)
      for (int offset = 16; offset > 0; offset >>= 1) c[i] += __shfl_down_sync(0xffffffffu, c[i], offset);
    if (t % 32 != 0) return;
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
    if (c[i]) atomicAdd(&counters[i], c[i]);
}

/* A ray's lattice samples, taken or not (its statistics' total). */
__device__ __forceinline__ unsigned cvr_lattice_samples(const cvr_ray &ray) {
  return (unsigned)(ray.k_last - ray.k_first + 1);
}

#endif
