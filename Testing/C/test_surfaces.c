// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The isosurface and slice blend modes (cvr.h, cvr_blend_mode).
 *  - Closed form, on the backend given: the 16^3 column scene (test_common.h)
 *    with values 10 z, so that every ray meets the same values in the same
 *    order (150 at its first sample, down by 5 per sample). Isosurfaces: an
 *    iso value composites once where the ray crosses it, classified at the
 *    value itself (opacity as given), two values give "over" of the two, two
 *    values crossed within one step count on successive samples, values in
 *    any order and repeated are the same surfaces; rays that cross nothing
 *    stay transparent; the depth is the crossing's. Slices: a plane across the
 *    rays shows the value it cuts (one sample per ray), an oblique plane a
 *    different value per column, a plane outside the volume or along the
 *    rays nothing.
 *  - Bad settings: no iso value, too many, a NaN value; a zero or NaN slice
 *    normal, an infinite origin.
 *  - With "cuda": both modes, shaded and not, on real data (three data sets,
 *    views in both projections) in every strategy against the CPU reference.
 *    From global memory in array order (filtered in the kernel by the
 *    reference's own filter): within the tolerance of test_common.h with the
 *    same rays and samples. From the texture, whose filter arithmetic the
 *    reference emulates but not bit for bit, an isosurface crossing flips by a
 *    sample wherever a filtered value lies that close to an iso value: there
 *    the CVR_TOL_FLIP_* bounds hold (a few pixels of a surface's silhouette, a
 *    few samples of early termination). Warp marching and slab report that
 *    the standard strategy rendered them.
 * Usage: test_surfaces cpu|cuda [--quick] (--quick: one data set, one view
 * per mode, for the sanitizers) */
#include <math.h>
#include <string.h>

#include "half.h"
#include "test_common.h"

enum { N = CVR_COLUMN_N, W = CVR_COLUMN_W, H = CVR_COLUMN_H };

/* Isosurfaces from the texture against the reference: within
 * CVR_TOL_FLIP_OVER_FRACTION and CVR_TOL_FLIP_MEAN_LEVELS (test_common.h),
 * the samples taken within CVR_TOL_ERT_SAMPLES_FRACTION (early termination
 * moves with a flipped crossing). */

typedef struct frame {
  float color[W * H * 4];
  float depth[W * H];
  cvr_render_stats stats;
} frame;

static int render(cvr_context *ctx, cvr_volume *v, cvr_transfer_function *tf,
                  const cvr_render_settings *s, frame *f, const char *what) {
  cvr_view view;
  cvr_test_column_view(&view);
  const cvr_image img = {NULL, f->color, f->depth, NULL};
  const cvr_status st = cvr_render(ctx, v, tf, &view, s, &img, &f->stats);
  CHECK(st == CVR_OK, "render (%s): %s", what, cvr_last_error(ctx));
  return st == CVR_OK;
}

static int near(double a, double b) { return fabs(a - b) <= 2e-3; }

/* The column table's classification of a value (straight colour (0.8, 0.4,
 * 0.2), opacity value / 255, both in half precision; uncorrected, as these
 * modes classify). */
static double opacity_of(double value) { return cvr_round_to_half((float)(value / 255.0)); }

/* The pixel of a ray that composited surfaces of opacities a[0..n-1], front first. */
static void check_over(const char *what, const float *p, const double *a, int n) {
  double alpha = 0.0;
  for (int i = 0; i < n; ++i) alpha += (1.0 - alpha) * a[i];
  const double c[3] = {cvr_round_to_half(0.8f), cvr_round_to_half(0.4f), cvr_round_to_half(0.2f)};
  CHECK(near(p[0], c[0] * alpha) && near(p[1], c[1] * alpha) && near(p[2], c[2] * alpha) &&
            near(p[3], alpha),
        "%s: pixel (%.4f %.4f %.4f %.4f), expected opacity %.4f", what, p[0], p[1], p[2], p[3],
        alpha);
}

/* Window depth of world z in the column view (ortho, near 1, far 60, eye at z = 40). */
static double depth_of_z(double z) { return ((40.0 - z) - 1.0) / 59.0; }

static void isosurfaces(cvr_context *ctx, cvr_volume *v, cvr_transfer_function *tf) {
  static frame f;
  cvr_render_settings s;
  cvr_render_settings_init(&s);
  s.sample_distance = 0.5;
  s.blend_mode = CVR_BLEND_ISOSURFACE;
  /* the ray's values: 145 at z = 14.5 (its first sample), then 140, ... 0 at z = 0 */
  s.iso_value_count = 1;
  s.iso_values[0] = 104.0; /* crossed between 105 (z = 10.5) and 100 (z = 10) */
  if (render(ctx, v, tf, &s, &f, "one iso value")) {
    const double a[1] = {opacity_of(104.0)};
    check_over("one iso value", cvr_test_column_pixel(f.color, 8, 8), a, 1);
    check_over("one iso value, another column", cvr_test_column_pixel(f.color, 0, 15), a, 1);
    const float d = f.depth[(8 + 2) * W + 8 + 2];
    CHECK(fabs(d - depth_of_z(10.0)) < 1e-4, "depth %.5f, expected the crossing's at z = 10: %.5f",
          d, depth_of_z(10.0));
    CHECK(f.stats.rays == 256, "%llu rays", (unsigned long long)f.stats.rays);
  }
  s.iso_value_count = 2;
  s.iso_values[0] = 44.0; /* given in any order: 104 is crossed first */
  s.iso_values[1] = 104.0;
  const double two[2] = {opacity_of(104.0), opacity_of(44.0)};
  if (render(ctx, v, tf, &s, &f, "two iso values"))
    check_over("two iso values", cvr_test_column_pixel(f.color, 8, 8), two, 2);
  s.iso_value_count = 3; /* a repeated value is one surface */
  s.iso_values[2] = 44.0;
  if (render(ctx, v, tf, &s, &f, "a repeated iso value"))
    check_over("a repeated iso value", cvr_test_column_pixel(f.color, 8, 8), two, 2);
  /* 102 and 101 both lie between 105 and 100: crossed on successive samples */
  s.iso_value_count = 2;
  s.iso_values[0] = 101.0;
  s.iso_values[1] = 102.0;
  if (render(ctx, v, tf, &s, &f, "two values within one step")) {
    const double a[2] = {opacity_of(102.0), opacity_of(101.0)};
    check_over("two values within one step", cvr_test_column_pixel(f.color, 8, 8), a, 2);
  }
  s.iso_value_count = 1; /* values above everything the ray meets: nothing crossed */
  s.iso_values[0] = 200.0;
  if (render(ctx, v, tf, &s, &f, "no crossing")) {
    const double none[1] = {0.0};
    check_over("no crossing", cvr_test_column_pixel(f.color, 8, 8), none, 1);
    CHECK(f.depth[(8 + 2) * W + 8 + 2] == 1.0f, "no crossing: depth %.4f",
          f.depth[(8 + 2) * W + 8 + 2]);
  }
  /* the first sample's own value (z = 14.5, one sample distance behind the
   * entry): it only starts the interval */
  s.iso_values[0] = 145.0;
  if (render(ctx, v, tf, &s, &f, "the first sample on the value")) {
    const double a[1] = {opacity_of(145.0)};
    check_over("the first sample's value, crossed at the second", cvr_test_column_pixel(f.color, 8, 8),
               a, 1);
  }
}

static void slices(cvr_context *ctx, cvr_volume *v, cvr_transfer_function *tf) {
  static frame f;
  cvr_render_settings s;
  cvr_render_settings_init(&s);
  s.sample_distance = 0.5;
  s.blend_mode = CVR_BLEND_SLICE;
  s.slice_origin[0] = 3.0;
  s.slice_origin[1] = -20.0; /* any point of the plane */
  s.slice_origin[2] = 7.3;
  s.slice_normal[2] = -2.0; /* any length, either side */
  if (render(ctx, v, tf, &s, &f, "slice across the rays")) {
    const double a[1] = {opacity_of(73.0)};
    check_over("slice z = 7.3", cvr_test_column_pixel(f.color, 8, 8), a, 1);
    check_over("slice z = 7.3, a corner column", cvr_test_column_pixel(f.color, 15, 0), a, 1);
    CHECK(f.stats.rays == 256 && f.stats.samples == 256, "%llu rays, %llu samples (one each)",
          (unsigned long long)f.stats.rays, (unsigned long long)f.stats.samples);
    const float d = f.depth[(8 + 2) * W + 8 + 2];
    CHECK(fabs(d - depth_of_z(7.3)) < 1e-4, "slice depth %.5f, expected %.5f", d, depth_of_z(7.3));
    const double none[1] = {0.0};
    check_over("slice, a ray past the volume", cvr_test_column_pixel(f.color, -2, 8), none, 1);
  }
  /* oblique: z = 15 - x through the volume's centre, so column i cuts z = 15 - i */
  s.slice_origin[0] = s.slice_origin[1] = s.slice_origin[2] = 7.5;
  s.slice_normal[0] = 1.0;
  s.slice_normal[1] = 0.0;
  s.slice_normal[2] = 1.0;
  if (render(ctx, v, tf, &s, &f, "oblique slice"))
    for (int i = 2; i < N - 1; i += 5) { /* (the volume's edge columns cut it on its faces) */
      const double a[1] = {opacity_of(10.0 * (15 - i))};
      char what[64];
      snprintf(what, sizeof what, "oblique slice, column %d", i);
      check_over(what, cvr_test_column_pixel(f.color, i, 4), a, 1);
    }
  s.slice_normal[0] = 0.0; /* outside the volume: no ray meets it inside */
  s.slice_origin[2] = 20.0;
  if (render(ctx, v, tf, &s, &f, "slice outside"))
    CHECK(f.stats.rays == 0 && f.stats.samples == 0, "slice outside: %llu rays",
          (unsigned long long)f.stats.rays);
  s.slice_normal[0] = 1.0; /* along the rays */
  s.slice_normal[2] = 0.0;
  s.slice_origin[0] = 7.0;
  if (render(ctx, v, tf, &s, &f, "slice along the rays"))
    CHECK(f.stats.rays == 0, "slice along the rays: %llu rays", (unsigned long long)f.stats.rays);
}

static void bad_settings(cvr_context *ctx, cvr_volume *v, cvr_transfer_function *tf) {
  cvr_view view;
  cvr_test_column_view(&view);
  static uint8_t rgba[W * H * 4];
  const cvr_image img = {rgba, NULL, NULL, NULL};
  cvr_render_settings s;
  cvr_render_settings_init(&s);
  s.blend_mode = CVR_BLEND_ISOSURFACE;
  struct {
    int count;
    double value;
    const char *message;
  } iso[] = {{0, 1.0, "with 0 iso values"}, {CVR_MAX_ISO_VALUES + 1, 1.0, "iso values; 1..32"},
             {2, NAN, "iso value 1 is nan"}};
  for (int i = 0; i < 3; ++i) {
    s.iso_value_count = iso[i].count;
    for (int k = 0; k < CVR_MAX_ISO_VALUES; ++k) s.iso_values[k] = k ? iso[i].value : 5.0;
    CHECK(cvr_render(ctx, v, tf, &view, &s, &img, NULL) == CVR_ERROR_INVALID_ARGUMENT &&
              strstr(cvr_last_error(ctx), iso[i].message),
          "iso case %d: %s", i, cvr_last_error(ctx));
  }
  s.blend_mode = CVR_BLEND_SLICE;
  const double normals[3][3] = {{0, 0, 0}, {NAN, 0, 1}, {0, 0, 1}};
  const double origins[3] = {0.0, 0.0, INFINITY};
  for (int i = 0; i < 3; ++i) {
    memcpy(s.slice_normal, normals[i], sizeof s.slice_normal);
    s.slice_origin[1] = origins[i];
    CHECK(cvr_render(ctx, v, tf, &view, &s, &img, NULL) == CVR_ERROR_INVALID_ARGUMENT &&
              strstr(cvr_last_error(ctx), "slice plane"),
          "slice case %d: %s", i, cvr_last_error(ctx));
  }
  s.slice_origin[1] = 0.0;
  CHECK(cvr_render(ctx, v, tf, &view, &s, &img, NULL) == CVR_OK, "then renders: %s",
        cvr_last_error(ctx));
  s.iso_value_count = 0; /* iso values are not checked in other modes */
  s.iso_values[0] = NAN;
  CHECK(cvr_render(ctx, v, tf, &view, &s, &img, NULL) == CVR_OK, "slice ignores iso values: %s",
        cvr_last_error(ctx));
}

static void closed_form(cvr_context *ctx) {
  static uint8_t voxels[N * N * N];
  for (int z = 0; z < N; ++z) memset(voxels + (size_t)z * N * N, 10 * z, (size_t)N * N);
  cvr_volume *v = cvr_test_column_volume(ctx, voxels);
  cvr_transfer_function *tf = cvr_test_column_tf(ctx, 1.0);
  isosurfaces(ctx, v, tf);
  slices(ctx, v, tf);
  bad_settings(ctx, v, tf);
  cvr_transfer_function_destroy(tf);
  cvr_volume_destroy(v);
}

/* ---- CUDA against the CPU reference, every strategy ---- */

enum { SIZE = 128, PIXELS = SIZE * SIZE };

static int compared = 0;

static void settings_for(int mode, const cvr_test_scene *c, const cvr_test_dataset *d,
                         cvr_render_settings *s) {
  cvr_render_settings_init(s);
  s->sample_distance = c->sample_distance;
  s->shading.enabled = mode != 0;
  if (mode < 2) {
    s->blend_mode = CVR_BLEND_ISOSURFACE; /* the structure's edge and its core */
    s->iso_value_count = 2;
    s->iso_values[0] = 0.5 * (d->lo + d->hi);
    s->iso_values[1] = d->hi;
  } else {
    s->blend_mode = CVR_BLEND_SLICE; /* oblique through the centre */
    memcpy(s->slice_origin, c->center, sizeof s->slice_origin);
    s->slice_normal[0] = 1.0;
    s->slice_normal[1] = 2.0;
    s->slice_normal[2] = 3.0;
  }
}

static void against_reference(cvr_context *cpu, cvr_context *gpu, int quick) {
  static uint8_t ref[PIXELS * 4], out[PIXELS * 4];
  static float ref_depth[PIXELS], out_depth[PIXELS];
  const cvr_strategy strategies[] = {CVR_STRATEGY_STANDARD, CVR_STRATEGY_BLOCK_SHAPE,
                                     CVR_STRATEGY_WARP_MARCHING, CVR_STRATEGY_SLAB,
                                     CVR_STRATEGY_AUTO};
  static const char *modes[3] = {"isosurface", "isosurface shaded", "slice shaded"};
  for (int d = 0; d < (quick ? 1 : 3); ++d) {
    cvr_test_scene c, g;
    if (!cvr_test_scene_open(cpu, &cvr_test_datasets[d], &c)) continue;
    if (!cvr_test_scene_open(gpu, &cvr_test_datasets[d], &g)) {
      CHECK(0, "%s on the GPU", cvr_test_datasets[d].file);
      cvr_test_scene_close(&c);
      continue;
    }
    for (int m = 0; m < 3; ++m)
      for (int v = 0; v < (quick ? 1 : 4); ++v) {
        cvr_view view;
        cvr_test_scene_view(&c, v, v % 2 ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL,
                            SIZE, SIZE, &view);
        cvr_render_settings s;
        settings_for(m, &c, &cvr_test_datasets[d], &s);
        cvr_render_stats rs, gs;
        const cvr_image ri = {ref, NULL, ref_depth, NULL};
        if (cvr_render(cpu, c.volume, c.tf, &view, &s, &ri, &rs) != CVR_OK) {
          CHECK(0, "cpu: %s", cvr_last_error(cpu));
          continue;
        }
        long visible = 0;
        for (long i = 0; i < PIXELS; ++i) visible += ref[4 * i + 3] > 0;
        /* a slice of the ramp shows its structure where it cuts some; the
         * plane itself covers much of the image */
        CHECK(m < 2 ? visible > PIXELS / 50 : visible > 0 && rs.rays > PIXELS / 10,
              "%s %s view %d: %ld pixels visible, %llu rays", cvr_test_datasets[d].file, modes[m],
              v, visible, (unsigned long long)rs.rays);
        for (size_t k = 0; k < sizeof strategies / sizeof strategies[0]; ++k)
          for (int layout = 0; layout < (strategies[k] == CVR_STRATEGY_AUTO ? 1 : 2); ++layout) {
            s.strategy = strategies[k];
            s.memory_layout = layout ? CVR_LAYOUT_ARRAY_ORDER : CVR_LAYOUT_TEXTURE;
            memset(out, 0xCD, sizeof out);
            const cvr_image gi = {out, NULL, out_depth, NULL};
            char what[160];
            snprintf(what, sizeof what, "%s %s view %d %s %s", cvr_test_datasets[d].file, modes[m],
                     v, cvr_strategy_name(s.strategy), layout ? "array order" : "texture");
            for (int rep = 0; rep < (s.strategy == CVR_STRATEGY_AUTO ? 3 : 1); ++rep) {
              if (cvr_render(gpu, g.volume, g.tf, &view, &s, &gi, &gs) != CVR_OK) {
                CHECK(0, "%s: %s", what, cvr_last_error(gpu));
                break;
              }
              const cvr_test_diff diff = cvr_test_compare(ref, out, ref_depth, out_depth, PIXELS);
              const int flips = m < 2 && gs.memory_layout == CVR_LAYOUT_TEXTURE;
              const double extra = fabs((double)cvr_test_visited(&gs) - (double)cvr_test_visited(&rs));
              if (flips)
                CHECK(diff.color.over_fraction <= CVR_TOL_FLIP_OVER_FRACTION &&
                          diff.color.mean_diff <= CVR_TOL_FLIP_MEAN_LEVELS &&
                          extra <= CVR_TOL_ERT_SAMPLES_FRACTION * (double)cvr_test_visited(&rs) &&
                          gs.rays == rs.rays,
                      "%s: over %.4f%% mean %.4f, %llu samples reached, the CPU %llu", what,
                      100.0 * diff.color.over_fraction, diff.color.mean_diff,
                      (unsigned long long)cvr_test_visited(&gs), (unsigned long long)cvr_test_visited(&rs));
              else
                CHECK(cvr_test_within_tolerance(&diff) && gs.rays == rs.rays &&
                          cvr_test_visited(&gs) == cvr_test_visited(&rs),
                      "%s: over %.4f%% mean %.4f max %d depth %.4f%%; %llu rays / %llu samples, "
                      "the CPU %llu / %llu", what, 100.0 * diff.color.over_fraction,
                      diff.color.mean_diff, diff.color.max_diff, 100.0 * diff.depth_over_fraction,
                      (unsigned long long)gs.rays, (unsigned long long)cvr_test_visited(&gs),
                      (unsigned long long)rs.rays, (unsigned long long)cvr_test_visited(&rs));
              if (flips && rep == 0)
                printf("%s: over %.3f%% mean %.4f samples %+.0f\n", what,
                       100.0 * diff.color.over_fraction, diff.color.mean_diff,
                       (double)gs.samples - (double)rs.samples);
              if (s.strategy == CVR_STRATEGY_WARP_MARCHING || s.strategy == CVR_STRATEGY_SLAB)
                CHECK(gs.strategy == CVR_STRATEGY_STANDARD, "%s: rendered by %s", what,
                      cvr_strategy_name(gs.strategy));
              else if (s.strategy != CVR_STRATEGY_AUTO)
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
  return cvr_test_finish("test_surfaces");
}
