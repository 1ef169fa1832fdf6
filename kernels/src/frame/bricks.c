// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Bricked volumes (bricks.h): the grid, the frame's order and the cache. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bricks.h"
#include "cuda_backend.h"
#include "matrix.h"

/* Texels a side of a brick's copy: its cells and the apron, or the
 * volume's side where that is shorter. */
static int slot_side(const cvr_bricks *g, int n) {
  const int side = (1 << g->shift) + CVR_BRICK_APRON_LOW + CVR_BRICK_APRON_HIGH;
  return side < n ? side : n;
}

void cvr_brick_box(const cvr_bricks *g, const int volume_dims[3], const int b[3], int base[3],
                   int dims[3]) {
  for (int a = 0; a < 3; ++a) {
    dims[a] = slot_side(g, volume_dims[a]);
    const int first = (b[a] << g->shift) - CVR_BRICK_APRON_LOW;
    base[a] = first < 0 ? 0 : (first + dims[a] > volume_dims[a] ? volume_dims[a] - dims[a] : first);
  }
}

static size_t volume_bytes(const cvr_volume *v) {
  return (size_t)v->dims[0] * v->dims[1] * v->dims[2] * v->components *
         cvr_scalar_type_size(v->stored_type);
}

size_t cvr_bricks_budget(cvr_context *ctx) {
  if (ctx->memory_budget || ctx->backend != CVR_BACKEND_CUDA) return ctx->memory_budget;
  const size_t free_bytes = cvr_cuda_debug_free_bytes(ctx);
  const size_t margin = free_bytes / 10 > ((size_t)512 << 20) ? free_bytes / 10 : (size_t)512 << 20;
  return free_bytes > 2 * margin ? free_bytes - margin : free_bytes / 2;
}

size_t cvr_bricks_budget_for(cvr_context *ctx, const cvr_volume *volume, int *bricked) {
  const size_t budget = cvr_bricks_budget(ctx);
  *bricked = budget != 0 && volume_bytes(volume) > budget;
  return budget;
}

cvr_status cvr_bricks_create(cvr_context *ctx, cvr_volume *volume, size_t budget) {
  cvr_bricks *g = calloc(1, sizeof *g);
  if (!g) return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY, "bricks: out of host memory");
  g->shift = ctx->brick_shift;
  cvr_skip_grid_cells(volume->dims, g->shift, g->cells);
  g->count = g->cells[0] * g->cells[1] * g->cells[2];
  size_t voxels = 1;
  for (int a = 0; a < 3; ++a) voxels *= (size_t)slot_side(g, volume->dims[a]);
  g->slot_bytes = voxels * volume->components * cvr_scalar_type_size(volume->stored_type);
  const size_t slots = budget / g->slot_bytes;
  if (slots == 0) {
    const size_t slot_bytes = g->slot_bytes;
    free(g);
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "bricks: a memory budget of %zu bytes holds no brick of %d^3 voxels (%zu "
                    "bytes with its apron); give a larger budget or a smaller brick_size",
                    budget, 1 << ctx->brick_shift, slot_bytes);
  }
  g->slot_count = slots < (size_t)g->count ? (int)slots : g->count;
  g->slot_of = malloc((size_t)g->count * sizeof *g->slot_of);
  g->brick_in = malloc((size_t)g->slot_count * sizeof *g->brick_in);
  g->drawn_at = calloc((size_t)g->slot_count, sizeof *g->drawn_at);
  if (!g->slot_of || !g->brick_in || !g->drawn_at) {
    free(g->slot_of);
    free(g->brick_in);
    free(g->drawn_at);
    free(g);
    return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY, "bricks: out of host memory");
  }
  for (int i = 0; i < g->count; ++i) g->slot_of[i] = -1;
  for (int i = 0; i < g->slot_count; ++i) g->brick_in[i] = -1;
  volume->bricks = g;
  return CVR_OK;
}

void cvr_bricks_destroy(cvr_volume *volume) {
  cvr_bricks *g = volume->bricks;
  if (!g) return;
  cvr_cuda_bricks_release(volume);
  free(g->slot_of);
  free(g->brick_in);
  free(g->drawn_at);
  free(g->host_slots);
  free(g);
  volume->bricks = NULL;
}

static void forget(cvr_bricks *g) {
  for (int i = 0; i < g->count; ++i) g->slot_of[i] = -1;
  for (int i = 0; i < g->slot_count; ++i) g->brick_in[i] = -1;
}

void cvr_bricks_forget(cvr_volume *volume) {
  if (volume->bricks) forget(volume->bricks);
}

const char *cvr_bricks_unsupported(const cvr_volume *volume, const cvr_frame *frame) {
  if (volume->components > 1)
    return "a volume of several components is not rendered from bricks: it must fit the "
           "memory budget";
  if (frame->ray.mask != CVR_MASK_NONE)
    return "a volume with a mask is not rendered from bricks: it must fit the memory budget";
  if (frame->ray.shading.scattering.blend > 0.0f)
    return "volumetric scattering is not rendered from bricks (its shadow rays cross the "
           "whole volume): the volume must fit the memory budget";
  return NULL;
}

/* ---- a frame ---------------------------------------------------------------- */

/* The brick grid coordinates of brick id i. */
static void brick_coords(const cvr_bricks *g, int i, int b[3]) {
  b[0] = i % g->cells[0];
  b[1] = (i / g->cells[0]) % g->cells[1];
  b[2] = i / (g->cells[0] * g->cells[1]);
}

/* A brick's place in front-to-back order: its distance in bricks from the
 * eye's brick (perspective), or from the face the rays enter (parallel),
 * summed over the axes. Along every ray each axis's brick moves away from
 * the eye's, so the bricks a ray meets come in increasing distance: any
 * order by it is one every ray agrees with (ties never share a ray). */
static void brick_distances(const cvr_bricks *g, const cvr_ray_params *p, int *distance) {
  int eye_cell[3] = {0, 0, 0}, sign[3] = {0, 0, 0};
  if (p->perspective) {
    float eye[3];
    cvr_transform_affine(p->world_to_index, p->eye, eye);
    for (int a = 0; a < 3; ++a) eye_cell[a] = cvr_skip_cell(eye[a] + 0.5f, g->shift, g->cells[a]);
  } else {
    float dir[3];
    cvr_view_direction_index(p, dir);
    for (int a = 0; a < 3; ++a) sign[a] = dir[a] > 0.0f ? 1 : (dir[a] < 0.0f ? -1 : 0);
  }
  for (int i = 0; i < g->count; ++i) {
    int b[3], d = 0;
    brick_coords(g, i, b);
    for (int a = 0; a < 3; ++a) {
      if (p->perspective) d += abs(b[a] - eye_cell[a]);
      else if (sign[a] > 0) d += b[a];
      else if (sign[a] < 0) d += g->cells[a] - 1 - b[a];
    }
    distance[i] = d;
  }
}

/* Texels a little over two samples long: a sample's length in texels is at
 * most the world-to-index transform's (Frobenius) norm times the sample
 * distance. */
static double sample_reach(const cvr_ray_params *p) {
  double norm = 0.0;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) norm += (double)p->world_to_index[4 * r + c] * p->world_to_index[4 * r + c];
  return 2.0 * sqrt(norm) * p->sample_distance + 2.0;
}

/* The pixels whose rays can take samples brick b owns: the bounds of its
 * region's corners on screen, a pixel wider; the whole image where a corner
 * lies behind the eye. The outer bricks own what lies beyond the volume (a
 * grazing ray's first sample may), so their region reaches a few samples
 * past its box. */
static int brick_rect(const cvr_bricks *g, const cvr_ray_params *p, const double index_to_world[16],
                      const int b[3], int rect[4]) {
  const double reach = sample_reach(p);
  double lo[3], hi[3]; /* texel coordinates */
  for (int a = 0; a < 3; ++a) {
    lo[a] = (double)(b[a] << g->shift);
    hi[a] = (double)((b[a] + 1) << g->shift) + 1.0;
    if (b[a] == 0) lo[a] = fmin(lo[a], (double)p->box_min[a] + 0.5 - reach);
    if (b[a] == g->cells[a] - 1) hi[a] = fmax(hi[a], (double)p->box_max[a] + 0.5 + reach);
  }
  double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
  for (int corner = 0; corner < 8; ++corner) {
    const double t[3] = {(corner & 1 ? hi[0] : lo[0]) - 0.5, (corner & 2 ? hi[1] : lo[1]) - 0.5,
                         (corner & 4 ? hi[2] : lo[2]) - 0.5};
    double w[4] = {0.0, 0.0, 0.0, 0.0}, c[4] = {0.0, 0.0, 0.0, 0.0};
    for (int r = 0; r < 3; ++r)
      w[r] = index_to_world[4 * r] * t[0] + index_to_world[4 * r + 1] * t[1] +
             index_to_world[4 * r + 2] * t[2] + index_to_world[4 * r + 3];
    w[3] = 1.0;
    for (int r = 0; r < 4; ++r)
      for (int k = 0; k < 4; ++k) c[r] += (double)p->world_to_clip[4 * r + k] * w[k];
    if (!(c[3] > 1e-12) || !isfinite(c[0]) || !isfinite(c[1])) { /* behind the eye */
      rect[0] = rect[1] = 0;
      rect[2] = p->width;
      rect[3] = p->height;
      return 1;
    }
    /* pixel px's centre is at ndc (2 px + 1) / width - 1 */
    const double px = (c[0] / c[3] + 1.0) * 0.5 * p->width - 0.5;
    const double py = (c[1] / c[3] + 1.0) * 0.5 * p->height - 0.5;
    x0 = fmin(x0, px);
    x1 = fmax(x1, px);
    y0 = fmin(y0, py);
    y1 = fmax(y1, py);
  }
  rect[0] = (int)fmax(0.0, fmin((double)p->width, floor(x0) - 1.0));
  rect[1] = (int)fmax(0.0, fmin((double)p->height, floor(y0) - 1.0));
  rect[2] = (int)fmax(0.0, fmin((double)p->width, ceil(x1) + 2.0));
  rect[3] = (int)fmax(0.0, fmin((double)p->height, ceil(y1) + 2.0));
  return rect[0] < rect[2] && rect[1] < rect[3];
}

/* Opaque geometry's depth, as the largest depth of each tile of 16 x 16
 * pixels: what says, for a brick's pixels at once, that all of it lies
 * behind them. */
#define DEPTH_TILE 16

typedef struct depth_tiles {
  int cols, rows;
  float *max; /* per tile, rows bottom first as the depth's */
} depth_tiles;

/* The frame's tiles, or none (max NULL) where it has no host depth or no
 * geometry in front of the far plane. */
static depth_tiles depth_tiles_of(const cvr_frame *frame) {
  depth_tiles t = {0, 0, NULL};
  const float *depth = frame->opaque_depth;
  const int w = frame->ray.width, h = frame->ray.height;
  if (!depth) return t;
  t.cols = (w + DEPTH_TILE - 1) / DEPTH_TILE;
  t.rows = (h + DEPTH_TILE - 1) / DEPTH_TILE;
  t.max = malloc((size_t)t.cols * t.rows * sizeof *t.max);
  if (!t.max) return t; /* (nothing culled) */
  for (int i = 0; i < t.cols * t.rows; ++i) t.max[i] = 0.0f;
  int any = 0;
  for (int y = 0; y < h; ++y) {
    float *row = t.max + (size_t)(y / DEPTH_TILE) * t.cols;
    for (int x = 0; x < w; ++x) {
      const float d = depth[(size_t)y * w + x];
      /* (NaN counts as the far plane: no sample is culled for it) */
      const float v = d < 1.0f ? d : 1.0f;
      any |= v < 1.0f;
      if (!(v <= row[x / DEPTH_TILE])) row[x / DEPTH_TILE] = v;
    }
  }
  if (!any) {
    free(t.max);
    t.max = NULL;
  }
  return t;
}

/* Whether every sample brick b owns lies behind the opaque geometry of the
 * pixels in rect. A ray stops at that geometry, but takes its first sample
 * up to one sample past its entry even where the geometry is nearer (VTK's
 * mapper samples before it checks, ray_lattice.h): the brick's region is
 * widened by more than a sample (brick_rect's reach) on every side before
 * its nearest depth is found, at one of its corners. */
static int brick_behind_depth(const cvr_bricks *g, const cvr_ray_params *p,
                              const double index_to_world[16], const int b[3], const int rect[4],
                              const depth_tiles *tiles) {
  if (!tiles->max) return 0;
  const double reach = sample_reach(p);
  double nearest = INFINITY;
  for (int corner = 0; corner < 8; ++corner) {
    double t[3], w[3], c[4] = {0.0, 0.0, 0.0, 0.0};
    for (int a = 0; a < 3; ++a)
      t[a] = (corner >> a & 1 ? (double)((b[a] + 1) << g->shift) + 1.0 + reach
                              : (double)(b[a] << g->shift) - reach) - 0.5;
    for (int r = 0; r < 3; ++r)
      w[r] = index_to_world[4 * r] * t[0] + index_to_world[4 * r + 1] * t[1] +
             index_to_world[4 * r + 2] * t[2] + index_to_world[4 * r + 3];
    for (int r = 0; r < 4; ++r)
      c[r] = (double)p->world_to_clip[4 * r] * w[0] + (double)p->world_to_clip[4 * r + 1] * w[1] +
             (double)p->world_to_clip[4 * r + 2] * w[2] + (double)p->world_to_clip[4 * r + 3];
    if (!(c[3] > 1e-12)) return 0; /* (a corner behind the eye) */
    nearest = fmin(nearest, 0.5 * c[2] / c[3] + 0.5);
  }
  if (!(nearest > 0.0)) return 0;
  const int x0 = rect[0] / DEPTH_TILE, x1 = (rect[2] - 1) / DEPTH_TILE;
  const int y0 = rect[1] / DEPTH_TILE, y1 = (rect[3] - 1) / DEPTH_TILE;
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x)
      if (!((double)tiles->max[(size_t)y * tiles->cols + x] + 1e-6 < nearest)) return 0;
  return 1;
}

/* Whether every macro-cell of brick b is empty under the frame's function
 * (the skip grid's cells are no larger than bricks, cvr_settings). */
static int brick_empty(const cvr_bricks *g, const cvr_ray_params *p, const int b[3]) {
  if (!p->skip_empty || p->skip_shift > g->shift) return 0;
  int first[3], last[3];
  for (int a = 0; a < 3; ++a) {
    const int per = 1 << (g->shift - p->skip_shift);
    first[a] = b[a] * per;
    last[a] = first[a] + per - 1;
    if (last[a] > p->skip_cells[a] - 1) last[a] = p->skip_cells[a] - 1;
  }
  for (int z = first[2]; z <= last[2]; ++z)
    for (int y = first[1]; y <= last[1]; ++y)
      for (int x = first[0]; x <= last[0]; ++x)
        if (!p->skip_empty[((size_t)z * p->skip_cells[1] + y) * p->skip_cells[0] + x]) return 0;
  return 1;
}

/* A slot for a brick of the batch that starts at the frame's `batch`-th
 * draw (position[]: each brick's place in the frame's order, -1 where it is
 * not drawn): a free one, else the least recently drawn copy this frame no
 * longer needs, else the copy needed latest. A batch is no larger than the
 * cache, so one of its slots holds no brick of the batch. */
static int choose_slot(const cvr_bricks *g, const int *position, int batch) {
  int unneeded = -1, latest = -1;
  for (int s = 0; s < g->slot_count; ++s) {
    const int held = g->brick_in[s];
    if (held < 0) return s;
    const int at = position[held];
    if (at < batch) { /* drawn already, or not at all this frame */
      if (unneeded < 0 || g->drawn_at[s] < g->drawn_at[unneeded]) unneeded = s;
    } else if (latest < 0 || at > position[g->brick_in[latest]]) {
      latest = s;
    }
  }
  return unneeded >= 0 ? unneeded : latest;
}

/* A frame's plan: the bricks it draws, front to back, in batches, and the
 * cache slots their copies take. */
typedef struct brick_plan {
  int drawn;
  int *distance;  /* per brick */
  int *order;     /* the bricks drawn, in the frame's order */
  int *position;  /* per brick: its place in order, -1 where not drawn */
  int *batch_end; /* at a batch's first place: past its last */
  cvr_brick_draw *draws; /* per place */
  int *held;      /* per slot: the brick its copy is of, as the copies make it */
} brick_plan;

static void plan_free(brick_plan *f) {
  free(f->distance);
  free(f->order);
  free(f->position);
  free(f->batch_end);
  free(f->draws);
  free(f->held);
}

static int plan_alloc(const cvr_bricks *g, brick_plan *f) {
  const size_t n = (size_t)g->count;
  memset(f, 0, sizeof *f);
  f->distance = malloc(n * sizeof *f->distance);
  f->order = malloc(n * sizeof *f->order);
  f->position = malloc(n * sizeof *f->position);
  f->batch_end = malloc(n * sizeof *f->batch_end);
  f->draws = malloc(n * sizeof *f->draws);
  f->held = malloc((size_t)g->slot_count * sizeof *f->held);
  return f->distance && f->order && f->position && f->batch_end && f->draws && f->held;
}

/* The bricks the frame draws, by distance (a counting sort: stable, ids
 * ascending): not empty, seen by some pixel, not wholly behind opaque
 * geometry. */
static void order_bricks(const cvr_bricks *g, const cvr_frame *frame, brick_plan *f) {
  const cvr_ray_params *p = &frame->ray;
  const int n = g->count;
  /* index (texel - 0.5) to world: the inverse of the frame's world_to_index */
  double w2i[16] = {0}, i2w[16];
  for (int i = 0; i < 12; ++i) w2i[i] = p->world_to_index[i];
  w2i[15] = 1.0;
  const int invertible = cvr_mat4_invert(w2i, i2w);
  depth_tiles tiles = invertible ? depth_tiles_of(frame) : (depth_tiles){0, 0, NULL};
  brick_distances(g, p, f->distance);
  int max_distance = 0;
  for (int i = 0; i < n; ++i)
    max_distance = f->distance[i] > max_distance ? f->distance[i] : max_distance;
  f->drawn = 0;
  for (int i = 0; i < n; ++i) f->position[i] = -1;
  for (int d = 0; d <= max_distance; ++d)
    for (int i = 0; i < n; ++i) {
      if (f->distance[i] != d) continue;
      cvr_brick_draw *w = &f->draws[f->drawn];
      brick_coords(g, i, w->brick);
      if (brick_empty(g, p, w->brick)) continue;
      if (!invertible) {
        w->rect[0] = w->rect[1] = 0;
        w->rect[2] = p->width;
        w->rect[3] = p->height;
      } else if (!brick_rect(g, p, i2w, w->brick, w->rect) ||
                 brick_behind_depth(g, p, i2w, w->brick, w->rect, &tiles)) {
        continue;
      }
      f->position[i] = f->drawn;
      f->order[f->drawn++] = i;
    }
  free(tiles.max);
}

/* The batches (the bricks at one distance that the cache holds at once),
 * and the slots: the copies this frame's loads replace. */
static void plan_batches(cvr_bricks *g, const cvr_volume *volume, brick_plan *f) {
  memcpy(f->held, g->brick_in, (size_t)g->slot_count * sizeof *f->held);
  ++g->frames;
  for (int first = 0, batch = 0; first < f->drawn; ++batch) {
    int end = first + 1;
    while (end < f->drawn && end - first < g->slot_count &&
           f->distance[f->order[end]] == f->distance[f->order[first]])
      ++end;
    for (int k = first; k < end; ++k) {
      const int i = f->order[k];
      cvr_brick_draw *w = &f->draws[k];
      cvr_brick_box(g, volume->dims, w->brick, w->base, w->dims);
      w->load = g->slot_of[i] < 0;
      w->skip = 0;
      w->batch = batch;
      if (w->load) {
        const int slot = choose_slot(g, f->position, first);
        if (g->brick_in[slot] >= 0) g->slot_of[g->brick_in[slot]] = -1;
        g->brick_in[slot] = i;
        g->slot_of[i] = slot;
      }
      w->slot = g->slot_of[i];
      g->drawn_at[w->slot] = g->frames;
    }
    f->batch_end[first] = end;
    first = end;
  }
}

/* Each batch: its bricks' copies where missing, then its draw; a brick whose
 * rays have all stopped in front of it neither (ops->rays_done). Returns
 * how many were left out so. */
static cvr_status run_batches(const cvr_volume *volume, const cvr_frame *frame,
                              const cvr_brick_ops *ops, brick_plan *f, cvr_render_stats *stats,
                              int *skipped) {
  const cvr_ray_params *p = &frame->ray;
  /* rays stop early only where compositing reaches the stop opacity */
  const int rays_stop = ops->rays_done && p->early_termination &&
                        (p->blend == CVR_BLEND_COMPOSITE || p->blend == CVR_BLEND_ISOSURFACE);
  const uint64_t voxel = (uint64_t)volume->components * cvr_scalar_type_size(volume->stored_type);
  cvr_status st = ops->plan ? ops->plan(ops->self, f->draws, f->drawn) : CVR_OK;
  *skipped = 0;
  for (int first = 0; first < f->drawn && st == CVR_OK; first = f->batch_end[first]) {
    for (int k = first; k < f->batch_end[first] && st == CVR_OK; ++k) {
      cvr_brick_draw *w = &f->draws[k];
      if (first > 0 && rays_stop && ops->rays_done(ops->self, w)) {
        w->skip = 1;
        ++*skipped;
        continue;
      }
      if (!w->load) continue;
      const double start = cvr_now_ms();
      if ((st = ops->load(ops->self, w)) != CVR_OK) break;
      f->held[w->slot] = f->order[k];
      stats->bricks_loaded += 1;
      stats->brick_bytes_loaded += (uint64_t)w->dims[0] * w->dims[1] * w->dims[2] * voxel;
      stats->brick_load_ms += cvr_now_ms() - start;
    }
    if (st == CVR_OK) st = ops->draw(ops->self, f->draws, first, f->batch_end[first] - first);
    for (int k = first; k < f->batch_end[first] && st == CVR_OK; ++k)
      stats->bricks_drawn += !f->draws[k].skip;
  }
  return st;
}

/* The cache as the copies made it, where bricks were left out unloaded: a
 * slot planned for one holds what it held (a brick held twice, once). */
static void settle_cache(cvr_bricks *g, const brick_plan *f) {
  for (int i = 0; i < g->count; ++i) g->slot_of[i] = -1;
  for (int slot = 0; slot < g->slot_count; ++slot) {
    const int i = f->held[slot];
    g->brick_in[slot] = i >= 0 && g->slot_of[i] < 0 ? i : -1;
    if (g->brick_in[slot] >= 0) g->slot_of[i] = slot;
  }
}

cvr_status cvr_bricks_draw_frame(cvr_context *ctx, const cvr_volume *volume,
                                 const cvr_frame *frame, const cvr_brick_ops *ops,
                                 cvr_render_stats *stats) {
  cvr_bricks *g = volume->bricks;
  brick_plan f;
  if (!plan_alloc(g, &f)) {
    plan_free(&f);
    return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY, "bricks: out of host memory");
  }
  order_bricks(g, frame, &f);
  plan_batches(g, volume, &f);
  int skipped = 0;
  const cvr_status st = run_batches(volume, frame, ops, &f, stats, &skipped);
  if (st != CVR_OK) forget(g); /* (copies planned may not have been made) */
  else if (skipped) settle_cache(g, &f);
  stats->brick_count = g->count;
  stats->bricks_cached = 0;
  for (int s = 0; s < g->slot_count; ++s) stats->bricks_cached += g->brick_in[s] >= 0;
  plan_free(&f);
  return st;
}
