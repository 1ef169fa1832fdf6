// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* 2D transfer functions over two components (cvr.h,
 * CVR_COMPONENTS_TRANSFER_2D: VTK's Transfer2DYAxisArray).
 *  - Closed form on the column scene (test_common.h): component 0 is 4 i
 *    along x, component 1 is 8 j along y, and a 2 x 2 function spans values
 *    [0, 120] on both axes, so the ray through column (i, j) reads the
 *    bilinear entry at (4 i, 8 j) at each of its n samples: composited
 *    1 - (1 - a)^n, as it is in a slice and by maximum and minimum intensity,
 *    and added n times (times component 0's place between the outer column
 *    centres) by additive blending.
 *  - Reductions on real data (bonsai, the cranium CT), every blend mode,
 *    shaded and not, each against a one-component volume of the data within
 *    the cross-backend tolerance (the function's columns centred where the
 *    1D table's entries lie): a function whose lower rows hold one 1D ramp
 *    and whose upper rows another renders, with component 1 a constant in
 *    the upper or lower part of its range, what that ramp renders; a
 *    function of both axes renders, with component 1 the data reversed, what
 *    the 1D table of its entries along that anti-diagonal renders (maximum
 *    and minimum intensity thus classify the extreme of component 0 with
 *    component 1 of the same sample; not isosurfaces, whose sample past a
 *    crossing keeps its own component 1, not the iso value's reverse).
 *  - With "cuda": a function of both axes on the cranium CT with component 1
 *    the data reversed, every blend mode, against the CPU reference;
 *    whatever is asked, the standard strategy renders it from a texture.
 *  - Bad input: component counts, a missing 2D function, y ranges, label
 *    functions; refused with a message, and the next valid frame renders.
 * Usage: test_transfer_2d_axes cpu|cuda [--quick] */
#include <math.h>
#include <string.h>

#include "test_common.h"

enum { SIZE = 128, PIXELS = SIZE * SIZE, T = 256, ROWS = 64 };

static const cvr_blend_mode blend_modes[] = {CVR_BLEND_COMPOSITE, CVR_BLEND_MAXIMUM,
                                             CVR_BLEND_MINIMUM,   CVR_BLEND_AVERAGE,
                                             CVR_BLEND_ADDITIVE,  CVR_BLEND_ISOSURFACE,
                                             CVR_BLEND_SLICE};
enum { BLEND_MODES = sizeof blend_modes / sizeof *blend_modes };

static cvr_transfer_function *create_tf(cvr_context *ctx, const cvr_transfer_function_desc *d) {
  cvr_transfer_function *tf = NULL;
  CHECK(cvr_transfer_function_create(ctx, d, &tf) == CVR_OK, "tf: %s", cvr_last_error(ctx));
  return tf;
}

/* A 2D function over two components: x over x_range, y over y_range. */
static cvr_transfer_function_desc axes_desc(const float *rgba_2d, int w, int h,
                                            const double x_range[2], const double y_range[2],
                                            double unit_distance) {
  const cvr_transfer_function_desc d = {.range = {x_range[0], x_range[1]},
                                        .unit_distance = unit_distance,
                                        .rgba_2d = rgba_2d,
                                        .size_2d = {w, h},
                                        .range_2d_y = {y_range[0], y_range[1]},
                                        .component_count = 2,
                                        .component_mode = CVR_COMPONENTS_TRANSFER_2D};
  return d;
}

/* ---- closed form ------------------------------------------------------------ */

static void closed_form(cvr_context *ctx) {
  enum { N = CVR_COLUMN_N };
  static uint8_t voxels[2 * N * N * N];
  for (int k = 0; k < N; ++k)
    for (int j = 0; j < N; ++j)
      for (int i = 0; i < N; ++i) {
        const size_t o = 2 * ((size_t)i + N * (j + (size_t)N * k));
        voxels[o] = (uint8_t)(4 * i);
        voxels[o + 1] = (uint8_t)(8 * j);
      }
  cvr_volume *v = cvr_test_column_components(ctx, voxels, 2);
  const double range[2] = {0.0, 120.0};
  const cvr_transfer_function_desc desc = axes_desc(cvr_test_table_2x2, 2, 2, range, range, 1.0);
  cvr_transfer_function *tf = create_tf(ctx, &desc);
  cvr_view view;
  cvr_test_column_view(&view);
  static float rgba[4 * CVR_COLUMN_W * CVR_COLUMN_H];
  static const cvr_blend_mode modes[] = {CVR_BLEND_COMPOSITE, CVR_BLEND_MAXIMUM, CVR_BLEND_MINIMUM,
                                         CVR_BLEND_ADDITIVE, CVR_BLEND_SLICE};
  for (size_t m = 0; v && tf && m < sizeof modes / sizeof *modes; ++m) {
    cvr_render_settings s;
    cvr_render_settings_init(&s);
    s.sample_distance = 0.5;
    s.early_termination = 0;
    s.blend_mode = modes[m];
    s.slice_origin[2] = 7.3;
    const cvr_image img = {NULL, rgba, NULL, NULL};
    cvr_render_stats st;
    const char *name = cvr_blend_mode_name(modes[m]);
    if (cvr_render(ctx, v, tf, &view, &s, &img, &st) != CVR_OK) {
      CHECK(0, "%s: %s", name, cvr_last_error(ctx));
      continue;
    }
    const double n = modes[m] == CVR_BLEND_SLICE ? 1.0 : (double)st.samples / (double)st.rays;
    CHECK(modes[m] == CVR_BLEND_SLICE || st.samples == (uint64_t)(CVR_COLUMN_SAMPLES * N * N),
          "%s: %llu samples over %llu rays, 30 a column expected", name,
          (unsigned long long)st.samples, (unsigned long long)st.rays);
    for (int j = 0; j < N; j += 3)
      for (int i = 1; i < N; i += 3) {
        double e[4], want[4];
        cvr_test_table_2x2_entry(4.0 * i / 120.0, 8.0 * j / 120.0, e);
        if (modes[m] == CVR_BLEND_ADDITIVE) { /* grey: n x place x opacity, clamped */
          const double place = fmin(fmax((4.0 * i - 30.0) / 60.0, 0.0), 1.0);
          want[0] = want[1] = want[2] = fmin(n * place * e[3], 1.0);
          want[3] = 1.0;
        } else { /* n equal samples over each other (one for the projections) */
          const double a = modes[m] == CVR_BLEND_COMPOSITE ? 1.0 - pow(1.0 - e[3], n) : e[3];
          for (int k = 0; k < 3; ++k) want[k] = e[k] * a;
          want[3] = a;
        }
        const float *p = cvr_test_column_pixel(rgba, i, j);
        for (int k = 0; k < 4; ++k)
          CHECK(fabs(p[k] - want[k]) < 3e-3, "%s column (%d, %d) channel %d: %.5f, expected %.5f",
                name, i, j, k, p[k], want[k]);
      }
  }
  cvr_transfer_function_destroy(tf);
  cvr_volume_destroy(v);
}

/* ---- real data -------------------------------------------------------------- */

/* Component 0 the data, component 1 as user points to: a constant (the
 * range's top or a fifth of the way up), or the data reversed. */
typedef struct second_axis {
  double range[2];
  int kind; /* 0 high, 1 low, 2 reversed */
} second_axis;

static double axis_value(int c, double x, const void *user) {
  const second_axis *a = user;
  if (c == 0) return x;
  return a->kind == 0 ? a->range[1]
         : a->kind == 1 ? a->range[0] + floor(0.2 * (a->range[1] - a->range[0]))
                        : a->range[0] + a->range[1] - x;
}

/* Two ramps over the data's range (opacity over [lo, hi]), reddish and
 * bluish. */
static void ramps(const double range[2], const cvr_test_dataset *d, float low[4 * T],
                  float high[4 * T]) {
  cvr_tools_ramp_tf(low, T, range[0], range[1], d->lo, d->hi, 0.5f);
  cvr_tools_ramp_tf(high, T, range[0], range[1], d->lo, d->hi, 0.5f);
  for (int i = 0; i < T; ++i) {
    const float f = (float)i / (T - 1);
    const float r[3] = {1.0f, 0.3f + 0.5f * f, 0.1f}, b[3] = {0.1f, 0.4f * f, 1.0f};
    memcpy(low + 4 * i, r, sizeof r);
    memcpy(high + 4 * i, b, sizeof b);
    high[4 * i + 3] *= 0.7f;
  }
}

/* The x extent that centres T columns on the entries of a T-entry table
 * over range (a texture's entry centres). */
static void centred_x(const double range[2], double out[2]) {
  const double half_entry = 0.5 * (range[1] - range[0]) / (T - 1);
  out[0] = range[0] - half_entry;
  out[1] = range[1] + half_entry;
}

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

/* Colour from both axes, opacity the ramp of x times a rise along y. */
static void both_axes(const double range[2], const cvr_test_dataset *d, float *table) {
  static float ramp[4 * T];
  cvr_tools_ramp_tf(ramp, T, range[0], range[1], d->lo, d->hi, 0.6f);
  for (int y = 0; y < ROWS; ++y)
    for (int x = 0; x < T; ++x) {
      float *e = table + 4 * ((size_t)y * T + x);
      e[0] = (float)x / (T - 1);
      e[1] = (float)y / (ROWS - 1);
      e[2] = 0.5f;
      e[3] = ramp[4 * x + 3] * (0.2f + 0.8f * (float)y / (ROWS - 1));
    }
}

/* The T x ROWS function's entries where component 1 is component 0
 * reversed: at column i, the row of value range[1] - (i / (T - 1)) of the
 * range, bilinear as a texture filters. */
static void anti_diagonal(const float *table, float *out) {
  for (int i = 0; i < T; ++i) {
    const double y = fmin(fmax((1.0 - (double)i / (T - 1)) * ROWS - 0.5, 0.0), ROWS - 1.0);
    const int j = y < ROWS - 1 ? (int)y : ROWS - 2;
    for (int c = 0; c < 4; ++c) {
      const double below = table[4 * ((size_t)j * T + i) + c];
      const double above = table[4 * ((size_t)(j + 1) * T + i) + c];
      out[4 * i + c] = (float)(below + (y - j) * (above - below));
    }
  }
}

static void reductions(cvr_context *ctx, int quick) {
  static uint8_t ref[PIXELS * 4], out[PIXELS * 4];
  static float ref_depth[PIXELS], out_depth[PIXELS];
  static float low[4 * T], high[4 * T], diagonal[4 * T], halves[4 * T * ROWS], both[4 * T * ROWS];
  static const char *const kinds[] = {"y high", "y low", "y reversed"};
  for (int ds = 0; ds < (quick ? 1 : 2); ++ds) {
    const cvr_test_dataset *d = &cvr_test_datasets[ds];
    cvr_test_scene sc;
    if (!cvr_test_scene_open(ctx, d, &sc)) continue;
    double range[2], x_range[2];
    cvr_volume_get_range(sc.volume, range);
    centred_x(range, x_range);
    ramps(range, d, low, high);
    for (int y = 0; y < ROWS; ++y)
      memcpy(halves + 4 * (size_t)T * y, y < ROWS / 2 ? low : high, sizeof low);
    both_axes(range, d, both);
    anti_diagonal(both, diagonal);
    for (int kind = 0; kind < 3; ++kind) {
      const cvr_transfer_function_desc desc =
          axes_desc(kind == 2 ? both : halves, T, ROWS, x_range, range, sc.sample_distance);
      cvr_transfer_function *tf = create_tf(ctx, &desc);
      const cvr_transfer_function_desc one_desc = {.rgba = kind == 2 ? diagonal : kind ? low : high,
                                                   .size = T, .range = {range[0], range[1]},
                                                   .unit_distance = sc.sample_distance};
      cvr_transfer_function *one_tf = create_tf(ctx, &one_desc);
      const second_axis axis = {{range[0], range[1]}, kind};
      cvr_volume *two = cvr_test_components_volume(ctx, &sc.data.desc, 2, axis_value, &axis);
      for (int b = 0; tf && one_tf && two && b < BLEND_MODES; ++b)
        for (int shaded = 0; shaded < 2; ++shaded) {
          if (quick && shaded != (blend_modes[b] == CVR_BLEND_COMPOSITE)) continue;
          if (kind == 2 && blend_modes[b] == CVR_BLEND_ISOSURFACE) continue;
          cvr_view view;
          cvr_test_scene_view(&sc, b + shaded + kind, (b + shaded) % 2 ? CVR_PROJECTION_PERSPECTIVE
                                                                       : CVR_PROJECTION_PARALLEL,
                              SIZE, SIZE, &view);
          cvr_render_settings s;
          cvr_render_settings_init(&s);
          s.sample_distance = sc.sample_distance; /* = the unit distance: no correction */
          s.strategy = CVR_STRATEGY_STANDARD;
          s.empty_space_skipping = 0;
          s.shading.enabled = shaded;
          blend_settings(&sc, d, blend_modes[b], &s);
          char what[200];
          snprintf(what, sizeof what, "%s, %s, %s%s", d->file, kinds[kind],
                   cvr_blend_mode_name(blend_modes[b]), shaded ? " shaded" : "");
          cvr_render_stats rs, ts;
          if (!cvr_test_render(ctx, sc.volume, one_tf, &view, &s, ref, ref_depth, &rs, what) ||
              !cvr_test_render(ctx, two, tf, &view, &s, out, out_depth, &ts, what))
            continue;
          /* the minimum of the data is air; a slice shows little of a ramp */
          const long least = blend_modes[b] == CVR_BLEND_SLICE     ? 20
                             : blend_modes[b] == CVR_BLEND_MINIMUM ? 0
                                                                   : PIXELS / 50;
          CHECK(cvr_test_visible(ref, PIXELS) >= least, "%s: only %ld pixels visible", what,
                cvr_test_visible(ref, PIXELS));
          const cvr_test_diff diff = cvr_test_compare(ref, out, ref_depth, out_depth, PIXELS);
          CHECK(cvr_test_within_tolerance(&diff), "%s: over %.4f%% mean %.4f max %d", what,
                100.0 * diff.color.over_fraction, diff.color.mean_diff, diff.color.max_diff);
          /* the anti-diagonal's 1D interpolation moves opacities by a
           * rounding: a few rays terminate a sample apart */
          const double apart = (double)llabs((long long)cvr_test_visited(&ts) -
                                             (long long)cvr_test_visited(&rs));
          CHECK(kind == 2 ? apart <= CVR_TOL_ERT_SAMPLES_FRACTION * (double)cvr_test_visited(&rs)
                          : apart == 0.0,
                "%s: %llu samples against %llu", what, (unsigned long long)cvr_test_visited(&ts),
                (unsigned long long)cvr_test_visited(&rs));
        }
      cvr_volume_destroy(two);
      cvr_transfer_function_destroy(one_tf);
      cvr_transfer_function_destroy(tf);
    }
    cvr_test_scene_close(&sc);
  }
}

/* ---- CUDA against the CPU ------------------------------------------------------ */

static void against_reference(cvr_context *cpu, cvr_context *gpu, int quick) {
  static uint8_t ref[PIXELS * 4], out[PIXELS * 4];
  static float ref_depth[PIXELS], out_depth[PIXELS];
  static float table[4 * T * ROWS];
  static const cvr_strategy asked[] = {CVR_STRATEGY_STANDARD, CVR_STRATEGY_WARP_MARCHING,
                                       CVR_STRATEGY_SLAB, CVR_STRATEGY_AUTO};
  const cvr_test_dataset *d = &cvr_test_datasets[1]; /* the cranium CT: 16-bit */
  cvr_test_scene c;
  if (!cvr_test_scene_open(cpu, d, &c)) return;
  double range[2], x_range[2];
  cvr_volume_get_range(c.volume, range);
  centred_x(range, x_range);
  both_axes(range, d, table);
  const cvr_transfer_function_desc desc = axes_desc(table, T, ROWS, x_range, range, c.sample_distance);
  cvr_transfer_function *ctf = create_tf(cpu, &desc), *gtf = create_tf(gpu, &desc);
  const second_axis axis = {{range[0], range[1]}, 2};
  cvr_volume *cv = cvr_test_components_volume(cpu, &c.data.desc, 2, axis_value, &axis);
  cvr_volume *gv = cvr_test_components_volume(gpu, &c.data.desc, 2, axis_value, &axis);
  for (int b = 0; ctf && gtf && cv && gv && b < BLEND_MODES; ++b) {
    if (quick && b % 3 != 0) continue;
    cvr_view view;
    cvr_test_scene_view(&c, b, b % 2 ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL, SIZE,
                        SIZE, &view);
    cvr_render_settings s;
    cvr_render_settings_init(&s);
    s.sample_distance = c.sample_distance;
    s.shading.enabled = b != 1; /* the projections ignore it; maximum without */
    blend_settings(&c, d, blend_modes[b], &s);
    char what[200];
    snprintf(what, sizeof what, "2D axes %s", cvr_blend_mode_name(blend_modes[b]));
    cvr_render_stats rs, gs;
    if (!cvr_test_render(cpu, cv, ctf, &view, &s, ref, ref_depth, &rs, what)) continue;
    const long least = blend_modes[b] == CVR_BLEND_SLICE     ? 20
                       : blend_modes[b] == CVR_BLEND_MINIMUM ? -1
                                                             : PIXELS / 50;
    CHECK(cvr_test_visible(ref, PIXELS) > least, "%s: only %ld pixels visible", what,
          cvr_test_visible(ref, PIXELS));
    for (size_t k = 0; k < sizeof asked / sizeof *asked; ++k) {
      s.strategy = asked[k];
      char run[260];
      snprintf(run, sizeof run, "%s asked %s", what, cvr_strategy_name(s.strategy));
      memset(out, 0xCD, sizeof out);
      if (!cvr_test_render(gpu, gv, gtf, &view, &s, out, out_depth, &gs, run)) continue;
      CHECK(gs.strategy == CVR_STRATEGY_STANDARD && gs.memory_layout == CVR_LAYOUT_TEXTURE &&
                gs.samples_skipped_empty == 0,
            "%s: rendered by %s from %s, %llu skipped", run, cvr_strategy_name(gs.strategy),
            cvr_memory_layout_name(gs.memory_layout), (unsigned long long)gs.samples_skipped_empty);
      const cvr_test_diff diff = cvr_test_compare(ref, out, ref_depth, out_depth, PIXELS);
      /* thresholds on filtered values flip where the texture's rounding
       * moves a value across them (test_common.h) */
      const int flips = blend_modes[b] == CVR_BLEND_ISOSURFACE || blend_modes[b] == CVR_BLEND_AVERAGE;
      CHECK(flips ? diff.color.over_fraction <= CVR_TOL_FLIP_OVER_FRACTION &&
                        diff.color.mean_diff <= CVR_TOL_FLIP_MEAN_LEVELS
                  : cvr_test_within_tolerance(&diff),
            "%s: over %.4f%% mean %.4f max %d", run, 100.0 * diff.color.over_fraction,
            diff.color.mean_diff, diff.color.max_diff);
    }
  }
  cvr_volume_destroy(cv);
  cvr_volume_destroy(gv);
  cvr_transfer_function_destroy(ctf);
  cvr_transfer_function_destroy(gtf);
  cvr_test_scene_close(&c);
}

/* ---- bad input ------------------------------------------------------------------ */

static void bad_input(cvr_context *ctx) {
  enum { N = 8 };
  static uint8_t voxels[2 * N * N * N];
  for (size_t i = 0; i < sizeof voxels; ++i) voxels[i] = (uint8_t)(i * 37);
  cvr_volume_desc vd;
  cvr_volume_desc_init(&vd);
  vd.type = CVR_UINT8;
  vd.dims[0] = vd.dims[1] = vd.dims[2] = N;
  vd.data = voxels;
  cvr_volume *one = NULL, *two = NULL;
  CHECK(cvr_volume_create(ctx, &vd, &one) == CVR_OK, "%s", cvr_last_error(ctx));
  vd.components = 2;
  CHECK(cvr_volume_create(ctx, &vd, &two) == CVR_OK, "%s", cvr_last_error(ctx));

  float rgba[4 * 2] = {1.0f, 1.0f, 1.0f, 0.0f, 1.0f, 1.0f, 1.0f, 1.0f}, rgba_2d[4 * 4];
  for (int i = 0; i < 16; ++i) rgba_2d[i] = 0.5f;
  const double range[2] = {0.0, 255.0};
  cvr_transfer_function_desc d = axes_desc(rgba_2d, 2, 2, range, range, 1.0);
  cvr_transfer_function *tf = NULL;
  d.component_count = 3;
  cvr_test_expect_failure(ctx, cvr_transfer_function_create(ctx, &d, &tf), "not 3", "3 axes");
  d.component_count = 2;
  d.rgba_2d = NULL;
  d.rgba = rgba;
  d.size = 2;
  cvr_test_expect_failure(ctx, cvr_transfer_function_create(ctx, &d, &tf), "without a 2D function",
                 "axes without a 2D function");
  d.rgba_2d = rgba_2d;
  const double bad_ranges[][2] = {{1.0, 1.0}, {2.0, 1.0}, {NAN, 1.0}, {0.0, INFINITY}};
  for (size_t i = 0; i < sizeof bad_ranges / sizeof *bad_ranges; ++i) {
    d.range_2d_y[0] = bad_ranges[i][0];
    d.range_2d_y[1] = bad_ranges[i][1];
    char what[64];
    snprintf(what, sizeof what, "y range [%g, %g]", bad_ranges[i][0], bad_ranges[i][1]);
    cvr_test_expect_failure(ctx, cvr_transfer_function_create(ctx, &d, &tf), "2D y range", what);
  }
  d.range_2d_y[0] = range[0];
  d.range_2d_y[1] = range[1];
  d.label_count = 1;
  d.label_rgba = rgba;
  cvr_test_expect_failure(ctx, cvr_transfer_function_create(ctx, &d, &tf), "label functions",
                 "labels with axes");
  d.label_count = 0;
  CHECK(!tf, "a refused function was returned");
  /* the gradient's extent plays no part: none given is fine */
  cvr_transfer_function *axes = create_tf(ctx, &d);

  cvr_view view;
  cvr_test_column_view(&view);
  static uint8_t out[4 * CVR_COLUMN_W * CVR_COLUMN_H];
  const cvr_image img = {out, NULL, NULL, NULL};
  cvr_render_settings s;
  cvr_render_settings_init(&s);
  s.sample_distance = 0.5;
  if (one && two && axes) {
    cvr_test_expect_failure(ctx, cvr_render(ctx, one, axes, &view, &s, &img, NULL), "describes 2",
                   "one component, two axes");
    CHECK(cvr_render(ctx, two, axes, &view, &s, &img, NULL) == CVR_OK,
          "two axes after the errors: %s", cvr_last_error(ctx));
  }
  cvr_transfer_function_destroy(axes);
  cvr_volume_destroy(two);
  cvr_volume_destroy(one);
}

int main(int argc, char **argv) {
  cvr_backend backend;
  cvr_context *ctx = cvr_test_context(argc, argv, &backend);
  const int quick = argc > 2 && strcmp(argv[2], "--quick") == 0;
  closed_form(ctx);
  bad_input(ctx);
  reductions(ctx, quick);
  if (backend == CVR_BACKEND_CUDA) {
    char *cpu_arg[] = {argv[0], "cpu"};
    cvr_context *cpu = cvr_test_context(2, cpu_arg, NULL);
    against_reference(cpu, ctx, quick);
    cvr_context_destroy(cpu);
  }
  cvr_context_destroy(ctx);
  return cvr_test_finish("test_transfer_2d_axes");
}
