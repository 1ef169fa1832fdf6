// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The CPU renderer: the reference every CUDA strategy is tested against, and
 * the fallback without a GPU. Threads work on image tiles of w x h pixels,
 * assigned statically (round robin) or dynamically (a shared counter), as in
 * Bethel and Howison. Sampling emulates the texture unit (clamp addressing,
 * 8-bit fractional filter weights) so the two backends agree closely. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu_march.h"

int cvr_cpu_default_threads(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : (n > 4096 ? 4096 : (int)n);
}

struct worker;
typedef void (*tile_fn)(struct worker *, int);

typedef struct tile_job {
  const cvr_frame *frame;
  const cvr_image *image;
  cpu_volume volume;
  tile_fn render_tile; /* the renderer for the volume's stored type */
  int reverse_order;
  int tiles_x, tile_count, tile_w, tile_h;
  int thread_count;
  cvr_cpu_schedule schedule;
  atomic_int next_tile;
} tile_job;

typedef struct worker {
  tile_job *job;
  int index;
  uint64_t rays, samples, lattice, skipped;
} worker;

/* x86-64's baseline (SSE2) has no instruction for floorf and ceilf, which
 * every sample takes at least three of (the filter's texels): the tile
 * renderers are also built for SSE4.1 (roundss), picked when the library
 * loads (cvr_internal.h). The arithmetic is the same. */
#define CVR_CPU_CLONES CVR_TARGET_CLONES("sse4.1", "default")

#define DEFINE_TILE_RENDERER(NAME, TEXEL)                                                          \
  CVR_CPU_CLONES static void NAME(worker *w, int tile) {                                           \
    const tile_job *j = w->job;                                                                    \
    const int width = j->frame->ray.width, height = j->frame->ray.height;                          \
    const int x0 = (tile % j->tiles_x) * j->tile_w, y0 = (tile / j->tiles_x) * j->tile_h;          \
    const int x1 = x0 + j->tile_w < width ? x0 + j->tile_w : width;                                \
    const int y1 = y0 + j->tile_h < height ? y0 + j->tile_h : height;                              \
    for (int py = y0; py < y1; ++py)                                                               \
      for (int px = x0; px < x1; ++px) {                                                           \
        const pixel_result r = cast_ray(j->frame, &j->volume, TEXEL, j->reverse_order, px, py);     \
        const size_t o = (size_t)py * width + px;                                                  \
        if (j->image->rgba8) {                                                                     \
          j->image->rgba8[4 * o + 0] = cvr_to_unorm8(r.color.r);                                   \
          j->image->rgba8[4 * o + 1] = cvr_to_unorm8(r.color.g);                                   \
          j->image->rgba8[4 * o + 2] = cvr_to_unorm8(r.color.b);                                   \
          j->image->rgba8[4 * o + 3] = cvr_to_unorm8(r.color.a);                                   \
        }                                                                                          \
        if (j->image->rgba32f) memcpy(j->image->rgba32f + 4 * o, &r.color, sizeof r.color);        \
        if (j->image->depth) j->image->depth[o] = r.depth;                                         \
        w->rays += (uint64_t)r.hit;                                                                \
        w->samples += r.samples;                                                                   \
        w->lattice += r.lattice;                                                                   \
        w->skipped += r.skipped;                                                                   \
      }                                                                                            \
  }

/* One tile renderer per stored type, so the texel fetch inlines. */
DEFINE_TILE_RENDERER(render_tile_u8, texel_u8)
DEFINE_TILE_RENDERER(render_tile_s8, texel_s8)
DEFINE_TILE_RENDERER(render_tile_u16, texel_u16)
DEFINE_TILE_RENDERER(render_tile_s16, texel_s16)
DEFINE_TILE_RENDERER(render_tile_f32, texel_f32)

static void *worker_main(void *arg) {
  worker *w = arg;
  tile_job *j = w->job;
  if (j->schedule == CVR_CPU_SCHEDULE_STATIC) {
    for (int t = w->index; t < j->tile_count; t += j->thread_count) j->render_tile(w, t);
  } else {
    for (int t; (t = atomic_fetch_add(&j->next_tile, 1)) < j->tile_count;) j->render_tile(w, t);
  }
  return NULL;
}

static tile_fn tile_renderer_for(cvr_scalar_type stored_type) {
  switch (stored_type) {
  case CVR_UINT8: return render_tile_u8;
  case CVR_INT8: return render_tile_s8;
  case CVR_UINT16: return render_tile_u16;
  case CVR_INT16: return render_tile_s16;
  default: return render_tile_f32;
  }
}

cvr_status cvr_cpu_render(cvr_context *ctx, const cvr_frame *frame, const cvr_image *image,
                          cvr_render_stats *stats) {
  const cvr_volume *vol = frame->volume;
  const cvr_render_settings *s = frame->settings;
  cvr_frame skipping = *frame; /* the frame with its empty cells */
  const int shift = ctx->debug.reverse_order ? 0 : cvr_skip_shift_for(s);
  if (shift) {
    const cvr_status st = cvr_cpu_skip_prepare(ctx, (cvr_volume *)vol, frame, shift,
                                               &skipping.ray.skip_empty);
    if (st != CVR_OK) return st;
    memcpy(skipping.ray.skip_cells, vol->cpu_skip.cells, sizeof skipping.ray.skip_cells);
    skipping.ray.skip_shift = shift;
    frame = &skipping;
  }
  if (vol->bricks) return cvr_cpu_render_bricked(ctx, frame, image, stats);
  tile_job job;
  memset(&job, 0, sizeof job);
  job.frame = frame;
  job.image = image;
  job.volume.data = vol->host_data;
  job.volume.components = vol->components;
  memcpy(job.volume.dims, vol->dims, sizeof job.volume.dims);
  job.volume.stride_y = (size_t)vol->dims[0];
  job.volume.stride_z = (size_t)vol->dims[0] * vol->dims[1];
  job.volume.nearest = s->interpolation == CVR_INTERPOLATION_NEAREST;
  job.render_tile = tile_renderer_for(vol->stored_type);
  job.volume.weights = ctx->debug.filter_weights;
  job.reverse_order = ctx->debug.reverse_order;
  job.tile_w = s->cpu_tile_width;
  job.tile_h = s->cpu_tile_height;
  job.tiles_x = (frame->ray.width + job.tile_w - 1) / job.tile_w;
  const int tiles_y = (frame->ray.height + job.tile_h - 1) / job.tile_h;
  job.tile_count = job.tiles_x * tiles_y;
  job.schedule = s->cpu_schedule;
  job.thread_count = ctx->cpu_threads < job.tile_count ? ctx->cpu_threads : job.tile_count;
  atomic_init(&job.next_tile, 0);

  worker *workers = calloc((size_t)job.thread_count, sizeof *workers);
  pthread_t *threads = calloc((size_t)job.thread_count, sizeof *threads);
  if (!workers || !threads) {
    free(workers);
    free(threads);
    return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY, "CPU renderer: out of host memory");
  }
  const double start = cvr_now_ms();
  int started = 0;
  for (int i = 0; i < job.thread_count; ++i) {
    workers[i].job = &job;
    workers[i].index = i;
  }
  /* worker 0 runs on the calling thread; if a thread cannot start, the
   * dynamic queue lets the others absorb its tiles, the static one cannot */
  for (int i = 1; i < job.thread_count; ++i, ++started)
    if (pthread_create(&threads[i], NULL, worker_main, &workers[i]) != 0) break;
  if (started + 1 < job.thread_count && job.schedule == CVR_CPU_SCHEDULE_STATIC) {
    for (int i = 1; i <= started; ++i) pthread_join(threads[i], NULL);
    free(workers);
    free(threads);
    return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY, "CPU renderer: could not start %d threads",
                    job.thread_count);
  }
  worker_main(&workers[0]);
  for (int i = 1; i <= started; ++i) pthread_join(threads[i], NULL);
  stats->kernel_ms = cvr_now_ms() - start;
  for (int i = 0; i < job.thread_count; ++i) {
    stats->rays += workers[i].rays;
    stats->samples += workers[i].samples;
    stats->samples_skipped_empty += workers[i].skipped;
    stats->samples_skipped_terminated += workers[i].lattice - workers[i].samples - workers[i].skipped;
  }
  stats->block_width = job.tile_w;
  stats->block_height = job.tile_h;
  free(workers);
  free(threads);
  return CVR_OK;
}
