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

/* One stored row of n texels as the sampler returns them. */
static void row_values(const void *data, cvr_scalar_type type, size_t at, int n, float *out) {
  switch (type) {
  case CVR_UINT8:
    for (int i = 0; i < n; ++i) out[i] = cvr_texel_u8(((const uint8_t *)data)[at + i]);
    break;
  case CVR_INT8:
    for (int i = 0; i < n; ++i) out[i] = cvr_texel_s8(((const int8_t *)data)[at + i]);
    break;
  case CVR_UINT16:
    for (int i = 0; i < n; ++i) out[i] = cvr_texel_u16(((const uint16_t *)data)[at + i]);
    break;
  case CVR_INT16:
    for (int i = 0; i < n; ++i) out[i] = cvr_texel_s16(((const int16_t *)data)[at + i]);
    break;
  default: memcpy(out, (const float *)data + at, (size_t)n * sizeof *out);
  }
}

/* The range of values v[0..n-1] into lo, hi; NaN classifies as the first
 * entry (raycast.h), so it makes lo -inf. Comparisons, not fminf/fmaxf:
 * those are library calls without -ffinite-math-only (a third of the
 * grid's build time), and the NaN test is kept apart so the loop vectorizes. */
static void range_of(const float *v, int n, float *lo, float *hi) {
  float l = INFINITY, h = -INFINITY;
  int nan = 0;
  for (int i = 0; i < n; ++i) {
    l = v[i] < l ? v[i] : l;
    h = v[i] > h ? v[i] : h;
    nan |= v[i] != v[i];
  }
  *lo = nan ? -INFINITY : l;
  *hi = h;
}

/* The ranges of one layer of cells (one cz), a slice of texels at a time:
 * each row reduced to its cells along x, the rows to the cells along y. */
static void range_layer(range_job *j, int cz, float *row, float *row_cells) {
  const cvr_volume *v = j->volume;
  cvr_skip_grid *g = j->grid;
  const int *n = v->dims, *c = g->cells, shift = g->shift;
  float *out = g->range + 2 * (size_t)cz * c[0] * c[1];
  for (size_t i = 0; i < (size_t)c[0] * c[1]; ++i) out[2 * i] = INFINITY, out[2 * i + 1] = -INFINITY;
  int z0, z1;
  cvr_skip_cell_texels(cz, shift, n[2], &z0, &z1);
  for (int z = z0; z <= z1; ++z)
    for (int y = 0; y < n[1]; ++y) {
      row_values(v->host_data, v->stored_type, ((size_t)z * n[1] + y) * n[0], n[0], row);
      for (int cx = 0; cx < c[0]; ++cx) {
        int x0, x1;
        cvr_skip_cell_texels(cx, shift, n[0], &x0, &x1);
        range_of(row + x0, x1 - x0 + 1, &row_cells[2 * cx], &row_cells[2 * cx + 1]);
      }
      /* the cells along y whose texels include row y: at most two */
      for (int cy = (y - 2 < 0 ? 0 : (y - 2) >> shift); cy < c[1] && cy <= (y + 1) >> shift; ++cy) {
        int y0, y1;
        cvr_skip_cell_texels(cy, shift, n[1], &y0, &y1);
        if (y < y0 || y > y1) continue;
        float *cell = out + 2 * (size_t)cy * c[0];
        for (int cx = 0; cx < c[0]; ++cx) {
          /* (no NaN here: range_of's) */
          cell[2 * cx] = row_cells[2 * cx] < cell[2 * cx] ? row_cells[2 * cx] : cell[2 * cx];
          cell[2 * cx + 1] = row_cells[2 * cx + 1] > cell[2 * cx + 1] ? row_cells[2 * cx + 1]
                                                                       : cell[2 * cx + 1];
        }
      }
    }
}

static void *range_worker(void *arg) {
  range_job *j = arg;
  float *row = malloc(((size_t)j->volume->dims[0] + 2 * (size_t)j->grid->cells[0]) * sizeof *row);
  if (!row) return arg; /* the caller sees the layer unfinished */
  for (int cz; (cz = atomic_fetch_add(&j->next_layer, 1)) < j->grid->cells[2];)
    range_layer(j, cz, row, row + j->volume->dims[0]);
  free(row);
  return NULL;
}

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
  }
  *empty = g->any_empty ? g->empty : NULL;
  return CVR_OK;
}

void cvr_cpu_skip_release(cvr_volume *volume) {
  free(volume->cpu_skip.range);
  free(volume->cpu_skip.empty);
  memset(&volume->cpu_skip, 0, sizeof volume->cpu_skip);
}
