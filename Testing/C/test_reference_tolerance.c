// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The stated image tolerance (test_common.h) is tight enough to catch the
 * bugs it exists for: on real data, a CPU rendering whose lattice is shifted
 * by half a sample, or whose samples are composited in reverse order, fails
 * it against the unperturbed rendering. Early ray termination at its default
 * threshold changes no pixel by more than one level. Runs on the CPU. */
#include <math.h>
#include <string.h>

#include "cvr_internal.h"
#include "test_common.h"

enum { W = 160, H = 160 };

static void render(cvr_context *ctx, const cvr_test_scene *sc, const cvr_view *view, int ert,
                   uint8_t *rgba, float *depth) {
  cvr_render_settings s;
  cvr_render_settings_init(&s);
  s.sample_distance = sc->sample_distance;
  s.early_termination = ert;
  const cvr_image image = {rgba, NULL, depth, NULL};
  CHECK(cvr_render(ctx, sc->volume, sc->tf, view, &s, &image, NULL) == CVR_OK, "render: %s",
        cvr_last_error(ctx));
}

int main(int argc, char **argv) {
  cvr_context *ctx = cvr_test_context(argc, argv, NULL);
  static uint8_t ref[W * H * 4], other[W * H * 4];
  static float ref_depth[W * H], other_depth[W * H];
  int ran = 0;
  for (int i = 0; i < 2; ++i) {
    cvr_test_scene sc;
    if (!cvr_test_scene_open(ctx, &cvr_test_datasets[i], &sc)) continue;
    ++ran;
    const char *name = cvr_test_datasets[i].file;
    cvr_view view;
    cvr_test_scene_view(&sc, 1, i ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL, W, H, &view);
    render(ctx, &sc, &view, 1, ref, ref_depth);
    long lit = 0;
    for (int p = 0; p < W * H; ++p) lit += ref[4 * p + 3] > 25;
    CHECK(lit > W * H / 20, "%s: the reference shows too little (%ld pixels)", name, lit);

    const struct { const char *what; cvr_debug_options o; } perturbations[] = {
        {"lattice shifted by half a sample", {0.5f, 0, CVR_WEIGHTS_8BIT_ROUNDED, 0, 0, 0, 0}},
        {"reversed compositing order", {0.0f, 1, CVR_WEIGHTS_8BIT_ROUNDED, 0, 0, 0, 0}},
    };
    for (int k = 0; k < 2; ++k) {
      cvr_debug_set(ctx, &perturbations[k].o);
      render(ctx, &sc, &view, 1, other, other_depth);
      const cvr_test_diff d = cvr_test_compare(ref, other, ref_depth, other_depth, W * H);
      printf("%s, %s: %.3f%% of pixels over %d levels, mean %.3f levels\n", name,
             perturbations[k].what, 100.0 * d.color.over_fraction, CVR_TOL_LEVELS, d.color.mean_diff);
      CHECK(!cvr_test_within_tolerance(&d), "%s: %s passes the tolerance", name,
            perturbations[k].what);
    }
    const cvr_debug_options none = {0.0f, 0, CVR_WEIGHTS_8BIT_ROUNDED, 0, 0, 0, 0};
    cvr_debug_set(ctx, &none);
    render(ctx, &sc, &view, 0, other, other_depth);
    const cvr_test_diff d = cvr_test_compare(ref, other, ref_depth, other_depth, W * H);
    printf("%s, early termination off: largest difference %d level(s)\n", name, d.color.max_diff);
    CHECK(d.color.max_diff <= 1, "%s: early termination changed a pixel by %d levels", name,
          d.color.max_diff);
    cvr_test_scene_close(&sc);
  }
  cvr_context_destroy(ctx);
  if (!ran) {
    printf("SKIP: no data\n");
    return CVR_TEST_SKIP;
  }
  return cvr_test_finish("test_reference_tolerance");
}
