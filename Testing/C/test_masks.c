// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Masks (cvr_volume_set_mask): binary masks and label maps.
 *  - A binary mask that keeps the voxels of x < n/2 renders what cropping at
 *    that plane renders, bit for bit, on real data in every blend mode,
 *    shaded and not (on CUDA in every strategy, layout and with in-place
 *    rotation): a sample takes its nearest voxel's label, so the mask cuts
 *    at texel coordinate n/2 as the cropping plane does. A mask of ones
 *    renders the unmasked image, a mask of zeros nothing, and removing the
 *    mask renders the unmasked image again.
 *  - Label maps, closed form on the column scene (test_common.h; sample
 *    distance = unit distance, so that the volume's opacity needs no
 *    correction, and entries exact in half precision): the columns of label
 *    1 render as a volume whose function is the mix of the volume's entry
 *    and the label's by the blend factor; label 0, labels beyond the label
 *    functions and (in maximum intensity, which ignores label maps) every
 *    column render the volume's function. A label whose gradient opacity is
 *    zero vanishes; blend factor 0 is no label map.
 *  - Empty-space skipping with a label map: where the volume's function is
 *    transparent and a label's is not, the labelled voxels render, and the
 *    same with skipping as without, with samples skipped elsewhere.
 *  - With "cuda": a binary mask and a label map on real data in every
 *    strategy against the CPU reference.
 *  - Bad masks, label functions and mask settings are refused with a
 *    message.
 * Usage: test_masks cpu|cuda [--quick] */
#include <math.h>
#include <string.h>

#include "test_common.h"

/* 128^2 as the other comparisons with the CPU reference: at 96^2 the shaded
 * cranium CT label map put 10 pixels (0.11%) over 1 level through the texture
 * unit, every texture strategy alike (tools/bench/results/2026-11-23-h100-masks) */
enum { N = CVR_COLUMN_N, W = CVR_COLUMN_W, H = CVR_COLUMN_H, SIZE = 128, PIXELS = SIZE * SIZE };

/* The CUDA configurations a mask must not notice: every strategy, the
 * global-memory layouts, and the copy turned in place. */
typedef struct config {
  cvr_strategy strategy;
  cvr_memory_layout layout;
  cvr_rotation_policy rotation;
} config;
static const config cuda_configs[] = {
    {CVR_STRATEGY_STANDARD, CVR_LAYOUT_TEXTURE, CVR_ROTATION_NEVER},
    {CVR_STRATEGY_BLOCK_SHAPE, CVR_LAYOUT_TEXTURE, CVR_ROTATION_ON_REGION_CHANGE},
    {CVR_STRATEGY_WARP_MARCHING, CVR_LAYOUT_TEXTURE, CVR_ROTATION_NEVER},
    {CVR_STRATEGY_SLAB, CVR_LAYOUT_TEXTURE, CVR_ROTATION_NEVER},
    {CVR_STRATEGY_STANDARD, CVR_LAYOUT_ARRAY_ORDER, CVR_ROTATION_ON_REGION_CHANGE},
    {CVR_STRATEGY_WARP_MARCHING, CVR_LAYOUT_Z_ORDER, CVR_ROTATION_NEVER},
    {CVR_STRATEGY_AUTO, CVR_LAYOUT_TEXTURE, CVR_ROTATION_NEVER},
};
static const config cpu_configs[] = {{CVR_STRATEGY_STANDARD, CVR_LAYOUT_TEXTURE, CVR_ROTATION_NEVER}};

static void apply(const config *c, cvr_render_settings *s) {
  s->strategy = c->strategy;
  s->memory_layout = c->layout;
  s->rotation_policy = c->rotation;
}

/* Labels over a volume of dims: f(i, j, k) per voxel. */
typedef unsigned char (*label_fn)(const int dims[3], int i, int j, int k);
static unsigned char *make_labels(const int dims[3], label_fn f) {
  unsigned char *m = malloc((size_t)dims[0] * dims[1] * dims[2]);
  if (!m) exit(1);
  size_t o = 0;
  for (int k = 0; k < dims[2]; ++k)
    for (int j = 0; j < dims[1]; ++j)
      for (int i = 0; i < dims[0]; ++i) m[o++] = f(dims, i, j, k);
  return m;
}
static unsigned char left_half(const int d[3], int i, int j, int k) {
  (void)j, (void)k;
  return i < d[0] / 2;
}
static unsigned char ones(const int d[3], int i, int j, int k) { return (void)d, (void)i, (void)j, (void)k, 1; }
static unsigned char zeros(const int d[3], int i, int j, int k) { return (void)d, (void)i, (void)j, (void)k, 0; }
/* label 1 in a ball around the centre, 2 in the slab of the lowest z
 * quarter, 0 elsewhere */
static unsigned char ball_and_slab(const int d[3], int i, int j, int k) {
  const double x = (i - 0.5 * d[0]) / d[0], y = (j - 0.5 * d[1]) / d[1], z = (k - 0.5 * d[2]) / d[2];
  if (x * x + y * y + z * z < 0.09) return 1;
  return k < d[2] / 4 ? 2 : 0;
}

static const cvr_blend_mode blend_modes[] = {CVR_BLEND_COMPOSITE, CVR_BLEND_MAXIMUM,
                                             CVR_BLEND_MINIMUM,   CVR_BLEND_AVERAGE,
                                             CVR_BLEND_ADDITIVE,  CVR_BLEND_ISOSURFACE,
                                             CVR_BLEND_SLICE};

static void blend_settings(const cvr_test_scene *sc, const cvr_test_dataset *d, cvr_blend_mode b,
                           cvr_render_settings *s) {
  s->blend_mode = b;
  s->average_range[0] = d->lo;
  s->average_range[1] = d->hi;
  s->iso_value_count = 1;
  s->iso_values[0] = 0.5 * (d->lo + d->hi);
  for (int a = 0; a < 3; ++a) s->slice_origin[a] = sc->center[a];
  s->slice_normal[0] = 1.0, s->slice_normal[1] = 1.0, s->slice_normal[2] = 0.5;
}

/* Binary masks against cropping on real data, every blend mode. */
static void binary_as_cropping(cvr_context *ctx, cvr_backend backend, int quick) {
  static uint8_t a[PIXELS * 4], b[PIXELS * 4];
  static float da[PIXELS], db[PIXELS];
  const config *configs = backend == CVR_BACKEND_CUDA ? cuda_configs : cpu_configs;
  const size_t nconfigs = backend == CVR_BACKEND_CUDA ? sizeof cuda_configs / sizeof *cuda_configs : 1;
  const cvr_test_dataset *d = &cvr_test_datasets[0];
  cvr_test_scene sc;
  if (!cvr_test_scene_open(ctx, d, &sc)) return;
  const int *dims = sc.data.desc.dims;
  unsigned char *half = make_labels(dims, left_half), *all = make_labels(dims, ones),
                *none = make_labels(dims, zeros);
  for (size_t m = 0; m < sizeof blend_modes / sizeof *blend_modes; ++m)
    for (int shade = 0; shade < 2; ++shade)
      for (int v = 0; v < (quick ? 1 : 2); ++v)
        for (size_t c = 0; c < nconfigs; ++c) {
          cvr_view view;
          cvr_test_scene_view(&sc, v + 1, v ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL,
                              SIZE, SIZE, &view);
          cvr_render_settings s;
          cvr_render_settings_init(&s);
          s.sample_distance = sc.sample_distance;
          s.shading.enabled = shade;
          blend_settings(&sc, d, blend_modes[m], &s);
          apply(&configs[c], &s);
          char what[200];
          snprintf(what, sizeof what, "%s %s%s view %d %s %s", d->file,
                   cvr_blend_mode_name(s.blend_mode), shade ? " shaded" : "", v,
                   cvr_strategy_name(s.strategy), cvr_memory_layout_name(s.memory_layout));
          cvr_render_stats sa, sb;
          /* cropping: x index positions below n/2 - 0.5, i.e. texels below n/2 */
          cvr_render_settings cropped = s;
          cropped.cropping = 1;
          const double planes[6] = {dims[0] / 2 - 0.5, dims[0] / 2 - 0.5, -1.0, 1e9, -1.0, 1e9};
          memcpy(cropped.cropping_planes, planes, sizeof planes);
          cropped.cropping_flags = 0;
          for (int r = 0; r < 9; ++r) cropped.cropping_flags |= 1u << (3 * (r % 3) + 9 * (r / 3));
          CHECK(cvr_volume_set_mask(sc.volume, NULL) == CVR_OK, "%s", cvr_last_error(ctx));
          if (!cvr_test_render(ctx, sc.volume, sc.tf, &view, &cropped, a, da, &sa, what)) continue;
          CHECK(cvr_volume_set_mask(sc.volume, half) == CVR_OK, "%s", cvr_last_error(ctx));
          if (!cvr_test_render(ctx, sc.volume, sc.tf, &view, &s, b, db, &sb, what)) continue;
          cvr_test_diff diff = cvr_test_compare(a, b, da, db, PIXELS);
          CHECK(diff.color.max_diff == 0 && diff.depth_over_fraction == 0.0,
                "%s: the half mask differs from cropping (max %d levels, %.3f%% depths)", what,
                diff.color.max_diff, 100.0 * diff.depth_over_fraction);
          /* (most rays' minimum is air, and the slice plane cuts little of the bonsai) */
          const long least = s.blend_mode == CVR_BLEND_MINIMUM || s.blend_mode == CVR_BLEND_SLICE
                                 ? 16 : PIXELS / 50;
          CHECK(cvr_test_visible(b, PIXELS) > least, "%s: only %ld pixels visible", what,
                cvr_test_visible(b, PIXELS));
          if (c > 0) continue; /* the rest once per blend mode and view */
          CHECK(cvr_volume_set_mask(sc.volume, all) == CVR_OK, "%s", cvr_last_error(ctx));
          cvr_test_render(ctx, sc.volume, sc.tf, &view, &s, a, da, &sa, what);
          CHECK(cvr_volume_set_mask(sc.volume, NULL) == CVR_OK, "%s", cvr_last_error(ctx));
          cvr_test_render(ctx, sc.volume, sc.tf, &view, &s, b, db, &sb, what);
          diff = cvr_test_compare(a, b, da, db, PIXELS);
          CHECK(diff.color.max_diff == 0, "%s: a mask of ones differs from none (max %d levels)",
                what, diff.color.max_diff);
          CHECK(cvr_volume_set_mask(sc.volume, none) == CVR_OK, "%s", cvr_last_error(ctx));
          cvr_test_render(ctx, sc.volume, sc.tf, &view, &s, a, da, &sa, what);
          CHECK(cvr_test_visible(a, PIXELS) == 0, "%s: a mask of zeros leaves %ld pixels", what,
                cvr_test_visible(a, PIXELS));
          CHECK(sa.rays == sb.rays, "%s: %llu rays masked, %llu not", what,
                (unsigned long long)sa.rays, (unsigned long long)sb.rays);
        }
  CHECK(cvr_volume_set_mask(sc.volume, NULL) == CVR_OK, "%s", cvr_last_error(ctx));
  free(half);
  free(all);
  free(none);
  cvr_test_scene_close(&sc);
}

/* ---- label maps on the column scene --------------------------------------- */

enum { TABLE = 4 };

/* A function of TABLE equal entries over [0, 255]. */
static cvr_transfer_function *constant_tf(cvr_context *ctx, const float e[4], int labels,
                                          const float *label_rgba, const float *label_gradient) {
  float t[4 * TABLE];
  for (int i = 0; i < TABLE; ++i) memcpy(t + 4 * i, e, 4 * sizeof *e);
  static const float go[2] = {1.0f, 1.0f};
  const cvr_transfer_function_desc d = {.rgba = t, .size = TABLE, .range = {0.0, 255.0},
                                        .unit_distance = 0.5, /* the scene's sample distance */
                                        .gradient_opacity_size = 2,
                                        .gradient_opacity_max = 16.0,
                                        .gradient_opacity = label_gradient ? go : NULL,
                                        .label_count = labels,
                                        .label_rgba = label_rgba,
                                        .label_gradient_opacity = label_gradient};
  cvr_transfer_function *tf = NULL;
  CHECK(cvr_transfer_function_create(ctx, &d, &tf) == CVR_OK, "%s", cvr_last_error(ctx));
  return tf;
}

static int column_frame(cvr_context *ctx, cvr_volume *v, cvr_transfer_function *tf,
                        const cvr_render_settings *s, float *rgba) {
  cvr_view view;
  cvr_test_column_view(&view);
  const cvr_image img = {NULL, rgba, NULL, NULL};
  const cvr_status st = cvr_render(ctx, v, tf, &view, s, &img, NULL);
  CHECK(st == CVR_OK, "column frame: %s", cvr_last_error(ctx));
  return st == CVR_OK;
}

/* Every column (i, j) of got against want's, where its label is `label`
 * (labels[i + N j] of the column scene's front slice, all slices alike). */
static void check_columns(const float *got, const float *want, const unsigned char *labels,
                          int label, const char *what) {
  int worst = -1;
  double worst_diff = 0.0;
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i) {
      if (labels[i + N * j] != label) continue;
      const float *g = cvr_test_column_pixel(got, i, j), *w = cvr_test_column_pixel(want, i, j);
      for (int c = 0; c < 4; ++c)
        if (fabs(g[c] - w[c]) > worst_diff) worst_diff = fabs(g[c] - w[c]), worst = i + N * j;
    }
  CHECK(worst_diff <= 1e-5, "%s: column (%d, %d) of label %d is off by %g", what, worst % N,
        worst / N, label, worst_diff);
}

static void label_maps(cvr_context *ctx, cvr_backend backend) {
  static float masked[W * H * 4], want[W * H * 4], plain[W * H * 4];
  /* the volume: 4 x (values 0..60 across x, a gradient of 4 per voxel) */
  uint8_t voxels[N * N * N];
  for (int k = 0; k < N; ++k)
    for (int j = 0; j < N; ++j)
      for (int i = 0; i < N; ++i) voxels[i + N * (j + N * k)] = (uint8_t)(4 * i);
  cvr_volume *v = cvr_test_column_volume(ctx, voxels);
  /* labels per column: 1 in the left half, 3 (no function) in the top rows,
   * 0 elsewhere; every slice alike */
  unsigned char front[N * N], labels[N * N * N];
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i) front[i + N * j] = j >= 12 ? 3 : (i < 8 ? 1 : 0);
  for (int k = 0; k < N; ++k) memcpy(labels + N * N * k, front, sizeof front);
  CHECK(cvr_volume_set_mask(v, labels) == CVR_OK, "%s", cvr_last_error(ctx));

  const float volume_entry[4] = {0.75f, 0.5f, 0.25f, 0.125f};
  float rows[2 * 4 * TABLE]; /* label 1: blue-green, label 2: unused (red) */
  for (int i = 0; i < TABLE; ++i) {
    const float l1[4] = {0.0f, 0.25f, 1.0f, 0.5f}, l2[4] = {1.0f, 0.0f, 0.0f, 1.0f};
    memcpy(rows + 4 * i, l1, sizeof l1);
    memcpy(rows + 4 * (TABLE + i), l2, sizeof l2);
  }
  cvr_transfer_function *tf = constant_tf(ctx, volume_entry, 2, rows, NULL);
  cvr_transfer_function *volume_only = constant_tf(ctx, volume_entry, 0, NULL, NULL);
  const config *configs = backend == CVR_BACKEND_CUDA ? cuda_configs : cpu_configs;
  const size_t nconfigs = backend == CVR_BACKEND_CUDA ? sizeof cuda_configs / sizeof *cuda_configs : 1;
  const double blends[] = {1.0, 0.5, 0.25};
  for (size_t c = 0; c < nconfigs; ++c)
    for (size_t b = 0; b < sizeof blends / sizeof *blends; ++b) {
      cvr_render_settings s;
      cvr_render_settings_init(&s);
      s.sample_distance = 0.5;
      s.early_termination = 0;
      apply(&configs[c], &s);
      s.mask_type = CVR_MASK_LABEL_MAP;
      s.mask_blend = blends[b];
      const float f = (float)blends[b];
      float mix[4];
      for (int k = 0; k < 4; ++k) mix[k] = volume_entry[k] + f * (rows[k] - volume_entry[k]);
      cvr_transfer_function *mixed = constant_tf(ctx, mix, 0, NULL, NULL);
      char what[160];
      snprintf(what, sizeof what, "label map, blend %.2f, %s %s", f, cvr_strategy_name(s.strategy),
               cvr_memory_layout_name(s.memory_layout));
      if (column_frame(ctx, v, tf, &s, masked) && column_frame(ctx, v, mixed, &s, want) &&
          column_frame(ctx, v, volume_only, &s, plain)) {
        check_columns(masked, want, front, 1, what);
        check_columns(masked, plain, front, 0, what);
        check_columns(masked, plain, front, 3, what); /* no function: the volume's */
        CHECK(cvr_test_column_pixel(masked, 2, 2)[3] > 0.1f, "%s: label 1 transparent", what);
      }
      cvr_transfer_function_destroy(mixed);
      if (b > 0) continue;
      /* maximum intensity and blend factor 0 ignore the label map */
      cvr_render_settings other = s;
      other.blend_mode = CVR_BLEND_MAXIMUM;
      snprintf(what, sizeof what, "label map in maximum intensity, %s", cvr_strategy_name(s.strategy));
      if (column_frame(ctx, v, tf, &other, masked) && column_frame(ctx, v, volume_only, &other, plain))
        for (int l = 0; l < 4; ++l) check_columns(masked, plain, front, l, what);
      other = s;
      other.mask_blend = 0.0;
      snprintf(what, sizeof what, "label map, blend 0, %s", cvr_strategy_name(s.strategy));
      if (column_frame(ctx, v, tf, &other, masked) && column_frame(ctx, v, volume_only, &other, plain))
        for (int l = 0; l < 4; ++l) check_columns(masked, plain, front, l, what);
    }
  /* a label whose gradient opacity is zero at every magnitude vanishes; the
   * volume's (ones) leaves its samples as they are */
  float label_gradient[2 * 2] = {0.0f, 0.0f, 1.0f, 1.0f};
  cvr_transfer_function *faded = constant_tf(ctx, volume_entry, 2, rows, label_gradient);
  for (size_t c = 0; c < nconfigs; ++c) {
    cvr_render_settings s;
    cvr_render_settings_init(&s);
    s.sample_distance = 0.5;
    apply(&configs[c], &s);
    s.mask_type = CVR_MASK_LABEL_MAP;
    char what[160];
    snprintf(what, sizeof what, "label gradient opacity 0, %s", cvr_strategy_name(s.strategy));
    if (column_frame(ctx, v, faded, &s, masked) && column_frame(ctx, v, volume_only, &s, plain)) {
      const float zero[W * H * 4] = {0};
      check_columns(masked, zero, front, 1, what);
      check_columns(masked, plain, front, 0, what);
    }
  }
  cvr_transfer_function_destroy(faded);
  cvr_transfer_function_destroy(tf);
  cvr_transfer_function_destroy(volume_only);
  cvr_volume_destroy(v);
}

/* ---- empty-space skipping with a label map, real data --------------------- */

static void label_skipping(cvr_context *ctx, int quick) {
  static uint8_t a[PIXELS * 4], b[PIXELS * 4];
  static float da[PIXELS], db[PIXELS];
  const cvr_test_dataset *d = &cvr_test_datasets[0];
  cvr_test_scene sc;
  if (!cvr_test_scene_open(ctx, d, &sc)) return;
  double range[2];
  cvr_volume_get_range(sc.volume, range);
  /* the volume's function transparent, label 1's the scene's ramp */
  enum { T = 256 };
  float clear[4 * T], ramp[4 * T];
  cvr_tools_ramp_tf(ramp, T, range[0], range[1], d->lo, d->hi, 0.5f);
  memcpy(clear, ramp, sizeof ramp);
  for (int i = 0; i < T; ++i) clear[4 * i + 3] = 0.0f;
  const cvr_transfer_function_desc desc = {.rgba = clear, .size = T, .range = {range[0], range[1]},
                                           .unit_distance = sc.sample_distance,
                                           .label_count = 1, .label_rgba = ramp};
  cvr_transfer_function *tf = NULL;
  CHECK(cvr_transfer_function_create(ctx, &desc, &tf) == CVR_OK, "%s", cvr_last_error(ctx));
  unsigned char *labels = make_labels(sc.data.desc.dims, ball_and_slab);
  CHECK(cvr_volume_set_mask(sc.volume, labels) == CVR_OK, "%s", cvr_last_error(ctx));
  for (int v = 0; tf && v < (quick ? 1 : 3); ++v) {
    cvr_view view;
    cvr_test_scene_view(&sc, v, v % 2 ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL, SIZE,
                        SIZE, &view);
    cvr_render_settings s;
    cvr_render_settings_init(&s);
    s.sample_distance = sc.sample_distance;
    s.mask_type = CVR_MASK_LABEL_MAP;
    s.empty_space_skipping = 0;
    cvr_render_stats sa, sb;
    char what[160];
    snprintf(what, sizeof what, "%s view %d: label 1 only, skipping", d->file, v);
    if (!cvr_test_render(ctx, sc.volume, tf, &view, &s, a, da, &sa, what)) continue;
    s.empty_space_skipping = 1;
    if (!cvr_test_render(ctx, sc.volume, tf, &view, &s, b, db, &sb, what)) continue;
    const cvr_test_diff diff = cvr_test_compare(a, b, da, db, PIXELS);
    CHECK(cvr_test_visible(a, PIXELS) > PIXELS / 50, "%s: only %ld pixels visible", what,
          cvr_test_visible(a, PIXELS));
    CHECK(diff.color.max_diff == 0 && diff.depth_over_fraction == 0.0,
          "%s: differs from no skipping (max %d levels)", what, diff.color.max_diff);
    CHECK(sb.samples_skipped_empty > 0, "%s: nothing skipped", what);
    s.mask_type = CVR_MASK_BINARY; /* the volume's function alone: nothing */
    if (cvr_test_render(ctx, sc.volume, tf, &view, &s, b, db, &sb, what))
      CHECK(cvr_test_visible(b, PIXELS) == 0, "%s: %ld pixels visible without the label map", what,
            cvr_test_visible(b, PIXELS));
  }
  free(labels);
  cvr_transfer_function_destroy(tf);
  cvr_test_scene_close(&sc);
}

/* ---- CUDA against the CPU reference --------------------------------------- */

static void against_reference(cvr_context *cpu, cvr_context *gpu, int quick) {
  static uint8_t ref[PIXELS * 4], out[PIXELS * 4];
  static float ref_depth[PIXELS], out_depth[PIXELS];
  for (int ds = 0; ds < (quick ? 1 : 2); ++ds) {
    const cvr_test_dataset *d = &cvr_test_datasets[ds];
    cvr_test_scene c, g;
    if (!cvr_test_scene_open(cpu, d, &c)) continue;
    if (!cvr_test_scene_open(gpu, d, &g)) {
      CHECK(0, "%s on the GPU", d->file);
      cvr_test_scene_close(&c);
      continue;
    }
    double range[2];
    cvr_volume_get_range(c.volume, range);
    enum { T = 256 };
    float ramp[4 * T], rows[2 * 4 * T];
    cvr_tools_ramp_tf(ramp, T, range[0], range[1], d->lo, d->hi, 0.5f);
    for (int i = 0; i < T; ++i) { /* label 1 red, label 2 the ramp's opacity halved, green */
      const float a = ramp[4 * i + 3];
      const float l1[4] = {1.0f, 0.2f, 0.1f, a}, l2[4] = {0.1f, 0.9f, 0.2f, 0.5f * a};
      memcpy(rows + 4 * i, l1, sizeof l1);
      memcpy(rows + 4 * (T + i), l2, sizeof l2);
    }
    const cvr_transfer_function_desc desc = {.rgba = ramp, .size = T,
                                             .range = {range[0], range[1]},
                                             .unit_distance = c.sample_distance,
                                             .label_count = 2, .label_rgba = rows};
    cvr_transfer_function *ctf = NULL, *gtf = NULL;
    CHECK(cvr_transfer_function_create(cpu, &desc, &ctf) == CVR_OK, "%s", cvr_last_error(cpu));
    CHECK(cvr_transfer_function_create(gpu, &desc, &gtf) == CVR_OK, "%s", cvr_last_error(gpu));
    unsigned char *labels = make_labels(c.data.desc.dims, ball_and_slab);
    CHECK(cvr_volume_set_mask(c.volume, labels) == CVR_OK, "%s", cvr_last_error(cpu));
    CHECK(cvr_volume_set_mask(g.volume, labels) == CVR_OK, "%s", cvr_last_error(gpu));
    for (int kind = 0; ctf && gtf && kind < 3; ++kind)
      for (int v = 0; v < (quick ? 1 : 3); ++v) {
        cvr_view view;
        cvr_test_scene_view(&c, v, v % 2 ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL,
                            SIZE, SIZE, &view);
        cvr_render_settings s;
        cvr_render_settings_init(&s);
        s.sample_distance = c.sample_distance;
        s.mask_type = kind == 0 ? CVR_MASK_BINARY : CVR_MASK_LABEL_MAP;
        s.mask_blend = kind == 2 ? 0.5 : 1.0;
        s.shading.enabled = kind == 2;
        char what[160];
        snprintf(what, sizeof what, "%s %s view %d", d->file,
                 kind == 0 ? "binary" : kind == 1 ? "label map" : "label map 0.5 shaded", v);
        cvr_render_stats rs, gs;
        if (!cvr_test_render(cpu, c.volume, ctf, &view, &s, ref, ref_depth, &rs, what)) continue;
        CHECK(cvr_test_visible(ref, PIXELS) > PIXELS / 50, "%s: only %ld pixels visible", what,
              cvr_test_visible(ref, PIXELS));
        for (size_t k = 0; k < sizeof cuda_configs / sizeof *cuda_configs; ++k) {
          apply(&cuda_configs[k], &s);
          char run[220];
          snprintf(run, sizeof run, "%s %s %s", what, cvr_strategy_name(s.strategy),
                   cvr_memory_layout_name(s.memory_layout));
          memset(out, 0xCD, sizeof out);
          if (!cvr_test_render(gpu, g.volume, gtf, &view, &s, out, out_depth, &gs, run)) continue;
          const cvr_test_diff diff = cvr_test_compare(ref, out, ref_depth, out_depth, PIXELS);
          if (gs.strategy == CVR_STRATEGY_SLAB && s.shading.enabled)
            CHECK(diff.color.mean_diff < 4.0, "%s: mean %.4f levels (slab gradients)", run,
                  diff.color.mean_diff);
          else
            CHECK(cvr_test_within_tolerance(&diff), "%s: over %.4f%% mean %.4f max %d", run,
                  100.0 * diff.color.over_fraction, diff.color.mean_diff, diff.color.max_diff);
        }
      }
    free(labels);
    cvr_transfer_function_destroy(ctf);
    cvr_transfer_function_destroy(gtf);
    cvr_test_scene_close(&c);
    cvr_test_scene_close(&g);
  }
}

/* ---- bad input ------------------------------------------------------------ */

static void expect_error(cvr_context *ctx, cvr_status st, const char *needle, const char *what) {
  CHECK(st != CVR_OK, "%s: accepted", what);
  CHECK(st == CVR_OK || strstr(cvr_last_error(ctx), needle), "%s: message '%s' lacks '%s'", what,
        cvr_last_error(ctx), needle);
}

static void bad_input(cvr_context *ctx) {
  CHECK(cvr_volume_set_mask(NULL, NULL) == CVR_ERROR_INVALID_ARGUMENT, "mask of no volume");
  uint8_t voxels[N * N * N] = {0};
  cvr_volume *v = cvr_test_column_volume(ctx, voxels);
  cvr_transfer_function *tf = cvr_test_column_tf(ctx, 0.5);
  float rgba[4 * TABLE] = {0}, rows[4 * TABLE] = {0};
  cvr_transfer_function_desc d = {.rgba = rgba, .size = TABLE, .range = {0.0, 255.0},
                                  .unit_distance = 1.0, .label_count = 1, .label_rgba = rows};
  d.label_count = CVR_MAX_LABEL + 1;
  expect_error(ctx, cvr_transfer_function_update(tf, &d), "label functions; 0..255", "256 labels");
  d.label_count = -1;
  expect_error(ctx, cvr_transfer_function_update(tf, &d), "label functions", "-1 labels");
  d.label_count = 1;
  d.label_rgba = NULL;
  expect_error(ctx, cvr_transfer_function_update(tf, &d), "label_rgba is NULL", "no rows");
  d.label_rgba = rows;
  rows[4 * 2 + 1] = 2.0f;
  expect_error(ctx, cvr_transfer_function_update(tf, &d), "label 1 entry 2 component 1 is 2",
               "entry out of range");
  rows[4 * 2 + 1] = 0.0f;
  const float bad_gradient[2] = {0.5f, -1.0f};
  d.label_gradient_opacity = bad_gradient;
  d.gradient_opacity_size = 2;
  d.gradient_opacity_max = 10.0;
  expect_error(ctx, cvr_transfer_function_update(tf, &d), "label 1 gradient-opacity entry 1",
               "gradient entry out of range");
  d.gradient_opacity_size = 1;
  expect_error(ctx, cvr_transfer_function_update(tf, &d), "gradient-opacity size 1",
               "gradient rows without a size");
  d.label_gradient_opacity = NULL;
  float table_2d[4 * 2 * 2] = {0};
  d.rgba_2d = table_2d;
  d.size_2d[0] = d.size_2d[1] = 2;
  d.gradient_max_2d = 1.0;
  expect_error(ctx, cvr_transfer_function_update(tf, &d), "need a 1D function", "labels with 2D");
  cvr_render_settings s;
  cvr_render_settings_init(&s);
  s.sample_distance = 0.5;
  float out[W * H * 4];
  cvr_view view;
  cvr_test_column_view(&view);
  const cvr_image img = {NULL, out, NULL, NULL};
  s.mask_type = (cvr_mask_type)7;
  expect_error(ctx, cvr_render(ctx, v, tf, &view, &s, &img, NULL), "unknown mask type 7",
               "mask type 7");
  s.mask_type = CVR_MASK_LABEL_MAP;
  s.mask_blend = 1.5;
  expect_error(ctx, cvr_render(ctx, v, tf, &view, &s, &img, NULL), "mask blend factor 1.5",
               "blend 1.5");
  s.mask_blend = NAN;
  expect_error(ctx, cvr_render(ctx, v, tf, &view, &s, &img, NULL), "mask blend factor", "blend NaN");
  /* the refused updates kept the function, and a valid frame renders */
  s.mask_blend = 1.0;
  CHECK(cvr_render(ctx, v, tf, &view, &s, &img, NULL) == CVR_OK, "after bad input: %s",
        cvr_last_error(ctx));
  cvr_transfer_function_destroy(tf);
  cvr_volume_destroy(v);
}

int main(int argc, char **argv) {
  cvr_backend backend;
  cvr_context *ctx = cvr_test_context(argc, argv, &backend);
  const int quick = argc > 2 && strcmp(argv[2], "--quick") == 0;
  label_maps(ctx, backend);
  binary_as_cropping(ctx, backend, quick);
  label_skipping(ctx, quick);
  bad_input(ctx);
  if (backend == CVR_BACKEND_CUDA) {
    char *cpu_arg[] = {argv[0], "cpu"};
    cvr_context *cpu = cvr_test_context(2, cpu_arg, NULL);
    against_reference(cpu, ctx, quick);
    cvr_context_destroy(cpu);
  }
  cvr_context_destroy(ctx);
  return cvr_test_finish("test_masks");
}
