// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The block-shape strategy's choice (Sugimoto et al. section 4.2) for known
 * views: the six representative viewpoints of the paper's Figure 4, the same
 * with the camera rolled by 90 degrees (the primary axis then runs the other
 * way on screen), oblique and perspective views, a volume whose direction
 * matrix permutes its axes (the choice follows index axes, where the strides
 * are) and anisotropic spacing. Runs on the CPU: the choice is host code. */
#include <math.h>
#include <string.h>

#include "test_common.h"

static int checked = 0;

/* A camera at center + dir * distance looking at center with the given up. */
static void view_from(const double center[3], const double dir[3], const double up[3],
                      cvr_projection projection, cvr_view *v) {
  cvr_view_init(v);
  v->width = 320;
  v->height = 240;
  v->projection = projection;
  double eye[3], look[16], proj[16];
  for (int a = 0; a < 3; ++a) eye[a] = center[a] + 400.0 * dir[a];
  cvr_tools_look_at(eye, center, up, look);
  if (projection == CVR_PROJECTION_PARALLEL)
    cvr_tools_ortho(120.0, 90.0, 1.0, 1000.0, proj);
  else
    cvr_tools_perspective(30.0, 320.0 / 240.0, 1.0, 1000.0, proj);
  cvr_tools_multiply(proj, look, v->world_to_clip);
}

static void expect(cvr_context *ctx, cvr_volume *vol, const double center[3], const double dir[3],
                   const double up[3], cvr_projection projection, int normal, int primary,
                   int horizontal, const char *what) {
  cvr_view v;
  view_from(center, dir, up, projection, &v);
  cvr_block_shape_choice c;
  CHECK(cvr_choose_block_shape(ctx, vol, &v, &c) == CVR_OK, "%s: %s", what, cvr_last_error(ctx));
  printf("%-52s normal %c primary %c %s\n", what, "xyz"[c.plane_normal_axis], "xyz"[c.primary_axis],
         c.horizontal ? "horizontal warps" : "vertical warps");
  CHECK(c.plane_normal_axis == normal && c.primary_axis == primary && c.horizontal == horizontal,
        "%s: expected normal %c primary %c %s", what, "xyz"[normal], "xyz"[primary],
        horizontal ? "horizontal" : "vertical");
  ++checked;
}

static cvr_volume *make_volume(cvr_context *ctx, const double spacing[3], const double dir[9]) {
  static uint8_t voxels[16 * 16 * 16];
  cvr_volume_desc d;
  cvr_volume_desc_init(&d);
  d.dims[0] = d.dims[1] = d.dims[2] = 16;
  d.type = CVR_UINT8;
  d.data = voxels;
  for (int a = 0; a < 3; ++a) d.spacing[a] = spacing[a];
  if (dir) memcpy(d.direction, dir, sizeof d.direction);
  cvr_volume *v = NULL;
  CHECK(cvr_volume_create(ctx, &d, &v) == CVR_OK, "volume: %s", cvr_last_error(ctx));
  return v;
}

int main(int argc, char **argv) {
  char *cpu_arg[] = {argv[0], "cpu"};
  cvr_context *ctx = cvr_test_context(2, cpu_arg, NULL);
  const double unit[3] = {1, 1, 1};
  cvr_volume *vol = make_volume(ctx, unit, NULL);
  const double c[3] = {7.5, 7.5, 7.5};
  const double px[3] = {1, 0, 0}, py[3] = {0, 1, 0}, pz[3] = {0, 0, 1};
  const double mx[3] = {-1, 0, 0}, my[3] = {0, -1, 0}, mz[3] = {0, 0, -1};
  for (int p = 0; p < 2; ++p) {
    const cvr_projection pr = p ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL;
    const char *name = p ? "perspective" : "parallel";
    char what[128];
    /* Figure 4: facing xy (x across, or x up), facing zy, facing xz */
    snprintf(what, sizeof what, "%s: facing xy, x across", name);
    expect(ctx, vol, c, pz, py, pr, 2, 0, 1, what);
    snprintf(what, sizeof what, "%s: facing xy, x up", name);
    expect(ctx, vol, c, pz, px, pr, 2, 0, 0, what);
    snprintf(what, sizeof what, "%s: facing zy from -x, y up", name);
    expect(ctx, vol, c, mx, py, pr, 0, 1, 0, what);
    snprintf(what, sizeof what, "%s: facing zy from +x, y across", name);
    expect(ctx, vol, c, px, pz, pr, 0, 1, 1, what);
    snprintf(what, sizeof what, "%s: facing xz from -y, z up", name);
    expect(ctx, vol, c, my, pz, pr, 1, 0, 1, what);
    snprintf(what, sizeof what, "%s: facing xz from +y, x up", name);
    expect(ctx, vol, c, py, px, pr, 1, 0, 0, what);
    /* oblique: mostly along -z, tilted 35 degrees; x still across */
    const double oblique[3] = {sin(0.61) * 0.6, sin(0.61) * 0.8, -cos(0.61)};
    snprintf(what, sizeof what, "%s: oblique, mostly -z, y up", name);
    expect(ctx, vol, c, oblique, py, pr, 2, 0, 1, what);
    /* rolled 60 degrees: x runs closer to vertical than horizontal */
    const double rolled_up[3] = {sin(1.05), cos(1.05), 0};
    snprintf(what, sizeof what, "%s: facing xy, camera rolled 60 deg", name);
    expect(ctx, vol, c, mz, rolled_up, pr, 2, 0, 0, what);
  }
  /* a direction matrix taking index y to world x, z to y and x to z: facing
   * world xy is facing the index yz-plane, whose primary axis is index y */
  const double permute[9] = {0, 1, 0, 0, 0, 1, 1, 0, 0};
  cvr_volume *permuted = make_volume(ctx, unit, permute);
  expect(ctx, permuted, c, pz, py, CVR_PROJECTION_PARALLEL, 0, 1, 1,
         "parallel: permuted axes, facing world xy");
  /* anisotropic spacing does not change which axis the view is along */
  const double thick[3] = {0.5, 0.5, 4.0};
  cvr_volume *aniso = make_volume(ctx, thick, NULL);
  const double c2[3] = {3.75, 3.75, 30.0};
  expect(ctx, aniso, c2, px, py, CVR_PROJECTION_PERSPECTIVE, 0, 1, 0,
         "perspective: spacing 0.5 0.5 4, facing zy, y up");
  cvr_view bad;
  cvr_view_init(&bad);
  cvr_block_shape_choice ch;
  CHECK(cvr_choose_block_shape(ctx, vol, &bad, &ch) != CVR_OK, "an empty view is refused");
  CHECK(cvr_choose_block_shape(ctx, vol, NULL, &ch) == CVR_ERROR_INVALID_ARGUMENT,
        "a NULL view is refused");
  cvr_volume_destroy(vol);
  cvr_volume_destroy(permuted);
  cvr_volume_destroy(aniso);
  cvr_context_destroy(ctx);
  printf("%d choices checked\n", checked);
  return cvr_test_finish("test_block_shape");
}
