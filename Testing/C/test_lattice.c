// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Where a ray's samples start (cvr_ray_clip): one sample distance behind its
 * entry into the volume, past the clipping planes, or the pixel's jitter
 * behind it, as VTK's GPU mapper starts its rays, so that an opaque face,
 * a clipping plane or a crop plane parallel to the face the rays enter shows
 * its first samples at one depth across the image (no terraces).
 *  - Closed form, on the backend given: an opaque constant 16^3 volume seen
 *    obliquely in parallel projection; every pixel's depth is the first
 *    sample's, computed here in double from the ray's entry: plain, jittered,
 *    behind an oblique clipping plane, behind a crop plane, and for a piece
 *    of a larger volume given the whole one's box (cvr_view.lattice_box),
 *    whose samples are the whole volume's.
 *  - A lattice box that is not finite or empty is refused with a message.
 * Usage: test_lattice cpu|cuda */
#include <math.h>
#include <string.h>

#include "raycast.h"
#include "test_common.h"

enum { N = 16, W = 64, H = 64 };
static const double kDt = 0.5, kNear = 1.0, kFar = 80.0, kHalf = 14.0;

typedef struct scene {
  double eye[3], forward[3], right[3], up[3];
} scene;

static void normalize(double v[3]) {
  const double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  for (int a = 0; a < 3; ++a) v[a] /= n;
}

static void cross(const double a[3], const double b[3], double out[3]) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

/* A parallel view of the volume's centre from direction `from`, and its basis. */
static void make_view(const double from[3], cvr_view *view, scene *s) {
  const double centre[3] = {7.5, 7.5, 7.5}, up[3] = {0.0, 1.0, 0.0};
  double d[3] = {from[0], from[1], from[2]};
  normalize(d);
  for (int a = 0; a < 3; ++a) {
    s->eye[a] = centre[a] + 40.0 * d[a];
    s->forward[a] = -d[a];
  }
  cross(s->forward, up, s->right);
  normalize(s->right);
  cross(s->right, s->forward, s->up);
  cvr_view_init(view);
  double look[16], proj[16];
  cvr_tools_look_at(s->eye, centre, up, look);
  cvr_tools_ortho(kHalf, kHalf, kNear, kFar, proj);
  cvr_tools_multiply(proj, look, view->world_to_clip);
  view->width = W;
  view->height = H;
  view->projection = CVR_PROJECTION_PARALLEL;
}

/* The ray of pixel (px, py): its point on the near plane and direction. */
static void pixel_ray(const scene *s, int px, int py, double o[3], double d[3]) {
  const double x = (2.0 * px + 1.0) / W - 1.0, y = (2.0 * py + 1.0) / H - 1.0;
  for (int a = 0; a < 3; ++a) {
    o[a] = s->eye[a] + kNear * s->forward[a] + x * kHalf * s->right[a] + y * kHalf * s->up[a];
    d[a] = s->forward[a];
  }
}

/* Entry and exit of o + t d in the box [lo, hi] and on the kept side of the
 * plane (n . x + c >= 0; n NULL: none), t >= 0; returns whether it meets it. */
static int segment(const double o[3], const double d[3], const double lo[3], const double hi[3],
                   const double *n, double *t0, double *t1) {
  *t0 = 0.0;
  *t1 = kFar - kNear;
  for (int a = 0; a < 3; ++a) {
    if (fabs(d[a]) < 1e-12) {
      if (o[a] < lo[a] || o[a] > hi[a]) return 0;
      continue;
    }
    const double ta = (lo[a] - o[a]) / d[a], tb = (hi[a] - o[a]) / d[a];
    *t0 = fmax(*t0, fmin(ta, tb));
    *t1 = fmin(*t1, fmax(ta, tb));
  }
  if (n) {
    const double at = n[0] * o[0] + n[1] * o[1] + n[2] * o[2] + n[3];
    const double rate = n[0] * d[0] + n[1] * d[1] + n[2] * d[2];
    const double t = -at / rate;
    if (rate > 0.0) *t0 = fmax(*t0, t);
    else *t1 = fmin(*t1, t);
  }
  return *t0 < *t1;
}

typedef struct lattice_case {
  const char *what;
  double from[3];
  int jitter;
  const double *plane;  /* a clipping plane, or NULL */
  double crop_z;        /* > 0: cropping keeps z <= crop_z */
  int piece;            /* the volume is the upper half z >= 8 of a 16 x 16 x 24 one */
} lattice_case;

/* Renders the case and holds each pixel's depth against its first sample's. */
static void check_case(cvr_context *ctx, cvr_transfer_function *tf, const lattice_case *c) {
  static uint8_t voxels[N * N * N];
  memset(voxels, 200, sizeof voxels);
  cvr_volume_desc desc;
  cvr_volume_desc_init(&desc);
  desc.type = CVR_UINT8;
  desc.dims[0] = desc.dims[1] = desc.dims[2] = N;
  desc.data = voxels;
  if (c->piece) desc.origin[2] = 8.0; /* z 8 .. 23 of the whole 0 .. 23 */
  cvr_volume *v = NULL;
  if (cvr_volume_create(ctx, &desc, &v) != CVR_OK) {
    CHECK(0, "%s: volume: %s", c->what, cvr_last_error(ctx));
    return;
  }
  cvr_view view;
  scene s;
  make_view(c->from, &view, &s);
  if (c->piece) { /* the whole volume's box in this piece's index coordinates */
    const double box[6] = {0.0, 15.0, 0.0, 15.0, -8.0, 15.0};
    memcpy(view.lattice_box, box, sizeof box);
  }
  cvr_render_settings st;
  cvr_render_settings_init(&st);
  st.sample_distance = kDt;
  st.jittering = c->jitter;
  st.empty_space_skipping = 0;
  if (c->plane) {
    st.clip_plane_count = 1;
    memcpy(st.clip_planes[0], c->plane, 4 * sizeof(double));
  }
  if (c->crop_z > 0.0) {
    const double planes[6] = {-1.0, 100.0, -1.0, 100.0, -1.0, c->crop_z};
    st.cropping = 1;
    memcpy(st.cropping_planes, planes, sizeof planes);
    st.cropping_flags = 0x3ffffu; /* the regions of z coordinates 0 and 1 */
  }
  static float color[W * H * 4], depth[W * H];
  const cvr_image img = {NULL, color, depth, NULL};
  cvr_render_stats stats;
  if (cvr_render(ctx, v, tf, &view, &st, &img, &stats) != CVR_OK) {
    CHECK(0, "%s: render: %s", c->what, cvr_last_error(ctx));
    cvr_volume_destroy(v);
    return;
  }
  const double lo[3] = {0.0, 0.0, c->piece ? 8.0 : 0.0}, hi[3] = {15.0, 15.0, c->piece ? 23.0 : 15.0};
  const double whole_lo[3] = {0.0, 0.0, 0.0};
  int checked = 0, wrong = 0;
  double worst = 0.0;
  for (int py = 0; py < H; ++py)
    for (int px = 0; px < W; ++px) {
      double o[3], d[3], t0, t1, e0, e1;
      pixel_ray(&s, px, py, o, d);
      const double lead = c->jitter ? cvr_jitter(px, py) : 1.0;
      if (!segment(o, d, lo, hi, c->plane, &t0, &t1)) continue;
      if (!segment(o, d, c->piece ? whole_lo : lo, hi, c->plane, &e0, &e1)) continue;
      /* samples at e0 + (lead + m) dt: the first inside this volume and kept */
      double from = t0;
      if (c->crop_z > 0.0) { /* z <= crop_z from where the ray crosses it down */
        if (d[2] >= 0.0) continue;
        from = fmax(from, (c->crop_z - o[2]) / d[2]);
      }
      const double m = fmax(0.0, ceil((from - e0) / kDt - lead));
      const double t = e0 + (lead + m) * kDt;
      /* (rounding decides samples within a hair of an end or of a plane) */
      const double frac = (from - e0) / kDt - lead - floor((from - e0) / kDt - lead);
      if (t > t1 - 1e-3 || (from > e0 + 1e-9 && (frac < 1e-3 || frac > 1.0 - 1e-3))) continue;
      const double expected = t / (kFar - kNear);
      const double got = depth[py * W + px];
      ++checked;
      worst = fmax(worst, fabs(got - expected));
      if (fabs(got - expected) > 2e-5) {
        if (++wrong <= 3)
          CHECK(0, "%s: pixel (%d, %d): depth %.6f, the first sample's %.6f (%.3f samples off)",
                c->what, px, py, got, expected, (got - expected) * (kFar - kNear) / kDt);
      }
    }
  CHECK(checked > W * H / 8, "%s: only %d pixels checked", c->what, checked);
  CHECK(wrong == 0, "%s: %d of %d pixels off (worst %.3f samples)", c->what, wrong, checked,
        worst * (kFar - kNear) / kDt);
  printf("%s: %d pixels, worst %.2e samples off\n", c->what, checked, worst * (kFar - kNear) / kDt);
  cvr_volume_destroy(v);
}

static void bad_boxes(cvr_context *ctx, cvr_transfer_function *tf) {
  static uint8_t voxels[N * N * N];
  cvr_volume *v = cvr_test_column_volume(ctx, voxels);
  cvr_view view;
  cvr_test_column_view(&view);
  cvr_render_settings st;
  cvr_render_settings_init(&st);
  static uint8_t rgba[CVR_COLUMN_W * CVR_COLUMN_H * 4];
  const cvr_image img = {rgba, NULL, NULL, NULL};
  view.lattice_box[1] = NAN;
  CHECK(cvr_render(ctx, v, tf, &view, &st, &img, NULL) == CVR_ERROR_INVALID_ARGUMENT &&
            strstr(cvr_last_error(ctx), "lattice_box"),
        "NaN lattice box: %s", cvr_last_error(ctx));
  const double empty[6] = {0.0, 15.0, 4.0, 3.0, 0.0, 15.0};
  memcpy(view.lattice_box, empty, sizeof empty);
  CHECK(cvr_render(ctx, v, tf, &view, &st, &img, NULL) == CVR_ERROR_INVALID_ARGUMENT &&
            strstr(cvr_last_error(ctx), "empty"),
        "empty lattice box: %s", cvr_last_error(ctx));
  memset(view.lattice_box, 0, sizeof view.lattice_box);
  CHECK(cvr_render(ctx, v, tf, &view, &st, &img, NULL) == CVR_OK, "after refusals: %s",
        cvr_last_error(ctx));
  cvr_volume_destroy(v);
}

int main(int argc, char **argv) {
  cvr_context *ctx = cvr_test_context(argc, argv, NULL);
  const float rgba[8] = {1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f}; /* opaque */
  const cvr_transfer_function_desc d = {
      .rgba = rgba, .size = 2, .range = {0.0, 255.0}, .unit_distance = 1.0};
  cvr_transfer_function *tf = NULL;
  CHECK(cvr_transfer_function_create(ctx, &d, &tf) == CVR_OK, "tf: %s", cvr_last_error(ctx));
  static const double plane[4] = {0.57735026919, 0.57735026919, 0.57735026919, -8.0};
  const lattice_case cases[] = {
      {"oblique faces", {0.7, 0.5, 1.0}, 0, NULL, 0.0, 0},
      {"oblique faces, jittered", {0.7, 0.5, 1.0}, 1, NULL, 0.0, 0},
      {"another side", {-1.0, -0.3, -0.6}, 0, NULL, 0.0, 0},
      {"oblique clipping plane", {0.3, 0.4, 1.0}, 0, plane, 0.0, 0},
      {"crop plane z <= 9.3", {0.25, 0.35, 1.0}, 0, NULL, 9.3, 0},
      {"a piece of a larger volume", {0.3, 0.6, -1.0}, 0, NULL, 0.0, 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) check_case(ctx, tf, &cases[i]);
  bad_boxes(ctx, tf);
  cvr_transfer_function_destroy(tf);
  cvr_context_destroy(ctx);
  return cvr_test_finish("test_lattice");
}
