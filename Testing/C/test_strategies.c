// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Strategies I on the GPU against the CPU reference: the block-shape
 * strategy (Sugimoto et al.) and warp marching (Wang et al.), 1D and 3D, in
 * its four variants and several warp and block shapes, on the three real
 * data sets over twelve views in both projections, with early ray
 * termination on and off, shaded and unshaded, linear and nearest. Every
 * image must agree with the reference within the tolerance of test_common.h;
 * with early ray termination off every strategy must take exactly the
 * reference's rays and samples (the shared lattice). With it on, warp
 * marching stops at the same sample as one thread per ray (a transparency
 * scan per cycle), so the same tolerance holds; counting the samples past
 * termination that a plain per-cycle check would add is what the no-ERT
 * comparison is for. A block over a kernel's launch bound is refused, and
 * every instance of each kernel takes blocks up to its bound (the settings
 * are checked against the bounds, not the driver's word on every instance).
 * Usage: test_strategies [--quick] (skips without a GPU). */
#include <math.h>
#include <string.h>

#include "cvr_internal.h" /* cvr_debug_thread_limits */
#include "test_common.h"

enum { MAX_PIXELS = 256 * 256 };

typedef struct config {
  const char *name;
  cvr_strategy strategy;
  cvr_warp_variant variant;
  int width, rays_x, rays_y, warps_x, warps_y;
} config;

static const config configs[] = {
    {"block shape 32x4 / 1x128", CVR_STRATEGY_BLOCK_SHAPE, 0, 0, 0, 0, 0, 0},
    {"1D SBShared", CVR_STRATEGY_WARP_MARCHING, CVR_WARP_SB_SHARED, 32, 1, 1, 1, 8},
    {"1D DBShared", CVR_STRATEGY_WARP_MARCHING, CVR_WARP_DB_SHARED, 32, 1, 1, 1, 8},
    {"1D SBShuffle", CVR_STRATEGY_WARP_MARCHING, CVR_WARP_SB_SHUFFLE, 32, 1, 1, 1, 8},
    {"1D DBShuffle", CVR_STRATEGY_WARP_MARCHING, CVR_WARP_DB_SHUFFLE, 32, 1, 1, 1, 8},
    {"3D DBShuffle 2x2x8", CVR_STRATEGY_WARP_MARCHING, CVR_WARP_DB_SHUFFLE, 8, 2, 2, 1, 8},
    {"3D DBShuffle 4x2x4", CVR_STRATEGY_WARP_MARCHING, CVR_WARP_DB_SHUFFLE, 4, 4, 2, 2, 4},
    {"3D SBShuffle 2x4x4", CVR_STRATEGY_WARP_MARCHING, CVR_WARP_SB_SHUFFLE, 4, 2, 4, 4, 2},
    {"3D DBShared 8x2x2", CVR_STRATEGY_WARP_MARCHING, CVR_WARP_DB_SHARED, 2, 8, 2, 1, 4},
    {"3D SBShared 2x8x2", CVR_STRATEGY_WARP_MARCHING, CVR_WARP_SB_SHARED, 2, 2, 8, 2, 2},
    {"3D DBShuffle 2x1x16", CVR_STRATEGY_WARP_MARCHING, CVR_WARP_DB_SHUFFLE, 16, 2, 1, 4, 4},
    {"3D SBShuffle 4x4x2", CVR_STRATEGY_WARP_MARCHING, CVR_WARP_SB_SHUFFLE, 2, 4, 4, 1, 16},
    {"3D DBShuffle width 4, rays automatic", CVR_STRATEGY_WARP_MARCHING, CVR_WARP_DB_SHUFFLE, 4, 0, 0,
     1, 8},
};
enum { CONFIGS = sizeof configs / sizeof configs[0] };

static void apply(const config *c, cvr_render_settings *s) {
  s->strategy = c->strategy;
  if (c->strategy != CVR_STRATEGY_WARP_MARCHING) return;
  s->warp_variant = c->variant;
  s->warp_width = c->width;
  s->warp_rays[0] = c->rays_x;
  s->warp_rays[1] = c->rays_y;
  s->block_warps[0] = c->warps_x;
  s->block_warps[1] = c->warps_y;
}

typedef struct reference {
  uint8_t rgba[MAX_PIXELS * 4];
  float depth[MAX_PIXELS];
  cvr_render_stats stats;
} reference;

static int compared = 0;

static void check_against(cvr_context *gpu, const cvr_test_scene *g, const reference *ref,
                          const cvr_view *view, const cvr_render_settings *s, const char *what) {
  static uint8_t b[MAX_PIXELS * 4];
  static float db[MAX_PIXELS];
  const long pixels = (long)view->width * view->height;
  memset(b, 0xCD, sizeof b); /* poison: every pixel must be written */
  for (long i = 0; i < pixels; ++i) db[i] = NAN;
  const cvr_image ib = {b, NULL, db, NULL};
  cvr_render_stats st;
  if (cvr_render(gpu, g->volume, g->tf, view, s, &ib, &st) != CVR_OK) {
    CHECK(0, "%s: %s", what, cvr_last_error(gpu));
    return;
  }
  const cvr_test_diff d = cvr_test_compare(ref->rgba, b, ref->depth, db, pixels);
  long nan_depth = 0;
  for (long i = 0; i < pixels; ++i) nan_depth += isnan(db[i]);
  printf("%-66s over %6.3f%%  mean %.4f  max %3d  depth %6.3f%%  samples %llu/%llu  block %dx%d\n",
         what, 100.0 * d.color.over_fraction, d.color.mean_diff, d.color.max_diff,
         100.0 * d.depth_over_fraction, (unsigned long long)ref->stats.samples,
         (unsigned long long)st.samples, st.block_width, st.block_height);
  CHECK(cvr_test_within_tolerance(&d) && nan_depth == 0, "%s: outside the tolerance", what);
  CHECK(st.strategy == s->strategy, "%s: rendered by %s", what, cvr_strategy_name(st.strategy));
  CHECK(ref->stats.rays == st.rays, "%s: %llu rays on the CPU, %llu on the GPU", what,
        (unsigned long long)ref->stats.rays, (unsigned long long)st.rays);
  if (!s->early_termination)
    CHECK(cvr_test_visited(&ref->stats) == cvr_test_visited(&st), "%s: %llu samples on the CPU, %llu on the GPU", what,
          (unsigned long long)cvr_test_visited(&ref->stats), (unsigned long long)cvr_test_visited(&st));
  ++compared;
}

static void render_reference(cvr_context *cpu, const cvr_test_scene *c, const cvr_view *view,
                             const cvr_render_settings *s, reference *ref) {
  const cvr_image ia = {ref->rgba, NULL, ref->depth, NULL};
  CHECK(cvr_render(cpu, c->volume, c->tf, view, s, &ia, &ref->stats) == CVR_OK, "cpu: %s",
        cvr_last_error(cpu));
}

int main(int argc, char **argv) {
  const int quick = argc > 1 && !strcmp(argv[1], "--quick");
  char *cuda_arg[] = {argv[0], "cuda"}, *cpu_arg[] = {argv[0], "cpu"};
  cvr_context *gpu = cvr_test_context(2, cuda_arg, NULL);
  cvr_context *cpu = cvr_test_context(2, cpu_arg, NULL);
  static reference ref;
  const int size = quick ? 64 : 256, views = quick ? 2 : 12;
  int ran = 0;
  char what[200];
  for (int i = 0; i < 3; ++i) {
    const cvr_test_dataset *ds = &cvr_test_datasets[i];
    cvr_test_scene c, g;
    if (!cvr_test_scene_open(cpu, ds, &c)) continue;
    if (!cvr_test_scene_open(gpu, ds, &g)) return 1;
    ++ran;
    cvr_render_settings s;
    cvr_render_settings_init(&s);
    s.sample_distance = c.sample_distance;
    cvr_view view;
    for (int v = 0; v < views; ++v)
      for (int proj = 0; proj < 2; ++proj) {
        const cvr_projection pr = proj ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL;
        cvr_test_scene_view(&c, v, pr, size, size, &view);
        cvr_render_settings_init(&s);
        s.sample_distance = c.sample_distance;
        s.early_termination = v % 3 != 2;
        render_reference(cpu, &c, &view, &s, &ref);
        for (int k = 0; k < CONFIGS; ++k) {
          cvr_render_settings t = s;
          apply(&configs[k], &t);
          snprintf(what, sizeof what, "%s view %d %s %s%s", ds->file, v, proj ? "persp" : "par",
                   configs[k].name, s.early_termination ? "" : " no-ERT");
          check_against(gpu, &g, &ref, &view, &t, what);
        }
      }
    /* shaded (a headlight), each variant once per view; nearest */
    for (int v = 0; v < (quick ? 1 : 3); ++v) {
      cvr_render_settings_init(&s);
      s.sample_distance = c.sample_distance;
      s.shading.enabled = 1;
      cvr_test_scene_view(&c, v, v % 2 ? CVR_PROJECTION_PARALLEL : CVR_PROJECTION_PERSPECTIVE, size,
                          size, &view);
      render_reference(cpu, &c, &view, &s, &ref);
      for (int k = 0; k <= 5; ++k) { /* block shape, the four 1D variants, one 3D shape */
        cvr_render_settings t = s;
        apply(&configs[k], &t);
        snprintf(what, sizeof what, "%s view %d shaded %s", ds->file, v, configs[k].name);
        check_against(gpu, &g, &ref, &view, &t, what);
      }
    }
    cvr_render_settings_init(&s);
    s.sample_distance = c.sample_distance;
    s.interpolation = CVR_INTERPOLATION_NEAREST;
    cvr_test_scene_view(&c, 3, CVR_PROJECTION_PERSPECTIVE, size, size, &view);
    render_reference(cpu, &c, &view, &s, &ref);
    for (int k = 0; k < CONFIGS; k += 3) {
      cvr_render_settings t = s;
      apply(&configs[k], &t);
      snprintf(what, sizeof what, "%s view 3 nearest %s", ds->file, configs[k].name);
      check_against(gpu, &g, &ref, &view, &t, what);
    }
    cvr_test_scene_close(&c);
    cvr_test_scene_close(&g);
  }
  /* invalid warp settings are refused with a message, and the context still renders */
  if (ran) {
    cvr_render_settings s;
    cvr_render_settings_init(&s);
    s.strategy = CVR_STRATEGY_WARP_MARCHING;
    s.block_warps[0] = 8;
    s.block_warps[1] = 4; /* 1024 threads: over the kernel's bound of 512 */
    cvr_test_scene g; /* the first data set there is (ran: one was) */
    for (int d = 0; !cvr_test_scene_open(gpu, &cvr_test_datasets[d], &g); ++d)
      ;
    cvr_view view;
    cvr_test_scene_view(&g, 0, CVR_PROJECTION_PERSPECTIVE, 64, 64, &view);
    static uint8_t out[64 * 64 * 4];
    const cvr_image img = {out, NULL, NULL, NULL};
    CHECK(cvr_render(gpu, g.volume, g.tf, &view, &s, &img, NULL) == CVR_ERROR_INVALID_ARGUMENT &&
              strstr(cvr_last_error(gpu), "limit"),
          "a warp-marching block over the kernel's limit: %s", cvr_last_error(gpu));
    s.block_warps[1] = 2;
    CHECK(cvr_render(gpu, g.volume, g.tf, &view, &s, &img, NULL) == CVR_OK, "then renders: %s",
          cvr_last_error(gpu));
    cvr_test_scene_close(&g);
    /* the limits settings are checked against are the kernels' launch
     * bounds, not asked of the driver (that loads every instance): every
     * instance must take them */
    int bound[3], driver[3];
    cvr_debug_thread_limits(gpu, bound, driver);
    const char *kernels[3] = {"standard", "warp-marching", "slab"};
    for (int k = 0; k < 3; ++k)
      CHECK(bound[k] > 0 && driver[k] >= bound[k],
            "%s kernel: settings may ask for %d threads a block, the driver allows %d", kernels[k],
            bound[k], driver[k]);
  }
  cvr_context_destroy(cpu);
  cvr_context_destroy(gpu);
  if (!ran) {
    printf("SKIP: no data set found\n");
    return CVR_TEST_SKIP;
  }
  printf("%d comparisons\n", compared);
  return cvr_test_finish("test_strategies");
}
