// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* libFuzzer target over the C API on the CPU backend (tools/fuzz.sh builds it
 * with AddressSanitizer and UndefinedBehaviorSanitizer). The input bytes
 * choose a volume (type, dimensions, spacing, direction, scalars, among them
 * NaN and infinities), a transfer function (size, range, values, gradient
 * opacity), a view (size, projection, camera or raw matrices, opaque depth)
 * and render settings (any field set to any value), then create, query,
 * render, update and destroy. Whatever the input: no crash, no sanitizer
 * report, every failure with a status and a message, and a successful
 * frame's image finite with depths in [0, 1]. Invalid dimensions come with
 * a small buffer: the library must refuse them before reading the data. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cvr.h"
#include "cvr_tools.h"

typedef struct bytes {
  const uint8_t *p;
  size_t n;
} bytes;

static unsigned take(bytes *b) {
  if (!b->n) return 0;
  --b->n;
  return *b->p++;
}

static unsigned take16(bytes *b) { return take(b) | take(b) << 8; }

/* An integer in [lo, hi], or now and then one of the edge values outside. */
static int take_int(bytes *b, int lo, int hi) {
  const unsigned c = take(b);
  if (c >= 240) {
    static const int edges[] = {0, -1, 1, 2, 3, 7, 1024, 1025, 16385, 65537, INT32_MAX, INT32_MIN, -7,
                                33, 4096, 100000};
    return edges[c - 240];
  }
  return lo + (int)(take16(b) % (unsigned)(hi - lo + 1));
}

/* A double near `usual`, or one of the values that break arithmetic. */
static double take_double(bytes *b, double usual) {
  const unsigned c = take(b);
  static const double odd[] = {0.0, -0.0, -1.0, NAN, INFINITY, -INFINITY, 1e-300, 1e300, 1e-7,
                               DBL_MIN, -1e30, 0.5, 2.0, 3.5, 1e6, 255.0};
  if (c >= 240) return odd[c - 240];
  return usual * (0.25 + (double)take16(b) / 65535.0 * 4.0) * (c < 8 ? -1.0 : 1.0);
}

static double clamp_finite(double v, double lo, double hi) {
  return v != v ? lo : (v < lo ? lo : (v > hi ? hi : v));
}

static void camera(bytes *b, const cvr_volume_desc *d, cvr_view *view) {
  const double center[3] = {0.5 * d->dims[0], 0.5 * d->dims[1], 0.5 * d->dims[2]};
  const double radius = 2.0 + d->dims[0] + d->dims[1] + d->dims[2];
  cvr_tools_orbit_view(center, radius * (0.3 + take(b) / 64.0), take(b) * 1.41, take(b) * 0.7 - 90.0,
                       view->projection, view->width, view->height, view);
}

static cvr_context *context(void) {
  static cvr_context *ctx;
  if (ctx) return ctx;
  cvr_context_options o;
  cvr_context_options_init(&o);
  o.backend = CVR_BACKEND_CPU;
  o.cpu_threads = 2;
  if (cvr_context_create(&o, &ctx) != CVR_OK) abort();
  cvr_tuning_set_cache_dir(ctx, ""); /* AUTO's tables in memory only */
  return ctx;
}

/* A failure must say what went wrong. */
static void expect_message(cvr_context *ctx, cvr_status st) {
  if (st != CVR_OK && (st < CVR_OK || st > CVR_ERROR_INTERNAL || !*cvr_last_error(ctx))) {
    fprintf(stderr, "status %d without a message\n", (int)st);
    abort();
  }
  if (st == CVR_ERROR_INTERNAL) {
    fprintf(stderr, "internal error: %s\n", cvr_last_error(ctx));
    abort();
  }
}

static void settings_from(bytes *b, cvr_render_settings *s) {
  cvr_render_settings_init(s);
  s->sample_distance = take_double(b, 0.7);
  if (take(b) < 128) s->sample_distance = fabs(clamp_finite(s->sample_distance, 0.2, 3.0));
  for (int k = take(b) % 12; k > 0; --k) {
    switch (take(b) % 37) {
    case 0: s->early_termination = take_int(b, 0, 1); break;
    case 1: s->termination_opacity = take_double(b, 0.9); break;
    case 2: s->empty_space_skipping = take_int(b, 0, 1); break;
    case 3: s->empty_space_cell = take_int(b, 4, 64); break;
    case 4: s->max_samples_per_ray = take_int(b, 0, 100); break;
    case 5: s->jittering = take_int(b, 0, 1); break;
    case 6: s->interpolation = (cvr_interpolation)take_int(b, 0, 1); break;
    case 7: s->blend_mode = (cvr_blend_mode)take_int(b, 0, 6); break;
    case 8: s->average_range[0] = take_double(b, 10.0), s->average_range[1] = take_double(b, 100.0); break;
    case 9:
      s->iso_value_count = take_int(b, 0, 4);
      for (int i = 0; i < 4; ++i) s->iso_values[i] = take_double(b, 50.0);
      break;
    case 10:
      for (int a = 0; a < 3; ++a) s->slice_origin[a] = take_double(b, 3.0), s->slice_normal[a] = take_double(b, 1.0);
      break;
    case 11:
      s->clip_plane_count = take_int(b, 0, 3);
      for (int i = 0; i < 3; ++i)
        for (int c = 0; c < 4; ++c) s->clip_planes[i][c] = take_double(b, 1.0);
      break;
    case 12:
      s->cropping = take_int(b, 0, 1);
      for (int i = 0; i < 6; ++i) s->cropping_planes[i] = take_double(b, 4.0);
      s->cropping_flags = take16(b) | (unsigned)take16(b) << 16;
      break;
    case 13: s->strategy = (cvr_strategy)take_int(b, 0, 4); break;
    case 14: s->block_width = take_int(b, 1, 64), s->block_height = take_int(b, 1, 64); break;
    case 15: s->horizontal_block[0] = take_int(b, 1, 64), s->vertical_block[1] = take_int(b, 1, 256); break;
    case 16: s->warp_variant = (cvr_warp_variant)take_int(b, 0, 3); break;
    case 17: s->warp_width = take_int(b, 1, 32); break;
    case 18: s->warp_rays[0] = take_int(b, 0, 16), s->warp_rays[1] = take_int(b, 0, 16); break;
    case 19: s->block_warps[0] = take_int(b, 1, 16), s->block_warps[1] = take_int(b, 1, 16); break;
    case 20: s->slab_block[0] = take_int(b, 1, 64), s->slab_block[1] = take_int(b, 1, 64); break;
    case 21: s->slab_depth = take_int(b, 1, 40); break;
    case 22: s->slab_border = (cvr_slab_border)take_int(b, 0, 1); break;
    case 23: s->memory_layout = (cvr_memory_layout)take_int(b, 0, 2); break;
    case 24: s->rotation_policy = (cvr_rotation_policy)take_int(b, 0, 2); break;
    case 25: s->rotation_tile[0] = take_int(b, 0, 40), s->rotation_tile[1] = take_int(b, 0, 70); break;
    case 26: s->rotation_hysteresis = take_double(b, 5.0); break;
    case 27: s->cpu_tile_width = take_int(b, 1, 64), s->cpu_tile_height = take_int(b, 1, 64); break;
    case 28: s->cpu_schedule = (cvr_cpu_schedule)take_int(b, 0, 1); break;
    case 29: s->shading.enabled = take_int(b, 0, 1); break;
    case 30:
      s->shading.ambient = take_double(b, 0.1), s->shading.diffuse = take_double(b, 0.7);
      s->shading.specular = take_double(b, 0.2), s->shading.specular_power = take_double(b, 10.0);
      break;
    case 31: s->shading.light_count = take_int(b, 0, 8); break;
    case 32: {
      cvr_light *l = &s->shading.lights[take(b) % CVR_MAX_LIGHTS];
      l->type = (cvr_light_type)take_int(b, 0, 3);
      for (int a = 0; a < 3; ++a) l->position[a] = take_double(b, 20.0), l->focal_point[a] = take_double(b, 1.0);
      l->cone_angle = take_double(b, 30.0);
      l->exponent = take_double(b, 1.0);
      break;
    }
    case 33: s->tuning_repeats = take_int(b, 1, 16); break;
    case 34: s->tuning_prune = take_double(b, 1.5); break;
    case 35: s->tuning_budget = take_double(b, 0.01); break;
    default: s->shading.two_sided = take_int(b, 0, 1); break;
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  bytes b = {data, size};
  cvr_context *ctx = context();

  /* the volume */
  cvr_volume_desc d;
  cvr_volume_desc_init(&d);
  d.type = (cvr_scalar_type)take_int(&b, 0, 7);
  const int valid_dims = take(&b) < 224;
  for (int a = 0; a < 3; ++a) d.dims[a] = valid_dims ? 2 + (int)(take(&b) % 11) : take_int(&b, 2, 20);
  if (!valid_dims) { /* at least one axis out of range, over a buffer of 8 voxels */
    static const int invalid[] = {0, -1, 1, 16385, 65537, INT32_MAX, INT32_MIN, 100000};
    d.dims[take(&b) % 3] = invalid[take(&b) % 8];
  }
  for (int a = 0; a < 3; ++a) {
    d.spacing[a] = take(&b) < 200 ? 0.5 + take(&b) / 128.0 : take_double(&b, 1.0);
    d.origin[a] = take(&b) < 200 ? 0.0 : take_double(&b, 10.0);
  }
  if (take(&b) >= 200)
    for (int i = 0; i < 9; ++i) d.direction[i] = take_double(&b, i % 4 == 0 ? 1.0 : 0.2);
  d.cell_data = take(&b) & 1;
  const size_t elem = d.type >= CVR_INT8 && d.type <= CVR_FLOAT64 ? cvr_scalar_type_size(d.type) : 1;
  size_t count = 1;
  for (int a = 0; a < 3; ++a) count *= valid_dims && d.dims[a] > 0 ? (size_t)d.dims[a] : 1;
  if (!valid_dims) count = 8; /* a small buffer: invalid sizes must be refused unread */
  uint8_t *voxels = malloc(count * elem);
  for (size_t i = 0; i < count * elem; ++i) voxels[i] = (uint8_t)take(&b);
  d.data = voxels;
  cvr_volume *volume = NULL;
  cvr_status st = cvr_volume_create(ctx, &d, &volume);
  expect_message(ctx, st);
  if (st == CVR_OK && !valid_dims) {
    fprintf(stderr, "dimensions %d x %d x %d accepted\n", d.dims[0], d.dims[1], d.dims[2]);
    abort();
  }
  /* new values over it: the same description must be taken; another type or
   * dimensions refused before the (then too small) buffer is read */
  if (volume && take(&b) >= 128) {
    cvr_volume_desc u = d;
    const int change = take(&b) % 3;
    if (change == 1) u.type = (cvr_scalar_type)((d.type + 1 + take(&b) % 7) % 8);
    if (change == 2) u.dims[take(&b) % 3] += 1;
    for (size_t i = 0; i < count * elem; ++i) voxels[i] ^= (uint8_t)take(&b);
    const cvr_status us = cvr_volume_update(volume, &u);
    expect_message(ctx, us);
    if ((us == CVR_OK) != (change == 0)) {
      fprintf(stderr, "update with change %d: status %d\n", change, (int)us);
      abort();
    }
  }

  /* the transfer function */
  const int entries = take(&b) < 230 ? 2 + (int)(take(&b) % 63) : take_int(&b, 0, 70000);
  const int table_entries = entries > 0 && entries <= 70000 ? entries : 2;
  float *rgba = malloc((size_t)4 * table_entries * sizeof *rgba);
  const int raw = take(&b) >= 240;
  for (int i = 0; i < 4 * table_entries; ++i) {
    if (raw) {
      uint32_t bits = take(&b) | take(&b) << 8 | take(&b) << 16 | (uint32_t)take(&b) << 24;
      memcpy(&rgba[i], &bits, sizeof bits);
    } else {
      rgba[i] = (float)take(&b) / 255.0f;
    }
  }
  float gradient[16];
  for (int i = 0; i < 16; ++i) gradient[i] = (float)take(&b) / 255.0f;
  cvr_transfer_function_desc td = {.rgba = rgba, .size = entries, .unit_distance = 1.0};
  td.range[0] = take(&b) < 200 ? -10.0 : take_double(&b, 10.0);
  td.range[1] = take(&b) < 200 ? 300.0 : take_double(&b, 300.0);
  if (take(&b) >= 220) td.unit_distance = take_double(&b, 1.0);
  if (take(&b) >= 160) {
    td.gradient_opacity = gradient;
    td.gradient_opacity_size = take_int(&b, 2, 16);
    if (td.gradient_opacity_size > 16 || td.gradient_opacity_size < 0) td.gradient_opacity_size = 1;
    td.gradient_opacity_max = take_double(&b, 50.0);
  }
  cvr_transfer_function *tf = NULL;
  st = cvr_transfer_function_create(ctx, &td, &tf);
  expect_message(ctx, st);

  /* the view */
  cvr_view view;
  cvr_view_init(&view);
  view.projection = (cvr_projection)take_int(&b, 0, 1);
  view.width = take(&b) < 230 ? 1 + (int)(take(&b) % 40) : take_int(&b, 1, 40);
  view.height = take(&b) < 230 ? 1 + (int)(take(&b) % 40) : take_int(&b, 1, 40);
  const int pixels_ok = view.width > 0 && view.height > 0 && view.width <= 40 && view.height <= 40;
  if (pixels_ok) camera(&b, &d, &view);
  if (take(&b) >= 230)
    for (int i = 0; i < 16; ++i) view.world_to_clip[i] = take_double(&b, i % 5 == 0 ? 0.1 : 0.01);
  if (take(&b) >= 230)
    for (int i = 0; i < 16; ++i) view.volume_to_world[i] = take_double(&b, i % 5 == 0 ? 1.0 : 0.1);
  const size_t pixels = pixels_ok ? (size_t)view.width * view.height : 1;
  float *opaque = NULL;
  if (pixels_ok && take(&b) >= 192) {
    opaque = malloc(pixels * sizeof *opaque);
    for (size_t i = 0; i < pixels; ++i) opaque[i] = take(&b) >= 250 ? NAN : take(&b) / 255.0f;
    view.opaque_depth = opaque;
  }

  cvr_render_settings s;
  settings_from(&b, &s);
  uint8_t *rgba8 = malloc(pixels * 4);
  float *rgba32f = malloc(pixels * 4 * sizeof(float)), *depth = malloc(pixels * sizeof(float));
  const cvr_image image = {rgba8, rgba32f, depth, NULL};
  if (volume && tf && pixels_ok) {
    for (int frame = 0; frame < 1 + (int)(take(&b) % 3); ++frame) {
      cvr_render_stats stats;
      st = cvr_render(ctx, volume, tf, &view, &s, &image, &stats);
      expect_message(ctx, st);
      if (st != CVR_OK) break;
      for (size_t i = 0; i < pixels; ++i) {
        for (int c = 0; c < 4; ++c)
          if (!isfinite(rgba32f[4 * i + c])) {
            fprintf(stderr, "pixel %zu channel %d is %g\n", i, c, rgba32f[4 * i + c]);
            abort();
          }
        if (!(depth[i] >= 0.0f && depth[i] <= 1.0f)) {
          fprintf(stderr, "pixel %zu depth %g\n", i, depth[i]);
          abort();
        }
      }
      if (stats.samples + stats.samples_skipped_empty + stats.samples_skipped_terminated < stats.samples) {
        fprintf(stderr, "sample counts overflow\n");
        abort();
      }
    }
    double range[2];
    expect_message(ctx, cvr_volume_get_range(volume, range));
    cvr_block_shape_choice choice;
    expect_message(ctx, cvr_choose_block_shape(ctx, volume, &view, &choice));
    if (take(&b) & 1) { /* the function changes under the volume */
      for (int i = 0; i < 4 * table_entries; ++i) rgba[i] = (float)take(&b) / 255.0f;
      st = cvr_transfer_function_update(tf, &td);
      expect_message(ctx, st);
      if (st == CVR_OK) expect_message(ctx, cvr_render(ctx, volume, tf, &view, &s, &image, NULL));
    }
    /* a 2D function from the bytes left (taken last, so that the inputs
     * kept in Testing/Fuzz/regressions still mean what they meant) */
    if (b.n >= 8) {
      td.size_2d[0] = take(&b) < 230 ? 2 + (int)(take(&b) % 7) : take_int(&b, 2, 8);
      td.size_2d[1] = take(&b) < 230 ? 2 + (int)(take(&b) % 7) : take_int(&b, 2, 8);
      td.gradient_max_2d = take(&b) < 200 ? 40.0 : take_double(&b, 40.0);
      const int fits = td.size_2d[0] > 0 && td.size_2d[1] > 0 && td.size_2d[0] <= 8 &&
                       td.size_2d[1] <= 8;
      float *table_2d = fits ? malloc((size_t)4 * td.size_2d[0] * td.size_2d[1] * sizeof *table_2d) : NULL;
      for (int i = 0; table_2d && i < 4 * td.size_2d[0] * td.size_2d[1]; ++i)
        table_2d[i] = take(&b) >= 250 ? NAN : (float)take(&b) / 250.0f; /* a few over 1 */
      td.rgba_2d = table_2d ? table_2d : rgba; /* too large a size: must be refused unread */
      const int valid = td.size_2d[0] >= 2 && td.size_2d[1] >= 2 && td.size_2d[0] <= 1024 &&
                        td.size_2d[1] <= 1024;
      if (!fits && valid) td.size_2d[0] = 1025; /* larger than the buffer: only invalid sizes */
      st = cvr_transfer_function_update(tf, &td);
      expect_message(ctx, st);
      if (st == CVR_OK) expect_message(ctx, cvr_render(ctx, volume, tf, &view, &s, &image, NULL));
      free(table_2d);
    }
  }
  free(rgba8);
  free(rgba32f);
  free(depth);
  free(opaque);
  cvr_transfer_function_destroy(tf);
  cvr_volume_destroy(volume);
  free(rgba);
  free(voxels);
  return 0;
}
