// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Camera matrices in OpenGL conventions (row-major, column vectors). */
#include <math.h>
#include <string.h>

#include "cvr_tools.h"
#include "matrix.h" /* the library's own, compiled in here too */

static const double kPi = 3.14159265358979323846;

void cvr_tools_identity(double m[16]) {
  memset(m, 0, 16 * sizeof *m);
  m[0] = m[5] = m[10] = m[15] = 1.0;
}

void cvr_tools_multiply(const double a[16], const double b[16], double out[16]) {
  cvr_mat4_multiply(a, b, out);
}

void cvr_tools_rotation_about(int axis, double degrees, const double c[3], double out[16]) {
  const double t = degrees * kPi / 180.0, cs = cos(t), sn = sin(t);
  double r[16], to[16], back[16];
  cvr_tools_identity(r);
  const int i = (axis + 1) % 3, j = (axis + 2) % 3;
  r[4 * i + i] = cs;
  r[4 * i + j] = -sn;
  r[4 * j + i] = sn;
  r[4 * j + j] = cs;
  cvr_tools_identity(to);
  cvr_tools_identity(back);
  for (int a = 0; a < 3; ++a) {
    to[4 * a + 3] = c[a];
    back[4 * a + 3] = -c[a];
  }
  cvr_tools_multiply(to, r, out);
  cvr_tools_multiply(out, back, out);
}

static void normalize3(double v[3]) {
  const double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  for (int a = 0; a < 3; ++a) v[a] /= n;
}

void cvr_tools_micro_view(const int dims[3], int rays, cvr_view *view) {
  const int n = dims[0] > dims[1] ? (dims[0] > dims[2] ? dims[0] : dims[2])
                                  : (dims[1] > dims[2] ? dims[1] : dims[2]);
  const double center[3] = {0.5 * (dims[0] - 1), 0.5 * (dims[1] - 1), 0.5 * (dims[2] - 1)};
  const double eye[3] = {center[0], center[1], center[2] + 2.0 * n}, up[3] = {0, 1, 0};
  double look[16], proj[16];
  cvr_view_init(view);
  cvr_tools_look_at(eye, center, up, look);
  cvr_tools_ortho(0.5 * n, 0.5 * n, 0.1, 4.0 * n, proj);
  cvr_tools_multiply(proj, look, view->world_to_clip);
  view->width = view->height = rays;
  view->projection = CVR_PROJECTION_PARALLEL;
}

void cvr_tools_look_at(const double eye[3], const double center[3], const double up[3],
                       double out[16]) {
  double f[3] = {center[0] - eye[0], center[1] - eye[1], center[2] - eye[2]};
  normalize3(f);
  double s[3] = {f[1] * up[2] - f[2] * up[1], f[2] * up[0] - f[0] * up[2],
                 f[0] * up[1] - f[1] * up[0]};
  normalize3(s);
  const double u[3] = {s[1] * f[2] - s[2] * f[1], s[2] * f[0] - s[0] * f[2],
                       s[0] * f[1] - s[1] * f[0]};
  const double rows[3][3] = {{s[0], s[1], s[2]}, {u[0], u[1], u[2]}, {-f[0], -f[1], -f[2]}};
  cvr_tools_identity(out);
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) out[4 * r + c] = rows[r][c];
    out[4 * r + 3] = -(rows[r][0] * eye[0] + rows[r][1] * eye[1] + rows[r][2] * eye[2]);
  }
}

void cvr_tools_ortho(double hw, double hh, double n, double f, double out[16]) {
  memset(out, 0, 16 * sizeof *out);
  out[0] = 1.0 / hw;
  out[5] = 1.0 / hh;
  out[10] = -2.0 / (f - n);
  out[11] = -(f + n) / (f - n);
  out[15] = 1.0;
}

void cvr_tools_perspective(double fovy, double aspect, double n, double f, double out[16]) {
  const double t = 1.0 / tan(fovy * kPi / 360.0);
  memset(out, 0, 16 * sizeof *out);
  out[0] = t / aspect;
  out[5] = t;
  out[10] = (f + n) / (n - f);
  out[11] = 2.0 * f * n / (n - f);
  out[14] = -1.0;
}

void cvr_tools_volume_bounds(const cvr_volume_desc *d, double center[3], double *radius) {
  double r2 = 0.0;
  for (int r = 0; r < 3; ++r) {
    center[r] = d->origin[r];
    for (int a = 0; a < 3; ++a)
      center[r] += d->direction[3 * r + a] * 0.5 * (d->dims[a] - 1) * d->spacing[a];
  }
  for (int a = 0; a < 3; ++a) {
    const double half = 0.5 * (d->dims[a] - 1) * d->spacing[a];
    r2 += half * half;
  }
  *radius = sqrt(r2);
}

void cvr_tools_orbit_view(const double center[3], double radius, double azimuth,
                          double elevation, cvr_projection projection, int width, int height,
                          cvr_view *out) {
  const double az = azimuth * kPi / 180.0, el = elevation * kPi / 180.0;
  const double dist = 3.0 * radius;
  const double eye[3] = {center[0] + dist * cos(el) * sin(az), center[1] + dist * sin(el),
                         center[2] + dist * cos(el) * cos(az)};
  const double up[3] = {0.0, 1.0, 0.0};
  const double aspect = (double)width / height;
  double view[16], proj[16];
  cvr_view_init(out);
  cvr_tools_look_at(eye, center, up, view);
  if (projection == CVR_PROJECTION_PERSPECTIVE) {
    cvr_tools_perspective(2.0 * asin(1.0 / 3.0) * 180.0 / kPi * 1.05, aspect, dist - 1.5 * radius,
                          dist + 1.5 * radius, proj);
  } else {
    const double hh = radius * 1.05 * (aspect < 1.0 ? 1.0 / aspect : 1.0);
    cvr_tools_ortho(hh * aspect, hh, dist - 1.5 * radius, dist + 1.5 * radius, proj);
  }
  cvr_tools_multiply(proj, view, out->world_to_clip);
  cvr_tools_identity(out->volume_to_world);
  out->width = width;
  out->height = height;
  out->projection = projection;
}
