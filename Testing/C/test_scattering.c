// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Volumetric scattering (cvr_shading.scattering_*, VTK's model).
 *  - Closed form on the backend given, on the 16^3 column scene
 *    (test_common.h) of a constant value, opacity a per sample, colour c,
 *    ambient 0 and diffuse 1, so that the Phong colour of a sample (no
 *    gradient) is 0 and blend 2 shows the scattered light alone:
 *     - the headlight's shadow ray runs back along the ray to the volume's
 *       front, k + 1 samples for the k-th sample (one step of 0.5 voxel, as
 *       the ray's, 1/32 texture units; the first sample lies one step behind
 *       the front): the pixel is c a sum_k (1 - a)^(2k + 1); with reach 0
 *       (one sample distance over the extent, 0.5 / 15) two shadow samples
 *       at most, (1 - a)^min(k + 1, 2); with reach 0.5 at most
 *       ceil(((0.5/15 - sqrt 3) 0.5^0.33 + sqrt 3) / (1/32)) = 13;
 *     - blend 0.5 mixes half of it into the (black) Phong colour, blend 0
 *       none;
 *     - a directional light along -x: column i's shadow rays cross 2 (15 - i)
 *       samples to the volume's side, and with anisotropy 0.5 the light,
 *       turned 90 degrees towards the eye, is scaled by Henyey-Greenstein's
 *       (1 - g^2) / (1 + g^2)^1.5;
 *     - a ramp of 16 x (values 0..240: |G|, over two voxels and the range,
 *       is 32/240, 16/240 at the edge columns) weighs the scattered light at
 *       blend 1 by exp(-|G| a);
 *     - two components of that value, each with that function, mix to the
 *       same opacity and twice the colour (cvr.h, INDEPENDENT adds the
 *       components' colours), shadows and all;
 *     - out-of-range settings are refused with a message.
 *    With "cuda" every strategy asked for renders them, with the standard
 *    strategy (the statistics say so).
 *  - With "cuda": real data (bonsai, cranium CT), shaded under a headlight
 *    and under a directional light and a spot, composite, isosurface
 *    (bonsai) and slice (cranium), against the CPU reference within the
 *    tolerance of test_common.h; a 32 x 32 block asked launches as 16 x 16.
 * Usage: test_scattering cpu|cuda [--quick] (one view a data set, a short
 * reach: for the sanitizers) */
#include <math.h>
#include <string.h>

#include "half.h"
#include "test_common.h"

enum { N = CVR_COLUMN_N, W = CVR_COLUMN_W, H = CVR_COLUMN_H };

static cvr_transfer_function *constant_tf(cvr_context *ctx) {
  const float rgba[8] = {0.8f, 0.4f, 0.2f, 0.5f, 0.8f, 0.4f, 0.2f, 0.5f};
  const cvr_transfer_function_desc d = {
      .rgba = rgba, .size = 2, .range = {0.0, 255.0}, .unit_distance = 1.0};
  cvr_transfer_function *tf = NULL;
  CHECK(cvr_transfer_function_create(ctx, &d, &tf) == CVR_OK, "tf: %s", cvr_last_error(ctx));
  return tf;
}

/* Scattered light alone (blend 2) under the default headlight, ambient 0. */
static void scattering_settings(cvr_render_settings *s, cvr_strategy strategy) {
  cvr_render_settings_init(s);
  s->sample_distance = 0.5;
  s->early_termination = 0;
  s->strategy = strategy;
  s->shading.enabled = 1;
  s->shading.ambient = 0.0;
  s->shading.diffuse = 1.0;
  s->shading.specular = 0.0;
  s->shading.scattering_blend = 2.0;
  s->shading.scattering_reach = 1.0;
}

static float color[W * H * 4];

static int render(cvr_context *ctx, cvr_volume *v, cvr_transfer_function *tf,
                  const cvr_render_settings *s, cvr_render_stats *stats, const char *what) {
  cvr_view view;
  cvr_test_column_view(&view);
  const cvr_image img = {NULL, color, NULL, NULL};
  const cvr_status st = cvr_render(ctx, v, tf, &view, s, &img, stats);
  CHECK(st == CVR_OK, "render (%s): %s", what, cvr_last_error(ctx));
  CHECK(st != CVR_OK || !(s->shading.scattering_blend > 0.0) ||
            stats->strategy == CVR_STRATEGY_STANDARD,
        "%s: rendered by %s, not the standard strategy", what, cvr_strategy_name(stats->strategy));
  return st == CVR_OK;
}

/* A pixel of n samples of opacity a and colour c whose k-th sample is lit
 * by through(k) times scale. */
static void check_pixel(const char *what, const float *p, double a, int n, double scale,
                        double (*through)(int k, const void *user), const void *user) {
  const double c[3] = {0.8, 0.4, 0.2};
  double sum = 0.0;
  for (int k = 0; k < n; ++k) sum += pow(1.0 - a, k) * a * through(k, user);
  for (int i = 0; i < 3; ++i)
    CHECK(fabs(p[i] - scale * c[i] * sum) < 2e-3, "%s: channel %d %.5f, expected %.5f", what, i,
          p[i], scale * c[i] * sum);
  CHECK(fabs(p[3] - (1.0 - pow(1.0 - a, n))) < 2e-3, "%s: opacity %.5f, expected %.5f", what, p[3],
        1.0 - pow(1.0 - a, n));
}

typedef struct shadow_steps {
  double a;
  int most; /* shadow samples at most (the reach) */
} shadow_steps;

static double headlight_through(int k, const void *user) {
  const shadow_steps *s = user;
  return pow(1.0 - s->a, k + 1 < s->most ? k + 1 : s->most);
}

static double constant_through(int k, const void *user) { return *(const double *)user; }

static void closed_form(cvr_context *ctx, cvr_strategy strategy) {
  static uint8_t voxels[N * N * N];
  memset(voxels, 200, sizeof voxels);
  cvr_volume *v = cvr_test_column_volume(ctx, voxels);
  cvr_transfer_function *tf = constant_tf(ctx);
  const double a = cvr_round_to_half((float)(1.0 - pow(0.5, 0.5)));
  cvr_render_settings s;
  scattering_settings(&s, strategy);
  cvr_render_stats stats;
  char what[160];
  const char *name = cvr_strategy_name(strategy);
  snprintf(what, sizeof what, "headlight, reach 1, %s", name);
  if (render(ctx, v, tf, &s, &stats, what)) {
    const int n = (int)(stats.samples / stats.rays);
    const shadow_steps all = {a, n};
    check_pixel(what, cvr_test_column_pixel(color, 7, 8), a, n, 1.0, headlight_through, &all);
    check_pixel(what, cvr_test_column_pixel(color, 0, 15), a, n, 1.0, headlight_through, &all);
    snprintf(what, sizeof what, "headlight, blend 0.5, %s", name);
    s.shading.scattering_blend = 0.5; /* w = 2 b = 0.5 of black Phong */
    if (render(ctx, v, tf, &s, &stats, what))
      check_pixel(what, cvr_test_column_pixel(color, 7, 8), a, n, 0.5, headlight_through, &all);
    snprintf(what, sizeof what, "headlight, blend 0, %s", name);
    s.shading.scattering_blend = 0.0;
    if (render(ctx, v, tf, &s, &stats, what))
      check_pixel(what, cvr_test_column_pixel(color, 7, 8), a, n, 0.0, headlight_through, &all);
    s.shading.scattering_blend = 2.0;
    /* reach 0: one sample distance over the extent of 15, 16/15 steps */
    snprintf(what, sizeof what, "headlight, reach 0, %s", name);
    s.shading.scattering_reach = 0.0;
    const shadow_steps two = {a, 2};
    if (render(ctx, v, tf, &s, &stats, what))
      check_pixel(what, cvr_test_column_pixel(color, 7, 8), a, n, 1.0, headlight_through, &two);
    snprintf(what, sizeof what, "headlight, reach 0.5, %s", name);
    s.shading.scattering_reach = 0.5;
    const double step = 1.0 / 32.0, shortest = 0.5 / 15.0, diagonal = sqrt(3.0);
    const shadow_steps half = {a, (int)ceil(((shortest - diagonal) * pow(0.5, 0.33) + diagonal) / step)};
    CHECK(half.most == 13, "reach 0.5: %d shadow samples at most, the comment says 13", half.most);
    if (render(ctx, v, tf, &s, &stats, what))
      check_pixel(what, cvr_test_column_pixel(color, 7, 8), a, n, 1.0, headlight_through, &half);
    s.shading.scattering_reach = 1.0;

    /* a white directional light along -x, turned 90 degrees to the eye */
    cvr_light *l = &s.shading.lights[0];
    memset(l, 0, sizeof *l);
    l->type = CVR_LIGHT_DIRECTIONAL;
    l->position[0] = 100.0, l->position[1] = l->position[2] = 7.5;
    l->focal_point[1] = l->focal_point[2] = 7.5;
    for (int c = 0; c < 3; ++c) l->diffuse[c] = 1.0;
    s.shading.scattering_anisotropy = 0.5;
    const double phase = 0.75 / pow(1.25, 1.5);
    snprintf(what, sizeof what, "directional light, anisotropy 0.5, %s", name);
    if (render(ctx, v, tf, &s, &stats, what)) {
      const int columns[3] = {15, 12, 7};
      for (int i = 0; i < 3; ++i) {
        const double through = pow(1.0 - a, 2 * (15 - columns[i]));
        char column[200];
        snprintf(column, sizeof column, "%s, column %d", what, columns[i]);
        check_pixel(column, cvr_test_column_pixel(color, columns[i], 8), a, n, phase,
                    constant_through, &through);
      }
    }
  }
  cvr_volume_destroy(v);

  /* the weight of the scattered light falls with the gradient at blend 1 */
  for (size_t i = 0; i < sizeof voxels; ++i) voxels[i] = (uint8_t)(16 * (i % N));
  v = cvr_test_column_volume(ctx, voxels);
  scattering_settings(&s, strategy);
  s.shading.scattering_blend = 1.0;
  snprintf(what, sizeof what, "ramp, blend 1, %s", name);
  if (render(ctx, v, tf, &s, &stats, what)) {
    const int n = (int)(stats.samples / stats.rays);
    const shadow_steps all = {a, n};
    check_pixel(what, cvr_test_column_pixel(color, 7, 8), a, n, exp(-32.0 / 240.0 * a),
                headlight_through, &all);
    check_pixel(what, cvr_test_column_pixel(color, 0, 8), a, n, exp(-16.0 / 240.0 * a),
                headlight_through, &all);
  }
  cvr_transfer_function_destroy(tf);
  cvr_volume_destroy(v);
}

/* Two components of 200, each with the constant function: the mix is the
 * one-component sample with twice its colour, and its shadows are the
 * one-component sample's. */
static void two_components(cvr_context *ctx) {
  static uint8_t voxels[2 * N * N * N];
  memset(voxels, 200, sizeof voxels);
  cvr_volume *v = cvr_test_column_components(ctx, voxels, 2);
  const float rgba[8] = {0.8f, 0.4f, 0.2f, 0.5f, 0.8f, 0.4f, 0.2f, 0.5f};
  const cvr_transfer_function_desc second = {
      .rgba = rgba, .size = 2, .range = {0.0, 255.0}, .unit_distance = 1.0};
  cvr_transfer_function_desc d = second;
  d.component_count = 2;
  d.component_functions = &second;
  d.component_weights[0] = d.component_weights[1] = 1.0;
  cvr_transfer_function *tf = NULL;
  CHECK(cvr_transfer_function_create(ctx, &d, &tf) == CVR_OK, "tf: %s", cvr_last_error(ctx));
  cvr_render_settings s;
  scattering_settings(&s, CVR_STRATEGY_STANDARD);
  cvr_render_stats stats;
  const double a = cvr_round_to_half((float)(1.0 - pow(0.5, 0.5)));
  if (v && tf && render(ctx, v, tf, &s, &stats, "two components, headlight")) {
    const int n = (int)(stats.samples / stats.rays);
    const shadow_steps all = {a, n};
    check_pixel("two components, headlight", cvr_test_column_pixel(color, 7, 8), a, n, 2.0,
                headlight_through, &all);
  }
  cvr_transfer_function_destroy(tf);
  cvr_volume_destroy(v);
}

static void bad_settings(cvr_context *ctx) {
  static uint8_t voxels[N * N * N];
  cvr_volume *v = cvr_test_column_volume(ctx, voxels);
  cvr_transfer_function *tf = constant_tf(ctx);
  const double bad[][3] = {{2.5, 0.5, 0.0}, {-0.1, 0.5, 0.0}, {1.0, 1.5, 0.0},
                           {1.0, -0.5, 0.0}, {1.0, 0.5, 1.01}, {NAN, 0.5, 0.0}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    cvr_render_settings s;
    scattering_settings(&s, CVR_STRATEGY_STANDARD);
    s.shading.scattering_blend = bad[i][0];
    s.shading.scattering_reach = bad[i][1];
    s.shading.scattering_anisotropy = bad[i][2];
    cvr_view view;
    cvr_test_column_view(&view);
    const cvr_image img = {NULL, color, NULL, NULL};
    cvr_test_expect_failure(ctx, cvr_render(ctx, v, tf, &view, &s, &img, NULL),
                            "volumetric scattering", "out-of-range scattering");
  }
  cvr_transfer_function_destroy(tf);
  cvr_volume_destroy(v);
}

enum { SIZE = 96, PIXELS = SIZE * SIZE };
static int compared = 0;

/* A directional light from the upper left and a spot from the right, both
 * towards the scene's centre. */
static void two_lights(const cvr_test_scene *sc, cvr_shading *sh) {
  sh->light_count = 2;
  for (int i = 0; i < 2; ++i) {
    cvr_light *l = &sh->lights[i];
    memset(l, 0, sizeof *l);
    l->type = i ? CVR_LIGHT_POSITIONAL : CVR_LIGHT_DIRECTIONAL;
    for (int a = 0; a < 3; ++a) {
      l->focal_point[a] = sc->center[a];
      l->position[a] = sc->center[a] + (i ? 3.0 : -2.0) * sc->radius * (a == 0 ? 1.0 : a == 1 ? 0.6 : 0.3);
      l->diffuse[a] = i ? 0.9 : 0.7;
      l->specular[a] = 0.5;
      l->ambient[a] = 0.1;
    }
    l->attenuation[0] = 1.0;
    l->cone_angle = i ? 40.0 : 180.0;
    l->exponent = 1.0;
  }
}

static void compare(cvr_context *cpu, cvr_context *gpu, const cvr_test_scene *c,
                    const cvr_test_scene *g, const cvr_view *view, const cvr_render_settings *s,
                    const char *what) {
  static uint8_t ref[PIXELS * 4], out[PIXELS * 4];
  static float ref_depth[PIXELS], out_depth[PIXELS];
  cvr_render_stats rs, gs;
  if (!cvr_test_render(cpu, c->volume, c->tf, view, s, ref, ref_depth, &rs, what) ||
      !cvr_test_render(gpu, g->volume, g->tf, view, s, out, out_depth, &gs, what))
    return;
  /* (a slice of the cranium shows its bone alone: 150-200 pixels) */
  const long least = s->blend_mode == CVR_BLEND_SLICE ? PIXELS / 100 : PIXELS / 20;
  CHECK(cvr_test_visible(ref, PIXELS) > least, "%s: only %ld pixels visible", what,
        cvr_test_visible(ref, PIXELS));
  const cvr_test_diff diff = cvr_test_compare(ref, out, ref_depth, out_depth, PIXELS);
  CHECK(cvr_test_within_tolerance(&diff), "%s: over %.4f%% mean %.4f max %d", what,
        100.0 * diff.color.over_fraction, diff.color.mean_diff, diff.color.max_diff);
  CHECK(gs.strategy == CVR_STRATEGY_STANDARD, "%s: rendered by %s", what,
        cvr_strategy_name(gs.strategy));
  /* (its instances take blocks of at most 256 threads: larger ones launch as 16 x 16) */
  CHECK(gs.block_width * gs.block_height <= 256 &&
            (s->block_width * s->block_height <= 256 ||
             (gs.block_width == 16 && gs.block_height == 16)),
        "%s: a %d x %d block asked, %d x %d launched", what, s->block_width, s->block_height,
        gs.block_width, gs.block_height);
  printf("%s: mean %.4f levels, %.4f%% over 1, cpu %.0f ms, cuda %.2f ms\n", what,
         diff.color.mean_diff, 100.0 * diff.color.over_fraction, rs.kernel_ms, gs.kernel_ms);
  ++compared;
}

static void against_reference(cvr_context *cpu, cvr_context *gpu, int quick) {
  for (int d = 0; d < 2; ++d) {
    cvr_test_scene c, g;
    if (!cvr_test_scene_open(cpu, &cvr_test_datasets[d], &c)) continue;
    if (!cvr_test_scene_open(gpu, &cvr_test_datasets[d], &g)) {
      CHECK(0, "%s on the GPU", cvr_test_datasets[d].file);
      cvr_test_scene_close(&c);
      continue;
    }
    for (int v = 0; v < (quick ? 1 : 2); ++v) {
      cvr_view view;
      cvr_test_scene_view(&c, v, v ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL, SIZE,
                          SIZE, &view);
      cvr_render_settings s;
      cvr_render_settings_init(&s);
      s.sample_distance = c.sample_distance;
      s.shading.enabled = 1;
      s.shading.scattering_blend = 1.0;
      s.shading.scattering_reach = quick ? 0.05 : 0.2;
      s.shading.scattering_anisotropy = 0.4;
      s.strategy = v ? CVR_STRATEGY_AUTO : CVR_STRATEGY_SLAB; /* both render standard */
      s.block_width = s.block_height = v ? 16 : 32;
      if (v) two_lights(&c, &s.shading);
      char what[160];
      snprintf(what, sizeof what, "%s view %d, %s", cvr_test_datasets[d].file, v,
               v ? "two lights" : "headlight");
      compare(cpu, gpu, &c, &g, &view, &s, what);
      s.shading.scattering_blend = 1.6;
      if (d == 0) {
        s.blend_mode = CVR_BLEND_ISOSURFACE;
        s.iso_value_count = 1;
        s.iso_values[0] = cvr_test_datasets[d].hi;
        snprintf(what, sizeof what, "%s view %d isosurface", cvr_test_datasets[d].file, v);
        compare(cpu, gpu, &c, &g, &view, &s, what);
      } else { /* (the bonsai's middle is mostly air) */
        s.blend_mode = CVR_BLEND_SLICE;
        for (int a = 0; a < 3; ++a) s.slice_origin[a] = c.center[a];
        s.slice_normal[0] = 0.3, s.slice_normal[1] = 0.2, s.slice_normal[2] = 1.0;
        snprintf(what, sizeof what, "%s view %d slice", cvr_test_datasets[d].file, v);
        compare(cpu, gpu, &c, &g, &view, &s, what);
      }
    }
    cvr_test_scene_close(&c);
    cvr_test_scene_close(&g);
  }
}

int main(int argc, char **argv) {
  cvr_backend backend;
  cvr_context *ctx = cvr_test_context(argc, argv, &backend);
  closed_form(ctx, CVR_STRATEGY_STANDARD);
  if (backend == CVR_BACKEND_CUDA) {
    const cvr_strategy others[] = {CVR_STRATEGY_BLOCK_SHAPE, CVR_STRATEGY_WARP_MARCHING,
                                   CVR_STRATEGY_SLAB, CVR_STRATEGY_AUTO};
    for (int i = 0; i < 4; ++i) closed_form(ctx, others[i]);
  }
  two_components(ctx);
  bad_settings(ctx);
  if (backend == CVR_BACKEND_CUDA) {
    char *cpu_arg[] = {argv[0], "cpu"};
    cvr_context *cpu = cvr_test_context(2, cpu_arg, NULL);
    against_reference(cpu, ctx, argc > 2 && !strcmp(argv[2], "--quick"));
    printf("%d comparisons against the CPU reference\n", compared);
    cvr_context_destroy(cpu);
  }
  cvr_context_destroy(ctx);
  return cvr_test_finish("test_scattering");
}
