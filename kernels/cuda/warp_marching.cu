// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Warp marching (Wang, Yang and Cao 2014, sections 4 and 5): a group of
 * `width` lanes marches one ray, the lanes taking consecutive samples of each
 * cycle, so the texture fetches of a warp lie along rays rather than across
 * them. The group's samples are combined with the associative "over"
 * operator and put behind what the ray has gathered. width 32 is the paper's
 * 1D warp marching; a smaller width puts 32 / width rays in a warp, laid out
 * rays_x x rays_y on screen (3D warp marching, warp shape rays_x x rays_y x
 * width).
 *
 * Each lane takes a segment of consecutive samples a cycle (CVR_WARP_SEGMENT;
 * 1 is the paper's one sample a lane), composites it front to back, and the
 * group combines the segments: the per-cycle work is shared by the
 * segment's samples. The fetches still lie along the rays as the paper's
 * do: fetch j of every lane takes consecutive samples, and shared memory
 * transposes them into the segments (CVR_WARP_FETCH_ACROSS). With
 * empty-space skipping a lane takes one sample a cycle.
 *
 * Variants (cvr_warp_variant):
 *  - single buffer: each cycle the group reduces its segments in a tree
 *    (the paper's Algorithm 1, as a shuffle-down tree) into its first lane,
 *    which puts the result behind the accumulated colour;
 *  - double buffer: the reduction is pipelined over cycles. Buffer 2 takes
 *    the new samples; each cycle, lanes [0, W/2) combine pairs of them into
 *    buffer 1, the lanes of level k in [W - W/2^(k-1), W - W/2^k) combine
 *    pairs of level k - 1, and lane W - 1 puts the finished segment (from
 *    log2 W cycles ago) behind the accumulated colour, which it holds in its
 *    buffer 1. Every lane does one "over" per cycle; after the last sample
 *    the pipeline drains in log2 W cycles;
 * and each exchanges values through shared memory or through warp shuffles.
 * With early ray termination, the opacity is blended every cycle in both
 * (the paper's repair for the double buffer, which would otherwise learn of
 * it log2 W cycles late), as a scan over the segments, so that a group stops
 * at exactly the sample where one thread per ray would: no sample past it is
 * composited.
 *
 * Blocks are persistent and a warp sets up its rays 32 at a time
 * (cvr_warp_tiles), each lane one ray, so that the work of a ray outside
 * its samples is done once, not once a lane.
 *
 * All samples lie on the rays' lattice (raycast.h) and are classified and
 * shaded by cvr_sample_color, as in every strategy. A warp whose samples (and
 * pipeline) are all transparent skips the combination (__ballot_sync). */
#include "ray_march.cuh"

#define CVR_FULL_MASK 0xffffffffu

typedef struct cvr_warp_layout {
  int width, log2_width;   /* lanes per ray */
  int rays_x, rays_y;      /* rays of a warp on screen */
  int warps_x, warps_y;    /* warps of a block */
} cvr_warp_layout;

/* Lanes exchange values through warp shuffles, within groups of `width`. */
struct cvr_shuffle_exchange {
  int width;
  __device__ __forceinline__ float4 get(float4 v, int src) const {
    return make_float4(__shfl_sync(CVR_FULL_MASK, v.x, src, width),
                       __shfl_sync(CVR_FULL_MASK, v.y, src, width),
                       __shfl_sync(CVR_FULL_MASK, v.z, src, width),
                       __shfl_sync(CVR_FULL_MASK, v.w, src, width));
  }
  __device__ __forceinline__ void pair(float4 v, int a, int b, float4 &va, float4 &vb) const {
    va = get(v, a);
    vb = get(v, b);
  }
  __device__ __forceinline__ float getf(float v, int src) const {
    return __shfl_sync(CVR_FULL_MASK, v, src, width);
  }
  /* the value of the lane `off` behind in the group (its own past the end) */
  __device__ __forceinline__ float4 down(float4 v, int off) const {
    return make_float4(__shfl_down_sync(CVR_FULL_MASK, v.x, off, width),
                       __shfl_down_sync(CVR_FULL_MASK, v.y, off, width),
                       __shfl_down_sync(CVR_FULL_MASK, v.z, off, width),
                       __shfl_down_sync(CVR_FULL_MASK, v.w, off, width));
  }
};

/* Lanes exchange values through this warp's slots in shared memory. */
struct cvr_shared_exchange {
  float4 *slots;  /* 32 per warp */
  float *fslots;  /* 32 per warp */
  int lane, group_base, width;
  __device__ __forceinline__ void pair(float4 v, int a, int b, float4 &va, float4 &vb) const {
    slots[lane] = v;
    __syncwarp();
    va = slots[group_base + a];
    vb = slots[group_base + b];
    __syncwarp();
  }
  __device__ __forceinline__ float4 get(float4 v, int src) const {
    float4 a, b;
    pair(v, src, src, a, b);
    return a;
  }
  __device__ __forceinline__ float getf(float v, int src) const {
    fslots[lane] = v;
    __syncwarp();
    const float r = fslots[group_base + src];
    __syncwarp();
    return r;
  }
  __device__ __forceinline__ float4 down(float4 v, int off) const {
    slots[lane] = v;
    __syncwarp();
    const int g = lane - group_base;
    const float4 r = slots[g + off < width ? lane + off : lane];
    __syncwarp();
    return r;
  }
};

/* Single buffer: the group's samples reduced in a tree (Algorithm 1): at
 * level `off` every lane puts the partial segment `off` lanes behind it
 * behind its own, so after log2 W levels the group's first lane holds the
 * cycle's segment (the other lanes' partial results go unused: "over" is
 * associative, and no lane reads past its group). One exchange of 4 floats a
 * level; the segment goes behind the first lane's `acc`. */
template <typename Exchange>
__device__ __forceinline__ void cvr_single_buffer_step(const Exchange &x, int width, float4 p,
                                                       float4 &acc) {
  for (int off = 1; off < width; off *= 2) p = cvr_over(p, x.down(p, off));
  acc = cvr_over(acc, p);
}

/* Double buffer: where lane g of a group reads in each pipelined step (see
 * the file comment), fixed for the kernel: its two sources, and whether they
 * are new samples (buffer 2) or partial results (buffer 1). */
struct cvr_pipeline_lane {
  int s1, s2;
  bool from_b2;
};

__device__ __forceinline__ cvr_pipeline_lane cvr_pipeline_sources(int g, int width, int log2_width) {
  cvr_pipeline_lane p = {2 * g, 2 * g + 1, true}; /* level 1: pairs of new samples */
  if (g == width - 1) { /* the accumulator: itself over the finished segment */
    p.s1 = width - 1;
    p.s2 = width - 2;
    p.from_b2 = false;
  } else if (g >= width / 2) { /* level k >= 2: pairs of level k - 1 */
    p.from_b2 = false;
    for (int k = 2; k <= log2_width; ++k) {
      const int start = width - (width >> (k - 1)), size = width >> k;
      if (g >= start && g < start + size) {
        p.s1 = width - (width >> (k - 2)) + 2 * (g - start);
        p.s2 = p.s1 + 1;
      }
    }
  }
  return p;
}

/* Double buffer: one pipelined step. b1 of lane width - 1 is the
 * accumulated colour. */
template <typename Exchange>
__device__ __forceinline__ void cvr_double_buffer_step(const Exchange &x, const cvr_pipeline_lane &l,
                                                       float4 b2, float4 &b1) {
  float4 n1, n2, o1, o2;
  x.pair(b2, l.s1, l.s2, n1, n2);
  x.pair(b1, l.s1, l.s2, o1, o2);
  b1 = l.from_b2 ? cvr_over(n1, n2) : cvr_over(o1, o2);
}

/* Early ray termination as exact as one thread per ray: the ray's
 * transparency in front of each lane's segment (an exclusive product scan of
 * its transparency over the group, Hillis-Steele, times what the ray had
 * before this cycle). The sequential loop composites a sample while the
 * opacity in front of it is below the threshold, so a lane keeps its whole
 * segment (cut 0), keeps it up to the sample where the opacity reaches the
 * threshold (cut 1: it composites it again up to there), or drops it (cut 2:
 * the threshold was reached in front of it). *before: the transparency in
 * front of this lane's segment. Returns the ray's transparency after the
 * whole cycle (what the next cycle starts from when no lane is cut); this is
 * the paper's per-cycle opacity blending, extended to stop mid-cycle. */
template <typename Exchange>
__device__ __forceinline__ float cvr_terminate_in_cycle(const Exchange &x, int g, int width,
                                                        float transparency, float threshold,
                                                        float alpha, float &before, int &cut) {
  float inclusive = 1.0f - alpha;
  for (int d = 1; d < width; d *= 2) {
    const float other = x.getf(inclusive, g >= d ? g - d : 0);
    if (g >= d) inclusive *= other;
  }
  const float exclusive = x.getf(inclusive, g > 0 ? g - 1 : 0);
  before = transparency * (g > 0 ? exclusive : 1.0f);
  cut = 1.0f - before >= threshold ? 2 : (1.0f - transparency * inclusive >= threshold ? 1 : 0);
  return transparency * x.getf(inclusive, width - 1);
}

/* At most 512 threads (16 warps) per block, so that a lane may use 128
 * registers: shaded lanes take about 100. Without gradients 80, which keep
 * three blocks of 8 warps resident: a segment of 4 samples with the next
 * cycle's 4 in flight takes 80 or 81, and at 81 (allocated as 88) only two
 * fit, which cost the 3D warp a fifth of its speed (at 64 it spills). */
#define CVR_WARP_MAX_THREADS 512
#ifndef CVR_WARP_PLAIN_REGISTERS
#  define CVR_WARP_PLAIN_REGISTERS 80
#endif
#define CVR_WARP_REGISTERS(GRADIENT) ((GRADIENT) ? 128 : CVR_WARP_PLAIN_REGISTERS)
/* Consecutive samples per lane and cycle (its segment), without and with
 * gradients: the group's cycle covers width x CVR_WARP_SEGMENT samples of
 * its ray. 1 is the paper's mapping, a sample per lane; with more, a lane
 * composites its segment front to back before the group combines the
 * segments, so the per-cycle work (votes, the reduction's exchanges, the
 * bookkeeping) is shared by that many samples, while a warp's fetches still
 * lie along its rays. */
#ifndef CVR_WARP_SEGMENT
#  define CVR_WARP_SEGMENT 4
#endif
#ifndef CVR_WARP_SEGMENT_GRADIENT
#  define CVR_WARP_SEGMENT_GRADIENT 2
#endif
/* A lane's fetches of a cycle lie across the group's lanes (fetch j of lane
 * g: sample j * W + g of the cycle), so each texture instruction of a warp
 * takes consecutive samples of its rays, as the paper's one sample a lane
 * does; the values are then transposed in shared memory into the lanes'
 * segments (sample g * K + j). With 0 a lane fetches its own segment, which
 * spreads a warp's instruction over K times the length of its rays. */
#ifndef CVR_WARP_FETCH_ACROSS
#  define CVR_WARP_FETCH_ACROSS 1
#endif

/* The segment of an instance (SEGMENT: its own; 0: the default). */
template <bool GRADIENT, int SEGMENT>
__host__ __device__ constexpr int cvr_warp_segment() {
  return SEGMENT > 0 ? SEGMENT : GRADIENT ? CVR_WARP_SEGMENT_GRADIENT : CVR_WARP_SEGMENT;
}

/* Shared memory for the transposition: per group of W lanes W * K values and
 * a pad that keeps a warp's stores (fetch j of every lane) on distinct banks
 * and each lane's segment aligned for one vector load. */
__host__ __device__ constexpr int cvr_transpose_stride(int width, int K) {
  return width * K + (width > K ? width : K);
}
static size_t cvr_transpose_bytes(int warps, int width, int K) {
  return K > 1 && CVR_WARP_FETCH_ACROSS ? (size_t)warps * (32 / width) *
                                              cvr_transpose_stride(width, K) * sizeof(float)
                                        : 0;
}

/* Puts the K values lane g fetched across its group (sample j * W + g) into
 * its segment (sample g * K + j), through its group's slots. */
template <int K>
__device__ __forceinline__ void cvr_transpose_segment(float *group_slots, int width, int g,
                                                      float (&value)[K]) {
  __syncwarp(); /* the last cycle's loads are done */
#pragma unroll
  for (int j = 0; j < K; ++j) group_slots[j * width + g] = value[j];
  __syncwarp();
  if constexpr (K == 4) {
    const float4 q = *reinterpret_cast<const float4 *>(group_slots + g * K);
    value[0] = q.x, value[1] = q.y, value[2] = q.z, value[3] = q.w;
  } else if constexpr (K == 2) {
    const float2 q = *reinterpret_cast<const float2 *>(group_slots + g * K);
    value[0] = q.x, value[1] = q.y;
  } else {
#pragma unroll
    for (int j = 0; j < K; ++j) value[j] = group_slots[g * K + j];
  }
}

/* The launch has as many blocks as are resident at once, and block b
 * renders the tiles b, b + G, b + 2 G, ... (G blocks) of warps_x x warps_y
 * warps' rays, so that at any time the tiles in flight lie together as one
 * block a tile would have them. A warp sets up its rays of W tiles at once,
 * its lane q W + u the ray of its group q in the u-th tile, into the warp's
 * ray slots, marches them tile by tile, and each lane writes its ray's
 * pixel: the per-ray work (setting the ray up, its depth and pixel, the
 * statistics) is done once a ray rather than once a lane, and the block's
 * table is loaded once (a 1D warp's lane takes only 16 samples of a
 * 512-sample ray). */
typedef struct cvr_warp_tiles {
  int across, count; /* tiles across the image, and in all */
} cvr_warp_tiles;

/* Slot s of the warp's rays: the ray's fields, each at f * 32 + s, so that
 * a warp's groups read their rays without bank conflicts. */
#define CVR_RAY_FIELDS 14
#define CVR_RESULT_FIELDS 5 /* colour and the first visible sample */
/* the lane's rays, their lattice samples, samples taken and skipped, and its
 * ray's place in a tile: kept in shared memory rather than registers,
 * which the march is short of */
#define CVR_LANE_FIELDS 5
__device__ __forceinline__ void cvr_put_ray(float *slots, int s, const cvr_ray &r, bool hit) {
#pragma unroll
  for (int a = 0; a < 3; ++a) {
    slots[a * 32 + s] = r.origin[a];
    slots[(3 + a) * 32 + s] = r.step[a];
    slots[(6 + a) * 32 + s] = r.world_origin[a];
    slots[(9 + a) * 32 + s] = r.world_step[a];
  }
  slots[12 * 32 + s] = __int_as_float(hit ? r.k_first : 1);
  slots[13 * 32 + s] = __int_as_float(hit ? r.k_last : 0);
}
/* returns whether the ray takes any sample */
__device__ __forceinline__ bool cvr_get_ray(const float *slots, int s, cvr_ray &r) {
#pragma unroll
  for (int a = 0; a < 3; ++a) {
    r.origin[a] = slots[a * 32 + s];
    r.step[a] = slots[(3 + a) * 32 + s];
    r.world_origin[a] = slots[(6 + a) * 32 + s];
    r.world_step[a] = slots[(9 + a) * 32 + s];
  }
  r.k_first = __float_as_int(slots[12 * 32 + s]);
  r.k_last = __float_as_int(slots[13 * 32 + s]);
  return r.k_first <= r.k_last;
}

/* FEATURES: the per-sample work compiled in (ray_march.cuh); the shuffle
 * variants have texture instances for skipping alone and everything, and
 * without gradients for none (launch_features). */
template <int VARIANT, bool GRADIENT, unsigned FEATURES, typename Sampler, int SEGMENT = 0>
__global__ void __launch_bounds__(CVR_WARP_MAX_THREADS) __maxnreg__(CVR_WARP_REGISTERS(GRADIENT))
    cvr_warp_marching_kernel(const cvr_cuda_launch l, const cvr_warp_layout w,
                             const cvr_warp_tiles tiles) {
  constexpr bool SKIP = (FEATURES & CVR_SAMPLE_SKIP) != 0;
  extern __shared__ uint4 shared_mem[];
  cvr_load_table(shared_mem, l.table, l.ray.tf_size, l.table_copies);
  const uint4 *table = cvr_table_copy(shared_mem, l.table_copies);
  const bool shared_exchange = VARIANT == CVR_WARP_SB_SHARED || VARIANT == CVR_WARP_DB_SHARED;
  const bool double_buffer = VARIANT == CVR_WARP_DB_SHARED || VARIANT == CVR_WARP_DB_SHUFFLE;

  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int W = w.width, group = lane / W, g = lane % W;
  const unsigned group_bits = (W == 32 ? CVR_FULL_MASK : ((1u << W) - 1u)) << (group * W);

  cvr_shuffle_exchange shuffle = {W};
  const cvr_pipeline_lane pipeline = cvr_pipeline_sources(g, W, w.log2_width);
  const int warps = blockDim.x >> 5;
  constexpr int K = cvr_warp_segment<GRADIENT, SEGMENT>();
  float4 *after_table = (float4 *)(shared_mem + (size_t)l.ray.tf_size * l.table_copies);
  float *area = (float *)(after_table + (shared_exchange ? (size_t)warps * 32 * 5 / 4 : 0));
  cvr_shared_exchange shared;
  if (shared_exchange) {
    float4 *slots = after_table;
    shared.slots = slots + 32 * warp;
    shared.fslots = (float *)(slots + 32 * warps) + 32 * warp;
    shared.lane = lane;
    shared.group_base = group * W;
    shared.width = W;
  }
  constexpr bool ACROSS = CVR_WARP_FETCH_ACROSS && K > 1;
  float *transpose_slots = nullptr;
  if (ACROSS) {
    transpose_slots = area + (size_t)(warp * (32 / W) + group) * cvr_transpose_stride(W, K);
    area += (size_t)warps * (32 / W) * cvr_transpose_stride(W, K);
  }
  float *ray_slots = area + (size_t)warp * 32 * (CVR_RAY_FIELDS + CVR_RESULT_FIELDS + CVR_LANE_FIELDS);
  float *result_slots = ray_slots + 32 * CVR_RAY_FIELDS;
  const Sampler volume(l.volume);
  /* the segment's samples: with empty-space skipping a sample a lane (the
   * paper's cycle), since skipping steps over whole cycles and longer ones
   * skip less (shaded cranium, 3D warp: 8.6% more samples taken with
   * segments of 2, 3% slower); without, the whole segment */
  const int k = (FEATURES & CVR_SAMPLE_SKIP) && l.ray.skip_empty ? 1 : K;
  const int span = W * k;                  /* samples of the ray a cycle */
  /* fetch j of this lane: sample f_first + j * f_step of the cycle (one
   * sample a lane: its own) */
  const bool across = ACROSS && k > 1;
  const int f_first = across ? g : g * k, f_step = across ? W : 1;
  /* this lane's ray in a tile: its group's in the warp's place */
  unsigned *own = (unsigned *)(result_slots + 32 * CVR_RESULT_FIELDS) + lane;
  own[0] = own[32] = own[64] = own[96] = 0u;
  own[128] = (unsigned)((warp % w.warps_x) * w.rays_x + group % w.rays_x) |
             (unsigned)((warp / w.warps_x) * w.rays_y + group / w.rays_x) << 16;
  /* the lane's pixel among the W tiles from the block's tile `first` on */
  const auto pixel = [&](int first, int &px, int &py) {
    const int tile = blockIdx.x + (first + g) * gridDim.x;
    px = (tile % tiles.across) * (w.warps_x * w.rays_x) + (int)(own[128] & 0xffffu);
    py = (tile / tiles.across) * (w.warps_y * w.rays_y) + (int)(own[128] >> 16);
    return tile < tiles.count && px < l.ray.width && py < l.ray.height;
  };

  for (int first = 0; blockIdx.x + first * gridDim.x < tiles.count; first += W) {
    {
      int px, py;
      cvr_ray ray = {};
      const bool hit = pixel(first, px, py) && cvr_setup_ray(l, px, py, &ray);
      cvr_put_ray(ray_slots, lane, ray, hit);
      own[0] += hit;
      own[32] += hit ? cvr_lattice_samples(ray) : 0u;
    }
    __syncwarp();
    for (int unit = 0; unit < W; ++unit) {
      cvr_ray ray;
      const bool hit = cvr_get_ray(ray_slots, group * W + unit, ray);
      const float t_last = hit ? cvr_ray_t_last(&ray, l.ray.lattice_offset) : 0.0f;
      float t_base = hit ? cvr_ray_t_first(&ray, l.ray.lattice_offset) : 0.0f;
      bool sampling = hit;                     /* group-uniform */
      int drain = 0;                           /* double buffer: steps left after sampling */
      float4 acc = make_float4(0.f, 0.f, 0.f, 0.f), b1 = acc;
      float transparency = 1.0f;               /* of the kept samples, for termination */
      float t_hit = -1.0f;
      unsigned samples = 0, skipped = 0;
      /* group-uniform: for empty cells at the cycle's start */
      bool look = SKIP && l.ray.skip_empty != nullptr;
      /* this cycle's values (fetched a cycle ahead: a lane's K fetches of the
       * next cycle are in flight while it composites this one's) */
      float v[K];
#pragma unroll
      for (int j = 0; j < K; ++j)
        v[j] = sampling && j < k ? cvr_fetch(ray, volume, t_base + (float)(f_first + j * f_step)) : 0.0f;

      while (__any_sync(CVR_FULL_MASK, sampling || drain > 0)) {
        if (SKIP && sampling && look) {
          /* empty-space skipping: after a cycle that saw nothing, the group
           * steps over whole cycles whose every sample lies in an empty
           * macro-cell (or past the ray's end), each lane looking at its own;
           * t_base moves by whole cycles, so the samples keep their lanes */
          bool moved = false;
          for (;;) {
            bool empty = true;
            unsigned inside_ray = 0;
            for (int j = 0; j < k; ++j) {
              const float t_own = t_base + (float)(g * k + j);
              int cell[3];
              empty = empty && (t_own > t_last || cvr_skip_empty_at(&l.ray, &ray, t_own, cell));
              inside_ray += t_own <= t_last;
            }
            if (__ballot_sync(group_bits, !empty) != 0u) break; /* group-uniform: its lanes only */
            skipped += inside_ray;
            t_base += (float)span;
            moved = true;
            if (t_base > t_last) break;
          }
          if (t_base > t_last) {
            sampling = false;
            drain = double_buffer ? w.log2_width : 0;
          } else if (moved) {
#pragma unroll
            for (int j = 0; j < K; ++j)
              if (j < k) v[j] = cvr_fetch(ray, volume, t_base + (float)(f_first + j * f_step));
          }
        }
        const float t0 = t_base + (float)(g * k);
        float value[K];
#pragma unroll
        for (int j = 0; j < K; ++j) value[j] = v[j];
        /* the next cycle's fetches go out before this cycle's work */
        if (sampling && t_base + (float)span <= t_last) {
#pragma unroll
          for (int j = 0; j < K; ++j)
            if (j < k) v[j] = cvr_fetch(ray, volume, t_base + (float)(span + f_first + j * f_step));
        }
        /* (group-uniform, and so warp-uniform: every group of a warp has k) */
        if (ACROSS && across) cvr_transpose_segment<K>(transpose_slots, W, g, value);
        /* the lane's segment on the ray: its first n samples (none once the
         * group has stopped, fewer at the ray's end) */
        const int n = sampling ? min(k, max(0, (int)(t_last - t0) + 1)) : 0;
        /* composites the segment front to back (the sequential order), with
         * `stop` only while the ray's opacity in front of a sample (`through`:
         * its transparency in front of the segment) is below the threshold;
         * returns the samples taken. Without `stop` the loop has one check a
         * sample; with it, it runs once a ray at most (below). */
        cvr_rgba seg;
        float first; /* the segment's first visible sample */
        const auto composite_segment = [&](bool stop, float through) {
          seg = cvr_rgba{0.0f, 0.0f, 0.0f, 0.0f};
          first = -1.0f;
          unsigned taken = 0;
#pragma unroll
          for (int j = 0; j < K; ++j)
            if (j < n && (!stop || 1.0f - through < l.ray.termination_opacity)) {
              const float t = t0 + (float)j;
              const cvr_rgba s = cvr_sample_color<GRADIENT, Sampler, FEATURES>(l.ray, ray, volume, table,
                                                                               l.table_copies, value[j], t);
              if (s.a > 0.0f && first < 0.0f) first = t;
              cvr_composite(&seg, s);
              if (stop) through *= 1.0f - s.a;
              ++taken;
            }
          return taken;
        };
        composite_segment(false, 1.0f);
        unsigned taken = (unsigned)n;
        bool terminated = false;
        if (l.ray.early_termination && __any_sync(CVR_FULL_MASK, seg.a > 0.0f)) {
          float from; /* the ray's transparency in front of the segment */
          int cut;
          transparency = shared_exchange
              ? cvr_terminate_in_cycle(shared, g, W, transparency, l.ray.termination_opacity, seg.a, from, cut)
              : cvr_terminate_in_cycle(shuffle, g, W, transparency, l.ray.termination_opacity, seg.a, from, cut);
          terminated = (__ballot_sync(CVR_FULL_MASK, cut != 0) & group_bits) != 0u;
          if (cut == 2) {
            seg = cvr_rgba{0.0f, 0.0f, 0.0f, 0.0f};
            first = -1.0f;
            taken = 0;
          } else if (cut == 1) { /* it holds the sample that terminates the ray: up to it */
            taken = composite_segment(true, from);
          }
        }
        const float4 p = make_float4(seg.r, seg.g, seg.b, seg.a); /* premultiplied */
        samples += taken;
        /* one vote serves the first visible sample, skipping and whether the
         * warp has anything to combine */
        const unsigned warp_visible = __ballot_sync(CVR_FULL_MASK, p.w > 0.0f);
        const unsigned visible = warp_visible & group_bits;
        if (SKIP) look = l.ray.skip_empty && !visible;
        /* the group's first visible sample: its first lane's with one */
        if (__any_sync(CVR_FULL_MASK, visible && t_hit < 0.0f)) {
          const float f = shared_exchange ? shared.getf(first, visible ? __ffs(visible >> (group * W)) - 1 : 0)
                                          : shuffle.getf(first, visible ? __ffs(visible >> (group * W)) - 1 : 0);
          if (visible && t_hit < 0.0f) t_hit = f;
        }

        if (!double_buffer) {
          if (warp_visible) {
            if (shared_exchange) cvr_single_buffer_step(shared, W, p, acc);
            else cvr_single_buffer_step(shuffle, W, p, acc);
          }
          if (sampling && (t_base + (float)span > t_last || terminated)) sampling = false;
        } else {
          if (warp_visible || __any_sync(CVR_FULL_MASK, g != W - 1 && b1.w > 0.0f)) {
            if (shared_exchange) cvr_double_buffer_step(shared, pipeline, p, b1);
            else cvr_double_buffer_step(shuffle, pipeline, p, b1);
          }
          if (drain > 0) --drain;
          if (sampling && (t_base + (float)span > t_last || terminated)) {
            sampling = false;
            drain = w.log2_width; /* the last cycle's segments reach the accumulator */
          }
        }
        t_base += (float)span;
      }
      /* the single buffer's colour is in the group's first lane, the
       * double buffer's in its accumulator lane; t_hit is the group's */
      if (g == (double_buffer ? W - 1 : 0)) {
        const float4 c = double_buffer ? b1 : acc;
        float *r = result_slots + group * W + unit;
        r[0] = c.x, r[32] = c.y, r[64] = c.z, r[96] = c.w, r[128] = t_hit;
      }
      own[64] += samples;
      if (SKIP) own[96] += skipped;
    }
    __syncwarp();
    /* this lane's ray: its pixel, once */
    int px, py;
    if (pixel(first, px, py)) {
      const float *r = result_slots + lane;
      const cvr_rgba colour = {r[0], r[32], r[64], r[96]};
      const float t_hit = r[128];
      float depth = 1.0f;
      if (l.depth && t_hit >= 0.0f) {
        cvr_ray ray;
        cvr_get_ray(ray_slots, lane, ray);
        depth = cvr_ray_depth(&l.ray, &ray, t_hit);
      }
      cvr_write_pixel(l, px, py, colour, depth);
    }
    __syncwarp(); /* the slots are free again */
  }
  cvr_count(l.counters, own[0], own[64], own[32], own[96]);
}

int cvr_cuda_warp_marching_max_threads(void) { return CVR_WARP_MAX_THREADS; }

int cvr_cuda_warp_marching_instances_max_threads(void) {
  int limit = 1024;
#define CVR_WARP_LIMIT(V, G, F, S, K)                                                              \
  if (!cvr_lower_thread_limit((const void *)cvr_warp_marching_kernel<V, G, F, S, K>, &limit)) return 0;
#define CVR_WARP_LIMITS(V)                                                                         \
  CVR_WARP_LIMIT(V, false, CVR_SAMPLE_ALL, cvr_texture_sampler, 0)                                 \
  CVR_WARP_LIMIT(V, true, CVR_SAMPLE_ALL, cvr_texture_sampler, 0)                                  \
  CVR_WARP_LIMIT(V, false, CVR_SAMPLE_ALL, cvr_global_sampler, 1)                                  \
  CVR_WARP_LIMIT(V, true, CVR_SAMPLE_ALL, cvr_global_sampler, 1)
  CVR_WARP_LIMITS(CVR_WARP_SB_SHARED) CVR_WARP_LIMITS(CVR_WARP_DB_SHARED)
  CVR_WARP_LIMITS(CVR_WARP_SB_SHUFFLE) CVR_WARP_LIMITS(CVR_WARP_DB_SHUFFLE)
#undef CVR_WARP_LIMITS
#undef CVR_WARP_LIMIT
  return limit; /* every instance is bounded to 512 threads */
}

template <int VARIANT, bool GRADIENT, unsigned FEATURES, typename Sampler, int SEGMENT = 0>
static cudaError_t launch(cvr_cuda_launch l, const cvr_warp_layout &w, cudaStream_t stream) {
  const auto kernel = cvr_warp_marching_kernel<VARIANT, GRADIENT, FEATURES, Sampler, SEGMENT>;
  const int warps = w.warps_x * w.warps_y, threads = 32 * warps;
  const bool shared_exchange = VARIANT == CVR_WARP_SB_SHARED || VARIANT == CVR_WARP_DB_SHARED;
  const size_t exchange = (shared_exchange ? (size_t)warps * 32 * (sizeof(float4) + sizeof(float)) : 0) +
                          cvr_transpose_bytes(warps, w.width, cvr_warp_segment<GRADIENT, SEGMENT>()) +
                          (size_t)warps * 32 * (CVR_RAY_FIELDS + CVR_RESULT_FIELDS + CVR_LANE_FIELDS) * sizeof(float);
  /* (16 warps' slots and a large table pass the default 48 KiB) */
  int device = 0, optin = 0, sms = 0, per_sm = 0;
  cudaFuncAttributes attributes;
  cudaError_t e = cudaGetDevice(&device);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (e == cudaSuccess) e = cudaFuncGetAttributes(&attributes, kernel);
  if (e != cudaSuccess) return e;
  optin -= (int)attributes.sharedSizeBytes;
  if ((e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, optin)) != cudaSuccess)
    return e;
  l.table_copies = cvr_table_copies(kernel, threads, l.ray.tf_size, exchange);
  const auto bytes_for = [&](int copies) { return (size_t)l.ray.tf_size * copies * sizeof(uint4) + exchange; };
  while (l.table_copies > 1 && bytes_for(l.table_copies) > (size_t)optin) l.table_copies /= 2;
  const size_t bytes = bytes_for(l.table_copies);
  cvr_warp_tiles tiles;
  const int tile_w = w.warps_x * w.rays_x, tile_h = w.warps_y * w.rays_y;
  tiles.across = (l.ray.width + tile_w - 1) / tile_w;
  tiles.count = tiles.across * ((l.ray.height + tile_h - 1) / tile_h);
  if (tiles.count == 0) return cudaSuccess;
  if ((e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, bytes)) != cudaSuccess)
    return e;
  if (per_sm < 1) return cudaErrorInvalidConfiguration;
  const int blocks = sms * per_sm < tiles.count ? sms * per_sm : tiles.count;
  kernel<<<blocks, threads, bytes, stream>>>(l, w, tiles);
  return cudaGetLastError();
}

/* The instance of the frame's gradient and features. */
template <int VARIANT, bool GRADIENT, typename Sampler>
static cudaError_t launch_features(const cvr_cuda_launch &l, const cvr_warp_layout &w,
                                   cudaStream_t stream) {
  /* the instances per feature set only where they pay: the shuffle variants
   * (the fast ones), without gradients for none, with and without them for
   * skipping (real data's frames) */
  constexpr bool SHUFFLE = VARIANT == CVR_WARP_SB_SHUFFLE || VARIANT == CVR_WARP_DB_SHUFFLE;
  if constexpr (Sampler::specialized && SHUFFLE) {
    const unsigned features = cvr_sample_features(&l.ray);
    if (features == 0 && !GRADIENT) return launch<VARIANT, GRADIENT, 0, Sampler>(l, w, stream);
    if (features == CVR_SAMPLE_SKIP) /* (a sample a lane: see k in the kernel) */
      return launch<VARIANT, GRADIENT, CVR_SAMPLE_SKIP, Sampler, 1>(l, w, stream);
  }
  /* the global layouts (a fifth of the texture's speed) take a sample a lane:
   * a quarter of the code */
  if constexpr (!Sampler::specialized) return launch<VARIANT, GRADIENT, CVR_SAMPLE_ALL, Sampler, 1>(l, w, stream);
  else return launch<VARIANT, GRADIENT, CVR_SAMPLE_ALL, Sampler>(l, w, stream);
}

/* launch_features's instances, every feature set. */
template <int VARIANT, bool GRADIENT, typename Sampler>
static cudaError_t load_features(void) {
  constexpr bool SHUFFLE = VARIANT == CVR_WARP_SB_SHUFFLE || VARIANT == CVR_WARP_DB_SHUFFLE;
  cudaError_t e = cudaSuccess;
  if constexpr (Sampler::specialized && SHUFFLE) {
    if constexpr (!GRADIENT) e = cvr_cuda_load({(const void *)cvr_warp_marching_kernel<VARIANT, GRADIENT, 0, Sampler>});
    if (e == cudaSuccess)
      e = cvr_cuda_load({(const void *)cvr_warp_marching_kernel<VARIANT, GRADIENT, CVR_SAMPLE_SKIP, Sampler, 1>});
  }
  if (e != cudaSuccess) return e;
  if constexpr (!Sampler::specialized)
    return cvr_cuda_load({(const void *)cvr_warp_marching_kernel<VARIANT, GRADIENT, CVR_SAMPLE_ALL, Sampler, 1>});
  else return cvr_cuda_load({(const void *)cvr_warp_marching_kernel<VARIANT, GRADIENT, CVR_SAMPLE_ALL, Sampler>});
}

template <int VARIANT>
static cudaError_t load_variant(cvr_memory_layout layout, bool gradient) {
  return cvr_with_sampler(layout, [&](auto tag) {
    typedef typename decltype(tag)::type S;
    return gradient ? load_features<VARIANT, true, S>() : load_features<VARIANT, false, S>();
  });
}

cudaError_t cvr_cuda_load_warp_marching(cvr_memory_layout layout, int variant, bool gradient) {
  switch (variant) {
  case CVR_WARP_SB_SHARED: return load_variant<CVR_WARP_SB_SHARED>(layout, gradient);
  case CVR_WARP_DB_SHARED: return load_variant<CVR_WARP_DB_SHARED>(layout, gradient);
  case CVR_WARP_SB_SHUFFLE: return load_variant<CVR_WARP_SB_SHUFFLE>(layout, gradient);
  case CVR_WARP_DB_SHUFFLE: return load_variant<CVR_WARP_DB_SHUFFLE>(layout, gradient);
  }
  return cudaErrorInvalidValue;
}

template <int VARIANT>
static cudaError_t launch_variant(const cvr_cuda_launch &l, cvr_memory_layout layout,
                                  const cvr_warp_layout &w, cudaStream_t stream) {
  return cvr_with_sampler(layout, [&](auto tag) {
    typedef typename decltype(tag)::type S;
    return cvr_needs_gradient(&l.ray) ? launch_features<VARIANT, true, S>(l, w, stream)
                                      : launch_features<VARIANT, false, S>(l, w, stream);
  });
}

cudaError_t cvr_cuda_launch_warp_marching(const cvr_cuda_launch *l, cvr_memory_layout layout,
                                          const cvr_render_settings *s, cudaStream_t stream) {
  cvr_warp_layout w;
  w.width = s->warp_width;
  w.log2_width = 0;
  while ((1 << w.log2_width) < w.width) ++w.log2_width;
  int rays[2];
  cvr_warp_rays_layout(s, rays);
  w.rays_x = rays[0];
  w.rays_y = rays[1];
  w.warps_x = s->block_warps[0];
  w.warps_y = s->block_warps[1];
  switch (s->warp_variant) {
  case CVR_WARP_SB_SHARED: return launch_variant<CVR_WARP_SB_SHARED>(*l, layout, w, stream);
  case CVR_WARP_DB_SHARED: return launch_variant<CVR_WARP_DB_SHARED>(*l, layout, w, stream);
  case CVR_WARP_SB_SHUFFLE: return launch_variant<CVR_WARP_SB_SHUFFLE>(*l, layout, w, stream);
  case CVR_WARP_DB_SHUFFLE: return launch_variant<CVR_WARP_DB_SHUFFLE>(*l, layout, w, stream);
  }
  return cudaErrorInvalidValue;
}
