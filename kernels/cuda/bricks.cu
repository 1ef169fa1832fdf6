// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The CUDA backend's bricked frames (bricks.h): the brick cache as 3D
 * arrays on the device, each refilled from the volume in pinned host memory
 * on a copy stream that runs ahead of the rays (a copy waits only for the
 * last draw from its slot, a draw only for its bricks' copies), the rays of
 * each batch of bricks (those at one distance, which share no ray) marched
 * in one launch, each over the samples its brick owns, into a state per
 * pixel, and the pixels made from those states at the end. One launch a
 * batch, not a brick: a brick's rays are a few blocks, far too few to fill
 * the device, and a launch a brick ran them one after another. Samples,
 * filtering and compositing are the standard kernel's (ray_march.cuh); a
 * brick's texture is addressed by the volume's texel coordinates less the
 * copy's first texel, an exact subtraction (both are non-negative and the
 * coordinate the larger), so the hardware filters each sample exactly as it
 * would from the whole volume. */
#include <string.h>

#include "bricks.h"
#include "standard_kernel.cuh" /* (its kinds of frame) */

/* A brick's copy, read through its texture at the volume's coordinates. */
struct cvr_brick_sampler {
  static constexpr int fetch_ahead = 4;
  cudaTextureObject_t texture;
  float base[3];
  __device__ __forceinline__ float operator()(float x, float y, float z) const {
    return tex3D<float>(texture, __fsub_rn(x, base[0]), __fsub_rn(y, base[1]), __fsub_rn(z, base[2]));
  }
};

/* A brick a frame draws, as its launch reads it (from cvr_brick_draw). */
struct cvr_brick_item {
  cvr_brick_sampler volume;
  int brick[3];
  int rect[4];     /* pixels x0, y0, x1, y1 (past the end) */
  int tiles_x;     /* thread blocks across the rect */
  int first_block; /* its first block, counted over the frame's draws */
};

/* A brick whose rays have all stopped early is left out (rays_done): the
 * rays of a batch's bricks are looked at once the batch CVR_BRICK_LAG in
 * front of it is drawn, and the host waits for that look before the
 * batch's copies, which then run that far ahead of the rays. A ray that
 * has stopped stays stopped, so a look that early is a safe one. */
#define CVR_BRICK_LAG 2

struct cvr_brick_launch {
  cvr_cuda_launch l;     /* the frame's parameters (device pointers), table, outputs */
  cvr_ray_state *states; /* per pixel */
  int *open;             /* per draw of the frame: some ray of its brick still open */
  const cvr_brick_item *items; /* the frame's, on the device */
  int first, count;      /* this batch's items */
  int cells[3], shift;
};

struct cvr_cuda_bricks {
  int count;
  cudaArray_t *arrays;
  cudaTextureObject_t *linear, *nearest;
  cudaEvent_t *loaded; /* per slot: its copy done */
  int *drawn_batch;    /* per slot: the batch of this frame that last drew it, -1 */
  cudaEvent_t *batch_done; /* per batch of a frame: its draw done */
  int batch_events;
  cudaStream_t copies;
  cudaEvent_t frame_start, copy_start, copy_stop;
  /* per draw of a frame, whether a ray of its brick is open (rays_done): on
   * the device and in pinned host memory, a batch's ready at its event */
  int *open, *open_host;
  size_t open_count;
  cudaEvent_t *open_ready; /* per batch, batch_events of them */
  int copying; /* copy_start recorded this frame */
  size_t bytes;
  int pinned;  /* the volume's host copy is registered with the driver */
};

__global__ void cvr_brick_states_init(cvr_ray_state *states, size_t pixels, cvr_ray_state init) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pixels) states[i] = init;
}

/* Compositing (and isosurfaces) over lattice parameters t_from .. t_to
 * into the ray's state; st.t_stop marks where early termination stopped it. */
template <bool GRADIENT, bool ISO>
__device__ __forceinline__ void cvr_brick_march(const cvr_ray_params &p, const cvr_ray &ray,
                                                const cvr_brick_sampler &volume, const uint4 *table,
                                                int copies, float t_from, float t_to,
                                                cvr_ray_state &st) {
  constexpr int AHEAD = GRADIENT ? 2 : cvr_brick_sampler::fetch_ahead;
  const float stop = cvr_stop_opacity(p);
  cvr_rgba acc = st.color;
  float t_hit = st.t_hit;
  int interval = st.interval;
  unsigned samples = 0, skipped = 0;
  float t = t_from;
  while (t <= t_to) {
    if (p.skip_empty) {
      int cell[3];
      if (cvr_skip_empty_at(&p, &ray, t, cell)) {
        const int n = cvr_skip_cell_samples(&p, &ray, t, cell, (int)(t_to - t));
        skipped += (unsigned)n;
        t += (float)n;
        continue;
      }
    }
    float v[AHEAD];
#pragma unroll
    for (int j = 0; j < AHEAD; ++j) v[j] = cvr_fetch(ray, volume, t + (float)j);
#pragma unroll
    for (int j = 0; j < AHEAD; ++j) {
      if (t > t_to) break;
      cvr_composite_value<GRADIENT, ISO, CVR_SAMPLE_REMOVE>(p, ray, volume, table, copies, v[j], t,
                                                            acc, t_hit, interval);
      ++samples;
      if (acc.a >= stop) {
        st.t_stop = t;
        t = t_to + 2.0f; /* (ends both loops) */
        break;
      }
      t += 1.0f;
    }
  }
  st.color = acc;
  st.t_hit = t_hit;
  st.interval = interval;
  st.samples += samples;
  st.skipped += skipped;
}

/* The projections over t_from .. t_to into the ray's state. */
__device__ __forceinline__ void cvr_brick_project(const cvr_ray_params &p, const cvr_ray &ray,
                                                  const cvr_brick_sampler &volume,
                                                  const uint4 *table, int copies, float t_from,
                                                  float t_to, cvr_ray_state &st) {
  unsigned samples = 0;
  for (float t = t_from; t <= t_to; t += 1.0f) {
    const float v = cvr_fetch(ray, volume, t);
    ++samples;
    if (cvr_ray_cropped(&p, &ray, t)) continue;
    const float weight = cvr_blend_take(&p, &st.blend, v);
    if (weight > 0.0f) cvr_blend_add(&st.blend, weight, cvr_classify_packed(table, copies, p, v).a);
  }
  st.samples += samples;
}

/* The draw of the batch's items (b.first .. b.first + b.count - 1) that
 * this block's pixels belong to: the last whose first block is not after
 * it; *px, *py its pixel, false past its rect. */
__device__ __forceinline__ bool cvr_brick_pixel(const cvr_brick_launch &b, int *draw, int *px,
                                                int *py) {
  const int block = b.items[b.first].first_block + (int)blockIdx.x;
  int lo = b.first, hi = b.first + b.count - 1;
  while (lo < hi) {
    const int mid = (lo + hi + 1) >> 1;
    if (b.items[mid].first_block <= block) lo = mid;
    else hi = mid - 1;
  }
  const cvr_brick_item &item = b.items[lo];
  const int tile = block - item.first_block;
  *draw = lo;
  *px = item.rect[0] + (tile % item.tiles_x) * (int)blockDim.x + (int)threadIdx.x;
  *py = item.rect[1] + (tile / item.tiles_x) * (int)blockDim.y + (int)threadIdx.y;
  return *px < item.rect[2] && *py < item.rect[3];
}

/* The rays of a batch's bricks, each over the samples its brick owns. A
 * ray's state is read only by the brick that owns samples of it: the
 * batch's other bricks, which share no ray with it, leave it alone. */
template <int KIND>
__global__ void __launch_bounds__(256) cvr_brick_batch(const cvr_brick_launch b) {
  extern __shared__ uint4 shared_table[];
  const cvr_ray_params &p = b.l.ray;
  cvr_load_table(shared_table, b.l.table, p.tf_size, b.l.table_copies);
  const uint4 *table = cvr_table_copy(shared_table, b.l.table_copies);
  int draw, px, py;
  if (!cvr_brick_pixel(b, &draw, &px, &py)) return;
  const cvr_brick_item item = b.items[draw];
  const size_t pixel = (size_t)py * p.width + px;
  cvr_ray ray;
  if constexpr (KIND == CVR_SLICE) {
    float t;
    if (!cvr_setup_slice(b.l, px, py, &ray, &t)) return;
    for (int a = 0; a < 3; ++a)
      if (cvr_brick_cell_at(&ray, a, t, b.shift, b.cells[a]) != item.brick[a]) return;
    cvr_ray_state st = b.states[pixel];
    st.color = cvr_slice_pixel<CVR_SAMPLE_REMOVE>(p, ray, item.volume, table, b.l.table_copies, t);
    if (st.color.a > 0.0f) st.t_hit = t;
    st.samples = 1;
    b.states[pixel] = st;
  } else {
    int k0, k1;
    if (!cvr_setup_ray(b.l, px, py, &ray) ||
        !cvr_brick_samples(&ray, p.lattice_offset, b.shift, b.cells, item.brick, &k0, &k1))
      return;
    cvr_ray_state st = b.states[pixel];
    if (cvr_ray_state_done(&p, &st)) return;
    const float t_from = __fadd_rn((float)k0, p.lattice_offset);
    const float t_to = __fadd_rn((float)k1, p.lattice_offset);
    if constexpr (KIND == CVR_PROJECT)
      cvr_brick_project(p, ray, item.volume, table, b.l.table_copies, t_from, t_to, st);
    else
      cvr_brick_march<KIND != CVR_COMPOSITE, KIND == CVR_ISOSURFACE>(p, ray, item.volume, table,
                                                                      b.l.table_copies, t_from,
                                                                      t_to, st);
    b.states[pixel] = st;
  }
}

/* Whether some ray that takes samples in each of the batch's bricks is
 * still open (b.open[draw] set; cleared before): what rays_done reads. */
__global__ void __launch_bounds__(256) cvr_brick_open_rays(const cvr_brick_launch b) {
  int draw, px, py;
  if (!cvr_brick_pixel(b, &draw, &px, &py)) return;
  const cvr_ray_params &p = b.l.ray;
  if (cvr_ray_state_done(&p, &b.states[(size_t)py * p.width + px])) return;
  cvr_ray ray;
  int k0, k1;
  if (cvr_setup_ray(b.l, px, py, &ray) &&
      cvr_brick_samples(&ray, p.lattice_offset, b.shift, b.cells, b.items[draw].brick, &k0, &k1))
    b.open[draw] = 1; /* (every writer writes 1) */
}

/* Every pixel from its ray's state (the CPU's ray_pixel), and the frame's
 * counts: the samples a ray did not take lie behind early termination or
 * else in empty cells (those of the bricks not drawn among them). */
__global__ void __launch_bounds__(256) cvr_brick_finish(const cvr_brick_launch b) {
  const cvr_ray_params &p = b.l.ray;
  const int px = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  const int py = (int)(blockIdx.y * blockDim.y + threadIdx.y);
  unsigned hit = 0, samples = 0, lattice = 0, skipped = 0;
  if (px < p.width && py < p.height) {
    const cvr_ray_state st = b.states[(size_t)py * p.width + px];
    cvr_rgba color = {0.0f, 0.0f, 0.0f, 0.0f};
    float depth = 1.0f, t;
    cvr_ray ray;
    if (p.blend == CVR_BLEND_SLICE) {
      if (cvr_setup_slice(b.l, px, py, &ray, &t)) {
        hit = lattice = 1;
        samples = st.samples;
        color = st.color;
        if (st.t_hit >= 0.0f) depth = cvr_ray_depth(&p, &ray, st.t_hit);
      }
    } else if (cvr_setup_ray(b.l, px, py, &ray)) {
      hit = 1;
      lattice = cvr_lattice_samples(ray);
      samples = st.samples;
      if (p.blend != CVR_BLEND_COMPOSITE && p.blend != CVR_BLEND_ISOSURFACE) {
        color = cvr_blend_pixel(&p, &st.blend, cvr_classify_packed(b.l.table, 1, p, st.blend.extreme));
        if (color.a > 0.0f) depth = cvr_ray_depth(&p, &ray, cvr_ray_t_first(&ray, p.lattice_offset));
      } else {
        color = st.color;
        if (st.t_hit >= 0.0f) depth = cvr_ray_depth(&p, &ray, st.t_hit);
      }
      const unsigned behind =
          st.t_stop >= 0.0f ? (unsigned)(ray.k_last - (int)__fsub_rn(st.t_stop, p.lattice_offset)) : 0u;
      skipped = lattice - samples - behind;
    }
    cvr_write_pixel(b.l, px, py, color, depth);
  }
  cvr_count(b.l.counters, hit, samples, lattice, skipped);
}

/* A batch's launch with the frame's kernel (by its blend mode); the table's
 * replicas are found at the frame's first. */
static cudaError_t launch_draw(const cvr_brick_launch &b, dim3 block, int blocks, int *table_copies,
                               cudaStream_t stream) {
  const auto go = [&](auto kernel) {
    cvr_brick_launch l = b;
    if (!*table_copies)
      *table_copies = cvr_table_copies(kernel, (int)(block.x * block.y), l.l.ray.tf_size, 0);
    l.l.table_copies = *table_copies;
    kernel<<<(unsigned)blocks, block, (size_t)l.l.ray.tf_size * l.l.table_copies * sizeof(uint4),
             stream>>>(l);
    return cudaGetLastError();
  };
  switch (b.l.ray.blend) {
  case CVR_BLEND_COMPOSITE:
    return cvr_needs_gradient(&b.l.ray) ? go(cvr_brick_batch<CVR_COMPOSITE_GRADIENT>)
                                        : go(cvr_brick_batch<CVR_COMPOSITE>);
  case CVR_BLEND_ISOSURFACE: return go(cvr_brick_batch<CVR_ISOSURFACE>);
  case CVR_BLEND_SLICE: return go(cvr_brick_batch<CVR_SLICE>);
  default: return go(cvr_brick_batch<CVR_PROJECT>);
  }
}

/* ---- the cache ------------------------------------------------------------- */

static void release_slots(cvr_cuda_bricks *d) {
  for (int i = 0; i < d->count; ++i) {
    if (d->linear[i]) cudaDestroyTextureObject(d->linear[i]);
    if (d->nearest[i]) cudaDestroyTextureObject(d->nearest[i]);
    if (d->arrays[i]) cudaFreeArray(d->arrays[i]);
    if (d->loaded[i]) cudaEventDestroy(d->loaded[i]);
  }
  for (int i = 0; i < d->batch_events; ++i) cudaEventDestroy(d->batch_done[i]);
  if (d->copies) cudaStreamDestroy(d->copies);
  for (int i = 0; i < d->batch_events; ++i)
    if (d->open_ready && d->open_ready[i]) cudaEventDestroy(d->open_ready[i]);
  free(d->open_ready);
  if (d->open) cudaFree(d->open);
  if (d->open_host) cudaFreeHost(d->open_host);
  if (d->frame_start) cudaEventDestroy(d->frame_start);
  if (d->copy_start) cudaEventDestroy(d->copy_start);
  if (d->copy_stop) cudaEventDestroy(d->copy_stop);
  free(d->arrays);
  free(d->linear);
  free(d->nearest);
  free(d->loaded);
  free(d->drawn_batch);
  free(d->batch_done);
  const int pinned = d->pinned; /* (the host scalars' registration is not the slots') */
  memset(d, 0, sizeof *d);     /* (a later frame may make them again) */
  d->pinned = pinned;
}

/* The volume's slots on the device, made at its first frame. */
static cvr_status ensure_slots(cvr_context *ctx, cvr_volume *volume) {
  cvr_bricks *g = volume->bricks;
  cvr_cuda_bricks *d = (cvr_cuda_bricks *)g->device_slots;
  cvr_status st = CVR_OK;
  if (d && d->count) return CVR_OK;
  if (!d) {
    d = (cvr_cuda_bricks *)calloc(1, sizeof *d);
    if (!d) return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY, "bricks: out of host memory");
    g->device_slots = d;
  }
  const int n = g->slot_count;
  d->arrays = (cudaArray_t *)calloc((size_t)n, sizeof *d->arrays);
  d->linear = (cudaTextureObject_t *)calloc((size_t)n, sizeof *d->linear);
  d->nearest = (cudaTextureObject_t *)calloc((size_t)n, sizeof *d->nearest);
  d->loaded = (cudaEvent_t *)calloc((size_t)n, sizeof *d->loaded);
  d->drawn_batch = (int *)calloc((size_t)n, sizeof *d->drawn_batch);
  d->count = n;
  if (!d->arrays || !d->linear || !d->nearest || !d->loaded || !d->drawn_batch) {
    release_slots(d);
    return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY, "bricks: out of host memory");
  }
  {
    const int b[3] = {0, 0, 0};
    int base[3], dims[3];
    cvr_brick_box(g, volume->dims, b, base, dims);
    const cudaChannelFormatDesc channel = cvr_cuda_channel_for(volume->stored_type);
    CVR_CUDA_TRY(ctx, cudaStreamCreateWithFlags(&d->copies, cudaStreamNonBlocking), "brick copy stream");
    CVR_CUDA_TRY(ctx, cudaEventCreateWithFlags(&d->frame_start, cudaEventDisableTiming), "event");
    CVR_CUDA_TRY(ctx, cudaEventCreate(&d->copy_start), "event");
    CVR_CUDA_TRY(ctx, cudaEventCreate(&d->copy_stop), "event");
    for (int i = 0; i < n; ++i) {
      const cudaError_t e = cudaMalloc3DArray(&d->arrays[i], &channel,
                                              make_cudaExtent((size_t)dims[0], (size_t)dims[1], (size_t)dims[2]));
      if (e != cudaSuccess) {
        st = cvr_cuda_allocation_failure(ctx, e, g->slot_bytes * (size_t)n, "brick cache");
        goto done;
      }
      CVR_CUDA_TRY(ctx, cvr_cuda_volume_texture(d->arrays[i], volume->stored_type, cudaFilterModeLinear, &d->linear[i]), "brick texture");
      CVR_CUDA_TRY(ctx, cvr_cuda_volume_texture(d->arrays[i], volume->stored_type, cudaFilterModePoint, &d->nearest[i]), "brick texture");
      CVR_CUDA_TRY(ctx, cudaEventCreateWithFlags(&d->loaded[i], cudaEventDisableTiming), "event");
    }
    d->bytes = g->slot_bytes * (size_t)n;
  }
done:
  if (st != CVR_OK) release_slots(d);
  return st;
}

extern "C" void cvr_cuda_bricks_unpin(cvr_volume *volume) {
  cvr_cuda_bricks *d = volume->bricks ? (cvr_cuda_bricks *)volume->bricks->device_slots : NULL;
  if (!d) return;
  if (d->copies) cudaStreamSynchronize(d->copies); /* (copies read it) */
  if (d->pinned) cudaHostUnregister(volume->host_data);
  d->pinned = 0;
}

extern "C" int cvr_cuda_bricks_pinned(const cvr_volume *volume) {
  const cvr_cuda_bricks *d =
      volume->bricks ? (const cvr_cuda_bricks *)volume->bricks->device_slots : NULL;
  return d && d->pinned;
}

extern "C" void cvr_cuda_bricks_release(cvr_volume *volume) {
  cvr_bricks *g = volume->bricks;
  cvr_cuda_bricks *d = g ? (cvr_cuda_bricks *)g->device_slots : NULL;
  if (!d) return;
  cvr_cuda_bricks_unpin(volume);
  release_slots(d);
  free(d);
  g->device_slots = NULL;
}

extern "C" void cvr_cuda_bricks_pin(cvr_volume *volume, size_t bytes) {
  cvr_bricks *g = volume->bricks;
  cvr_cuda_bricks *d = (cvr_cuda_bricks *)g->device_slots;
  if (!d && !(d = (cvr_cuda_bricks *)calloc(1, sizeof *d))) return;
  g->device_slots = d;
  /* pinned, the copies run at the link's speed and overlap the rays;
   * where pinning fails (memory the caller lent may be pinned already)
   * they are staged by the driver, slower */
  d->pinned = cudaHostRegister(volume->host_data, bytes, cudaHostRegisterDefault) == cudaSuccess;
  if (!d->pinned) cudaGetLastError();
}

/* ---- a frame ---------------------------------------------------------------- */

typedef struct brick_frame {
  cvr_context *ctx;
  cvr_volume *volume;
  cvr_cuda_bricks *d;
  cvr_brick_launch b;
  int nearest;
  dim3 block;
  int table_copies; /* (found at the first launch) */
  int batches;      /* drawn so far this frame */
  int *first_block; /* per draw, and past the last: blocks counted over the frame */
  const cvr_brick_draw *draws; /* the frame's (plan_bricks) */
  int *batch_first;   /* per batch, and past the last: its first draw */
  int batch_count;
  int looking;        /* rays_done looks at the rays (b.open) this frame */
  int seen_batch;     /* the batch whose look the host last waited for, -1 */
} brick_frame;

/* Events for a frame of n batches: its draws done, its looks ready. */
static cvr_status ensure_batch_events(cvr_context *ctx, cvr_cuda_bricks *d, int n) {
  cvr_status st = CVR_OK;
  if (n <= d->batch_events) return CVR_OK;
  cudaEvent_t *done_events = (cudaEvent_t *)realloc(d->batch_done, (size_t)n * sizeof *done_events);
  if (done_events) d->batch_done = done_events;
  cudaEvent_t *ready = (cudaEvent_t *)realloc(d->open_ready, (size_t)n * sizeof *ready);
  if (ready) d->open_ready = ready;
  if (!done_events || !ready) return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY, "bricks: out of host memory");
  for (; d->batch_events < n; ++d->batch_events) {
    const int i = d->batch_events;
    d->open_ready[i] = NULL;
    CVR_CUDA_TRY(ctx, cudaEventCreateWithFlags(&d->batch_done[i], cudaEventDisableTiming), "event");
    const cudaError_t e = cudaEventCreateWithFlags(&d->open_ready[i], cudaEventDisableTiming);
    if (e != cudaSuccess) { /* (the pair is kept whole: release_slots destroys both) */
      cudaEventDestroy(d->batch_done[i]);
      CVR_CUDA_TRY(ctx, e, "event");
    }
  }
done:
  return st;
}

/* Whether the frame looks at its rays for bricks to leave out (rays_done):
 * where rays can stop early and some brick is to be copied. A frame from the
 * cache, where leaving bricks out saves little, pays nothing for it. */
static cvr_status prepare_looks(brick_frame *f, const cvr_brick_draw *draws, int count) {
  cvr_context *ctx = f->ctx;
  cvr_cuda_bricks *d = f->d;
  const cvr_ray_params &p = f->b.l.ray;
  cvr_status st = CVR_OK;
  int loads = 0;
  for (int k = 0; k < count; ++k) loads += draws[k].load;
  f->looking = loads && p.early_termination &&
               (p.blend == CVR_BLEND_COMPOSITE || p.blend == CVR_BLEND_ISOSURFACE) &&
               f->batch_count > CVR_BRICK_LAG;
  if (!f->looking) return CVR_OK;
  if (d->open_count < (size_t)count) {
    if (d->open) cudaFree(d->open);
    if (d->open_host) cudaFreeHost(d->open_host);
    d->open = d->open_host = NULL;
    d->open_count = 0;
    CVR_CUDA_TRY(ctx, cudaMalloc(&d->open, (size_t)count * sizeof(int)), "open rays");
    CVR_CUDA_TRY(ctx, cudaMallocHost(&d->open_host, (size_t)count * sizeof(int)), "open rays");
    d->open_count = (size_t)count;
  }
  f->b.open = d->open;
done:
  if (st != CVR_OK) f->looking = 0;
  return st;
}

/* After the draw of batch j: the look at batch j + CVR_BRICK_LAG's rays,
 * copied to the host. */
static cvr_status look_ahead(brick_frame *f, int j) {
  cvr_context *ctx = f->ctx;
  cvr_cuda_bricks *d = f->d;
  cudaStream_t stream = ctx->cuda->stream;
  cvr_status st = CVR_OK;
  const int batch = j + CVR_BRICK_LAG;
  if (!f->looking || batch >= f->batch_count) return CVR_OK;
  const int first = f->batch_first[batch], count = f->batch_first[batch + 1] - first;
  int loads = 0;
  for (int k = first; k < first + count; ++k) loads += f->draws[k].load;
  if (loads) { /* (a batch from the cache is drawn whole) */
    cvr_brick_launch b = f->b;
    b.first = first;
    b.count = count;
    CVR_CUDA_TRY(ctx, cudaMemsetAsync(d->open + first, 0, (size_t)count * sizeof(int), stream), "open rays");
    cvr_brick_open_rays<<<(unsigned)(f->first_block[first + count] - f->first_block[first]), f->block,
                          0, stream>>>(b);
    CVR_CUDA_TRY(ctx, cudaGetLastError(), "open rays");
    CVR_CUDA_TRY(ctx, cudaMemcpyAsync(d->open_host + first, d->open + first, (size_t)count * sizeof(int),
                                      cudaMemcpyDeviceToHost, stream), "open rays");
  }
  CVR_CUDA_TRY(ctx, cudaEventRecord(d->open_ready[batch], stream), "event");
done:
  return st;
}

/* Whether every ray of the draw's brick had stopped when the batch
 * CVR_BRICK_LAG in front of it was drawn. */
static int rays_done(void *self, const cvr_brick_draw *draw) {
  brick_frame *f = (brick_frame *)self;
  const int batch = draw->batch;
  if (!f->looking || batch < CVR_BRICK_LAG || !draw->load) return 0;
  if (f->seen_batch != batch) {
    if (cudaEventSynchronize(f->d->open_ready[batch]) != cudaSuccess) {
      cudaGetLastError(); /* (the frame's own calls report a failure) */
      return 0;
    }
    f->seen_batch = batch;
  }
  return !f->d->open_host[draw - f->draws];
}

/* The frame's draws as its launches read them, on the device. */
static cvr_status plan_bricks(void *self, const cvr_brick_draw *draws, int count) {
  brick_frame *f = (brick_frame *)self;
  cvr_context *ctx = f->ctx;
  cvr_cuda_context *c = ctx->cuda;
  cvr_status st = CVR_OK;
  cvr_brick_item *items = (cvr_brick_item *)malloc((size_t)(count ? count : 1) * sizeof *items);
  f->first_block = (int *)malloc((size_t)(count + 1) * sizeof *f->first_block);
  f->batch_count = count ? draws[count - 1].batch + 1 : 0;
  f->batch_first = (int *)malloc((size_t)(f->batch_count + 1) * sizeof *f->batch_first);
  if (!items || !f->first_block || !f->batch_first) {
    free(items);
    return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY, "bricks: out of host memory");
  }
  f->draws = draws;
  for (int k = count - 1; k >= 0; --k) f->batch_first[draws[k].batch] = k;
  f->batch_first[f->batch_count] = count;
  int blocks = 0;
  for (int k = 0; k < count; ++k) {
    const cvr_brick_draw *w = &draws[k];
    cvr_brick_item *it = &items[k];
    it->volume.texture = f->nearest ? f->d->nearest[w->slot] : f->d->linear[w->slot];
    for (int a = 0; a < 3; ++a) {
      it->volume.base[a] = (float)w->base[a];
      it->brick[a] = w->brick[a];
    }
    memcpy(it->rect, w->rect, sizeof it->rect);
    it->tiles_x = (w->rect[2] - w->rect[0] + (int)f->block.x - 1) / (int)f->block.x;
    const int tiles_y = (w->rect[3] - w->rect[1] + (int)f->block.y - 1) / (int)f->block.y;
    it->first_block = f->first_block[k] = blocks;
    blocks += it->tiles_x * tiles_y;
  }
  f->first_block[count] = blocks;
  if ((st = ensure_batch_events(ctx, f->d, f->batch_count)) != CVR_OK ||
      (st = prepare_looks(f, draws, count)) != CVR_OK)
    goto done;
  if (count) {
    /* (from pageable memory: staged before the call returns) */
    CVR_CUDA_TRY(ctx, cvr_cuda_ensure_buffer(&c->brick_items, &c->brick_items_bytes,
                                             (size_t)count * sizeof *items), "brick list");
    CVR_CUDA_TRY(ctx, cudaMemcpyAsync(c->brick_items, items, (size_t)count * sizeof *items,
                                      cudaMemcpyHostToDevice, c->stream), "brick list upload");
  }
  f->b.items = (const cvr_brick_item *)c->brick_items;
done:
  free(items);
  return st;
}

static cvr_status load_brick(void *self, const cvr_brick_draw *draw) {
  brick_frame *f = (brick_frame *)self;
  cvr_cuda_bricks *d = f->d;
  cvr_context *ctx = f->ctx;
  const cvr_volume *v = f->volume;
  const int *base = draw->base, *dims = draw->dims, slot = draw->slot;
  cvr_status st = CVR_OK;
  const size_t voxel = cvr_scalar_type_size(v->stored_type);
  cudaMemcpy3DParms copy;
  memset(&copy, 0, sizeof copy);
  /* the box's first row starts base[0] voxels into the volume's rows: the
   * pointer moves there (x offsets are counted in the array's elements or
   * in bytes depending on the side, rows and slices are not) */
  const size_t pitch = (size_t)v->dims[0] * voxel, skip = (size_t)base[0] * voxel;
  copy.srcPtr = make_cudaPitchedPtr((char *)v->host_data + skip, pitch, pitch - skip,
                                    (size_t)v->dims[1]);
  copy.srcPos = make_cudaPos(0, (size_t)base[1], (size_t)base[2]);
  copy.dstArray = d->arrays[slot];
  copy.extent = make_cudaExtent((size_t)dims[0], (size_t)dims[1], (size_t)dims[2]);
  copy.kind = cudaMemcpyHostToDevice;
  if (!d->copying) {
    /* (the earlier frames' draws from every slot are done first) */
    CVR_CUDA_TRY(ctx, cudaStreamWaitEvent(d->copies, d->frame_start, 0), "brick copy order");
    CVR_CUDA_TRY(ctx, cudaEventRecord(d->copy_start, d->copies), "event");
    d->copying = 1;
  }
  /* (this frame's last draw from the slot must be done before its copy is
   * overwritten) */
  if (d->drawn_batch[slot] >= 0)
    CVR_CUDA_TRY(ctx, cudaStreamWaitEvent(d->copies, d->batch_done[d->drawn_batch[slot]], 0),
                 "brick copy order");
  CVR_CUDA_TRY(ctx, cudaMemcpy3DAsync(&copy, d->copies), "brick copy");
  CVR_CUDA_TRY(ctx, cudaEventRecord(d->loaded[slot], d->copies), "event");
done:
  return st;
}

static cvr_status draw_bricks(void *self, const cvr_brick_draw *draws, int first, int count) {
  brick_frame *f = (brick_frame *)self;
  cvr_cuda_bricks *d = f->d;
  cvr_context *ctx = f->ctx;
  cudaStream_t stream = ctx->cuda->stream;
  cvr_status st = CVR_OK;
  for (int k = first; k < first + count; ++k)
    if (draws[k].load && !draws[k].skip)
      CVR_CUDA_TRY(ctx, cudaStreamWaitEvent(stream, d->loaded[draws[k].slot], 0), "brick copy order");
  f->b.first = first;
  f->b.count = count;
  CVR_CUDA_TRY(ctx, launch_draw(f->b, f->block, f->first_block[first + count] - f->first_block[first],
                                &f->table_copies, stream), "brick kernel launch");
  CVR_CUDA_TRY(ctx, cudaEventRecord(d->batch_done[f->batches], stream), "event");
  for (int k = first; k < first + count; ++k)
    if (!draws[k].skip) d->drawn_batch[draws[k].slot] = f->batches;
  if ((st = look_ahead(f, f->batches)) != CVR_OK) goto done;
  ++f->batches;
done:
  return st;
}

extern "C" cvr_status cvr_cuda_bricks_launch(cvr_context *ctx, const cvr_frame *frame,
                                             cvr_cuda_launch *l, cvr_render_stats *stats) {
  cvr_cuda_context *c = ctx->cuda;
  cvr_volume *volume = (cvr_volume *)frame->volume;
  cvr_bricks *g = volume->bricks;
  const cvr_render_settings *s = frame->settings;
  const size_t pixels = (size_t)frame->ray.width * frame->ray.height;
  cvr_status st = ensure_slots(ctx, volume);
  if (st != CVR_OK) return st;
  brick_frame f;
  memset(&f, 0, sizeof f);
  f.ctx = ctx;
  f.volume = volume;
  f.d = (cvr_cuda_bricks *)g->device_slots;
  f.d->copying = 0;
  f.nearest = s->interpolation == CVR_INTERPOLATION_NEAREST;
  f.seen_batch = -1;
  f.block = dim3((unsigned)s->block_width, (unsigned)s->block_height);
  if (f.block.x * f.block.y > 256) f.block = dim3(16, 16);
  /* the frame on the host with the empty cells of the volume's host copy
   * (the bricks drawn), and the same cells on the device (the rays) */
  cvr_frame host = *frame;
  if (const int shift = cvr_skip_shift_for(s)) {
    if ((st = cvr_cpu_skip_prepare(ctx, volume, frame, shift, &host.ray.skip_empty)) != CVR_OK)
      return st;
    memcpy(host.ray.skip_cells, volume->cpu_skip.cells, sizeof host.ray.skip_cells);
    host.ray.skip_shift = shift;
    l->ray.skip_shift = shift;
    memcpy(l->ray.skip_cells, host.ray.skip_cells, sizeof l->ray.skip_cells);
    l->ray.skip_empty = NULL;
    if (host.ray.skip_empty) {
      /* (uploaded when the transfer function or the volume changed: they
       * are a byte per cell, 128 MiB at 4096^3 in cells of 8) */
      const size_t cells = cvr_skip_grid_count(&volume->cpu_skip);
      const size_t capacity = c->brick_skip_bytes;
      CVR_CUDA_TRY(ctx, cvr_cuda_ensure_buffer(&c->brick_skip, &c->brick_skip_bytes, cells),
                   "empty cells");
      if (c->brick_skip_bytes != capacity) c->brick_skip_generation = 0;
      if (c->brick_skip_generation != volume->cpu_skip.generation) {
        c->brick_skip_generation = 0;
        CVR_CUDA_TRY(ctx, cudaMemcpyAsync(c->brick_skip, host.ray.skip_empty, cells,
                                          cudaMemcpyHostToDevice, c->stream), "empty cells upload");
        c->brick_skip_generation = volume->cpu_skip.generation;
      }
      l->ray.skip_empty = (const unsigned char *)c->brick_skip;
    }
  }
  CVR_CUDA_TRY(ctx, cvr_cuda_ensure_buffer(&c->brick_states, &c->brick_states_bytes,
                                           pixels * sizeof(cvr_ray_state)),
               "ray states");
  {
    cvr_ray_state init;
    cvr_ray_state_init(&frame->ray, &init);
    cvr_brick_states_init<<<(unsigned)((pixels + 255) / 256), 256, 0, c->stream>>>(
        (cvr_ray_state *)c->brick_states, pixels, init);
    CVR_CUDA_TRY(ctx, cudaGetLastError(), "ray states");
  }
  f.b.l = *l;
  f.b.states = (cvr_ray_state *)c->brick_states;
  f.b.shift = g->shift;
  memcpy(f.b.cells, g->cells, sizeof f.b.cells);
  for (int i = 0; i < f.d->count; ++i) f.d->drawn_batch[i] = -1;
  CVR_CUDA_TRY(ctx, cudaEventRecord(f.d->frame_start, c->stream), "event");
  CVR_CUDA_TRY(ctx, cudaEventRecord(c->kernel_start, c->stream), "event");
  {
    const cvr_brick_ops ops = {&f, plan_bricks, load_brick, draw_bricks, rays_done};
    if ((st = cvr_bricks_draw_frame(ctx, volume, &host, &ops, stats)) != CVR_OK) goto done;
  }
  {
    const dim3 block(16, 16);
    const dim3 grid((unsigned)(frame->ray.width + 15) / 16, (unsigned)(frame->ray.height + 15) / 16);
    cvr_brick_finish<<<grid, block, 0, c->stream>>>(f.b);
    CVR_CUDA_TRY(ctx, cudaGetLastError(), "brick pixels");
  }
  CVR_CUDA_TRY(ctx, cudaEventRecord(c->kernel_stop, c->stream), "event");
  stats->block_width = (int)f.block.x;
  stats->block_height = (int)f.block.y;
  stats->brick_load_ms = 0.0;
  if (f.d->copying) { /* the copies from the first to the last, overlapped with the rays */
    float ms = 0.0f;
    CVR_CUDA_TRY(ctx, cudaEventRecord(f.d->copy_stop, f.d->copies), "event");
    CVR_CUDA_TRY(ctx, cudaEventSynchronize(f.d->copy_stop), "brick copies");
    CVR_CUDA_TRY(ctx, cudaEventElapsedTime(&ms, f.d->copy_start, f.d->copy_stop), "event timing");
    stats->brick_load_ms = ms;
  }
  stats->volume_bytes = f.d->bytes;
done:
  free(f.first_block);
  free(f.batch_first);
  return st;
}
