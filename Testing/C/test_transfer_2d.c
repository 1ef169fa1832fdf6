// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* 2D transfer functions (cvr_transfer_function_desc.rgba_2d).
 *  - Closed form on the backend given (with "cuda" in every strategy): the
 *    16^3 column scene (test_common.h) with values 4 x, so that every
 *    sample's gradient is 4 data units per voxel (2 at the clamped edge
 *    columns), and a 2 x 2 function over values [0, 120] and magnitudes
 *    [0, 8]. Entry centres lie at values 30 and 90 and magnitudes 2 and 6, so
 *    column x = 10 (value 40, magnitude 4) reads 1/6 of the way to the second
 *    column and half way up; each pixel is the bilinear entry composited n
 *    times, its opacity per sample as given: 1 - (1 - a)^n. A slice's one
 *    sample is that entry; maximum intensity takes the column's most opaque
 *    entry.
 *  - A function whose rows all hold one 1D table, its columns centred where
 *    that table's entries lie, renders what the 1D table renders (sample
 *    distance = unit distance, so that the 1D opacity needs no correction),
 *    shaded and not, on real data.
 *  - A function that shows only strong gradients renders other pixels than
 *    one that shows only weak ones, and each renders the same image with
 *    empty-space skipping as without (the skipped cells are those every
 *    gradient leaves transparent).
 *  - With "cuda": a function whose opacity rises with the gradient, on real
 *    data in every strategy against the CPU reference (the slab's gradients
 *    come from its cache, so its image is held to SLAB_GRADIENT_MEAN_LEVELS).
 *  - Bad functions are refused with a message.
 * Usage: test_transfer_2d cpu|cuda [--quick] */
#include <math.h>
#include <string.h>

#include "half.h"
#include "test_common.h"

enum { N = CVR_COLUMN_N, W = CVR_COLUMN_W, H = CVR_COLUMN_H };

/* as test_gradient_opacity.c: the slab's gradients against the reference's */
#define SLAB_GRADIENT_MEAN_LEVELS 4.0

typedef struct frame {
  float color[W * H * 4];
  cvr_render_stats stats;
} frame;

static int render(cvr_context *ctx, cvr_volume *v, cvr_transfer_function *tf,
                  const cvr_render_settings *s, frame *f, const char *what) {
  cvr_view view;
  cvr_test_column_view(&view);
  const cvr_image img = {NULL, f->color, NULL, NULL};
  const cvr_status st = cvr_render(ctx, v, tf, &view, s, &img, &f->stats);
  CHECK(st == CVR_OK, "render (%s): %s", what, cvr_last_error(ctx));
  return st == CVR_OK;
}

/* The closed-form function (test_common.h) over values [0, 120] and
 * gradient magnitudes [0, 8]: its entry at value v, magnitude g. */
static void closed_entry(double v, double g, double out[4]) {
  cvr_test_table_2x2_entry(v / 120.0, g / 8.0, out);
}

static cvr_transfer_function *closed_tf(cvr_context *ctx) {
  const cvr_transfer_function_desc d = {.range = {0.0, 120.0},
                                        .unit_distance = 1.0,
                                        .rgba_2d = cvr_test_table_2x2,
                                        .size_2d = {2, 2},
                                        .gradient_max_2d = 8.0};
  cvr_transfer_function *tf = NULL;
  CHECK(cvr_transfer_function_create(ctx, &d, &tf) == CVR_OK, "2D tf: %s", cvr_last_error(ctx));
  return tf;
}

/* Pixel of column i: n samples of the entry at (4 i, g). */
static void check_pixel(const char *what, const float *p, int i, double g, uint64_t n) {
  double e[4];
  closed_entry(4.0 * i, g, e);
  const double alpha = 1.0 - pow(1.0 - e[3], (double)n);
  const double expected[4] = {e[0] * alpha, e[1] * alpha, e[2] * alpha, alpha};
  int ok = 1;
  for (int c = 0; c < 4; ++c) ok &= fabs(p[c] - expected[c]) < 3e-3;
  CHECK(ok, "%s, column %d: (%.4f %.4f %.4f %.4f), expected (%.4f %.4f %.4f %.4f)", what, i, p[0],
        p[1], p[2], p[3], expected[0], expected[1], expected[2], expected[3]);
}

static void closed_form(cvr_context *ctx, cvr_strategy strategy) {
  static uint8_t voxels[N * N * N];
  for (size_t i = 0; i < sizeof voxels; ++i) voxels[i] = (uint8_t)(4 * (i % N)); /* 4 x */
  cvr_volume *v = cvr_test_column_volume(ctx, voxels);
  cvr_transfer_function *tf = closed_tf(ctx);
  static frame f;
  cvr_render_settings s;
  cvr_render_settings_init(&s);
  s.sample_distance = 0.5;
  s.strategy = strategy;
  s.early_termination = 0;
  char what[128];
  snprintf(what, sizeof what, "2D function, %s", cvr_strategy_name(strategy));
  for (int skip = 0; skip < 2; ++skip) {
    s.empty_space_skipping = skip;
    if (!render(ctx, v, tf, &s, &f, what)) continue;
    const uint64_t n = f.stats.rays ? cvr_test_visited(&f.stats) / f.stats.rays : 0;
    CHECK(n == CVR_COLUMN_SAMPLES, "%s: %llu samples per ray, expected %d", what,
          (unsigned long long)n, CVR_COLUMN_SAMPLES);
    check_pixel(what, cvr_test_column_pixel(f.color, 10, 8), 10, 4.0, n);
    check_pixel(what, cvr_test_column_pixel(f.color, 7, 3), 7, 4.0, n);
    check_pixel(what, cvr_test_column_pixel(f.color, 0, 8), 0, 2.0, n);
    check_pixel(what, cvr_test_column_pixel(f.color, 15, 8), 15, 2.0, n);
  }
  s.shading.enabled = 1; /* shading lights the colour, the opacity stays */
  if (render(ctx, v, tf, &s, &f, what)) {
    double e[4];
    closed_entry(40.0, 4.0, e);
    const uint64_t n = cvr_test_visited(&f.stats) / f.stats.rays;
    CHECK(fabs(cvr_test_column_pixel(f.color, 10, 8)[3] - (1.0 - pow(1.0 - e[3], (double)n))) < 3e-3,
          "%s shaded: opacity %.4f", what, cvr_test_column_pixel(f.color, 10, 8)[3]);
  }
  s.shading.enabled = 0;
  if (strategy == CVR_STRATEGY_STANDARD) {
    s.blend_mode = CVR_BLEND_SLICE; /* one sample, the entry as it is */
    s.slice_origin[2] = 7.3;
    if (render(ctx, v, tf, &s, &f, "slice"))
      check_pixel("slice", cvr_test_column_pixel(f.color, 10, 8), 10, 4.0, 1);
    s.blend_mode = CVR_BLEND_MAXIMUM; /* no gradient: the column's most opaque entry */
    if (render(ctx, v, tf, &s, &f, "maximum")) {
      const float *p = cvr_test_column_pixel(f.color, 7, 8); /* column 0: red 0.25 over blue */
      CHECK(fabs(p[0] - 0.25) < 2e-3 && fabs(p[2]) < 2e-3 && fabs(p[3] - 0.25) < 2e-3,
            "maximum: (%.4f %.4f %.4f %.4f), expected red at 0.25", p[0], p[1], p[2], p[3]);
    }
  }
  cvr_transfer_function_destroy(tf);
  cvr_volume_destroy(v);
}

static void bad_functions(cvr_context *ctx) {
  static float good[4 * 4 * 4], bad[4 * 4 * 4];
  for (int i = 0; i < 64; ++i) good[i] = bad[i] = 0.5f;
  bad[4 * 5 + 3] = 1.5f; /* entry (1, 1), opacity */
  struct {
    const float *table;
    int w, h;
    double max;
    const char *message;
  } cases[] = {{good, 1, 4, 1.0, "2D size 1 x 4"},
               {good, 4, 1, 1.0, "2D size 4 x 1"},
               {good, 1025, 2, 1.0, "2D size 1025 x 2"},
               {good, 4, 4, 0.0, "2D gradient maximum 0"},
               {good, 4, 4, INFINITY, "2D gradient maximum inf"},
               {bad, 4, 4, 1.0, "2D entry (1, 1) component 3 is 1.5"},
               {NULL, 4, 4, 1.0, "rgba is NULL"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    const cvr_transfer_function_desc d = {.range = {0.0, 1.0},
                                          .unit_distance = 1.0,
                                          .rgba_2d = cases[i].table,
                                          .size_2d = {cases[i].w, cases[i].h},
                                          .gradient_max_2d = cases[i].max};
    cvr_transfer_function *tf = NULL;
    CHECK(cvr_transfer_function_create(ctx, &d, &tf) == CVR_ERROR_INVALID_ARGUMENT && !tf &&
              strstr(cvr_last_error(ctx), cases[i].message),
          "bad 2D function %zu: \"%s\", expected \"%s\"", i, cvr_last_error(ctx), cases[i].message);
    cvr_transfer_function_destroy(tf);
  }
  /* a refused update keeps the function it had */
  cvr_transfer_function *tf = closed_tf(ctx);
  const cvr_transfer_function_desc d = {.range = {0.0, 1.0}, .unit_distance = 1.0, .rgba_2d = bad,
                                        .size_2d = {4, 4}, .gradient_max_2d = 1.0};
  CHECK(cvr_transfer_function_update(tf, &d) == CVR_ERROR_INVALID_ARGUMENT,
        "a bad 2D update was accepted");
  cvr_transfer_function_destroy(tf);
}

/* ---- real data ---- */

enum { SIZE = 128, PIXELS = SIZE * SIZE, TABLE = 256, ROWS = 64 };
static int compared = 0;

/* The scene's ramp as a 1D table of TABLE entries over the data's range. */
static void scene_ramp(const cvr_test_scene *sc, const cvr_test_dataset *d, float *rgba,
                       double range[2]) {
  cvr_volume_get_range(sc->volume, range);
  cvr_tools_ramp_tf(rgba, TABLE, range[0], range[1], d->lo, d->hi, 0.5f);
}

/* kind 0: every row the 1D ramp, columns centred on its entries; 1: the
 * ramp where the gradient is strong (rows above a third of the height), 2:
 * where it is weak (below); 3: its opacity rising with the gradient, from 0
 * in the bottom row to the ramp's in the top one. Magnitudes span a quarter
 * of the range (VTK's). */
static cvr_transfer_function *scene_tf_2d(cvr_context *ctx, const cvr_test_scene *sc,
                                          const cvr_test_dataset *d, int kind) {
  static float ramp[4 * TABLE], table[4 * TABLE * ROWS];
  double range[2];
  scene_ramp(sc, d, ramp, range);
  for (int y = 0; y < ROWS; ++y)
    for (int x = 0; x < TABLE; ++x) {
      float *e = table + 4 * ((size_t)y * TABLE + x);
      memcpy(e, ramp + 4 * x, 4 * sizeof *e);
      if ((kind == 1 && y < ROWS / 3) || (kind == 2 && y >= ROWS / 3)) e[3] = 0.0f;
      if (kind == 3) e[3] *= (float)y / (ROWS - 1);
    }
  const double half_entry = 0.5 * (range[1] - range[0]) / (TABLE - 1);
  const cvr_transfer_function_desc desc = {.range = {range[0] - half_entry, range[1] + half_entry},
                                           .unit_distance = sc->sample_distance,
                                           .rgba_2d = table,
                                           .size_2d = {TABLE, ROWS},
                                           .gradient_max_2d = 0.25 * (range[1] - range[0])};
  cvr_transfer_function *tf = NULL;
  CHECK(cvr_transfer_function_create(ctx, &desc, &tf) == CVR_OK, "%s", cvr_last_error(ctx));
  return tf;
}

static cvr_transfer_function *scene_tf_1d(cvr_context *ctx, const cvr_test_scene *sc,
                                          const cvr_test_dataset *d) {
  static float ramp[4 * TABLE];
  double range[2];
  scene_ramp(sc, d, ramp, range);
  const cvr_transfer_function_desc desc = {.rgba = ramp, .size = TABLE,
                                           .range = {range[0], range[1]},
                                           .unit_distance = sc->sample_distance};
  cvr_transfer_function *tf = NULL;
  CHECK(cvr_transfer_function_create(ctx, &desc, &tf) == CVR_OK, "%s", cvr_last_error(ctx));
  return tf;
}

static int render_scene(cvr_context *ctx, const cvr_test_scene *sc, cvr_transfer_function *tf,
                        const cvr_view *view, const cvr_render_settings *s, uint8_t *rgba,
                        float *depth, cvr_render_stats *stats, const char *what) {
  const cvr_image img = {rgba, NULL, depth, NULL};
  const cvr_status st = cvr_render(ctx, sc->volume, tf, view, s, &img, stats);
  CHECK(st == CVR_OK, "%s: %s", what, cvr_last_error(ctx));
  return st == CVR_OK;
}

/* Rows of one 1D table render that table; strong and weak gradients render
 * different pixels; skipping changes nothing. On the context's backend. */
static void real_data(cvr_context *ctx, int quick) {
  static uint8_t a[PIXELS * 4], b[PIXELS * 4];
  static float da[PIXELS], db[PIXELS];
  for (int d = 0; d < (quick ? 1 : 3); ++d) {
    cvr_test_scene sc;
    if (!cvr_test_scene_open(ctx, &cvr_test_datasets[d], &sc)) continue;
    const char *file = cvr_test_datasets[d].file;
    cvr_transfer_function *one = scene_tf_1d(ctx, &sc, &cvr_test_datasets[d]);
    cvr_transfer_function *rows = scene_tf_2d(ctx, &sc, &cvr_test_datasets[d], 0);
    cvr_transfer_function *strong = scene_tf_2d(ctx, &sc, &cvr_test_datasets[d], 1);
    cvr_transfer_function *weak = scene_tf_2d(ctx, &sc, &cvr_test_datasets[d], 2);
    for (int v = 0; v < (quick ? 1 : 2); ++v) {
      cvr_view view;
      cvr_test_scene_view(&sc, v, v % 2 ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL,
                          SIZE, SIZE, &view);
      cvr_render_settings s;
      cvr_render_settings_init(&s);
      s.sample_distance = sc.sample_distance; /* = the unit distance: no correction */
      cvr_render_stats sa, sb;
      char what[160];
      for (int shade = 0; shade < 2; ++shade) {
        s.shading.enabled = shade;
        snprintf(what, sizeof what, "%s view %d%s: rows of the 1D table", file, v,
                 shade ? " shaded" : "");
        if (render_scene(ctx, &sc, one, &view, &s, a, da, &sa, what) &&
            render_scene(ctx, &sc, rows, &view, &s, b, db, &sb, what)) {
          const cvr_test_diff diff = cvr_test_compare(a, b, da, db, PIXELS);
          CHECK(cvr_test_visible(a, PIXELS) > PIXELS / 20, "%s: only %ld pixels visible", what,
                cvr_test_visible(a, PIXELS));
          CHECK(cvr_test_within_tolerance(&diff), "%s: over %.4f%% mean %.4f max %d", what,
                100.0 * diff.color.over_fraction, diff.color.mean_diff, diff.color.max_diff);
        }
      }
      s.shading.enabled = 0;
      snprintf(what, sizeof what, "%s view %d: strong against weak gradients", file, v);
      if (render_scene(ctx, &sc, strong, &view, &s, a, da, &sa, what) &&
          render_scene(ctx, &sc, weak, &view, &s, b, db, &sb, what)) {
        const cvr_test_diff diff = cvr_test_compare(a, b, da, db, PIXELS);
        CHECK(cvr_test_visible(a, PIXELS) > PIXELS / 50 && cvr_test_visible(b, PIXELS) > PIXELS / 50,
              "%s: %ld and %ld pixels visible", what, cvr_test_visible(a, PIXELS),
              cvr_test_visible(b, PIXELS));
        CHECK(diff.color.mean_diff > 1.0, "%s: mean difference only %.3f levels", what,
              diff.color.mean_diff);
      }
      for (int k = 1; k <= 2; ++k) {
        snprintf(what, sizeof what, "%s view %d: %s gradients, skipping", file, v,
                 k == 1 ? "strong" : "weak");
        s.empty_space_skipping = 0;
        cvr_transfer_function *tf = k == 1 ? strong : weak;
        if (render_scene(ctx, &sc, tf, &view, &s, a, da, &sa, what)) {
          s.empty_space_skipping = 1;
          if (render_scene(ctx, &sc, tf, &view, &s, b, db, &sb, what)) {
            const cvr_test_diff diff = cvr_test_compare(a, b, da, db, PIXELS);
            CHECK(diff.color.max_diff == 0 && diff.depth_over_fraction == 0.0,
                  "%s: differs from no skipping (max %d levels)", what, diff.color.max_diff);
            CHECK(sb.samples_skipped_empty > 0, "%s: nothing skipped", what);
          }
        }
      }
    }
    cvr_transfer_function_destroy(one);
    cvr_transfer_function_destroy(rows);
    cvr_transfer_function_destroy(strong);
    cvr_transfer_function_destroy(weak);
    cvr_test_scene_close(&sc);
  }
}

static void against_reference(cvr_context *cpu, cvr_context *gpu, int quick) {
  static uint8_t ref[PIXELS * 4], out[PIXELS * 4];
  static float ref_depth[PIXELS], out_depth[PIXELS];
  const cvr_strategy strategies[] = {CVR_STRATEGY_STANDARD, CVR_STRATEGY_BLOCK_SHAPE,
                                     CVR_STRATEGY_WARP_MARCHING, CVR_STRATEGY_SLAB,
                                     CVR_STRATEGY_AUTO};
  for (int d = 0; d < (quick ? 1 : 3); ++d) {
    cvr_test_scene c, g;
    if (!cvr_test_scene_open(cpu, &cvr_test_datasets[d], &c)) continue;
    if (!cvr_test_scene_open(gpu, &cvr_test_datasets[d], &g)) {
      CHECK(0, "%s on the GPU", cvr_test_datasets[d].file);
      cvr_test_scene_close(&c);
      continue;
    }
    /* opacity rising with the gradient, not kind 1's step, which turns the
     * small gradient differences between the texture unit and the CPU's
     * emulation of it (raycast.h) into whole opacities: on an H100 it put
     * 0.15-0.40% of the cranium CT's pixels over 1 level, every strategy
     * alike (tools/bench/results/2026-11-23-h100-transfer-2d). */
    cvr_transfer_function *ctf = scene_tf_2d(cpu, &c, &cvr_test_datasets[d], 3);
    cvr_transfer_function *gtf = scene_tf_2d(gpu, &g, &cvr_test_datasets[d], 3);
    for (int shade = 0; shade < 2; ++shade)
      for (int v = 0; v < (quick ? 1 : 4); ++v) {
        cvr_view view;
        cvr_test_scene_view(&c, v, v % 2 ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL,
                            SIZE, SIZE, &view);
        cvr_render_settings s;
        cvr_render_settings_init(&s);
        s.sample_distance = c.sample_distance;
        s.shading.enabled = shade;
        cvr_render_stats rs, gs;
        char what[160];
        snprintf(what, sizeof what, "%s 2D%s view %d", cvr_test_datasets[d].file,
                 shade ? " shaded" : "", v);
        if (!render_scene(cpu, &c, ctf, &view, &s, ref, ref_depth, &rs, what)) continue;
        CHECK(cvr_test_visible(ref, PIXELS) > PIXELS / 50, "%s: only %ld pixels visible", what,
              cvr_test_visible(ref, PIXELS));
        for (size_t k = 0; k < sizeof strategies / sizeof strategies[0]; ++k) {
          s.strategy = strategies[k];
          char run[200];
          snprintf(run, sizeof run, "%s %s", what, cvr_strategy_name(s.strategy));
          for (int rep = 0; rep < (s.strategy == CVR_STRATEGY_AUTO ? 3 : 1); ++rep) {
            memset(out, 0xCD, sizeof out);
            if (!render_scene(gpu, &g, gtf, &view, &s, out, out_depth, &gs, run)) break;
            const cvr_test_diff diff = cvr_test_compare(ref, out, ref_depth, out_depth, PIXELS);
            if (gs.strategy == CVR_STRATEGY_SLAB) {
              CHECK(diff.color.mean_diff < SLAB_GRADIENT_MEAN_LEVELS, "%s: mean %.4f levels", run,
                    diff.color.mean_diff);
              printf("%s: slab gradients, mean %.3f levels, %.3f%% over 1 level\n", run,
                     diff.color.mean_diff, 100.0 * diff.color.over_fraction);
            } else {
              CHECK(cvr_test_within_tolerance(&diff), "%s: over %.4f%% mean %.4f max %d", run,
                    100.0 * diff.color.over_fraction, diff.color.mean_diff, diff.color.max_diff);
            }
            if (s.strategy != CVR_STRATEGY_AUTO)
              CHECK(gs.strategy == s.strategy, "%s: rendered by %s", run,
                    cvr_strategy_name(gs.strategy));
            ++compared;
          }
        }
      }
    cvr_transfer_function_destroy(ctf);
    cvr_transfer_function_destroy(gtf);
    cvr_test_scene_close(&c);
    cvr_test_scene_close(&g);
  }
}

int main(int argc, char **argv) {
  cvr_backend backend;
  cvr_context *ctx = cvr_test_context(argc, argv, &backend);
  const int quick = argc > 2 && !strcmp(argv[2], "--quick");
  closed_form(ctx, CVR_STRATEGY_STANDARD);
  if (backend == CVR_BACKEND_CUDA) {
    const cvr_strategy others[] = {CVR_STRATEGY_BLOCK_SHAPE, CVR_STRATEGY_WARP_MARCHING,
                                   CVR_STRATEGY_SLAB};
    for (int i = 0; i < 3; ++i) closed_form(ctx, others[i]);
  }
  bad_functions(ctx);
  real_data(ctx, quick);
  if (backend == CVR_BACKEND_CUDA) {
    char *cpu_arg[] = {argv[0], "cpu"};
    cvr_context *cpu = cvr_test_context(2, cpu_arg, NULL);
    against_reference(cpu, ctx, quick);
    printf("%d comparisons against the CPU reference\n", compared);
    cvr_context_destroy(cpu);
  }
  cvr_context_destroy(ctx);
  return cvr_test_finish("test_transfer_2d");
}
