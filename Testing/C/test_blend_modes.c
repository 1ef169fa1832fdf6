// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Blend modes other than composite (cvr.h, cvr_blend_mode).
 *  - Closed form, on the backend given: a 16^3 volume seen straight on along
 *    z (parallel), so every ray takes the same samples. A constant volume
 *    gives each mode's formula exactly (maximum and minimum: the value's
 *    colour times its opacity; average: opacity * normalized value; additive:
 *    the sum over the samples, opacity scaled by dt / unit distance). A
 *    single hot voxel in the back half and a single cold one in the front
 *    half must be what maximum and minimum show, wherever they lie on the ray.
 *    An average range that excludes the value leaves the pixel transparent.
 *  - Bad settings: an unknown mode, an empty or NaN average range.
 *  - With "cuda": every mode on real data (three data sets, views in both
 *    projections) in every strategy against the CPU reference, within the
 *    tolerance of test_common.h with the same rays and samples; warp
 *    marching and slab report that the standard strategy rendered them.
 * Usage: test_blend_modes cpu|cuda [--quick] (--quick: one data set, one view
 * per mode, for the sanitizers) */
#include <math.h>
#include <string.h>

#include "half.h"
#include "test_common.h"

enum { N = CVR_COLUMN_N, W = CVR_COLUMN_W, H = CVR_COLUMN_H };
static const double kDt = 0.5, kUnit = 40.0; /* additive stays below 1 */

typedef struct frame {
  uint8_t rgba[W * H * 4];
  float color[W * H * 4];
  cvr_render_stats stats;
} frame;

static int render(cvr_context *ctx, cvr_volume *v, cvr_transfer_function *tf,
                  const cvr_render_settings *s, frame *f) {
  cvr_view view;
  cvr_test_column_view(&view);
  const cvr_image img = {f->rgba, f->color, NULL, NULL};
  const cvr_status st = cvr_render(ctx, v, tf, &view, s, &img, &f->stats);
  CHECK(st == CVR_OK, "render (%s): %s", cvr_blend_mode_name(s->blend_mode), cvr_last_error(ctx));
  return st == CVR_OK;
}

static const float *pixel_of(const frame *f, int i, int j) {
  return cvr_test_column_pixel(f->color, i, j);
}

static int near(double a, double b) { return fabs(a - b) <= 2e-3; }

static void check_pixel(const char *what, const float *p, double r, double g, double b, double a) {
  CHECK(near(p[0], r) && near(p[1], g) && near(p[2], b) && near(p[3], a),
        "%s: pixel (%.4f %.4f %.4f %.4f), expected (%.4f %.4f %.4f %.4f)", what, p[0], p[1], p[2],
        p[3], r, g, b, a);
}

static void closed_form(cvr_context *ctx) {
  static uint8_t voxels[N * N * N];
  cvr_transfer_function *tf = cvr_test_column_tf(ctx, kUnit);
  cvr_render_settings s;
  cvr_render_settings_init(&s);
  s.sample_distance = kDt;
  static frame f;

  /* constant 128: normalized value 128/255, table entry 128 */
  memset(voxels, 128, sizeof voxels);
  cvr_volume *v = cvr_test_column_volume(ctx, voxels);
  const double sn = 128.0 / 255.0;
  const double a = cvr_round_to_half(128.0f / 255.0f);
  const double colour[3] = {cvr_round_to_half(0.8f), cvr_round_to_half(0.4f), cvr_round_to_half(0.2f)};
  for (int m = CVR_BLEND_MAXIMUM; m <= CVR_BLEND_MINIMUM; ++m) {
    s.blend_mode = (cvr_blend_mode)m;
    if (render(ctx, v, tf, &s, &f))
      check_pixel(cvr_blend_mode_name(s.blend_mode), pixel_of(&f, 8, 8), colour[0] * a,
                  colour[1] * a, colour[2] * a, a);
  }
  s.blend_mode = CVR_BLEND_AVERAGE;
  if (render(ctx, v, tf, &s, &f)) {
    check_pixel("average", pixel_of(&f, 8, 8), a * sn, a * sn, a * sn, 1.0);
    check_pixel("average, a ray past the volume", pixel_of(&f, -2, 8), 0, 0, 0, 0);
  }
  s.average_range[0] = 129.0; /* the value lies outside: no sample counts */
  s.average_range[1] = 300.0;
  if (render(ctx, v, tf, &s, &f))
    check_pixel("average, value outside the range", pixel_of(&f, 8, 8), 0, 0, 0, 0);
  s.average_range[0] = 128.0; /* the range's ends belong to it */
  s.average_range[1] = 128.0;
  if (render(ctx, v, tf, &s, &f))
    check_pixel("average, range [128, 128]", pixel_of(&f, 8, 8), a * sn, a * sn, a * sn, 1.0);
  s.average_range[0] = -HUGE_VAL;
  s.average_range[1] = HUGE_VAL;

  s.blend_mode = CVR_BLEND_ADDITIVE;
  if (render(ctx, v, tf, &s, &f)) {
    const uint64_t per_ray = f.stats.rays ? f.stats.samples / f.stats.rays : 0;
    CHECK(per_ray * f.stats.rays == f.stats.samples && f.stats.rays == 256 &&
              per_ray == CVR_COLUMN_SAMPLES,
          "additive: %llu samples over %llu rays (256 rays, 30 samples each: 15 voxels / 0.5)",
          (unsigned long long)f.stats.samples, (unsigned long long)f.stats.rays);
    /* per-sample opacity a * dt / unit, rounded to half precision */
    const double scaled = cvr_round_to_half((float)(128.0 / 255.0 * kDt / kUnit));
    const double sum = fmin(1.0, (double)per_ray * scaled * sn);
    check_pixel("additive", pixel_of(&f, 8, 8), sum, sum, sum, 1.0);
  }
  cvr_volume_destroy(v);

  /* one hot voxel (255) at the back, one cold (0) at the front, in 100s */
  memset(voxels, 100, sizeof voxels);
  voxels[(size_t)3 * N * N + 5 * N + 4] = 255; /* (4, 5, 3): z = 3 is far from the eye at z = 40 */
  voxels[(size_t)12 * N * N + 10 * N + 11] = 0; /* (11, 10, 12): near */
  v = cvr_test_column_volume(ctx, voxels);
  s.blend_mode = CVR_BLEND_MAXIMUM;
  if (render(ctx, v, tf, &s, &f)) {
    const float *hot = pixel_of(&f, 4, 5), *plain = pixel_of(&f, 8, 8);
    const double a255 = cvr_round_to_half(1.0f);
    check_pixel("maximum through the hot voxel", hot, colour[0] * a255, colour[1] * a255,
                colour[2] * a255, a255);
    CHECK(plain[3] < 0.4f && plain[3] > 0.38f, "maximum elsewhere: opacity %.4f of value 100",
          plain[3]);
  }
  s.blend_mode = CVR_BLEND_MINIMUM;
  if (render(ctx, v, tf, &s, &f)) {
    check_pixel("minimum through the cold voxel", pixel_of(&f, 11, 10), 0, 0, 0, 0);
    CHECK(pixel_of(&f, 8, 8)[3] > 0.38f, "minimum elsewhere: opacity %.4f of value 100",
          pixel_of(&f, 8, 8)[3]);
    CHECK(pixel_of(&f, 4, 5)[3] < 0.4f, "minimum ignores the hot voxel: opacity %.4f",
          pixel_of(&f, 4, 5)[3]);
  }

  /* bad settings: refused with a message, and the context still renders */
  cvr_view view;
  cvr_test_column_view(&view);
  const cvr_image img = {f.rgba, NULL, NULL, NULL};
  s.blend_mode = (cvr_blend_mode)17;
  CHECK(cvr_render(ctx, v, tf, &view, &s, &img, NULL) == CVR_ERROR_INVALID_ARGUMENT &&
            strstr(cvr_last_error(ctx), "blend mode"),
        "unknown blend mode: %s", cvr_last_error(ctx));
  s.blend_mode = CVR_BLEND_AVERAGE;
  s.average_range[0] = 10.0;
  s.average_range[1] = 5.0;
  CHECK(cvr_render(ctx, v, tf, &view, &s, &img, NULL) == CVR_ERROR_INVALID_ARGUMENT &&
            strstr(cvr_last_error(ctx), "average-intensity range"),
        "empty average range: %s", cvr_last_error(ctx));
  s.average_range[0] = NAN;
  CHECK(cvr_render(ctx, v, tf, &view, &s, &img, NULL) == CVR_ERROR_INVALID_ARGUMENT,
        "NaN average range: %s", cvr_last_error(ctx));
  s.average_range[0] = 0.0;
  CHECK(cvr_render(ctx, v, tf, &view, &s, &img, NULL) == CVR_OK, "then renders: %s",
        cvr_last_error(ctx));
  cvr_volume_destroy(v);
  cvr_transfer_function_destroy(tf);
}

/* ---- CUDA against the CPU reference, every strategy ---- */

enum { SIZE = 128, PIXELS = SIZE * SIZE };

static int compared = 0;

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
    for (int m = CVR_BLEND_MAXIMUM; m <= CVR_BLEND_ADDITIVE; ++m)
      for (int v = 0; v < (quick ? 1 : 4); ++v) {
        cvr_view view;
        cvr_test_scene_view(&c, v, v % 2 ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL,
                            SIZE, SIZE, &view);
        cvr_render_settings s;
        cvr_render_settings_init(&s);
        s.sample_distance = c.sample_distance;
        s.blend_mode = (cvr_blend_mode)m;
        s.average_range[0] = cvr_test_datasets[d].lo; /* the structure, not the background */
        s.average_range[1] = 1e30;
        cvr_render_stats rs, gs;
        const cvr_image ri = {ref, NULL, ref_depth, NULL};
        if (cvr_render(cpu, c.volume, c.tf, &view, &s, &ri, &rs) != CVR_OK) {
          CHECK(0, "cpu: %s", cvr_last_error(cpu));
          continue;
        }
        long visible = 0;
        for (long i = 0; i < PIXELS; ++i) visible += ref[4 * i + 3] > 0;
        /* (a minimum along a ray is mostly the empty border's: transparent) */
        CHECK(m == CVR_BLEND_MINIMUM || visible > PIXELS / 20, "%s %s view %d: only %ld pixels visible",
              cvr_test_datasets[d].file, cvr_blend_mode_name(s.blend_mode), v, visible);
        for (size_t k = 0; k < sizeof strategies / sizeof strategies[0]; ++k) {
          s.strategy = strategies[k];
          memset(out, 0xCD, sizeof out);
          const cvr_image gi = {out, NULL, out_depth, NULL};
          char what[160];
          snprintf(what, sizeof what, "%s %s view %d %s", cvr_test_datasets[d].file,
                   cvr_blend_mode_name(s.blend_mode), v, cvr_strategy_name(s.strategy));
          /* AUTO tunes: several frames, each must match */
          for (int rep = 0; rep < (s.strategy == CVR_STRATEGY_AUTO ? 3 : 1); ++rep) {
            if (cvr_render(gpu, g.volume, g.tf, &view, &s, &gi, &gs) != CVR_OK) {
              CHECK(0, "%s: %s", what, cvr_last_error(gpu));
              break;
            }
            const cvr_test_diff diff = cvr_test_compare(ref, out, ref_depth, out_depth, PIXELS);
            CHECK(cvr_test_within_tolerance(&diff), "%s: over %.4f%% mean %.4f max %d", what,
                  100.0 * diff.color.over_fraction, diff.color.mean_diff, diff.color.max_diff);
            CHECK(gs.rays == rs.rays && cvr_test_visited(&gs) == cvr_test_visited(&rs),
                  "%s: %llu rays / %llu samples, the CPU %llu / %llu", what,
                  (unsigned long long)gs.rays, (unsigned long long)cvr_test_visited(&gs),
                  (unsigned long long)rs.rays, (unsigned long long)cvr_test_visited(&rs));
            const int composite_only = s.strategy == CVR_STRATEGY_WARP_MARCHING ||
                                       s.strategy == CVR_STRATEGY_SLAB;
            if (composite_only)
              CHECK(gs.strategy == CVR_STRATEGY_STANDARD, "%s: rendered by %s", what,
                    cvr_strategy_name(gs.strategy));
            else if (s.strategy == CVR_STRATEGY_AUTO)
              CHECK(gs.strategy == CVR_STRATEGY_STANDARD || gs.strategy == CVR_STRATEGY_BLOCK_SHAPE,
                    "%s: Auto picked %s, which composites only", what,
                    cvr_strategy_name(gs.strategy));
            else
              CHECK(gs.strategy == s.strategy, "%s: rendered by %s", what,
                    cvr_strategy_name(gs.strategy));
            ++compared;
          }
        }
      }
    cvr_test_scene_close(&c);
    cvr_test_scene_close(&g);
  }
}

int main(int argc, char **argv) {
  cvr_backend backend;
  cvr_context *ctx = cvr_test_context(argc, argv, &backend);
  closed_form(ctx);
  if (backend == CVR_BACKEND_CUDA) {
    char *cpu_arg[] = {argv[0], "cpu"};
    cvr_context *cpu = cvr_test_context(2, cpu_arg, NULL);
    against_reference(cpu, ctx, argc > 2 && !strcmp(argv[2], "--quick"));
    printf("%d comparisons against the CPU reference\n", compared);
    cvr_context_destroy(cpu);
  }
  cvr_context_destroy(ctx);
  return cvr_test_finish("test_blend_modes");
}
