// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* 4x4 row-major double matrices acting on column vectors. */
#ifndef CVR_MATRIX_H
#define CVR_MATRIX_H

void cvr_mat4_multiply(const double *a, const double *b, double *out); /* out = a b */
/* Returns 0 when m is singular (relative pivot below 1e-12) or not finite. */
int cvr_mat4_invert(const double *m, double *out);

#endif
