// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Empty-space skipping on the host: the pieces both backends share, and the
 * CPU backend's grid over the volume's own voxels. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cvr_internal.h"
#include "empty_space.h"

void cvr_skip_grid_cells(const int dims[3], int shift, int cells[3]) {
  for (int a = 0; a < 3; ++a) cells[a] = (dims[a] + (1 << shift) - 1) >> shift;
}

size_t cvr_skip_grid_count(const cvr_skip_grid *g) {
  return (size_t)g->cells[0] * g->cells[1] * g->cells[2];
}

void cvr_skip_visible_prefix(const cvr_rgba *table, int size, int *visible_prefix) {
  visible_prefix[0] = 0;
  for (int i = 0; i < size; ++i) visible_prefix[i + 1] = visible_prefix[i] + (table[i].a != 0.0f);
}

int cvr_skip_flags_current(cvr_skip_grid *g, const cvr_transfer_function *tf,
                           const cvr_ray_params *p) {
  const int current = g->flags_valid && g->tf_version == tf->version &&
                      g->sample_distance == p->sample_distance && g->tf_scale == p->tf_scale &&
                      g->tf_bias == p->tf_bias && g->blend == p->blend && g->mask == p->mask;
  g->flags_valid = 1;
  g->tf_version = tf->version;
  g->sample_distance = p->sample_distance;
  g->tf_scale = p->tf_scale;
  g->tf_bias = p->tf_bias;
  g->blend = p->blend;
  g->mask = p->mask;
  return current;
}

int cvr_skip_shift_for(const cvr_render_settings *s) {
  if (!s->empty_space_skipping || s->blend_mode != CVR_BLEND_COMPOSITE) return 0;
  int shift = 0;
  while ((1 << shift) < s->empty_space_cell) ++shift;
  return shift;
}

/* ---- the CPU backend's grid ----------------------------------------------- */

typedef struct range_job {
  const cvr_volume *volume;
  cvr_skip_grid *grid;
  atomic_int next_layer;
} range_job;

/* One layer of cells (one cz), a row of cells (one cy) at a time: the
 * stored rows of its slices and rows (z and y, aprons included) reduced
 * element by element into a row of lows and a row of highs, contiguous so
 * that the compiler vectorizes it, then each cell's extremes from its
 * stretch of those two rows (x), converted as the sampler converts (the
 * conversions keep the order). NaN (float32) classifies as the first entry
 * (raycast.h): a cell holding one has lo -inf. Scanning each row's cells
 * one by one, its texels converted first, took seconds at 2048^3. */
#define LAYER_RANGES(name, T, lowest, highest, is_float, texel)                                \
  static void name(const cvr_volume *v, cvr_skip_grid *g, int cz, void *scratch) {             \
    /* (locals: stores through a byte type may alias any field) */                             \
    const int n0 = v->dims[0], n1 = v->dims[1], c0 = g->cells[0], c1 = g->cells[1];            \
    const int shift = g->shift;                                                                \
    T *restrict lo = (T *)scratch, *restrict hi = lo + n0;                                     \
    unsigned char *restrict nan = (unsigned char *)(hi + n0);                                  \
    float *out = g->range + 2 * (size_t)cz * c0 * c1;                                          \
    int z0, z1;                                                                                \
    cvr_skip_cell_texels(cz, shift, v->dims[2], &z0, &z1);                                     \
    for (int cy = 0; cy < c1; ++cy) {                                                          \
      int y0, y1;                                                                              \
      cvr_skip_cell_texels(cy, shift, n1, &y0, &y1);                                           \
      for (int x = 0; x < n0; ++x) lo[x] = highest, hi[x] = lowest, nan[x] = 0;                \
      for (int z = z0; z <= z1; ++z)                                                           \
        for (int y = y0; y <= y1; ++y) {                                                       \
          const T *restrict row = (const T *)v->host_data + ((size_t)z * n1 + y) * n0;         \
          for (int x = 0; x < n0; ++x) {                                                       \
            const T t = row[x];                                                                \
            lo[x] = t < lo[x] ? t : lo[x];                                                     \
            hi[x] = t > hi[x] ? t : hi[x];                                                     \
            if (is_float) nan[x] |= t != t;                                                    \
          }                                                                                    \
        }                                                                                      \
      for (int cx = 0; cx < c0; ++cx) {                                                        \
        int x0, x1, any_nan = 0;                                                               \
        cvr_skip_cell_texels(cx, shift, n0, &x0, &x1);                                         \
        T l = highest, h = lowest;                                                             \
        for (int x = x0; x <= x1; ++x) {                                                       \
          l = lo[x] < l ? lo[x] : l;                                                           \
          h = hi[x] > h ? hi[x] : h;                                                           \
          any_nan |= nan[x];                                                                   \
        }                                                                                      \
        float *cell = out + 2 * ((size_t)cy * c0 + cx);                                        \
        cell[0] = any_nan ? -INFINITY : texel(l);                                              \
        cell[1] = texel(h);                                                                    \
      }                                                                                        \
    }                                                                                          \
  }
LAYER_RANGES(layer_u8, uint8_t, 0, UINT8_MAX, 0, cvr_texel_u8)
LAYER_RANGES(layer_s8, int8_t, INT8_MIN, INT8_MAX, 0, cvr_texel_s8)
LAYER_RANGES(layer_u16, uint16_t, 0, UINT16_MAX, 0, cvr_texel_u16)
LAYER_RANGES(layer_s16, int16_t, INT16_MIN, INT16_MAX, 0, cvr_texel_s16)
LAYER_RANGES(layer_f32, float, -INFINITY, INFINITY, 1, cvr_texel_f32)

typedef void (*layer_fn)(const cvr_volume *v, cvr_skip_grid *g, int cz, void *scratch);

static void *range_worker(void *arg) {
  range_job *j = arg;
  const cvr_volume *v = j->volume;
  const layer_fn layer = v->stored_type == CVR_UINT8    ? layer_u8
                         : v->stored_type == CVR_INT8   ? layer_s8
                         : v->stored_type == CVR_UINT16 ? layer_u16
                         : v->stored_type == CVR_INT16  ? layer_s16
                                                        : layer_f32; /* the rest is kept as float32 */
  /* a row of lows, one of highs (at most 4 bytes a texel), NaN flags */
  void *scratch = malloc((size_t)v->dims[0] * (2 * sizeof(float) + 1));
  if (!scratch) return arg; /* the caller sees the layer unfinished */
  for (int cz; (cz = atomic_fetch_add(&j->next_layer, 1)) < j->grid->cells[2];)
    layer(v, j->grid, cz, scratch);
  free(scratch);
  return NULL;
}

/* The flags' generations (cvr_skip_grid.generation), counted over the process. */
static atomic_ullong skip_generations;

/* Builds the value ranges of the volume's cells of 2^shift texels a side,
 * on up to `threads` threads. */
static cvr_status build_ranges(cvr_context *ctx, const cvr_volume *v, cvr_skip_grid *g, int shift,
                               int threads) {
  free(g->range);
  free(g->empty);
  memset(g, 0, sizeof *g);
  g->shift = shift;
  cvr_skip_grid_cells(v->dims, shift, g->cells);
  const size_t count = cvr_skip_grid_count(g);
  g->range = malloc(2 * count * sizeof *g->range);
  g->empty = malloc(count);
  if (!g->range || !g->empty) {
    free(g->range);
    free(g->empty);
    memset(g, 0, sizeof *g);
    return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY,
                    "empty-space skipping: no host memory for %zu macro-cells", count);
  }
  range_job job = {v, g, 0};
  if (threads > g->cells[2]) threads = g->cells[2];
  pthread_t pool[64];
  int started = 0;
  for (; started < threads - 1 && started < 64; ++started)
    if (pthread_create(&pool[started], NULL, range_worker, &job) != 0) break;
  int failed = range_worker(&job) != NULL;
  for (int i = 0; i < started; ++i) {
    void *r = NULL;
    pthread_join(pool[i], &r);
    failed |= r != NULL;
  }
  if (failed) {
    free(g->range);
    free(g->empty);
    memset(g, 0, sizeof *g);
    return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY, "empty-space skipping: out of host memory");
  }
  return CVR_OK;
}

cvr_status cvr_cpu_skip_prepare(cvr_context *ctx, cvr_volume *volume, const cvr_frame *frame,
                                int shift, const unsigned char **empty) {
  *empty = NULL;
  cvr_skip_grid *g = &volume->cpu_skip;
  if (g->shift != shift) {
    const cvr_status st = build_ranges(ctx, volume, g, shift, ctx->cpu_threads);
    if (st != CVR_OK) return st;
  }
  if (!cvr_skip_flags_current(g, frame->tf, &frame->ray)) {
    int prefix[CVR_TRANSFER_FUNCTION_TABLE_SIZE + 1];
    cvr_skip_visible_prefix(frame->visibility_table, frame->ray.tf_size, prefix);
    const size_t count = cvr_skip_grid_count(g);
    g->any_empty = 0;
    for (size_t i = 0; i < count; ++i) {
      g->empty[i] = (unsigned char)cvr_skip_range_empty(prefix, frame->ray.tf_size, frame->ray.tf_scale,
                                                        frame->ray.tf_bias, g->range[2 * i],
                                                        g->range[2 * i + 1]);
      g->any_empty |= g->empty[i];
    }
    g->generation = atomic_fetch_add(&skip_generations, 1) + 1;
  }
  *empty = g->any_empty ? g->empty : NULL;
  return CVR_OK;
}

void cvr_cpu_skip_release(cvr_volume *volume) {
  free(volume->cpu_skip.range);
  free(volume->cpu_skip.empty);
  memset(&volume->cpu_skip, 0, sizeof volume->cpu_skip);
}
