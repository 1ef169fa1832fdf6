// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Clipping planes and cropping (cvr_render_settings).
 *  - Closed form, on the backend given: a constant 16^3 volume seen straight
 *    on along z (parallel), so a ray through voxel column (i, j) takes its
 *    samples at z = 14.5, 14, ..., 0 (the first one sample distance behind
 *    its entry at z = 15) and a pixel's opacity is 1 - (1 - a)^n
 *    for the n samples it keeps (a: one sample's, measured with one sample
 *    per ray). Clipping: a plane across the rays removes the samples behind
 *    it, and one the rays enter through starts their samples one sample
 *    distance behind it (the sample count says so), a plane along them removes whole rays,
 *    an unnormalized normal clips as its unit one, a plane that removes
 *    everything leaves no ray. Cropping: for VTK's named flag sets and random
 *    ones, every pixel keeps exactly the samples whose region's bit is set.
 *    Maximum intensity: a hot voxel clipped or cropped away is not shown.
 *  - Bad settings: too many planes, a zero normal, a NaN offset, cropping
 *    flags beyond 27 bits, planes out of order or not finite.
 *  - With "cuda": real data with cropping and two oblique clipping planes, in
 *    every strategy (composite, shaded, maximum intensity), on turned copies
 *    of the volume and in Z order, against the CPU reference within the
 *    tolerance of test_common.h with the same rays and samples.
 * Usage: test_clipping cpu|cuda [--quick] (--quick: one data set and view,
 * for the sanitizers) */
#include <math.h>
#include <string.h>

#include "test_common.h"

enum { N = CVR_COLUMN_N, W = CVR_COLUMN_W, H = CVR_COLUMN_H, SAMPLES = CVR_COLUMN_SAMPLES };
static const double kDt = 0.5;

typedef struct frame {
  uint8_t rgba[W * H * 4];
  float color[W * H * 4];
  cvr_render_stats stats;
} frame;

static int render(cvr_context *ctx, cvr_volume *v, cvr_transfer_function *tf,
                  const cvr_render_settings *s, frame *f, const char *what) {
  cvr_view view;
  cvr_test_column_view(&view);
  const cvr_image img = {f->rgba, f->color, NULL, NULL};
  const cvr_status st = cvr_render(ctx, v, tf, &view, s, &img, &f->stats);
  CHECK(st == CVR_OK, "render (%s): %s", what, cvr_last_error(ctx));
  return st == CVR_OK;
}

static const float *pixel_of(const frame *f, int i, int j) {
  return cvr_test_column_pixel(f->color, i, j);
}

/* The ray of column (i, j) takes sample k at z = 14.5 - k / 2. */
static double sample_z(int k) { return 14.5 - 0.5 * k; }

/* Opacity of n composited samples of opacity a each. */
static double opacity_of(double a, int n) { return 1.0 - pow(1.0 - a, n); }

static int check_column(const char *what, const frame *f, int i, int j, double a, int kept) {
  const float *p = pixel_of(f, i, j);
  const double expected = opacity_of(a, kept);
  const int ok = fabs(p[3] - expected) <= 2e-3 && fabs(p[0] - 0.8 * p[3]) <= 2e-3;
  CHECK(ok, "%s: column (%d, %d): opacity %.4f (red %.4f), expected %.4f from %d samples", what,
        i, j, p[3], p[0], expected, kept);
  return ok;
}

static void closed_form_clipping(cvr_context *ctx, cvr_volume *v, cvr_transfer_function *tf,
                                 double a) {
  cvr_render_settings s;
  cvr_render_settings_init(&s);
  s.sample_distance = kDt;
  s.early_termination = 0;
  static frame f;

  /* across the rays: z >= 8 keeps samples z = 14.5 .. 8; z <= 8, which the
   * rays enter through, z = 7.5 .. 0 */
  const struct { double plane[4]; int kept; const char *what; } across[] = {
      {{0.0, 0.0, 1.0, -8.0}, 14, "plane z >= 8"},
      {{0.0, 0.0, -1.0, 8.0}, 16, "plane z <= 8"},
      {{0.0, 0.0, 3.0, -24.0}, 14, "plane 3 z >= 24 (normal not of unit length)"},
  };
  for (int c = 0; c < 3; ++c) {
    s.clip_plane_count = 1;
    memcpy(s.clip_planes[0], across[c].plane, sizeof across[c].plane);
    if (!render(ctx, v, tf, &s, &f, across[c].what)) continue;
    CHECK(f.stats.rays == N * N && f.stats.samples == (uint64_t)N * N * across[c].kept,
          "%s: %llu rays, %llu samples; expected %d rays of %d samples", across[c].what,
          (unsigned long long)f.stats.rays, (unsigned long long)f.stats.samples, N * N,
          across[c].kept);
    check_column(across[c].what, &f, 8, 8, a, across[c].kept);
    check_column(across[c].what, &f, 0, 15, a, across[c].kept);
  }

  /* two planes: the slab 4 <= z <= 10 keeps z = 9.5 .. 4 */
  s.clip_plane_count = 2;
  const double slab[2][4] = {{0.0, 0.0, 1.0, -4.0}, {0.0, 0.0, -1.0, 10.0}};
  memcpy(s.clip_planes, slab, sizeof slab);
  if (render(ctx, v, tf, &s, &f, "two planes"))
    check_column("two planes 4 <= z <= 10", &f, 3, 12, a, 12);

  /* along the rays: x >= 7.5 removes the columns i <= 7 */
  s.clip_plane_count = 1;
  const double along[4] = {1.0, 0.0, 0.0, -7.5};
  memcpy(s.clip_planes[0], along, sizeof along);
  if (render(ctx, v, tf, &s, &f, "plane x >= 7.5")) {
    CHECK(f.stats.rays == N * N / 2, "plane x >= 7.5: %llu rays, expected %d",
          (unsigned long long)f.stats.rays, N * N / 2);
    check_column("plane x >= 7.5", &f, 7, 8, a, 0);
    check_column("plane x >= 7.5", &f, 8, 8, a, SAMPLES);
  }

  /* everything clipped: no ray */
  const double away[4] = {1.0, 0.0, 0.0, -100.0};
  memcpy(s.clip_planes[0], away, sizeof away);
  if (render(ctx, v, tf, &s, &f, "plane x >= 100")) {
    CHECK(f.stats.rays == 0 && f.stats.samples == 0, "plane x >= 100: %llu rays",
          (unsigned long long)f.stats.rays);
    check_column("plane x >= 100", &f, 8, 8, a, 0);
  }
}

/* Whether sample z of column (i, j) is kept under the planes and flags:
 * region coordinate 0 below an axis's first plane, 1 up to its second, 2 on. */
static int kept_by_cropping(const double planes[6], unsigned flags, double x, double y, double z) {
  const double p[3] = {x, y, z};
  int region = 0;
  for (int axis = 0, scale = 1; axis < 3; ++axis, scale *= 3)
    region += scale * ((p[axis] >= planes[2 * axis]) + (p[axis] >= planes[2 * axis + 1]));
  return (flags >> region) & 1u;
}

static void closed_form_cropping(cvr_context *ctx, cvr_volume *v, cvr_transfer_function *tf,
                                 double a) {
  cvr_render_settings s;
  cvr_render_settings_init(&s);
  s.sample_distance = kDt;
  s.early_termination = 0;
  s.cropping = 1;
  /* between lattice points, so no sample lies on a plane */
  const double planes[6] = {4.25, 10.75, 3.25, 11.75, 5.25, 9.75};
  memcpy(s.cropping_planes, planes, sizeof planes);
  unsigned flags[10] = {CVR_CROP_SUBVOLUME, 0x2ebfeba /* fence */, 0x5140145 /* inverted fence */,
                        0x0417410 /* cross */, 0x7be8bef /* inverted cross */,
                        0x7ffffff /* everything */, 0};
  unsigned seed = 12345u;
  for (int r = 7; r < 10; ++r) { /* random sets of regions */
    seed = seed * 1103515245u + 12345u;
    flags[r] = (seed >> 3) & 0x7ffffffu;
  }
  static frame f;
  for (int c = 0; c < 10; ++c) {
    s.cropping_flags = flags[c];
    char what[64];
    snprintf(what, sizeof what, "cropping flags 0x%07x", flags[c]);
    if (!render(ctx, v, tf, &s, &f, what)) continue;
    CHECK(f.stats.rays == N * N && f.stats.samples == (uint64_t)N * N * SAMPLES,
          "%s: %llu rays, %llu samples: cropped samples still count", what,
          (unsigned long long)f.stats.rays, (unsigned long long)f.stats.samples);
    int wrong = 0;
    for (int j = 0; j < N && wrong < 3; ++j)
      for (int i = 0; i < N && wrong < 3; ++i) {
        int kept = 0;
        for (int k = 0; k < SAMPLES; ++k) kept += kept_by_cropping(planes, flags[c], i, j, sample_z(k));
        wrong += !check_column(what, &f, i, j, a, kept);
      }
  }
}

/* Maximum intensity: a hot voxel behind a clipping plane or in a cropped
 * region does not show; the rest of the ray does. */
static void maximum_intensity(cvr_context *ctx, cvr_transfer_function *tf) {
  static uint8_t voxels[N * N * N];
  memset(voxels, 100, sizeof voxels);
  voxels[(size_t)2 * N * N + 8 * N + 8] = 255; /* (8, 8, 2): far from the eye */
  cvr_volume *v = cvr_test_column_volume(ctx, voxels);
  cvr_render_settings s;
  cvr_render_settings_init(&s);
  s.sample_distance = kDt;
  s.blend_mode = CVR_BLEND_MAXIMUM;
  static frame f;
  if (render(ctx, v, tf, &s, &f, "maximum"))
    CHECK(pixel_of(&f, 8, 8)[3] > 0.99f, "maximum shows the hot voxel: opacity %.4f",
          pixel_of(&f, 8, 8)[3]);
  s.clip_plane_count = 1;
  const double plane[4] = {0.0, 0.0, 1.0, -4.0}; /* z >= 4 */
  memcpy(s.clip_planes[0], plane, sizeof plane);
  if (render(ctx, v, tf, &s, &f, "maximum, clipped"))
    CHECK(fabs(pixel_of(&f, 8, 8)[3] - 100.0 / 255.0) < 0.01,
          "maximum behind a clipping plane: opacity %.4f, expected that of 100", pixel_of(&f, 8, 8)[3]);
  s.clip_plane_count = 0;
  s.cropping = 1;
  const double planes[6] = {-1.0, 20.0, -1.0, 20.0, 4.25, 20.0}; /* z < 4.25 is region 0 */
  memcpy(s.cropping_planes, planes, sizeof planes);
  s.cropping_flags = 0x7fffe00u; /* regions with z coordinate 1 and 2 */
  if (render(ctx, v, tf, &s, &f, "maximum, cropped"))
    CHECK(fabs(pixel_of(&f, 8, 8)[3] - 100.0 / 255.0) < 0.01,
          "maximum in a cropped region: opacity %.4f, expected that of 100", pixel_of(&f, 8, 8)[3]);
  cvr_volume_destroy(v);
}

static void bad_settings(cvr_context *ctx, cvr_volume *v, cvr_transfer_function *tf) {
  cvr_view view;
  cvr_test_column_view(&view);
  static uint8_t rgba[W * H * 4];
  const cvr_image img = {rgba, NULL, NULL, NULL};
  cvr_render_settings s;
  const struct { const char *what, *message; } cases[] = {
      {"33 clipping planes", "clipping planes"},
      {"-1 clipping planes", "clipping planes"},
      {"a zero normal", "non-zero normal"},
      {"a NaN offset", "finite offset"},
      {"cropping flags beyond 27 bits", "cropping flags"},
      {"cropping planes out of order", "min <= max"},
      {"an infinite cropping plane", "cropping planes of z"},
  };
  for (int c = 0; c < 7; ++c) {
    cvr_render_settings_init(&s);
    s.clip_plane_count = 1;
    s.clip_planes[0][2] = 1.0;
    s.cropping = 1;
    const double planes[6] = {2.0, 12.0, 2.0, 12.0, 2.0, 12.0};
    memcpy(s.cropping_planes, planes, sizeof planes);
    switch (c) {
    case 0: s.clip_plane_count = CVR_MAX_CLIP_PLANES + 1; break;
    case 1: s.clip_plane_count = -1; break;
    case 2: s.clip_planes[0][2] = 0.0; break;
    case 3: s.clip_planes[0][3] = NAN; break;
    case 4: s.cropping_flags = 1u << 27; break;
    case 5: s.cropping_planes[2] = 13.0; break;
    case 6: s.cropping_planes[5] = INFINITY; break;
    }
    const cvr_status st = cvr_render(ctx, v, tf, &view, &s, &img, NULL);
    CHECK(st == CVR_ERROR_INVALID_ARGUMENT && strstr(cvr_last_error(ctx), cases[c].message),
          "%s: status %d, \"%s\" (expected a message with \"%s\")", cases[c].what, (int)st,
          cvr_last_error(ctx), cases[c].message);
  }
  cvr_render_settings_init(&s);
  s.clip_plane_count = CVR_MAX_CLIP_PLANES; /* the most, each keeping z >= -1 - i */
  for (int i = 0; i < CVR_MAX_CLIP_PLANES; ++i) {
    s.clip_planes[i][2] = 1.0;
    s.clip_planes[i][3] = 1.0 + i;
  }
  CHECK(cvr_render(ctx, v, tf, &view, &s, &img, NULL) == CVR_OK, "%d planes, then: %s",
        CVR_MAX_CLIP_PLANES, cvr_last_error(ctx));
}

static void closed_form(cvr_context *ctx) {
  static uint8_t voxels[N * N * N];
  memset(voxels, 128, sizeof voxels);
  cvr_volume *v = cvr_test_column_volume(ctx, voxels);
  cvr_transfer_function *tf = cvr_test_column_tf(ctx, 40.0);
  /* one sample's opacity, as the renderer has it (corrected, half precision) */
  cvr_render_settings s;
  cvr_render_settings_init(&s);
  s.sample_distance = kDt;
  s.max_samples_per_ray = 1;
  static frame f;
  double a = 0.0;
  if (render(ctx, v, tf, &s, &f, "one sample")) a = pixel_of(&f, 8, 8)[3];
  CHECK(a > 0.005 && a < 0.05, "one sample's opacity %.5f", a);
  s.max_samples_per_ray = 0;
  s.early_termination = 0;
  if (render(ctx, v, tf, &s, &f, "whole volume")) check_column("no clipping", &f, 8, 8, a, SAMPLES);
  closed_form_clipping(ctx, v, tf, a);
  closed_form_cropping(ctx, v, tf, a);
  maximum_intensity(ctx, tf);
  bad_settings(ctx, v, tf);
  cvr_transfer_function_destroy(tf);
  cvr_volume_destroy(v);
}

/* ---- CUDA against the CPU reference, every strategy ---- */

enum { SIZE = 128, PIXELS = SIZE * SIZE };

/* The slab's shaded images differ from the reference's by its gradients
 * (test_slab states and checks the bound). */
#define SLAB_SHADED_MEAN_LEVELS 2.0

static int compared = 0, turned = 0;

/* Cropping to the middle 30%..70% of each axis as a fence, and two oblique
 * clipping planes through the centre's neighbourhood. */
static void clip_and_crop(const cvr_test_scene *c, cvr_render_settings *s) {
  const int *dims = c->data.desc.dims;
  s->cropping = 1;
  for (int a = 0; a < 3; ++a) {
    s->cropping_planes[2 * a] = 0.3 * (dims[a] - 1) + 0.25;
    s->cropping_planes[2 * a + 1] = 0.7 * (dims[a] - 1) + 0.25;
  }
  s->cropping_flags = 0x2ebfeba; /* VTK's fence */
  const double n[2][3] = {{1.0, 0.5, 0.25}, {-0.25, 1.0, -0.5}};
  s->clip_plane_count = 2;
  for (int i = 0; i < 2; ++i) {
    double d = 0.0;
    for (int a = 0; a < 3; ++a) {
      s->clip_planes[i][a] = n[i][a];
      d -= n[i][a] * c->center[a];
    }
    s->clip_planes[i][3] = d + (i ? 0.3 : -0.2) * c->radius;
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
    for (int mode = 0; mode < 3; ++mode) /* composite, shaded, maximum intensity */
      for (int v = 0; v < (quick ? 1 : 4); ++v) {
        cvr_view view;
        cvr_test_scene_view(&c, v, v % 2 ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL,
                            SIZE, SIZE, &view);
        cvr_render_settings s;
        cvr_render_settings_init(&s);
        s.sample_distance = c.sample_distance;
        s.shading.enabled = mode == 1;
        s.blend_mode = mode == 2 ? CVR_BLEND_MAXIMUM : CVR_BLEND_COMPOSITE;
        /* every ray to its end, so that equal sample counts prove equal
         * clipped ranges: with early termination a ray entering bone at a cut
         * may stop a sample apart on the two backends (filtering differs) */
        s.early_termination = 0;
        clip_and_crop(&c, &s);
        cvr_render_stats rs, gs;
        const cvr_image ri = {ref, NULL, ref_depth, NULL};
        if (cvr_render(cpu, c.volume, c.tf, &view, &s, &ri, &rs) != CVR_OK) {
          CHECK(0, "cpu: %s", cvr_last_error(cpu));
          continue;
        }
        long visible = 0;
        for (long i = 0; i < PIXELS; ++i) visible += ref[4 * i + 3] > 0;
        CHECK(visible > PIXELS / 200, "%s mode %d view %d: only %ld pixels visible",
              cvr_test_datasets[d].file, mode, v, visible);
        /* the turned copies and Z order: the planes and regions follow the
         * stored axes (turns happen where the view looks along stored x) */
        s.rotation_policy = v % 2 ? CVR_ROTATION_ON_REGION_CHANGE : CVR_ROTATION_NEVER;
        s.memory_layout = v == 2 ? CVR_LAYOUT_Z_ORDER : CVR_LAYOUT_TEXTURE;
        for (size_t k = 0; k < sizeof strategies / sizeof strategies[0]; ++k) {
          s.strategy = strategies[k];
          memset(out, 0xCD, sizeof out);
          const cvr_image gi = {out, NULL, out_depth, NULL};
          char what[160];
          snprintf(what, sizeof what, "%s mode %d view %d %s", cvr_test_datasets[d].file, mode,
                   v, cvr_strategy_name(s.strategy));
          for (int rep = 0; rep < (s.strategy == CVR_STRATEGY_AUTO ? 3 : 1); ++rep) {
            if (cvr_render(gpu, g.volume, g.tf, &view, &s, &gi, &gs) != CVR_OK) {
              CHECK(0, "%s: %s", what, cvr_last_error(gpu));
              break;
            }
            const cvr_test_diff diff = cvr_test_compare(ref, out, ref_depth, out_depth, PIXELS);
            if (gs.strategy == CVR_STRATEGY_SLAB && s.shading.enabled)
              CHECK(diff.color.mean_diff <= SLAB_SHADED_MEAN_LEVELS, "%s: mean %.3f levels", what,
                    diff.color.mean_diff);
            else
              CHECK(cvr_test_within_tolerance(&diff), "%s: over %.4f%% mean %.4f max %d", what,
                    100.0 * diff.color.over_fraction, diff.color.mean_diff, diff.color.max_diff);
            CHECK(gs.rays == rs.rays && cvr_test_visited(&gs) == cvr_test_visited(&rs),
                  "%s: %llu rays / %llu samples, the CPU %llu / %llu", what,
                  (unsigned long long)gs.rays, (unsigned long long)cvr_test_visited(&gs),
                  (unsigned long long)rs.rays, (unsigned long long)cvr_test_visited(&rs));
            turned += gs.volume_axes[0] != 1 || gs.volume_axes[1] != 2 || gs.volume_axes[2] != 3;
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
    const int quick = argc > 2 && !strcmp(argv[2], "--quick");
    against_reference(cpu, ctx, quick);
    printf("%d comparisons against the CPU reference, %d on a turned copy\n", compared, turned);
    CHECK(quick || turned > 0, "no frame was rendered on a turned copy of the volume");
    cvr_context_destroy(cpu);
  }
  cvr_context_destroy(ctx);
  return cvr_test_finish("test_clipping");
}
