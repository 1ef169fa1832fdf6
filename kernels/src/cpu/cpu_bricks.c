// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The CPU backend's bricked frames (bricks.h): the brick cache in host
 * memory, each brick's rays marched over its own samples into a state per
 * pixel, and the pixels made from those states at the end. The rays take
 * the samples and arithmetic of the unbricked renderer (cpu_march.h), so the
 * image is the same bit for bit: what the tests of the brick logic hold. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bricks.h"
#include "cpu_march.h"
#include "parallel.h"

typedef struct brick_frame {
  cvr_context *ctx;
  const cvr_frame *frame;
  const cvr_volume *volume;
  const cvr_image *image;
  cvr_bricks *bricks;
  cvr_ray_state *states; /* per pixel */
  size_t voxel_bytes;    /* a voxel's stored bytes, components included */
  /* the brick being drawn */
  cpu_volume brick;
  int cell[3];
  const int *rect;
  /* the pixels' statistics, per part of the last pass */
  uint64_t rays[CVR_PARALLEL_MAX_PARTS], samples[CVR_PARALLEL_MAX_PARTS],
      lattice[CVR_PARALLEL_MAX_PARTS], skipped[CVR_PARALLEL_MAX_PARTS];
} brick_frame;

static cvr_status load_brick(void *self, const cvr_brick_draw *draw) {
  brick_frame *bf = self;
  const cvr_volume *v = bf->volume;
  const int *base = draw->base, *dims = draw->dims;
  const size_t row = (size_t)dims[0] * bf->voxel_bytes;
  char *out = (char *)bf->bricks->host_slots + (size_t)draw->slot * bf->bricks->slot_bytes;
  const char *in = v->host_data;
  for (int z = 0; z < dims[2]; ++z)
    for (int y = 0; y < dims[1]; ++y) {
      const size_t from = ((size_t)(base[2] + z) * v->dims[1] + (size_t)(base[1] + y)) * v->dims[0] +
                          (size_t)base[0];
      memcpy(out + ((size_t)z * dims[1] + y) * row, in + from * bf->voxel_bytes, row);
    }
  return CVR_OK;
}

/* The pixel's ray, clipped (cvr_ray_setup), or SLICE's with its one
 * sample's parameter; returns whether it meets the volume. */
static inline int pixel_ray(const cvr_frame *f, int px, int py, cvr_ray *ray, float *t_slice) {
  const cvr_ray_params *p = &f->ray;
  const float depth = f->opaque_depth ? f->opaque_depth[(size_t)py * p->width + px] : 1.0f;
  if (p->blend == CVR_BLEND_SLICE) return cvr_slice_setup(p, px, py, depth, ray, t_slice);
  return cvr_ray_setup(p, px, py, depth, ray);
}

/* Rows [begin, end) of the brick's rect: each ray goes on through the
 * samples the brick owns. */
#define DEFINE_BRICK_ROWS(NAME, TEXEL)                                                             \
  static void NAME(void *arg, int part, size_t begin, size_t end) {                               \
    (void)part;                                                                                    \
    const brick_frame *bf = arg;                                                                   \
    const cvr_frame *f = bf->frame;                                                                \
    const cvr_ray_params *p = &f->ray;                                                             \
    const int shift = bf->bricks->shift;                                                           \
    for (int py = bf->rect[1] + (int)begin; py < bf->rect[1] + (int)end; ++py)                     \
      for (int px = bf->rect[0]; px < bf->rect[2]; ++px) {                                         \
        cvr_ray_state *st = &bf->states[(size_t)py * p->width + px];                               \
        if (cvr_ray_state_done(p, st)) continue;                                                   \
        cvr_ray ray;                                                                               \
        float t_slice = 0.0f;                                                                      \
        if (!pixel_ray(f, px, py, &ray, &t_slice)) continue;                                       \
        if (p->blend == CVR_BLEND_SLICE) {                                                         \
          int a = 0;                                                                               \
          while (a < 3 && cvr_brick_cell_at(&ray, a, t_slice, shift, bf->bricks->cells[a]) ==     \
                              bf->cell[a])                                                         \
            ++a;                                                                                   \
          if (a == 3) slice_sample(f, &bf->brick, TEXEL, &ray, t_slice, st);                       \
          continue;                                                                                \
        }                                                                                          \
        int k0, k1;                                                                                \
        if (!cvr_brick_samples(&ray, p->lattice_offset, shift, bf->bricks->cells, bf->cell, &k0,  \
                               &k1))                                                               \
          continue;                                                                                \
        march_samples(f, &bf->brick, TEXEL, &ray, CVR_ADD((float)k0, p->lattice_offset),         \
                      CVR_ADD((float)k1, p->lattice_offset), 0, st);                               \
      }                                                                                            \
  }

DEFINE_BRICK_ROWS(brick_rows_u8, texel_u8)
DEFINE_BRICK_ROWS(brick_rows_s8, texel_s8)
DEFINE_BRICK_ROWS(brick_rows_u16, texel_u16)
DEFINE_BRICK_ROWS(brick_rows_s16, texel_s16)
DEFINE_BRICK_ROWS(brick_rows_f32, texel_f32)

static cvr_part_fn brick_rows_for(cvr_scalar_type stored_type) {
  switch (stored_type) {
  case CVR_UINT8: return brick_rows_u8;
  case CVR_INT8: return brick_rows_s8;
  case CVR_UINT16: return brick_rows_u16;
  case CVR_INT16: return brick_rows_s16;
  default: return brick_rows_f32;
  }
}

/* One brick after the other (their rows in parallel): a batch's bricks
 * share no ray, so this order is as good as any. */
static cvr_status draw_bricks(void *self, const cvr_brick_draw *draws, int first, int count) {
  brick_frame *bf = self;
  cpu_volume *v = &bf->brick;
  for (int k = first; k < first + count; ++k) {
    const cvr_brick_draw *w = &draws[k];
    if (w->skip) continue;
    v->stride_y = (size_t)w->dims[0];
    v->stride_z = (size_t)w->dims[0] * w->dims[1];
    /* the volume's texel 0 in the brick's strides, before the copy (never
     * dereferenced there: rays read only the copy's texels); an integer
     * subtraction, which keeps the renderers' addressing as it is */
    const size_t origin =
        (size_t)w->base[0] + (size_t)w->base[1] * v->stride_y + (size_t)w->base[2] * v->stride_z;
    const char *copy = (const char *)bf->bricks->host_slots + (size_t)w->slot * bf->bricks->slot_bytes;
    v->data = (const void *)((uintptr_t)copy - origin * bf->voxel_bytes);
    memcpy(bf->cell, w->brick, sizeof bf->cell);
    bf->rect = w->rect;
    cvr_parallel_for(bf->ctx->cpu_threads, (size_t)(w->rect[3] - w->rect[1]), 1, 4,
                     brick_rows_for(bf->volume->stored_type), bf);
  }
  return CVR_OK;
}

/* Whether every ray that takes samples in the brick has stopped: the
 * batches in front are drawn (draw_bricks returns once they are), so the
 * rays' states say it exactly. The first open ray ends the search. */
static int rays_done(void *self, const cvr_brick_draw *draw) {
  const brick_frame *bf = self;
  const cvr_frame *f = bf->frame;
  const cvr_ray_params *p = &f->ray;
  for (int py = draw->rect[1]; py < draw->rect[3]; ++py)
    for (int px = draw->rect[0]; px < draw->rect[2]; ++px) {
      if (cvr_ray_state_done(p, &bf->states[(size_t)py * p->width + px])) continue;
      cvr_ray ray;
      float t_slice;
      int k0, k1;
      if (pixel_ray(f, px, py, &ray, &t_slice) &&
          cvr_brick_samples(&ray, p->lattice_offset, bf->bricks->shift, bf->bricks->cells,
                            draw->brick, &k0, &k1))
        return 0;
    }
  return 1;
}

/* Rows [begin, end) of the image: the pixels from their rays' states. */
static void finish_rows(void *arg, int part, size_t begin, size_t end) {
  brick_frame *bf = arg;
  const cvr_frame *f = bf->frame;
  const cvr_ray_params *p = &f->ray;
  const cvr_image *image = bf->image;
  const pixel_result none = {{0.0f, 0.0f, 0.0f, 0.0f}, 1.0f, 0, 0, 0, 0};
  for (size_t py = begin; py < end; ++py)
    for (int px = 0; px < p->width; ++px) {
      const size_t o = py * (size_t)p->width + (size_t)px;
      cvr_ray ray;
      float t_slice;
      const pixel_result r =
          pixel_ray(f, px, (int)py, &ray, &t_slice) ? ray_pixel(f, &ray, &bf->states[o]) : none;
      if (image->rgba8) {
        image->rgba8[4 * o + 0] = cvr_to_unorm8(r.color.r);
        image->rgba8[4 * o + 1] = cvr_to_unorm8(r.color.g);
        image->rgba8[4 * o + 2] = cvr_to_unorm8(r.color.b);
        image->rgba8[4 * o + 3] = cvr_to_unorm8(r.color.a);
      }
      if (image->rgba32f) memcpy(image->rgba32f + 4 * o, &r.color, sizeof r.color);
      if (image->depth) image->depth[o] = r.depth;
      bf->rays[part] += (uint64_t)r.hit;
      bf->samples[part] += r.samples;
      bf->lattice[part] += r.lattice;
      /* the samples not taken: behind early termination, or else in empty
       * cells (those of bricks not drawn among them) */
      const cvr_ray_state *st = &bf->states[o];
      const uint64_t behind =
          r.hit && st->t_stop >= 0.0f
              ? (uint64_t)(ray.k_last - (int)CVR_SUB(st->t_stop, p->lattice_offset)) : 0;
      bf->skipped[part] += r.lattice - r.samples - behind;
    }
}

cvr_status cvr_cpu_render_bricked(cvr_context *ctx, const cvr_frame *frame,
                                  const cvr_image *image, cvr_render_stats *stats) {
  const cvr_volume *volume = frame->volume;
  cvr_bricks *g = volume->bricks;
  if (!g->host_slots) {
    g->host_slots = malloc((size_t)g->slot_count * g->slot_bytes);
    if (!g->host_slots)
      return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY,
                      "bricks: cannot allocate the cache's %zu bytes of host memory",
                      (size_t)g->slot_count * g->slot_bytes);
  }
  brick_frame bf;
  memset(&bf, 0, sizeof bf);
  bf.ctx = ctx;
  bf.frame = frame;
  bf.volume = volume;
  bf.image = image;
  bf.bricks = g;
  bf.voxel_bytes = (size_t)volume->components * cvr_scalar_type_size(volume->stored_type);
  bf.brick.components = volume->components;
  memcpy(bf.brick.dims, volume->dims, sizeof bf.brick.dims);
  bf.brick.nearest = frame->settings->interpolation == CVR_INTERPOLATION_NEAREST;
  bf.brick.weights = ctx->debug.filter_weights;
  const size_t pixels = (size_t)frame->ray.width * frame->ray.height;
  bf.states = malloc(pixels * sizeof *bf.states);
  if (!bf.states)
    return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY,
                    "bricks: cannot allocate the rays' states (%zu bytes of host memory)",
                    pixels * sizeof *bf.states);
  for (size_t i = 0; i < pixels; ++i) cvr_ray_state_init(&frame->ray, &bf.states[i]);

  const double start = cvr_now_ms();
  const cvr_brick_ops ops = {&bf, NULL, load_brick, draw_bricks, rays_done};
  cvr_status st = cvr_bricks_draw_frame(ctx, volume, frame, &ops, stats);
  if (st == CVR_OK) {
    const int parts =
        cvr_parallel_for(ctx->cpu_threads, (size_t)frame->ray.height, 1, 4, finish_rows, &bf);
    for (int i = 0; i < parts; ++i) {
      stats->rays += bf.rays[i];
      stats->samples += bf.samples[i];
      stats->samples_skipped_empty += bf.skipped[i];
      stats->samples_skipped_terminated += bf.lattice[i] - bf.samples[i] - bf.skipped[i];
    }
  }
  stats->kernel_ms = cvr_now_ms() - start - stats->brick_load_ms;
  stats->block_width = stats->block_height = 0;
  free(bf.states);
  return st;
}
