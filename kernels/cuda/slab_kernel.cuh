// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The slab strategy (Mensmann, Ropinski and Hinrichs, GRAPP 2010, section
 * 5): a thread block is a tile of rays; they advance together through slabs
 * of `depth` samples whose values are cached in shared memory, so that
 * shading takes its gradients from the cache (the neighbouring rays' samples
 * at the same lattice index and the ray's own previous and next samples)
 * instead of from six more volume fetches per sample.
 *
 *  - Start-point alignment: the lattice puts sample k of every ray within a
 *    sample of the same distance from the eye (the near plane for parallel
 *    projection), its phase (cvr_ray_clip) apart, so the rays of a block
 *    start together at the block's smallest first index and the cache's
 *    slice k holds every ray's sample k; the gradients take the phases out.
 *  - Border rays: the rays around the tile only fill the cache, so gradients
 *    at the tile's edge see real neighbours (no grid pattern). As the paper
 *    builds it (CVR_SLAB_BORDER_RING) the outer ring of the block's threads
 *    casts them and tiles overlap by two rays; those threads idle while the
 *    others shade. CVR_SLAB_BORDER_GATHERED gives every thread a pixel and
 *    has the block's first threads fetch a border ray each besides their
 *    own, into the same cache: the same samples, no idle lanes.
 *  - Slab-level early ray termination: the block stops when none of its
 *    inner rays is still compositing (__syncthreads_or, the shared flag).
 *  - Along the ray, the previous and next samples of a slab's first and last
 *    slices come from the two slices kept from the previous slab and one
 *    slice fetched ahead: slab s holds slices base - 1 .. base + depth.
 *
 * Every inner ray composites exactly its own lattice samples (from its first
 * to its last index, until its own early termination), so the image differs
 * from the other strategies' only through the gradients.
 *
 * This header holds the kernel and its launch, for each sampler; slab.cu
 * builds them for the texture (the default layout), slab_global.cu for the
 * global-memory layouts. Two modules, because CUDA loads a module whole when
 * its first kernel is launched: all samplers in one made tens of
 * milliseconds of loading (doc/tuning.md, kernel loading) where the
 * texture's alone load in about 2 ms. */
#ifndef CVR_SLAB_KERNEL_CUH
#define CVR_SLAB_KERNEL_CUH

#include <climits>
#include <type_traits>

#include "ray_march.cuh"

/* 1024 threads need at most 64 registers per thread; the shaded kernel
 * needs fewer, so the bound costs nothing. */
#ifndef CVR_SLAB_MAX_THREADS
#  define CVR_SLAB_MAX_THREADS 1024
#endif


/* Border rays of a GATHERED block of w x h threads, one per thread at most
 * (cvr_validate_settings). */
__host__ __device__ __forceinline__ int cvr_slab_gathered_rays(int w, int h) {
  return 2 * (w + 2) + 2 * h;
}

/* A block's cache: `columns` rays (its threads, or its tile and the ring of
 * border rays around it) of the slab's depth + 2 slices. */
struct cvr_slab_shape {
  int threads, columns, border_rays; /* border rays fetched by the threads */
};

static cvr_slab_shape slab_shape(const cvr_render_settings *s) {
  const int w = s->slab_block[0], h = s->slab_block[1];
  if (s->slab_border == CVR_SLAB_BORDER_GATHERED)
    return {w * h, (w + 2) * (h + 2), cvr_slab_gathered_rays(w, h)};
  return {w * h, w * h, 0};
}

/* Shared memory of a block: the transfer function's `copies` replicas, the
 * cache of (depth + 2) slices of one float per column, with gradients each
 * column's phase (cvr_ray_clip) and each thread's gradient basis (nine
 * floats and two phase terms), and GATHERED, each border ray's line (six
 * floats): in registers they would spill under the 1024-thread bound. */
#define CVR_SLAB_BASIS_FLOATS 11
static size_t slab_shared_bytes(cvr_slab_shape b, int depth, int tf_size, int copies,
                                bool gradient) {
  return (size_t)tf_size * copies * sizeof(uint4) +
         ((size_t)(depth + 2) * b.columns +
          (gradient ? (size_t)b.columns + (size_t)CVR_SLAB_BASIS_FLOATS * b.threads : 0) +
          (size_t)6 * b.border_rays) * sizeof(float);
}

/* Samples of the next slab fetched into registers before the current slab
 * is composited, so their latency hides behind its shading; the rest of a
 * slab is fetched at once, all in flight. More would spill under the
 * 1024-thread bound. */
#define CVR_SLAB_PREFETCH 8

/* The cache column of the GATHERED block's border ray number i (0 .. 2 (bw +
 * 2) + 2 bh - 1) in a (bw + 2) x (bh + 2) grid of columns: the top row, the
 * bottom row, then the left and right ends of the rows between. */
__device__ __forceinline__ void cvr_slab_border_column(int i, int bw, int bh, int *cx, int *cy) {
  const int cw = bw + 2;
  if (i < 2 * cw) {
    *cx = i % cw;
    *cy = i < cw ? 0 : bh + 1;
  } else {
    i -= 2 * cw;
    *cx = (i & 1) ? cw - 1 : 0;
    *cy = 1 + (i >> 1);
  }
}

/* A border ray's line as cvr_fetch needs it, from shared memory. */
__device__ __forceinline__ cvr_ray cvr_slab_border_line(const float *line, int stride) {
  cvr_ray r = {};
#pragma unroll
  for (int a = 0; a < 3; ++a) {
    r.origin[a] = line[a * stride];
    r.step[a] = line[(a + 3) * stride];
  }
  return r;
}

/* Empty-space skipping: this ray's first samples from index k on that lie in
 * a cell that is not empty, [*from, *to] (INT_MAX for both: none). */
__device__ __forceinline__ void cvr_slab_next_visible(const cvr_ray_params &p, const cvr_ray &ray,
                                                      int k, int *from, int *to) {
  while (k <= ray.k_last) {
    int cell[3];
    const float t = (float)k + p.lattice_offset;
    const bool empty = cvr_skip_empty_at(&p, &ray, t, cell);
    const int n = cvr_skip_cell_samples(&p, &ray, t, cell, ray.k_last - k);
    if (!empty) {
      *from = k;
      *to = k + n - 1;
      return;
    }
    k += n;
  }
  *from = *to = INT_MAX;
}

/* The ray's own samples among indices [a, b]. */
__device__ __forceinline__ unsigned cvr_slab_own(const cvr_ray &ray, int a, int b) {
  a = a > ray.k_first ? a : ray.k_first;
  b = b < ray.k_last ? b : ray.k_last;
  return b >= a ? (unsigned)(b - a + 1) : 0u;
}

template <bool GRADIENT, int DEPTH, bool GATHERED, typename Sampler>
__global__ void __launch_bounds__(CVR_SLAB_MAX_THREADS)
    cvr_slab_kernel(const cvr_cuda_launch l, int one_sided) {
  extern __shared__ uint4 shared_table[];
  cvr_load_table(shared_table, l.table, l.ray.tf_size, l.table_copies);
  const uint4 *table = cvr_table_copy(shared_table, l.table_copies);
  float *cache = (float *)(shared_table + l.ray.tf_size * l.table_copies);
  __shared__ int k_range[2];

  /* The cache is a cw x ch grid of columns, one per ray, the ring of border
   * rays around a tile of (cw - 2) x (ch - 2) pixels. RING: a thread per
   * column. GATHERED: a thread per pixel, the first 2 cw + 2 (ch - 2)
   * threads also fetching a border ray each. */
  const int bw = blockDim.x, bh = blockDim.y, threads = bw * bh;
  const int cw = GATHERED ? bw + 2 : bw, ch = GATHERED ? bh + 2 : bh, columns = cw * ch;
  const int tx = threadIdx.x, ty = threadIdx.y, me = ty * bw + tx;
  const int cx = GATHERED ? tx + 1 : tx, cy = GATHERED ? ty + 1 : ty; /* this thread's ray */
  const int x0 = blockIdx.x * (cw - 2) - 1, y0 = blockIdx.y * (ch - 2) - 1; /* column (0, 0) */
  const int px = x0 + cx, py = y0 + cy;
  const bool inner = cx > 0 && cx < cw - 1 && cy > 0 && cy < ch - 1 && px < l.ray.width &&
                     py < l.ray.height;
  const cvr_ray_params &p = l.ray;

  /* every thread's line (border rays' too) at its phase (cvr_ray_clip);
   * inner rays keep their samples */
  cvr_ray ray = {}; /* a degenerate line fetches at the origin, never composited */
  float t0 = 0.0f, t1 = 0.0f, phase = 0.0f;
  const float opaque = inner && l.opaque_depth ? l.opaque_depth[(size_t)py * p.width + px] : 1.0f;
  const bool line = cvr_ray_line(&p, px, py, opaque, &ray, &t0, &t1);
  const bool hit = line && cvr_ray_clip(&p, &ray, t0, t1, cvr_ray_lead(&p, px, py), &phase) && inner;
  /* with gradients, each column's phase for its neighbours' */
  float *column_phase = cache + (DEPTH + 2) * columns;
  if (GRADIENT) column_phase[cy * cw + cx] = phase;
  cvr_ray_to_texel(&ray);
  cvr_ray_to_storage(l.volume, &ray);
  /* GATHERED: the border ray this thread fetches besides its own, if any;
   * its line waits in shared memory (border_line[a * border_rays + me],
   * origin then step) while this thread shades */
  const int border_rays = GATHERED ? cvr_slab_gathered_rays(bw, bh) : 0;
  const bool fetches_border = GATHERED && me < border_rays;
  float *border_line =
      cache + (DEPTH + 2) * columns + (GRADIENT ? columns + CVR_SLAB_BASIS_FLOATS * threads : 0) + me;
  int border_column = 0;
  if (fetches_border) {
    int bx, by;
    cvr_slab_border_column(me, bw, bh, &bx, &by);
    border_column = by * cw + bx;
    cvr_ray border = {};
    float u0, u1;
    float border_phase = 0.0f;
    if (cvr_ray_line(&p, x0 + bx, y0 + by, 1.0f, &border, &u0, &u1))
      cvr_ray_clip(&p, &border, u0, u1, cvr_ray_lead(&p, x0 + bx, y0 + by), &border_phase);
    if (GRADIENT) column_phase[border_column] = border_phase;
    cvr_ray_to_texel(&border);
    cvr_ray_to_storage(l.volume, &border);
#pragma unroll
    for (int a = 0; a < 3; ++a) {
      border_line[a * border_rays] = border.origin[a];
      border_line[(a + 3) * border_rays] = border.step[a];
    }
  }

  if (me == 0) {
    k_range[0] = INT_MAX;
    k_range[1] = INT_MIN;
  }
  __syncthreads();
  if (hit) {
    atomicMin(&k_range[0], ray.k_first);
    atomicMax(&k_range[1], ray.k_last);
  }
  __syncthreads();
  const int k_first = k_range[0], k_last = k_range[1];

  cvr_rgba acc = {0.0f, 0.0f, 0.0f, 0.0f};
  float t_hit = -1.0f;
  unsigned samples = 0, skipped = 0;
  if (k_first <= k_last) { /* uniform: some inner ray of the block hits */
    /* column c, axis a: basis[(3c + a) * threads]; then the phase terms
     * across and up, basis[9 * threads] and basis[10 * threads] */
    float *basis = cache + (DEPTH + 3) * columns + me;
    if (GRADIENT && hit) { /* the neighbours' lines, computed as their own threads do */
      const int dx[4] = {-1, 1, 0, 0}, dy[4] = {0, 0, -1, 1};
      /* the phase differences across and up, from the neighbours' columns
       * (the test hook's one-sided differences take this ray's own sample) */
      const float *ph = column_phase + cy * cw + cx;
      const float phase_u = (one_sided && cx == cw - 2 ? phase : ph[1]) - (one_sided && cx == 1 ? phase : ph[-1]);
      const float phase_v = (one_sided && cy == ch - 2 ? phase : ph[cw]) - (one_sided && cy == 1 ? phase : ph[-cw]);
      basis[9 * threads] = phase_u;
      basis[10 * threads] = phase_v;
      cvr_ray n[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        float u0, u1;
        cvr_ray_line(&p, px + dx[i], py + dy[i], 1.0f, &n[i], &u0, &u1);
        cvr_ray_to_texel(&n[i]);
        cvr_ray_to_storage(l.volume, &n[i]);
      }
      cvr_eye_basis b;
      cvr_eye_basis_for(p.perspective, &ray, &n[0], &n[1], &n[2], &n[3], &b);
#pragma unroll
      for (int i = 0; i < 9; ++i) basis[i * threads] = b.column[i / 3][i % 3];
    }
    const Sampler volume(l.volume);
    float *column = cache + cy * cw + cx; /* slice s of this ray: column[s * columns] */
    float *border_slices = cache + border_column;
    const float offset = p.lattice_offset;
    constexpr int prefetch = GRADIENT ? CVR_SLAB_PREFETCH / 2 : CVR_SLAB_PREFETCH; /* shading's registers */
    constexpr int AHEAD = DEPTH < prefetch ? DEPTH : prefetch;
    float ahead[AHEAD];
    /* a slab starting at index base needs slices base - 1 and base in slots
     * 0 and 1 and the first of the rest prefetched: at the block's first
     * slab, and again after empty-space skipping jumps */
    auto start_at = [&](int base) {
      column[0] = cvr_fetch(ray, volume, (float)(base - 1) + offset);
      column[columns] = cvr_fetch(ray, volume, (float)base + offset);
      if (fetches_border) {
        const cvr_ray border = cvr_slab_border_line(border_line, border_rays);
        border_slices[0] = cvr_fetch(border, volume, (float)(base - 1) + offset);
        border_slices[columns] = cvr_fetch(border, volume, (float)base + offset);
      }
#pragma unroll
      for (int j = 0; j < AHEAD; ++j) ahead[j] = cvr_fetch(ray, volume, (float)(base + 1 + j) + offset);
    };
    start_at(k_first);
    bool done = !hit;
    int visible_from = 0, visible_to = INT_MIN; /* empty-space skipping: not yet looked */
    for (int base = k_first;; base += DEPTH) {
      if (p.skip_empty) {
        /* empty-space skipping: where no ray of the block has a sample of
         * its own in a cell that is not empty, the block jumps to the first
         * slab where one has, and fetches its cache anew */
        if (!done && visible_to < base)
          cvr_slab_next_visible(p, ray, base > ray.k_first ? base : ray.k_first, &visible_from,
                                &visible_to);
        if (!__syncthreads_or(!done && visible_from <= base + DEPTH - 1)) {
          if (me == 0) k_range[0] = INT_MAX;
          __syncthreads();
          if (!done && visible_from != INT_MAX) atomicMin(&k_range[0], visible_from);
          __syncthreads();
          const int target = k_range[0];
          __syncthreads(); /* read by all before thread 0 writes it again */
          const int next = target == INT_MAX ? INT_MAX : base + DEPTH * ((target - base) / DEPTH);
          if (!done) skipped += cvr_slab_own(ray, base, next == INT_MAX ? ray.k_last : next - 1);
          if (next == INT_MAX) break; /* uniform: nothing visible is left */
          base = next;
          start_at(base);
        }
      }
      /* fill slices base + 1 .. base + DEPTH into slots 2 .. DEPTH + 1: the
       * prefetched ones, then the rest, all in flight together */
#pragma unroll
      for (int j = 0; j < DEPTH; ++j)
        column[(j + 2) * columns] =
            j < AHEAD ? ahead[j] : cvr_fetch(ray, volume, (float)(base + 1 + j) + offset);
      if (fetches_border) {
        const cvr_ray border = cvr_slab_border_line(border_line, border_rays);
#pragma unroll
        for (int j = 0; j < DEPTH; ++j)
          border_slices[(j + 2) * columns] = cvr_fetch(border, volume, (float)(base + 1 + j) + offset);
      }
      __syncthreads();
      /* the next slab's first samples (wasted if the block stops) */
#pragma unroll
      for (int j = 0; j < AHEAD; ++j)
        ahead[j] = cvr_fetch(ray, volume, (float)(base + DEPTH + 1 + j) + offset);
      /* composite this ray's samples base .. base + DEPTH - 1 (slots 1 .. DEPTH) */
      for (int j = 0; j < DEPTH && !done; ++j) {
        const int k = base + j;
        if (k < ray.k_first) continue;
        if (k > ray.k_last) {
          done = true;
          break;
        }
        const float t = (float)k + offset;
        const float *c = column + (j + 1) * columns;
        ++samples;
        if (cvr_ray_cropped(&p, &ray, t)) continue; /* transparent */
        cvr_rgba s = cvr_classify_packed(table, l.table_copies, p, c[0]);
        const int label = cvr_ray_label(&p, &ray, t);
        const cvr_rgba mixed = cvr_classify_label(&p, label, c[0], s);
        if (!GRADIENT || mixed.a <= 0.0f) {
          s = mixed;
        } else {
          float left = c[-1], right = c[1], below = c[-cw], above = c[cw];
          float h_u = 0.5f, h_v = 0.5f;
          if (one_sided) { /* test hook: what ignoring the border rays does */
            if (cx == 1) left = c[0], h_u = 1.0f;
            if (cx == cw - 2) right = c[0], h_u = 1.0f;
            if (cy == 1) below = c[0], h_v = 1.0f;
            if (cy == ch - 2) above = c[0], h_v = 1.0f;
          }
          cvr_eye_basis b;
#pragma unroll
          for (int i = 0; i < 9; ++i) b.column[i / 3][i % 3] = basis[i * threads];
          /* the neighbours' samples lie their phases apart along the ray:
           * the along-ray difference takes that part out */
          const float d_t = 0.5f * (c[columns] - c[-columns]);
          const float d_u = h_u * (right - left - basis[9 * threads] * d_t);
          const float d_v = h_v * (above - below - basis[10 * threads] * d_t);
          float gradient[3];
          cvr_eye_gradient(&b, p.perspective, t, d_u, d_v, d_t, gradient);
          s = cvr_apply_gradient(&p, &ray, t, gradient, c[0], label, s, nullptr);
        }
        if (s.a > 0.0f && t_hit < 0.0f) t_hit = t;
        cvr_composite(&acc, s);
        done = cvr_ray_done(&p, &acc);
      }
      if (!__syncthreads_or(!done && base + DEPTH <= ray.k_last)) break;
      /* keep the last two slices as the next slab's previous ones */
      column[0] = column[DEPTH * columns];
      column[columns] = column[(DEPTH + 1) * columns];
      if (fetches_border) {
        border_slices[0] = border_slices[DEPTH * columns];
        border_slices[columns] = border_slices[(DEPTH + 1) * columns];
      }
    }
  }
  if (inner) cvr_write_pixel(l, px, py, acc, t_hit >= 0.0f ? cvr_ray_depth(&p, &ray, t_hit) : 1.0f);
  cvr_count(l.counters, hit ? 1u : 0u, samples, hit ? cvr_lattice_samples(ray) : 0u, skipped);
}


template <bool GRADIENT, int DEPTH, bool GATHERED, typename Sampler>
static cudaError_t launch(cvr_cuda_launch l, const cvr_render_settings *s, int one_sided,
                          cudaStream_t stream) {
  const dim3 block((unsigned)s->slab_block[0], (unsigned)s->slab_block[1]);
  const cvr_slab_shape shape = slab_shape(s);
  const size_t cache = slab_shared_bytes(shape, s->slab_depth, 0, 0, GRADIENT);
  auto kernel = cvr_slab_kernel<GRADIENT, DEPTH, GATHERED, Sampler>;
  /* the replicas may not cost resident blocks (cvr_table_copies) */
  int device = 0, optin = 0;
  cudaFuncAttributes attributes;
  cudaError_t e = cudaGetDevice(&device);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  if (e == cudaSuccess) e = cudaFuncGetAttributes(&attributes, kernel);
  if (e != cudaSuccess) return e;
  optin -= (int)attributes.sharedSizeBytes; /* what dynamic shared memory may take */
  if ((e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, optin)) != cudaSuccess)
    return e;
  l.table_copies = cvr_table_copies(kernel, shape.threads, l.ray.tf_size, cache);
  while (l.table_copies > 1 &&
         slab_shared_bytes(shape, s->slab_depth, l.ray.tf_size, l.table_copies, GRADIENT) > (size_t)optin)
    l.table_copies /= 2;
  const int tile_w = GATHERED ? (int)block.x : (int)block.x - 2;
  const int tile_h = GATHERED ? (int)block.y : (int)block.y - 2;
  const dim3 grid((l.ray.width + tile_w - 1) / tile_w, (l.ray.height + tile_h - 1) / tile_h);
  kernel<<<grid, block, slab_shared_bytes(shape, s->slab_depth, l.ray.tf_size, l.table_copies, GRADIENT),
           stream>>>(l, one_sided);
  return cudaGetLastError();
}

template <bool GRADIENT, bool GATHERED, typename Sampler>
static cudaError_t launch_depth(const cvr_cuda_launch &l, const cvr_render_settings *s,
                                int one_sided, cudaStream_t stream) {
  switch (s->slab_depth) { /* CVR_SLAB_DEPTHS */
  case 4: return launch<GRADIENT, 4, GATHERED, Sampler>(l, s, one_sided, stream);
  case 8: return launch<GRADIENT, 8, GATHERED, Sampler>(l, s, one_sided, stream);
  case 16: return launch<GRADIENT, 16, GATHERED, Sampler>(l, s, one_sided, stream);
  case 32: return launch<GRADIENT, 32, GATHERED, Sampler>(l, s, one_sided, stream);
  default: return cudaErrorInvalidValue;
  }
}

/* A frame of the slab strategy with sampler S. */
template <typename S>
static cudaError_t cvr_slab_launch(const cvr_cuda_launch *l, const cvr_render_settings *s,
                                   int one_sided, cudaStream_t stream) {
  const bool shaded = cvr_needs_gradient(&l->ray); /* shading or gradient opacity */
  const bool gathered = s->slab_border == CVR_SLAB_BORDER_GATHERED;
  if (shaded)
    return gathered ? launch_depth<true, true, S>(*l, s, one_sided, stream)
                    : launch_depth<true, false, S>(*l, s, one_sided, stream);
  return gathered ? launch_depth<false, true, S>(*l, s, one_sided, stream)
                  : launch_depth<false, false, S>(*l, s, one_sided, stream);
}

/* The instance cvr_slab_launch launches for a depth, border and shading. */
template <typename S>
static cudaError_t cvr_slab_load(int depth, bool gathered, bool gradient) {
  const auto pick = [&](auto g, auto b) -> const void * {
    constexpr bool G = decltype(g)::value, B = decltype(b)::value;
    switch (depth) { /* CVR_SLAB_DEPTHS */
    case 4: return (const void *)cvr_slab_kernel<G, 4, B, S>;
    case 8: return (const void *)cvr_slab_kernel<G, 8, B, S>;
    case 16: return (const void *)cvr_slab_kernel<G, 16, B, S>;
    case 32: return (const void *)cvr_slab_kernel<G, 32, B, S>;
    default: return nullptr;
    }
  };
  typedef std::true_type T;
  typedef std::false_type F;
  const void *kernel = gradient ? (gathered ? pick(T(), T()) : pick(T(), F()))
                                : (gathered ? pick(F(), T()) : pick(F(), F()));
  return kernel ? cvr_cuda_load({kernel}) : cudaErrorInvalidValue;
}

/* What the driver says of sampler S's largest shaded instances. */
template <typename S>
static int cvr_slab_instances_max_threads(void) {
  const void *kernels[] = {(const void *)cvr_slab_kernel<true, 32, false, S>,
                           (const void *)cvr_slab_kernel<true, 32, true, S>};
  int limit = CVR_SLAB_MAX_THREADS;
  for (const void *k : kernels)
    if (!cvr_lower_thread_limit(k, &limit)) return 0;
  return limit;
}

#endif
