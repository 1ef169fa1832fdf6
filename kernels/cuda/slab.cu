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


/* Shared memory of a block: the transfer function's `copies` replicas, the
 * cache of (depth + 2) slices of one float per ray, and each ray's gradient
 * basis (nine floats; in registers it would spill under the 1024-thread
 * bound). */
static size_t slab_shared_bytes(int rays, int depth, int tf_size, int copies) {
  return (size_t)tf_size * copies * sizeof(uint4) + (size_t)(depth + 2 + 9) * rays * sizeof(float);
}

/* Samples of the next slab fetched into registers before the current slab
 * is composited, so their latency hides behind its shading; the rest of a
 * slab is fetched at once, all in flight. More would spill under the
 * 1024-thread bound. */
#define CVR_SLAB_PREFETCH 8

template <bool GRADIENT, int DEPTH, typename Sampler>
__global__ void __launch_bounds__(CVR_SLAB_MAX_THREADS)
    cvr_slab_kernel(const cvr_cuda_launch l, int one_sided) {
  extern __shared__ uint4 shared_table[];
  cvr_load_table(shared_table, l.table, l.ray.tf_size, l.table_copies);
  const uint4 *table = cvr_table_copy(shared_table, l.table_copies);
  float *cache = (float *)(shared_table + l.ray.tf_size * l.table_copies);
  __shared__ int k_range[2];

  const int bw = blockDim.x, bh = blockDim.y, rays = bw * bh;
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
    float *basis = cache + (DEPTH + 2) * rays + me; /* column c, axis a: basis[(3c + a) * rays] */
    if (GRADIENT && hit) { /* the neighbours' lines, computed as their own threads do */
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
      for (int i = 0; i < 9; ++i) basis[i * rays] = b.column[i / 3][i % 3];
    }
    const Sampler volume(l.volume);
    float *column = cache + me; /* slice s of this ray: column[s * rays] */
    const float offset = p.lattice_offset;
    constexpr int prefetch = GRADIENT ? CVR_SLAB_PREFETCH / 2 : CVR_SLAB_PREFETCH; /* shading's registers */
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
      /* composite this ray's samples base .. base + DEPTH - 1 (slots 1 .. DEPTH) */
      for (int j = 0; j < DEPTH && !done; ++j) {
        const int k = base + j;
        if (k < ray.k_first) continue;
        if (k > ray.k_last) {
          done = true;
          break;
        }
        const float t = (float)k + offset;
        const float *c = column + (j + 1) * rays;
        ++samples;
        if (cvr_ray_cropped(&p, &ray, t)) continue; /* transparent */
        cvr_rgba s = cvr_classify_packed(table, l.table_copies, p, c[0]);
        if (GRADIENT && s.a > 0.0f) {
          float left = c[-1], right = c[1], below = c[-bw], above = c[bw];
          float h_u = 0.5f, h_v = 0.5f;
          if (one_sided) { /* test hook: what ignoring the border rays does */
            if (tx == 1) left = c[0], h_u = 1.0f;
            if (tx == bw - 2) right = c[0], h_u = 1.0f;
            if (ty == 1) below = c[0], h_v = 1.0f;
            if (ty == bh - 2) above = c[0], h_v = 1.0f;
          }
          cvr_eye_basis b;
#pragma unroll
          for (int i = 0; i < 9; ++i) b.column[i / 3][i % 3] = basis[i * rays];
          float gradient[3];
          cvr_eye_gradient(&b, p.perspective, t, h_u * (right - left), h_v * (above - below),
                           0.5f * (c[rays] - c[-rays]), gradient);
          s = cvr_apply_gradient(&p, &ray, t, gradient, s);
        }
        if (s.a > 0.0f && t_hit < 0.0f) t_hit = t;
        cvr_composite(&acc, s);
        done = cvr_ray_done(&p, &acc);
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

size_t cvr_cuda_slab_shared_bytes(int rays, int depth) { /* with the static k_range */
  return slab_shared_bytes(rays, depth, CVR_TRANSFER_FUNCTION_TABLE_SIZE, 1) + 2 * sizeof(int);
}

template <bool GRADIENT, int DEPTH, typename Sampler>
static cudaError_t launch(cvr_cuda_launch l, const cvr_render_settings *s, int one_sided,
                          cudaStream_t stream) {
  const dim3 block((unsigned)s->slab_block[0], (unsigned)s->slab_block[1]);
  const int rays = s->slab_block[0] * s->slab_block[1];
  const size_t cache = slab_shared_bytes(rays, s->slab_depth, 0, 0);
  auto kernel = cvr_slab_kernel<GRADIENT, DEPTH, Sampler>;
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
         slab_shared_bytes(rays, s->slab_depth, l.ray.tf_size, l.table_copies) > (size_t)optin)
    l.table_copies /= 2;
  const dim3 grid((l.ray.width + block.x - 3) / (block.x - 2),
                  (l.ray.height + block.y - 3) / (block.y - 2));
  kernel<<<grid, block, slab_shared_bytes(rays, s->slab_depth, l.ray.tf_size, l.table_copies),
           stream>>>(l, one_sided);
  return cudaGetLastError();
}

cudaError_t cvr_cuda_launch_slab(const cvr_cuda_launch *l, cvr_memory_layout layout,
                                 cvr_scalar_type stored_type, const cvr_render_settings *s,
                                 int one_sided, cudaStream_t stream) {
  return cvr_with_sampler(layout, stored_type, [&](auto tag) -> cudaError_t {
    typedef typename decltype(tag)::type S;
    const bool shaded = cvr_needs_gradient(&l->ray); /* shading or gradient opacity */
    switch (s->slab_depth) { /* CVR_SLAB_DEPTHS */
    case 4: return shaded ? launch<true, 4, S>(*l, s, one_sided, stream) : launch<false, 4, S>(*l, s, one_sided, stream);
    case 8: return shaded ? launch<true, 8, S>(*l, s, one_sided, stream) : launch<false, 8, S>(*l, s, one_sided, stream);
    case 16: return shaded ? launch<true, 16, S>(*l, s, one_sided, stream) : launch<false, 16, S>(*l, s, one_sided, stream);
    case 32: return shaded ? launch<true, 32, S>(*l, s, one_sided, stream) : launch<false, 32, S>(*l, s, one_sided, stream);
    default: return cudaErrorInvalidValue;
    }
  });
}
