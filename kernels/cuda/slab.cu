/* The slab strategy (Mensmann, Ropinski and Hinrichs, GRAPP 2010, section
 * 5): a thread block is a tile of rays; they advance together through slabs
 * of `depth` samples whose values are cached in shared memory, so that
 * shading takes its gradients from the cache (the neighbouring rays' samples
 * at the same lattice index and the ray's own previous and next samples)
 * instead of from six more volume fetches per sample.
 *
 *  - Start-point alignment: the lattice puts sample k of every ray at the same
 *    distance from the eye (the near plane for parallel projection), so the
 *    rays of a block start together at the block's smallest first index and
 *    the cache's slice k holds every ray's sample k.
 *  - Border rays: the outer ring of the block's threads casts the rays
 *    around the tile; they only fill the cache, so gradients at the tile's
 *    edge see real neighbours (no grid pattern). Tiles overlap by two rays.
 *  - Slab-level early ray termination: the block stops when none of its
 *    inner rays is still compositing (__syncthreads_or, the shared flag).
 *  - Along the ray, the previous and next samples of a slab's first and last
 *    slices come from the two slices kept from the previous slab and one
 *    slice fetched ahead: slab s holds slices base - 1 .. base + depth.
 *
 * Shading is spread over the whole block (beyond the paper): a slab is
 * classified and shaded in chunks of samples, one (ray, slice) pair per
 * thread and border threads included, into a shared buffer that each inner
 * ray then composites in order. Shading is most of a shaded slab's cost, and
 * ray by ray only the inner rays' threads would do it (84 of 128 in a 16 x 8
 * block).
 *
 * Every inner ray composites exactly its own lattice samples (from its first
 * to its last index, until its own early termination), so the image differs
 * from the other strategies' only through the gradients. */
#include <climits>

#include "ray_march.cuh"

/* 1024 threads need at most 64 registers per thread; measured on an H100 the
 * shaded kernel needs fewer, so the bound costs nothing. */
#ifndef CVR_SLAB_MAX_THREADS
#  define CVR_SLAB_MAX_THREADS 1024
#endif


/* Slices of a slab shaded together before they are composited: the shaded
 * samples' buffer holds this many per inner ray. */
#define CVR_SLAB_CHUNK 8
static constexpr int slab_chunk(int depth) { return depth < CVR_SLAB_CHUNK ? depth : CVR_SLAB_CHUNK; }

/* Per-ray words of shared memory besides the cache: the gradient basis (nine
 * floats; in registers it would spill under the 1024-thread bound), the world
 * origin and step that shading needs, and the samples still to composite. */
#define CVR_SLAB_RAY_WORDS (9 + 6 + 2)

/* Shared memory of a block: the transfer function's `copies` replicas, the
 * shaded samples of a chunk (shaded only), the cache of (depth + 2) slices
 * of one float per ray, and the per-ray words (shaded only). */
static size_t slab_shared_bytes(int bw, int bh, int depth, bool shaded, int tf_size, int copies) {
  const size_t rays = (size_t)bw * bh, inner = (size_t)(bw - 2) * (bh - 2);
  return (size_t)tf_size * copies * sizeof(uint4) +
         (shaded ? inner * slab_chunk(depth) * sizeof(float4) : 0) +
         (size_t)(depth + 2 + (shaded ? CVR_SLAB_RAY_WORDS : 0)) * rays * sizeof(float);
}

/* Samples of the next slab fetched into registers before the current slab
 * is composited, so their latency hides behind its shading; the rest of a
 * slab is fetched at once, all in flight. More would spill under the
 * 1024-thread bound. */
#define CVR_SLAB_PREFETCH 8

/* Shades the slab's slices first .. first + CHUNK - 1 into `shaded`, one
 * (inner ray, slice) pair per thread: slice j of inner ray r (row-major over
 * the tile) goes to shaded[j * inner + r]. Rays outside their sample window
 * (not started, finished, or terminated) are skipped. */
template <int CHUNK>
__device__ __forceinline__ void cvr_slab_shade_chunk(const cvr_ray_params &p, const uint4 *table,
                                                     int copies, const float *cache,
                                                     const float *words, int base, int first,
                                                     int one_sided, float4 *shaded) {
  const int bw = blockDim.x, bh = blockDim.y, rays = bw * bh, me = threadIdx.y * bw + threadIdx.x;
  const int iw = bw - 2, inner = iw * (bh - 2);
  const float inv_inner = 1.0f / (float)inner, inv_iw = 1.0f / (float)iw;
  for (int i = me; i < CHUNK * inner; i += rays) {
    /* i < 2^15, so the float quotients are exact after truncation */
    const int j = (int)(((float)i + 0.5f) * inv_inner), r = i - j * inner;
    const int ry = (int)(((float)r + 0.5f) * inv_iw), rx = r - ry * iw;
    const int col = (ry + 1) * bw + rx + 1, slice = first + j;
    const int k = base + slice;
    if (k < __float_as_int(words[15 * rays + col]) || k > __float_as_int(words[16 * rays + col]))
      continue;
    const float t = (float)k + p.lattice_offset;
    const float *c = cache + (slice + 1) * rays + col;
    cvr_rgba s = cvr_classify_packed(table, copies, p, c[0]);
    if (s.a > 0.0f) {
      float left = c[-1], right = c[1], below = c[-bw], above = c[bw];
      float h_u = 0.5f, h_v = 0.5f;
      if (one_sided) { /* test hook: what ignoring the border rays does */
        if (rx == 0) left = c[0], h_u = 1.0f;
        if (rx == iw - 1) right = c[0], h_u = 1.0f;
        if (ry == 0) below = c[0], h_v = 1.0f;
        if (ry == bh - 3) above = c[0], h_v = 1.0f;
      }
      cvr_eye_basis b;
#pragma unroll
      for (int w = 0; w < 9; ++w) b.column[w / 3][w % 3] = words[w * rays + col];
      cvr_ray ray; /* what shading reads of the ray */
#pragma unroll
      for (int a = 0; a < 3; ++a) {
        ray.world_origin[a] = words[(9 + a) * rays + col];
        ray.world_step[a] = words[(12 + a) * rays + col];
      }
      float gradient[3];
      cvr_eye_gradient(&b, p.perspective, t, h_u * (right - left), h_v * (above - below),
                       0.5f * (c[rays] - c[-rays]), gradient);
      s = cvr_shade(&p.shading, &ray, t, gradient, s);
    }
    shaded[j * inner + r] = make_float4(s.r, s.g, s.b, s.a);
  }
}

template <bool SHADED, int DEPTH, typename Sampler>
__global__ void __launch_bounds__(CVR_SLAB_MAX_THREADS)
    cvr_slab_kernel(const cvr_cuda_launch l, int one_sided) {
  constexpr int CHUNK = slab_chunk(DEPTH);
  extern __shared__ uint4 shared_table[];
  cvr_load_table(shared_table, l.table, l.ray.tf_size, l.table_copies);
  const uint4 *table = cvr_table_copy(shared_table, l.table_copies);
  const int bw = blockDim.x, bh = blockDim.y, rays = bw * bh, inner_rays = (bw - 2) * (bh - 2);
  float4 *shaded = (float4 *)(shared_table + l.ray.tf_size * l.table_copies);
  float *cache = (float *)(shaded + (SHADED ? inner_rays * CHUNK : 0));
  /* per-ray words (shaded): basis 0..8, world origin 9..11, world step
   * 12..14, sample window 15..16 (ints); word w of column c: words[w * rays + c] */
  float *words = cache + (DEPTH + 2) * rays;
  __shared__ int k_range[2];

  const int tx = threadIdx.x, ty = threadIdx.y, me = ty * bw + tx;
  const int px = blockIdx.x * (bw - 2) + tx - 1, py = blockIdx.y * (bh - 2) + ty - 1;
  const bool inner = tx > 0 && tx < bw - 1 && ty > 0 && ty < bh - 1 && px < l.ray.width &&
                     py < l.ray.height;
  const cvr_ray_params &p = l.ray;

  /* every thread's line (border rays' too); inner rays also clip it */
  cvr_ray ray = {}; /* a degenerate line fetches at the origin, never composited */
  float t0 = 0.0f, t1 = 0.0f;
  const float opaque = inner && l.opaque_depth ? l.opaque_depth[(size_t)py * p.width + px] : 1.0f;
  const bool line = cvr_ray_line(&p, px, py, opaque, &ray, &t0, &t1);
  const bool hit = inner && line && cvr_ray_clip(&p, &ray, t0, t1);
  cvr_ray_to_texel(&ray);
  cvr_ray_to_storage(l.volume, &ray);

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
  unsigned samples = 0;
  if (k_first <= k_last) { /* uniform: some inner ray of the block hits */
    if (SHADED) {
      words[15 * rays + me] = __int_as_float(hit ? ray.k_first : INT_MAX);
      words[16 * rays + me] = __int_as_float(hit ? ray.k_last : INT_MIN);
    }
    if (SHADED && hit) { /* the neighbours' lines, computed as their own threads do */
      cvr_ray n[4];
      const int dx[4] = {-1, 1, 0, 0}, dy[4] = {0, 0, -1, 1};
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
      for (int i = 0; i < 9; ++i) words[i * rays + me] = b.column[i / 3][i % 3];
#pragma unroll
      for (int a = 0; a < 3; ++a) {
        words[(9 + a) * rays + me] = ray.world_origin[a];
        words[(12 + a) * rays + me] = ray.world_step[a];
      }
    }
    const Sampler volume(l.volume);
    float *column = cache + me; /* slice s of this ray: column[s * rays] */
    const int mine = (ty - 1) * (bw - 2) + tx - 1; /* this inner ray's place in `shaded` */
    const float offset = p.lattice_offset;
    constexpr int prefetch = SHADED ? CVR_SLAB_PREFETCH / 2 : CVR_SLAB_PREFETCH; /* shading's registers */
    constexpr int AHEAD = DEPTH < prefetch ? DEPTH : prefetch;
    float ahead[AHEAD];
    column[0] = cvr_fetch(ray, volume, (float)(k_first - 1) + offset);
    column[rays] = cvr_fetch(ray, volume, (float)k_first + offset);
#pragma unroll
    for (int j = 0; j < AHEAD; ++j) ahead[j] = cvr_fetch(ray, volume, (float)(k_first + 1 + j) + offset);
    bool done = !hit;
    for (int base = k_first;; base += DEPTH) {
      /* fill slices base + 1 .. base + DEPTH into slots 2 .. DEPTH + 1: the
       * prefetched ones, then the rest, all in flight together */
#pragma unroll
      for (int j = 0; j < DEPTH; ++j)
        column[(j + 2) * rays] =
            j < AHEAD ? ahead[j] : cvr_fetch(ray, volume, (float)(base + 1 + j) + offset);
      __syncthreads();
      /* the next slab's first samples (wasted if the block stops) */
#pragma unroll
      for (int j = 0; j < AHEAD; ++j)
        ahead[j] = cvr_fetch(ray, volume, (float)(base + DEPTH + 1 + j) + offset);
      /* composite this ray's samples base .. base + DEPTH - 1 (slots 1 .. DEPTH),
       * shaded a chunk at a time by the whole block */
#pragma unroll 1
      for (int first = 0; first < DEPTH; first += CHUNK) {
        if (SHADED) {
          if (first) __syncthreads(); /* the previous chunk is composited */
          cvr_slab_shade_chunk<CHUNK>(p, table, l.table_copies, cache, words, base, first,
                                      one_sided, shaded);
          __syncthreads();
        }
        for (int j = first; j < first + CHUNK && !done; ++j) {
          const int k = base + j;
          if (k < ray.k_first) continue;
          if (k > ray.k_last) {
            done = true;
            break;
          }
          const float t = (float)k + offset;
          cvr_rgba s;
          if (SHADED) {
            const float4 v = shaded[(j - first) * inner_rays + mine];
            s = {v.x, v.y, v.z, v.w};
          } else {
            s = cvr_classify_packed(table, l.table_copies, p, column[(j + 1) * rays]);
          }
          ++samples;
          if (s.a > 0.0f && t_hit < 0.0f) t_hit = t;
          cvr_composite(&acc, s);
          done = cvr_ray_done(&p, &acc);
        }
        if (SHADED && done && hit) words[16 * rays + me] = __int_as_float(INT_MIN); /* no more */
      }
      if (!__syncthreads_or(!done && base + DEPTH <= ray.k_last)) break;
      /* keep the last two slices as the next slab's previous ones */
      column[0] = column[DEPTH * rays];
      column[rays] = column[(DEPTH + 1) * rays];
    }
  }
  if (inner) cvr_write_pixel(l, px, py, acc, t_hit >= 0.0f ? cvr_ray_depth(&p, &ray, t_hit) : 1.0f);
  cvr_count(l.counters, hit ? 1u : 0u, samples);
}

int cvr_cuda_slab_max_threads(void) {
  int limit = CVR_SLAB_MAX_THREADS;
  cudaFuncAttributes a;
  if (cudaFuncGetAttributes(&a, cvr_slab_kernel<true, 32, cvr_texture_sampler>) != cudaSuccess)
    return 0;
  if (a.maxThreadsPerBlock < limit) limit = a.maxThreadsPerBlock;
  if (cudaFuncGetAttributes(&a, cvr_slab_kernel<true, 32, cvr_global_sampler<float>>) != cudaSuccess)
    return 0;
  return a.maxThreadsPerBlock < limit ? a.maxThreadsPerBlock : limit;
}

size_t cvr_cuda_slab_shared_bytes(int bw, int bh, int depth, int shaded) { /* with the static k_range */
  return slab_shared_bytes(bw, bh, depth, shaded != 0, CVR_TRANSFER_FUNCTION_TABLE_SIZE, 1) +
         2 * sizeof(int);
}

template <bool SHADED, int DEPTH, typename Sampler>
static cudaError_t launch(cvr_cuda_launch l, const cvr_render_settings *s, int one_sided,
                          cudaStream_t stream) {
  const dim3 block((unsigned)s->slab_block[0], (unsigned)s->slab_block[1]);
  const int bw = s->slab_block[0], bh = s->slab_block[1], rays = bw * bh;
  const size_t cache = slab_shared_bytes(bw, bh, s->slab_depth, SHADED, 0, 0);
  auto kernel = cvr_slab_kernel<SHADED, DEPTH, Sampler>;
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
  l.table_copies = cvr_table_copies(kernel, rays, l.ray.tf_size, cache);
  while (l.table_copies > 1 &&
         slab_shared_bytes(bw, bh, s->slab_depth, SHADED, l.ray.tf_size, l.table_copies) > (size_t)optin)
    l.table_copies /= 2;
  const dim3 grid((l.ray.width + block.x - 3) / (block.x - 2),
                  (l.ray.height + block.y - 3) / (block.y - 2));
  kernel<<<grid, block, slab_shared_bytes(bw, bh, s->slab_depth, SHADED, l.ray.tf_size, l.table_copies),
           stream>>>(l, one_sided);
  return cudaGetLastError();
}

cudaError_t cvr_cuda_launch_slab(const cvr_cuda_launch *l, cvr_memory_layout layout,
                                 cvr_scalar_type stored_type, const cvr_render_settings *s,
                                 int one_sided, cudaStream_t stream) {
  return cvr_with_sampler(layout, stored_type, [&](auto tag) -> cudaError_t {
    typedef typename decltype(tag)::type S;
    const bool shaded = l->ray.shading.enabled;
    switch (s->slab_depth) { /* CVR_SLAB_DEPTHS */
    case 4: return shaded ? launch<true, 4, S>(*l, s, one_sided, stream) : launch<false, 4, S>(*l, s, one_sided, stream);
    case 8: return shaded ? launch<true, 8, S>(*l, s, one_sided, stream) : launch<false, 8, S>(*l, s, one_sided, stream);
    case 16: return shaded ? launch<true, 16, S>(*l, s, one_sided, stream) : launch<false, 16, S>(*l, s, one_sided, stream);
    case 32: return shaded ? launch<true, 32, S>(*l, s, one_sided, stream) : launch<false, 32, S>(*l, s, one_sided, stream);
    default: return cudaErrorInvalidValue;
    }
  });
}
