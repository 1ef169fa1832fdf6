// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Gradient opacity (cvr_transfer_function_desc.gradient_opacity) and
 * jittering (cvr_render_settings.jittering).
 *  - Gradient opacity, closed form on the backend given (with "cuda" in every
 *    strategy): the 16^3 column scene (test_common.h) with values 4 x, a
 *    ramp across the rays, so that every sample's gradient is 4 data units per
 *    voxel (2 at the clamped edge columns). A gradient-opacity table rising
 *    from 0 to 1 over magnitudes [0, 16] scales every sample's opacity by
 *    0.25 (0.125 at the edges): the pixel is 1 - (1 - 0.25 a)^n. With the
 *    spacing 2 along z the measure is VTK's (per mean spacing: 4 * (4/3) / 1
 *    along x), 1/3. A table over [0, 4] clamps: 1. A slice's one sample is
 *    scaled too (0.25 a); maximum intensity ignores it (cvr.h). Bad tables
 *    are refused with a message.
 *  - Jittering, closed form: on a constant volume 15 units deep sampled
 *    every 0.45, a ray keeps 33 or 34 samples depending on its offset, its
 *    pixel 1 - (1 - a)^n for its own n; both counts occur (without jittering
 *    every ray is the same), the statistics count the same samples, and the
 *    same frame renders the same image again (the offsets are fixed per
 *    pixel).
 *  - With "cuda": gradient opacity (with and without shading) and jittering
 *    on real data in every strategy against the CPU reference, within the
 *    tolerance of test_common.h with the same rays and samples (within
 *    CVR_TOL_ERT_SAMPLES_FRACTION: both move opacities by filter noise); the slab
 *    strategy's gradients come from its cache (test_slab.c), so with
 *    gradient opacity its image is held to SLAB_GRADIENT_MEAN_LEVELS, and with
 *    jittering it reports that the standard strategy rendered.
 * Usage: test_gradient_opacity cpu|cuda [--quick] */
#include <math.h>
#include <string.h>

#include "half.h"
#include "test_common.h"

enum { N = CVR_COLUMN_N, W = CVR_COLUMN_W, H = CVR_COLUMN_H };

/* The slab's gradient opacity against the reference's (different stencils,
 * so different magnitudes where the data is not linear; exact on the linear
 * ramp above): mean difference in 8-bit levels. Measured on an H100 over the
 * views below: 0.83-1.99 unshaded, 0.93-3.17 shaded (cranium CT the largest;
 * tools/bench/results/2026-11-23-h100-surfaces). */
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

/* Constant colour (0.8, 0.4, 0.2) and opacity 0.5 per unit distance, with
 * a gradient-opacity ramp from 0 to 1 over [0, go_max] (none for go_max 0). */
static cvr_transfer_function *constant_tf(cvr_context *ctx, double go_max) {
  const float rgba[8] = {0.8f, 0.4f, 0.2f, 0.5f, 0.8f, 0.4f, 0.2f, 0.5f};
  const float ramp[2] = {0.0f, 1.0f};
  const cvr_transfer_function_desc d = {.rgba = rgba,
                                        .size = 2,
                                        .range = {0.0, 255.0},
                                        .unit_distance = 1.0,
                                        .gradient_opacity = go_max > 0.0 ? ramp : NULL,
                                        .gradient_opacity_size = 2,
                                        .gradient_opacity_max = go_max};
  cvr_transfer_function *tf = NULL;
  CHECK(cvr_transfer_function_create(ctx, &d, &tf) == CVR_OK, "tf: %s", cvr_last_error(ctx));
  return tf;
}

static void check_alpha(const char *what, const float *p, double a, uint64_t n) {
  const double expected = 1.0 - pow(1.0 - a, (double)n);
  CHECK(fabs(p[3] - expected) < 2e-3, "%s: opacity %.4f, expected %.4f (%llu samples of %.4f)",
        what, p[3], expected, (unsigned long long)n, a);
}

static uint64_t samples_per_ray(const frame *f) {
  return f->stats.rays ? f->stats.samples / f->stats.rays : 0;
}

/* The per-sample opacity of the constant table, as classified. */
static double corrected(double dt) { return cvr_round_to_half((float)(1.0 - pow(0.5, dt))); }

static void gradient_opacity_closed_form(cvr_context *ctx, cvr_strategy strategy) {
  static uint8_t voxels[N * N * N];
  for (size_t i = 0; i < sizeof voxels; ++i) voxels[i] = (uint8_t)(4 * (i % N)); /* 4 x */
  cvr_volume *v = cvr_test_column_volume(ctx, voxels);
  cvr_transfer_function *tf = constant_tf(ctx, 16.0);
  static frame f;
  cvr_render_settings s;
  cvr_render_settings_init(&s);
  s.sample_distance = 0.5;
  s.strategy = strategy;
  s.early_termination = 0;
  char what[128];
  snprintf(what, sizeof what, "gradient opacity, %s", cvr_strategy_name(strategy));
  const double a = corrected(0.5);
  if (render(ctx, v, tf, &s, &f, what)) {
    check_alpha(what, cvr_test_column_pixel(f.color, 7, 8), a * 0.25, samples_per_ray(&f));
    check_alpha(what, cvr_test_column_pixel(f.color, 1, 3), a * 0.25, samples_per_ray(&f));
    check_alpha(what, cvr_test_column_pixel(f.color, 0, 8), a * 0.125, samples_per_ray(&f));
    check_alpha(what, cvr_test_column_pixel(f.color, 15, 8), a * 0.125, samples_per_ray(&f));
  }
  s.shading.enabled = 1; /* shading changes the colour, not the opacity */
  if (render(ctx, v, tf, &s, &f, what))
    check_alpha("gradient opacity, shaded", cvr_test_column_pixel(f.color, 7, 8), a * 0.25,
                samples_per_ray(&f));
  s.shading.enabled = 0;
  if (strategy == CVR_STRATEGY_STANDARD) {
    s.blend_mode = CVR_BLEND_MAXIMUM; /* the projections ignore it */
    if (render(ctx, v, tf, &s, &f, "maximum with gradient opacity"))
      CHECK(fabs(cvr_test_column_pixel(f.color, 7, 8)[3] - cvr_round_to_half(0.5f)) < 2e-3,
            "maximum intensity with gradient opacity: opacity %.4f, expected the table's 0.5",
            cvr_test_column_pixel(f.color, 7, 8)[3]);
    s.blend_mode = CVR_BLEND_SLICE; /* one sample, opacity as given, scaled */
    s.slice_origin[2] = 7.3;
    if (render(ctx, v, tf, &s, &f, "slice with gradient opacity"))
      CHECK(fabs(cvr_test_column_pixel(f.color, 7, 8)[3] - 0.25 * cvr_round_to_half(0.5f)) < 2e-3,
            "slice with gradient opacity: opacity %.4f, expected 0.25 of the table's 0.5",
            cvr_test_column_pixel(f.color, 7, 8)[3]);
    s.blend_mode = CVR_BLEND_COMPOSITE;
  }
  cvr_transfer_function_destroy(tf);
  tf = constant_tf(ctx, 4.0); /* a magnitude of 4 is the table's end, beyond it clamps */
  if (render(ctx, v, tf, &s, &f, "gradient opacity, clamped")) {
    check_alpha("clamped", cvr_test_column_pixel(f.color, 7, 8), a, samples_per_ray(&f));
    check_alpha("at the edge, half way", cvr_test_column_pixel(f.color, 0, 8), a * 0.5,
                samples_per_ray(&f));
  }
  cvr_transfer_function_destroy(tf);
  cvr_volume_destroy(v);

  /* spacing 2 along z: VTK's measure scales each axis by mean spacing / its
   * own, here (4/3) / 1 along x: 4 * 4/3 = 16/3 of 16 */
  cvr_volume_desc d;
  cvr_volume_desc_init(&d);
  d.type = CVR_UINT8;
  d.dims[0] = d.dims[1] = d.dims[2] = N;
  d.spacing[2] = 2.0;
  d.data = voxels;
  CHECK(cvr_volume_create(ctx, &d, &v) == CVR_OK, "volume: %s", cvr_last_error(ctx));
  tf = constant_tf(ctx, 16.0);
  if (render(ctx, v, tf, &s, &f, "gradient opacity, anisotropic"))
    check_alpha("anisotropic spacing", cvr_test_column_pixel(f.color, 7, 8), a / 3.0,
                samples_per_ray(&f));
  cvr_transfer_function_destroy(tf);
  cvr_volume_destroy(v);
}

static void bad_tables(cvr_context *ctx) {
  const float rgba[8] = {0, 0, 0, 0, 1, 1, 1, 1};
  const float good[2] = {0.0f, 1.0f}, bad[2] = {0.0f, 1.5f};
  struct {
    const float *table;
    int size;
    double max;
    const char *message;
  } cases[] = {{good, 1, 1.0, "gradient-opacity size 1"},
               {good, 2, 0.0, "gradient-opacity maximum 0"},
               {good, 2, NAN, "gradient-opacity maximum nan"},
               {bad, 2, 1.0, "gradient-opacity entry 1 is 1.5"}};
  for (int i = 0; i < 4; ++i) {
    const cvr_transfer_function_desc d = {.rgba = rgba,
                                          .size = 2,
                                          .range = {0.0, 1.0},
                                          .unit_distance = 1.0,
                                          .gradient_opacity = cases[i].table,
                                          .gradient_opacity_size = cases[i].size,
                                          .gradient_opacity_max = cases[i].max};
    cvr_transfer_function *tf = NULL;
    CHECK(cvr_transfer_function_create(ctx, &d, &tf) == CVR_ERROR_INVALID_ARGUMENT && !tf &&
              strstr(cvr_last_error(ctx), cases[i].message),
          "bad gradient opacity %d: %s", i, cvr_last_error(ctx));
    cvr_transfer_function_destroy(tf);
  }
}

static void jittering_closed_form(cvr_context *ctx) {
  static uint8_t voxels[N * N * N];
  memset(voxels, 20, sizeof voxels); /* faint, so that one sample more shows */
  cvr_volume *v = cvr_test_column_volume(ctx, voxels);
  cvr_transfer_function *tf = cvr_test_column_tf(ctx, 1.0);
  cvr_render_settings s;
  cvr_render_settings_init(&s);
  s.sample_distance = 0.45; /* the volume's 15 units are no whole number of samples */
  s.early_termination = 0;
  static frame plain, jittered, again;
  if (!render(ctx, v, tf, &s, &plain, "unjittered")) return;
  s.jittering = 1;
  if (!render(ctx, v, tf, &s, &jittered, "jittered") || !render(ctx, v, tf, &s, &again, "again"))
    return;
  CHECK(!memcmp(jittered.color, again.color, sizeof again.color),
        "jittering: the same frame twice differs");
  /* a = the table's opacity of 20, corrected for dt = 0.45, in half precision */
  const double a = cvr_round_to_half((float)(1.0 - pow(1.0 - 20.0 / 255.0, 0.45)));
  enum { LO = 30, HI = 37 }; /* 15 / 0.45 = 33.3: 33 or 34 samples */
  int counts[HI - LO + 1] = {0}, bad = 0, plain_differ = 0;
  uint64_t total = 0;
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i) {
      const double alpha = cvr_test_column_pixel(jittered.color, i, j)[3];
      int n = -1;
      for (int k = LO; k <= HI; ++k)
        if (fabs(alpha - (1.0 - pow(1.0 - a, k))) < 2e-3) n = k;
      if (n < 0) ++bad;
      else ++counts[n - LO], total += (uint64_t)n;
      plain_differ += cvr_test_column_pixel(plain.color, i, j)[3] !=
                      cvr_test_column_pixel(plain.color, 8, 8)[3];
    }
  int distinct = 0;
  for (int k = 0; k <= HI - LO; ++k) distinct += counts[k] > 0;
  CHECK(bad == 0, "jittering: %d rays' opacity is that of no whole number of samples", bad);
  CHECK(plain_differ == 0, "without jittering every ray takes the same samples (%d differ)",
        plain_differ);
  CHECK(distinct == 2 && counts[33 - LO] > 16 && counts[34 - LO] > 16,
        "jittering: %d rays of 33 samples, %d of 34, %d distinct counts; expected both, often",
        counts[33 - LO], counts[34 - LO], distinct);
  CHECK(jittered.stats.samples == total, "jittering: %llu samples counted, the pixels say %llu",
        (unsigned long long)jittered.stats.samples, (unsigned long long)total);
  cvr_transfer_function_destroy(tf);
  cvr_volume_destroy(v);
}

/* ---- CUDA against the CPU reference, every strategy ---- */

enum { SIZE = 128, PIXELS = SIZE * SIZE };
static int compared = 0;

/* The scene's ramp with gradient opacity rising over [0, a quarter of the range] (VTK's default extent). */
static cvr_transfer_function *gradient_tf(cvr_context *ctx, const cvr_test_scene *sc,
                                          const cvr_test_dataset *d) {
  double range[2];
  cvr_volume_get_range(sc->volume, range);
  static float table[4 * 256];
  cvr_tools_ramp_tf(table, 256, range[0], range[1], d->lo, d->hi, 0.5f);
  const float go[4] = {0.0f, 0.3f, 1.0f, 1.0f};
  double spacing = sc->data.desc.spacing[0];
  for (int a = 1; a < 3; ++a) spacing = fmin(spacing, sc->data.desc.spacing[a]);
  const cvr_transfer_function_desc desc = {.rgba = table,
                                           .size = 256,
                                           .range = {range[0], range[1]},
                                           .unit_distance = spacing,
                                           .gradient_opacity = go,
                                           .gradient_opacity_size = 4,
                                           .gradient_opacity_max = 0.25 * (range[1] - range[0])};
  cvr_transfer_function *tf = NULL;
  CHECK(cvr_transfer_function_create(ctx, &desc, &tf) == CVR_OK, "%s", cvr_last_error(ctx));
  return tf;
}

static void against_reference(cvr_context *cpu, cvr_context *gpu, int quick) {
  static uint8_t ref[PIXELS * 4], out[PIXELS * 4];
  static float ref_depth[PIXELS], out_depth[PIXELS];
  const cvr_strategy strategies[] = {CVR_STRATEGY_STANDARD, CVR_STRATEGY_BLOCK_SHAPE,
                                     CVR_STRATEGY_WARP_MARCHING, CVR_STRATEGY_SLAB,
                                     CVR_STRATEGY_AUTO};
  static const char *cases[3] = {"gradient opacity", "gradient opacity shaded", "jittering"};
  for (int d = 0; d < (quick ? 1 : 3); ++d) {
    cvr_test_scene c, g;
    if (!cvr_test_scene_open(cpu, &cvr_test_datasets[d], &c)) continue;
    if (!cvr_test_scene_open(gpu, &cvr_test_datasets[d], &g)) {
      CHECK(0, "%s on the GPU", cvr_test_datasets[d].file);
      cvr_test_scene_close(&c);
      continue;
    }
    cvr_transfer_function *ctf = gradient_tf(cpu, &c, &cvr_test_datasets[d]);
    cvr_transfer_function *gtf = gradient_tf(gpu, &g, &cvr_test_datasets[d]);
    for (int m = 0; m < 3; ++m)
      for (int v = 0; v < (quick ? 1 : 4); ++v) {
        cvr_view view;
        cvr_test_scene_view(&c, v, v % 2 ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL,
                            SIZE, SIZE, &view);
        cvr_render_settings s;
        cvr_render_settings_init(&s);
        s.sample_distance = c.sample_distance;
        s.shading.enabled = m == 1;
        s.jittering = m == 2;
        cvr_transfer_function *rtf = m == 2 ? c.tf : ctf, *otf = m == 2 ? g.tf : gtf;
        cvr_render_stats rs, gs;
        const cvr_image ri = {ref, NULL, ref_depth, NULL};
        if (cvr_render(cpu, c.volume, rtf, &view, &s, &ri, &rs) != CVR_OK) {
          CHECK(0, "cpu: %s", cvr_last_error(cpu));
          continue;
        }
        long visible = 0;
        for (long i = 0; i < PIXELS; ++i) visible += ref[4 * i + 3] > 0;
        CHECK(visible > PIXELS / 20, "%s %s view %d: only %ld pixels visible",
              cvr_test_datasets[d].file, cases[m], v, visible);
        for (size_t k = 0; k < sizeof strategies / sizeof strategies[0]; ++k) {
          s.strategy = strategies[k];
          memset(out, 0xCD, sizeof out);
          const cvr_image gi = {out, NULL, out_depth, NULL};
          char what[160];
          snprintf(what, sizeof what, "%s %s view %d %s", cvr_test_datasets[d].file, cases[m], v,
                   cvr_strategy_name(s.strategy));
          for (int rep = 0; rep < (s.strategy == CVR_STRATEGY_AUTO ? 3 : 1); ++rep) {
            if (cvr_render(gpu, g.volume, otf, &view, &s, &gi, &gs) != CVR_OK) {
              CHECK(0, "%s: %s", what, cvr_last_error(gpu));
              break;
            }
            const cvr_test_diff diff = cvr_test_compare(ref, out, ref_depth, out_depth, PIXELS);
            const int slab_gradients = gs.strategy == CVR_STRATEGY_SLAB && m < 2;
            if (slab_gradients) {
              CHECK(diff.color.mean_diff < SLAB_GRADIENT_MEAN_LEVELS, "%s: mean %.4f levels", what,
                    diff.color.mean_diff);
              printf("%s: slab gradients, mean %.3f levels, %.3f%% over 1 level\n", what,
                     diff.color.mean_diff, 100.0 * diff.color.over_fraction);
            } else {
              CHECK(cvr_test_within_tolerance(&diff), "%s: over %.4f%% mean %.4f max %d", what,
                    100.0 * diff.color.over_fraction, diff.color.mean_diff, diff.color.max_diff);
            }
            const double extra = fabs((double)cvr_test_visited(&gs) - (double)cvr_test_visited(&rs));
            CHECK(gs.rays == rs.rays &&
                      (slab_gradients || extra <= CVR_TOL_ERT_SAMPLES_FRACTION * (double)cvr_test_visited(&rs)),
                  "%s: %llu rays / %llu samples reached, the CPU %llu / %llu (ran %s %dx%d, axes %d %d %d)",
                  what, (unsigned long long)gs.rays, (unsigned long long)cvr_test_visited(&gs),
                  (unsigned long long)rs.rays, (unsigned long long)cvr_test_visited(&rs),
                  cvr_strategy_name(gs.strategy), gs.block_width, gs.block_height,
                  gs.volume_axes[0], gs.volume_axes[1], gs.volume_axes[2]);
            if (m == 2 && s.strategy == CVR_STRATEGY_SLAB)
              CHECK(gs.strategy == CVR_STRATEGY_STANDARD, "%s: rendered by %s", what,
                    cvr_strategy_name(gs.strategy));
            else if (s.strategy != CVR_STRATEGY_AUTO)
              CHECK(gs.strategy == s.strategy, "%s: rendered by %s", what,
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
  gradient_opacity_closed_form(ctx, CVR_STRATEGY_STANDARD);
  if (backend == CVR_BACKEND_CUDA) {
    const cvr_strategy others[] = {CVR_STRATEGY_BLOCK_SHAPE, CVR_STRATEGY_WARP_MARCHING,
                                   CVR_STRATEGY_SLAB};
    for (int i = 0; i < 3; ++i) gradient_opacity_closed_form(ctx, others[i]);
  }
  bad_tables(ctx);
  jittering_closed_form(ctx);
  if (backend == CVR_BACKEND_CUDA) {
    char *cpu_arg[] = {argv[0], "cpu"};
    cvr_context *cpu = cvr_test_context(2, cpu_arg, NULL);
    against_reference(cpu, ctx, argc > 2 && !strcmp(argv[2], "--quick"));
    printf("%d comparisons against the CPU reference\n", compared);
    cvr_context_destroy(cpu);
  }
  cvr_context_destroy(ctx);
  return cvr_test_finish("test_gradient_opacity");
}
