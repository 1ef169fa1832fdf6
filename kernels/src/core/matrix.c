// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
#include <math.h>
#include <string.h>

#include "matrix.h"

void cvr_mat4_multiply(const double *a, const double *b, double *out) {
  double r[16];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      double s = 0.0;
      for (int k = 0; k < 4; ++k) s += a[4 * i + k] * b[4 * k + j];
      r[4 * i + j] = s;
    }
  memcpy(out, r, sizeof r);
}

/* Gauss-Jordan elimination with partial pivoting. */
int cvr_mat4_invert(const double *m, double *out) {
  double a[4][8];
  double scale = 0.0;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      if (!isfinite(m[4 * i + j])) return 0;
      a[i][j] = m[4 * i + j];
      a[i][j + 4] = i == j ? 1.0 : 0.0;
      if (fabs(a[i][j]) > scale) scale = fabs(a[i][j]);
    }
  if (scale == 0.0) return 0;
  for (int c = 0; c < 4; ++c) {
    int p = c;
    for (int r = c + 1; r < 4; ++r)
      if (fabs(a[r][c]) > fabs(a[p][c])) p = r;
    if (fabs(a[p][c]) <= 1e-12 * scale) return 0;
    if (p != c)
      for (int j = 0; j < 8; ++j) {
        double t = a[c][j];
        a[c][j] = a[p][j];
        a[p][j] = t;
      }
    const double inv = 1.0 / a[c][c];
    for (int j = 0; j < 8; ++j) a[c][j] *= inv;
    for (int r = 0; r < 4; ++r)
      if (r != c && a[r][c] != 0.0) {
        const double f = a[r][c];
        for (int j = 0; j < 8; ++j) a[r][j] -= f * a[c][j];
      }
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) out[4 * i + j] = a[i][j + 4];
  return 1;
}
