// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Empty-space skipping (cvr_render_settings.empty_space_skipping) on one
 * backend (argv[1]: cpu or cuda; cuda skips without a device).
 *
 * Skipping is exact: a frame with it renders the image of the same frame
 * without it, pixel for pixel and depth for depth, in every strategy, layout
 * and orientation (warp marching regroups its samples' "over" after a jump,
 * which moves float rounding: there the test tolerance of test_common.h).
 * Each check also asserts the statistics: the samples taken plus those
 * skipped as empty plus those behind early ray termination make up the same
 * lattice with and without skipping, and skipping steps over a large share
 * of a scene that is mostly transparent.
 *
 * The scene: a 97 x 83 x 71 uint16 volume (no axis a multiple of the cell
 * size) with low noise everywhere, which the transfer function makes
 * transparent, two spheres and a two-voxel wall, which it does not. Also:
 * every cell size, a transfer function change (the empty cells are found
 * again), NaN in float data (never skipped where NaN is visible),
 * cropping, clipping, jittering, blend modes that see every sample, invalid
 * cell sizes; and on the real data sets, where present, skipping against
 * not skipping. Usage: test_empty_space cpu|cuda [--quick] (--quick: two views,
 * no real data; for the sanitizers). */
#include <math.h>
#include <string.h>

#include "test_common.h"

enum { NX = 97, NY = 83, NZ = 71, W = 96, H = 80, PIXELS = W * H };

static cvr_backend backend;
static int views = 6;

/* Low noise, two spheres and a wall (uint16); float copies may carry NaN. */
static uint16_t *scene_voxels(void) {
  uint16_t *v = malloc((size_t)NX * NY * NZ * sizeof *v);
  for (int z = 0; z < NZ; ++z)
    for (int y = 0; y < NY; ++y)
      for (int x = 0; x < NX; ++x) {
        const size_t i = ((size_t)z * NY + y) * NX + x;
        unsigned h = (unsigned)i * 2654435761u;
        uint16_t value = (uint16_t)((h >> 16) % 300u); /* transparent noise */
        const double d1 = sqrt(pow(x - 30.0, 2) + pow(y - 40.0, 2) + pow(z - 35.0, 2));
        const double d2 = sqrt(pow(x - 75.0, 2) + pow(y - 20.0, 2) + pow(z - 50.0, 2));
        if (d1 < 18.0) value = (uint16_t)(20000.0 + 10000.0 * (1.0 - d1 / 18.0));
        if (d2 < 6.0) value = 40000;
        if (x == 60 || x == 61) value = 5000; /* a thin wall across a cell boundary */
        v[i] = value;
      }
  return v;
}

static cvr_volume *make_volume(cvr_context *ctx, cvr_scalar_type type, const void *data) {
  cvr_volume_desc d;
  cvr_volume_desc_init(&d);
  d.dims[0] = NX;
  d.dims[1] = NY;
  d.dims[2] = NZ;
  d.spacing[0] = 1.0;
  d.spacing[1] = 1.2;
  d.spacing[2] = 0.9;
  d.type = type;
  d.data = data;
  cvr_volume *v = NULL;
  if (cvr_volume_create(ctx, &d, &v) != CVR_OK) {
    fprintf(stderr, "volume: %s\n", cvr_last_error(ctx));
    exit(1);
  }
  return v;
}

/* Opacity zero below `visible_from` (data units) over [lo, hi], rising
 * after; `first_visible`: the first entry (where NaN classifies) visible. */
static cvr_transfer_function *make_tf(cvr_context *ctx, double lo, double hi, double visible_from,
                                      int first_visible) {
  enum { N = 256 };
  float t[4 * N];
  for (int i = 0; i < N; ++i) {
    const double value = lo + (hi - lo) * i / (N - 1);
    const double a = value < visible_from ? 0.0 : 0.05 + 0.5 * (value - visible_from) / (hi - visible_from);
    t[4 * i + 0] = (float)(0.3 + 0.7 * i / (N - 1));
    t[4 * i + 1] = (float)(0.9 - 0.5 * i / (N - 1));
    t[4 * i + 2] = 0.4f;
    t[4 * i + 3] = (float)(a > 1.0 ? 1.0 : a);
  }
  if (first_visible) t[3] = 0.6f;
  const cvr_transfer_function_desc d = {.rgba = t, .size = N, .range = {lo, hi}, .unit_distance = 2.0};
  cvr_transfer_function *tf = NULL;
  if (cvr_transfer_function_create(ctx, &d, &tf) != CVR_OK) {
    fprintf(stderr, "transfer function: %s\n", cvr_last_error(ctx));
    exit(1);
  }
  return tf;
}

static void view_of(int i, cvr_projection p, cvr_view *view) {
  static const double az[6] = {0.0, 90.0, 37.0, 161.0, 233.0, 301.0};
  static const double el[6] = {0.0, 0.0, 25.0, -33.0, 61.0, -12.0};
  const double center[3] = {48.0, 49.2, 31.5};
  cvr_tools_orbit_view(center, 75.0, az[i], el[i], p, W, H, view);
}

typedef struct frame {
  uint8_t rgba[PIXELS * 4];
  float depth[PIXELS];
  cvr_render_stats stats;
} frame;

static int render(cvr_context *ctx, cvr_volume *v, cvr_transfer_function *tf, const cvr_view *view,
                  const cvr_render_settings *s, frame *f, const char *what) {
  memset(f->rgba, 0xCD, sizeof f->rgba); /* every pixel must be written */
  const cvr_image img = {f->rgba, NULL, f->depth, NULL};
  if (cvr_render(ctx, v, tf, view, s, &img, &f->stats) != CVR_OK) {
    CHECK(0, "%s: %s", what, cvr_last_error(ctx));
    return 0;
  }
  return 1;
}

static uint64_t lattice(const cvr_render_stats *s) {
  return s->samples + s->samples_skipped_empty + s->samples_skipped_terminated;
}

static int compared = 0;

/* The frame with skipping against the same frame without; returns the share
 * of the lattice skipped as empty. */
static double check_exact(cvr_context *ctx, cvr_volume *v, cvr_transfer_function *tf,
                          const cvr_view *view, const cvr_render_settings *s, const char *what) {
  static frame off, on;
  cvr_render_settings without = *s, with = *s;
  without.empty_space_skipping = 0;
  with.empty_space_skipping = 1;
  if (!render(ctx, v, tf, view, &without, &off, what) || !render(ctx, v, tf, view, &with, &on, what))
    return 0.0;
  ++compared;
  const int regrouped = on.stats.strategy == CVR_STRATEGY_WARP_MARCHING;
  if (regrouped) {
    const cvr_test_diff d = cvr_test_compare(off.rgba, on.rgba, off.depth, on.depth, PIXELS);
    CHECK(cvr_test_within_tolerance(&d), "%s: skipping changed the image: over %.4f%% mean %.4f max %d",
          what, 100.0 * d.color.over_fraction, d.color.mean_diff, d.color.max_diff);
  } else {
    long differ = 0;
    for (long i = 0; i < PIXELS; ++i)
      differ += memcmp(off.rgba + 4 * i, on.rgba + 4 * i, 4) != 0 || off.depth[i] != on.depth[i];
    CHECK(differ == 0, "%s: skipping changed %ld of %d pixels", what, differ, PIXELS);
  }
  CHECK(off.stats.samples_skipped_empty == 0, "%s: %llu samples skipped with skipping off", what,
        (unsigned long long)off.stats.samples_skipped_empty);
  CHECK(on.stats.rays == off.stats.rays && lattice(&on.stats) == lattice(&off.stats),
        "%s: %llu rays / %llu lattice samples with skipping, %llu / %llu without", what,
        (unsigned long long)on.stats.rays, (unsigned long long)lattice(&on.stats),
        (unsigned long long)off.stats.rays, (unsigned long long)lattice(&off.stats));
  if (!s->early_termination)
    CHECK(on.stats.samples_skipped_terminated == 0 && off.stats.samples_skipped_terminated == 0,
          "%s: samples counted behind termination with it off", what);
  /* a ray stops at the same sample with or without skipping (regrouped: within the tolerance) */
  if (!regrouped)
    CHECK(on.stats.samples_skipped_terminated == off.stats.samples_skipped_terminated,
          "%s: %llu samples behind termination with skipping, %llu without", what,
          (unsigned long long)on.stats.samples_skipped_terminated,
          (unsigned long long)off.stats.samples_skipped_terminated);
  const double share = lattice(&on.stats) ? (double)on.stats.samples_skipped_empty / (double)lattice(&on.stats) : 0.0;
  printf("%-64s skipped %5.1f%%  taken %9llu  behind ERT %9llu  %s\n", what, 100.0 * share,
         (unsigned long long)on.stats.samples, (unsigned long long)on.stats.samples_skipped_terminated,
         cvr_strategy_name(on.stats.strategy));
  return share;
}

typedef struct config {
  const char *name;
  cvr_strategy strategy;
  int shaded;
  cvr_memory_layout layout;
  cvr_warp_variant variant;
  int warp_width;
  cvr_slab_border border;
  int slab_depth;
  cvr_rotation_policy rotation;
} config;

static const config cuda_configs[] = {
    {"standard", CVR_STRATEGY_STANDARD, 0, CVR_LAYOUT_TEXTURE, 0, 0, 0, 0, CVR_ROTATION_NEVER},
    {"standard shaded", CVR_STRATEGY_STANDARD, 1, CVR_LAYOUT_TEXTURE, 0, 0, 0, 0, CVR_ROTATION_NEVER},
    {"block shape", CVR_STRATEGY_BLOCK_SHAPE, 0, CVR_LAYOUT_TEXTURE, 0, 0, 0, 0, CVR_ROTATION_NEVER},
    {"standard array order", CVR_STRATEGY_STANDARD, 0, CVR_LAYOUT_ARRAY_ORDER, 0, 0, 0, 0, CVR_ROTATION_NEVER},
    {"standard Z-order, turned", CVR_STRATEGY_STANDARD, 0, CVR_LAYOUT_Z_ORDER, 0, 0, 0, 0,
     CVR_ROTATION_ON_REGION_CHANGE},
    {"warp 1D DBShuffle", CVR_STRATEGY_WARP_MARCHING, 0, CVR_LAYOUT_TEXTURE, CVR_WARP_DB_SHUFFLE, 32, 0, 0,
     CVR_ROTATION_NEVER},
    {"warp 1D SBShared shaded", CVR_STRATEGY_WARP_MARCHING, 1, CVR_LAYOUT_TEXTURE, CVR_WARP_SB_SHARED, 32, 0,
     0, CVR_ROTATION_NEVER},
    {"warp 3D DBShared width 8", CVR_STRATEGY_WARP_MARCHING, 0, CVR_LAYOUT_TEXTURE, CVR_WARP_DB_SHARED, 8, 0,
     0, CVR_ROTATION_NEVER},
    {"warp 3D SBShuffle width 4, array order", CVR_STRATEGY_WARP_MARCHING, 0, CVR_LAYOUT_ARRAY_ORDER,
     CVR_WARP_SB_SHUFFLE, 4, 0, 0, CVR_ROTATION_NEVER},
    {"slab ring depth 8", CVR_STRATEGY_SLAB, 0, CVR_LAYOUT_TEXTURE, 0, 0, CVR_SLAB_BORDER_RING, 8,
     CVR_ROTATION_NEVER},
    {"slab ring depth 4 shaded", CVR_STRATEGY_SLAB, 1, CVR_LAYOUT_TEXTURE, 0, 0, CVR_SLAB_BORDER_RING, 4,
     CVR_ROTATION_NEVER},
    {"slab gathered depth 16 shaded, turned", CVR_STRATEGY_SLAB, 1, CVR_LAYOUT_TEXTURE, 0, 0,
     CVR_SLAB_BORDER_GATHERED, 16, CVR_ROTATION_ON_REGION_CHANGE},
    {"slab gathered depth 32, Z-order", CVR_STRATEGY_SLAB, 0, CVR_LAYOUT_Z_ORDER, 0, 0,
     CVR_SLAB_BORDER_GATHERED, 32, CVR_ROTATION_NEVER},
};
static const config cpu_configs[] = {
    {"CPU", CVR_STRATEGY_STANDARD, 0, CVR_LAYOUT_TEXTURE, 0, 0, 0, 0, CVR_ROTATION_NEVER},
    {"CPU shaded", CVR_STRATEGY_STANDARD, 1, CVR_LAYOUT_TEXTURE, 0, 0, 0, 0, CVR_ROTATION_NEVER},
};

static void apply(const config *c, cvr_render_settings *s) {
  s->strategy = c->strategy;
  s->shading.enabled = c->shaded;
  s->memory_layout = c->layout;
  s->rotation_policy = c->rotation;
  if (c->strategy == CVR_STRATEGY_WARP_MARCHING) {
    s->warp_variant = c->variant;
    s->warp_width = c->warp_width;
  }
  if (c->strategy == CVR_STRATEGY_SLAB) {
    s->slab_border = c->border;
    s->slab_depth = c->slab_depth;
  }
}

static void strategies(cvr_context *ctx, cvr_volume *v, cvr_transfer_function *tf) {
  const int cuda = backend == CVR_BACKEND_CUDA;
  const config *configs = cuda ? cuda_configs : cpu_configs;
  const int count = cuda ? (int)(sizeof cuda_configs / sizeof *cuda_configs)
                         : (int)(sizeof cpu_configs / sizeof *cpu_configs);
  double least_per_ray = 1.0, least_slab = 1.0;
  for (int c = 0; c < count; ++c)
    for (int i = 0; i < views; ++i)
      for (int ert = 0; ert < 2; ++ert) {
        const cvr_projection p = i % 2 ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL;
        cvr_view view;
        view_of(i, p, &view);
        cvr_render_settings s;
        cvr_render_settings_init(&s);
        s.sample_distance = 0.5;
        s.early_termination = ert;
        apply(&configs[c], &s);
        char what[160];
        snprintf(what, sizeof what, "%s, view %d %s, ERT %s", configs[c].name, i,
                 p == CVR_PROJECTION_PERSPECTIVE ? "perspective" : "parallel", ert ? "on" : "off");
        const double share = check_exact(ctx, v, tf, &view, &s, what);
        double *least = configs[c].strategy == CVR_STRATEGY_SLAB ? &least_slab : &least_per_ray;
        if (share < *least) *least = share;
      }
  /* most of the scene is transparent noise: a ray on its own skips most of
   * it; a slab block only where none of its rays has a visible sample in the
   * slab (on an H100: 23-63% against 68-78% per ray, least with depth 32) */
  CHECK(least_per_ray > 0.5, "the smallest share a ray skipped is %.1f%%", 100.0 * least_per_ray);
  CHECK(least_slab > 0.15, "the smallest share a slab skipped is %.1f%%", 100.0 * least_slab);
}

static void cell_sizes(cvr_context *ctx, cvr_volume *v, cvr_transfer_function *tf) {
  cvr_view view;
  view_of(2, CVR_PROJECTION_PERSPECTIVE, &view);
  double previous = 2.0;
  for (int cell = 4; cell <= 64; cell *= 2) {
    cvr_render_settings s;
    cvr_render_settings_init(&s);
    s.sample_distance = 0.5;
    s.empty_space_cell = cell;
    char what[96];
    snprintf(what, sizeof what, "cells of %d voxels", cell);
    const double share = check_exact(ctx, v, tf, &view, &s, what);
    /* larger cells take in more of the visible structures: never more skipped */
    CHECK(share <= previous + 1e-9, "%s: %.1f%% skipped, more than with smaller cells", what, 100.0 * share);
    previous = share;
  }
}

static void table_changes(cvr_context *ctx, cvr_volume *v, cvr_transfer_function *sparse) {
  cvr_transfer_function *dense = make_tf(ctx, 0.0, 65535.0, 0.0, 0); /* every value visible */
  cvr_view view;
  view_of(3, CVR_PROJECTION_PARALLEL, &view);
  cvr_render_settings s;
  cvr_render_settings_init(&s);
  s.sample_distance = 0.5;
  s.early_termination = 0;
  s.empty_space_skipping = 1;
  static frame f;
  render(ctx, v, sparse, &view, &s, &f, "sparse");
  CHECK(f.stats.samples_skipped_empty > 0, "sparse: nothing skipped");
  const double dense_share = check_exact(ctx, v, dense, &view, &s, "a transfer function with no empty value");
  CHECK(dense_share == 0.0, "dense: %.2f%% skipped", 100.0 * dense_share);
  render(ctx, v, sparse, &view, &s, &f, "sparse again");
  CHECK(f.stats.samples_skipped_empty > 0, "sparse again: nothing skipped (flags not found anew)");
  /* a longer sample distance gives every sample more opacity, none of the zeros any */
  s.sample_distance = 1.7;
  check_exact(ctx, v, sparse, &view, &s, "sample distance 1.7");
  cvr_transfer_function_destroy(dense);
}

/* NaN classifies as the first entry: where that entry is visible, a cell
 * holding NaN is never empty, however transparent its other values. */
static void nan_values(cvr_context *ctx, const uint16_t *voxels) {
  const size_t count = (size_t)NX * NY * NZ;
  float *f = malloc(count * sizeof *f);
  long nans = 0;
  for (size_t i = 0; i < count; ++i) {
    const int x = (int)(i % NX), y = (int)(i / NX % NY), z = (int)(i / ((size_t)NX * NY));
    f[i] = (float)voxels[i];
    if (x >= 5 && x < 9 && y >= 50 && y < 70 && z >= 10 && z < 60) f[i] = NAN, ++nans;
  }
  cvr_volume *v = make_volume(ctx, CVR_FLOAT32, f);
  /* the table starts below the data (at -1000), its first entry visible */
  cvr_transfer_function *tf = make_tf(ctx, -1000.0, 65535.0, 2000.0, 1);
  cvr_view view;
  view_of(0, CVR_PROJECTION_PARALLEL, &view);
  cvr_render_settings s;
  cvr_render_settings_init(&s);
  s.sample_distance = 0.5;
  static frame off;
  cvr_render_settings without = s; /* check_exact turns skipping on */
  without.empty_space_skipping = 0;
  render(ctx, v, tf, &view, &without, &off, "NaN, no skipping");
  long seen = 0; /* the NaN block shows: some pixel left of the sphere is opaque */
  for (long i = 0; i < PIXELS; ++i) seen += off.rgba[4 * i + 3] > 100 && (i % W) < 30;
  CHECK(seen > 0, "NaN block: not visible without skipping");
  check_exact(ctx, v, tf, &view, &s, "NaN in float data, the first entry visible");
  printf("NaN voxels %ld, pixels showing them %ld\n", nans, seen);
  cvr_transfer_function_destroy(tf);
  cvr_volume_destroy(v);
  free(f);
}

static void other_settings(cvr_context *ctx, cvr_volume *v, cvr_transfer_function *tf) {
  cvr_view view;
  view_of(4, CVR_PROJECTION_PERSPECTIVE, &view);
  cvr_render_settings s;
  cvr_render_settings_init(&s);
  s.sample_distance = 0.5;
  s.cropping = 1;
  const double planes[6] = {20.0, 70.0, 10.0, 60.0, 15.0, 50.0};
  memcpy(s.cropping_planes, planes, sizeof planes);
  s.cropping_flags = 0x0ff0fffu;
  check_exact(ctx, v, tf, &view, &s, "cropping");
  s.cropping = 0;
  s.clip_plane_count = 2;
  const double clip[2][4] = {{1.0, 0.2, 0.0, -25.0}, {0.0, -1.0, 0.3, 70.0}};
  memcpy(s.clip_planes, clip, sizeof clip);
  check_exact(ctx, v, tf, &view, &s, "clipping planes");
  s.clip_plane_count = 0;
  s.jittering = 1;
  check_exact(ctx, v, tf, &view, &s, "jittering");
  s.jittering = 0;
  /* the projections see every sample: nothing is skipped */
  const cvr_blend_mode modes[3] = {CVR_BLEND_MAXIMUM, CVR_BLEND_AVERAGE, CVR_BLEND_ADDITIVE};
  for (int m = 0; m < 3; ++m) {
    s.blend_mode = modes[m];
    char what[64];
    snprintf(what, sizeof what, "blend %s", cvr_blend_mode_name(modes[m]));
    CHECK(check_exact(ctx, v, tf, &view, &s, what) == 0.0, "%s: samples skipped", what);
  }
}

static void invalid_cells(cvr_context *ctx, cvr_volume *v, cvr_transfer_function *tf) {
  cvr_view view;
  view_of(0, CVR_PROJECTION_PARALLEL, &view);
  const int bad[4] = {0, 3, 12, 128};
  for (int i = 0; i < 4; ++i) {
    cvr_render_settings s;
    cvr_render_settings_init(&s);
    s.empty_space_skipping = 1;
    s.empty_space_cell = bad[i];
    static frame f;
    const cvr_image img = {f.rgba, NULL, NULL, NULL};
    const cvr_status st = cvr_render(ctx, v, tf, &view, &s, &img, NULL);
    CHECK(st == CVR_ERROR_INVALID_ARGUMENT && strstr(cvr_last_error(ctx), "empty-space cell"),
          "cell %d: status %d, '%s'", bad[i], (int)st, cvr_last_error(ctx));
    s.empty_space_skipping = 0; /* the size means nothing then */
    CHECK(cvr_render(ctx, v, tf, &view, &s, &img, NULL) == CVR_OK, "cell %d, skipping off: %s", bad[i],
          cvr_last_error(ctx));
  }
}

/* The real data sets, where present: the standard strategy (and on CUDA warp
 * marching and the slab) with and without skipping, over four views. */
static void real_data(cvr_context *ctx) {
  for (int d = 0; d < 3; ++d) {
    cvr_test_scene sc;
    if (!cvr_test_scene_open(ctx, &cvr_test_datasets[d], &sc)) continue;
    const int strategies = backend == CVR_BACKEND_CUDA ? 3 : 1;
    const cvr_strategy which[3] = {CVR_STRATEGY_STANDARD, CVR_STRATEGY_WARP_MARCHING, CVR_STRATEGY_SLAB};
    for (int k = 0; k < strategies; ++k)
      for (int i = 0; i < 4; ++i) {
        cvr_view view;
        cvr_test_scene_view(&sc, i, i % 2 ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL, W, H,
                            &view);
        cvr_render_settings s;
        cvr_render_settings_init(&s);
        s.sample_distance = sc.sample_distance;
        s.strategy = which[k];
        s.shading.enabled = i >= 2;
        char what[160];
        snprintf(what, sizeof what, "%s, %s, view %d%s", cvr_test_datasets[d].file,
                 cvr_strategy_name(which[k]), i, s.shading.enabled ? " shaded" : "");
        check_exact(ctx, sc.volume, sc.tf, &view, &s, what);
      }
    cvr_test_scene_close(&sc);
  }
}

int main(int argc, char **argv) {
  cvr_context *ctx = cvr_test_context(argc, argv, &backend);
  const int quick = argc > 2 && !strcmp(argv[2], "--quick");
  if (quick) views = 2;
  uint16_t *voxels = scene_voxels();
  cvr_volume *v = make_volume(ctx, CVR_UINT16, voxels);
  cvr_transfer_function *tf = make_tf(ctx, 0.0, 65535.0, 2000.0, 0);
  strategies(ctx, v, tf);
  cell_sizes(ctx, v, tf);
  table_changes(ctx, v, tf);
  nan_values(ctx, voxels);
  other_settings(ctx, v, tf);
  invalid_cells(ctx, v, tf);
  if (!quick) real_data(ctx);
  printf("%d comparisons\n", compared);
  cvr_transfer_function_destroy(tf);
  cvr_volume_destroy(v);
  free(voxels);
  cvr_context_destroy(ctx);
  return cvr_test_finish(backend == CVR_BACKEND_CUDA ? "test_empty_space cuda" : "test_empty_space cpu");
}
