// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* From the public view to the per-frame ray parameters. */
#include <math.h>
#include <string.h>

#include "cvr_internal.h"
#include "matrix.h"

#define CVR_MAX_VIEWPORT 32768

void cvr_view_init(cvr_view *view) {
  if (!view) return;
  memset(view, 0, sizeof *view);
  for (int i = 0; i < 4; ++i) view->world_to_clip[5 * i] = view->volume_to_world[5 * i] = 1.0;
  view->projection = CVR_PROJECTION_PARALLEL;
}

static void to_float(const double *in, float *out, int n) {
  for (int i = 0; i < n; ++i) out[i] = (float)in[i];
}

static void index_to_physical(const cvr_volume *v, double *m) {
  memset(m, 0, 16 * sizeof *m);
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) m[4 * r + c] = v->direction[3 * r + c] * v->spacing[c];
    m[4 * r + 3] = v->origin[r];
  }
  m[15] = 1.0;
}

cvr_status cvr_build_ray_params(cvr_context *ctx, const cvr_volume *volume, const cvr_view *view,
                                double sample_distance, cvr_ray_params *out) {
  if (view->width < 1 || view->height < 1 || view->width > CVR_MAX_VIEWPORT ||
      view->height > CVR_MAX_VIEWPORT)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "view: viewport %d x %d is outside 1..%d on each axis", view->width,
                    view->height, CVR_MAX_VIEWPORT);
  if (view->projection != CVR_PROJECTION_PARALLEL && view->projection != CVR_PROJECTION_PERSPECTIVE)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "view: unknown projection %d",
                    (int)view->projection);
  double clip_to_world[16];
  if (!cvr_mat4_invert(view->world_to_clip, clip_to_world))
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "view: world_to_clip is singular or not finite");
  const double *w = view->world_to_clip + 12; /* the row that makes clip w */
  const double wn = fabs(w[0]) + fabs(w[1]) + fabs(w[2]) + fabs(w[3]);
  const int perspective = fabs(w[0]) + fabs(w[1]) + fabs(w[2]) > 1e-12 * wn;
  if (perspective != (view->projection == CVR_PROJECTION_PERSPECTIVE))
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "view: projection is %s but world_to_clip is a %s projection",
                    view->projection == CVR_PROJECTION_PERSPECTIVE ? "perspective" : "parallel",
                    perspective ? "perspective" : "parallel");

  double m[16], world_to_index[16];
  index_to_physical(volume, m);
  cvr_mat4_multiply(view->volume_to_world, m, m);
  if (!cvr_mat4_invert(m, world_to_index))
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "view: volume_to_world is singular or not finite");

  memset(out, 0, sizeof *out);
  to_float(clip_to_world, out->clip_to_world, 16);
  to_float(view->world_to_clip, out->world_to_clip, 16);
  to_float(world_to_index, out->world_to_index, 12);
  if (perspective) {
    /* the eye is the world point that clip space sends to w = 0 on the axis */
    const double *c = clip_to_world;
    const double ew = c[14];
    if (fabs(ew) < 1e-300)
      return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "view: perspective matrix has no eye point");
    for (int a = 0; a < 3; ++a) out->eye[a] = (float)(c[4 * a + 2] / ew);
  }
  const double half = volume->cell_data ? 0.5 : 0.0;
  for (int a = 0; a < 3; ++a) {
    out->box_min[a] = (float)-half;
    out->box_max[a] = (float)(volume->dims[a] - 1 + half);
  }
  int lattice_box = 0;
  for (int i = 0; i < 6; ++i) {
    if (!isfinite(view->lattice_box[i]) || fabs(view->lattice_box[i]) > 1e7)
      return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                      "view: lattice_box[%d] = %g must be finite, within 1e7", i,
                      view->lattice_box[i]);
    lattice_box |= view->lattice_box[i] != 0.0;
  }
  for (int a = 0; a < 3 && lattice_box; ++a) {
    if (!(view->lattice_box[2 * a] <= view->lattice_box[2 * a + 1]))
      return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                      "view: lattice_box's %c range %g .. %g is empty", "xyz"[a],
                      view->lattice_box[2 * a], view->lattice_box[2 * a + 1]);
    out->lattice_min[a] = (float)view->lattice_box[2 * a];
    out->lattice_max[a] = (float)view->lattice_box[2 * a + 1];
  }
  out->lattice_box = lattice_box;
  out->width = view->width;
  out->height = view->height;
  out->perspective = perspective;
  out->sample_distance = (float)sample_distance;
  return CVR_OK;
}

cvr_status cvr_choose_block_shape(cvr_context *ctx, const cvr_volume *volume, const cvr_view *view,
                                  cvr_block_shape_choice *out) {
  if (!ctx || !volume || !view || !out)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "block shape: NULL argument");
  cvr_ray_params p;
  const cvr_status st = cvr_build_ray_params(ctx, volume, view, 1.0, &p);
  if (st != CVR_OK) return st;
  cvr_choose_block_shape_for(&p, out);
  return CVR_OK;
}
