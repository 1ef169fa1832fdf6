// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Trilinear resampling of a loaded volume to other dimensions, for the
 * benchmarks' derived large volumes ("cranium CT resampled to 512 x 512 x
 * 294"). The physical extent stays; spacing follows the new dimensions. */
#include <stdlib.h>
#include <string.h>

#include "cvr_tools.h"

static double read_voxel(const void *data, cvr_scalar_type type, size_t i) {
  switch (type) {
  case CVR_INT8: return ((const int8_t *)data)[i];
  case CVR_UINT8: return ((const uint8_t *)data)[i];
  case CVR_INT16: return ((const int16_t *)data)[i];
  case CVR_UINT16: return ((const uint16_t *)data)[i];
  case CVR_INT32: return ((const int32_t *)data)[i];
  case CVR_UINT32: return ((const uint32_t *)data)[i];
  case CVR_FLOAT32: return ((const float *)data)[i];
  default: return ((const double *)data)[i];
  }
}

/* Rounded to the type (integers), stored at i. */
static void write_voxel(void *data, cvr_scalar_type type, size_t i, double v) {
  const double r = v < 0.0 ? v - 0.5 : v + 0.5;
  switch (type) {
  case CVR_INT8: ((int8_t *)data)[i] = (int8_t)r; break;
  case CVR_UINT8: ((uint8_t *)data)[i] = (uint8_t)r; break;
  case CVR_INT16: ((int16_t *)data)[i] = (int16_t)r; break;
  case CVR_UINT16: ((uint16_t *)data)[i] = (uint16_t)r; break;
  case CVR_INT32: ((int32_t *)data)[i] = (int32_t)r; break;
  case CVR_UINT32: ((uint32_t *)data)[i] = (uint32_t)r; break;
  case CVR_FLOAT32: ((float *)data)[i] = (float)v; break;
  default: ((double *)data)[i] = v; break;
  }
}

int cvr_tools_resample(const cvr_tools_volume *in, const int dims[3], cvr_tools_volume *out) {
  const int *n = in->desc.dims;
  const size_t size = cvr_scalar_type_size(in->desc.type);
  void *data = malloc((size_t)dims[0] * dims[1] * dims[2] * size);
  if (!data || dims[0] < 2 || dims[1] < 2 || dims[2] < 2) {
    free(data);
    return 0;
  }
  const void *src = in->desc.data;
  const size_t sy = (size_t)n[0], sz = (size_t)n[0] * n[1];
#pragma omp parallel for schedule(dynamic, 1) /* (slices are independent) */
  for (int k = 0; k < dims[2]; ++k) {
    const double z = (double)k * (n[2] - 1) / (dims[2] - 1);
    const int z0 = (int)z < n[2] - 1 ? (int)z : n[2] - 2;
    const double fz = z - z0;
    for (int j = 0; j < dims[1]; ++j) {
      const double y = (double)j * (n[1] - 1) / (dims[1] - 1);
      const int y0 = (int)y < n[1] - 1 ? (int)y : n[1] - 2;
      const double fy = y - y0;
      for (int i = 0; i < dims[0]; ++i) {
        const double x = (double)i * (n[0] - 1) / (dims[0] - 1);
        const int x0 = (int)x < n[0] - 1 ? (int)x : n[0] - 2;
        const double fx = x - x0;
        const size_t b = (size_t)x0 + y0 * sy + z0 * sz;
        double c[2][2];
        for (int dz = 0; dz < 2; ++dz)
          for (int dy = 0; dy < 2; ++dy) {
            const size_t o = b + dy * sy + dz * sz;
            c[dz][dy] = read_voxel(src, in->desc.type, o) +
                        fx * (read_voxel(src, in->desc.type, o + 1) - read_voxel(src, in->desc.type, o));
          }
        const double v = (1 - fz) * ((1 - fy) * c[0][0] + fy * c[0][1]) +
                         fz * ((1 - fy) * c[1][0] + fy * c[1][1]);
        write_voxel(data, in->desc.type, (size_t)i + (size_t)j * dims[0] + (size_t)k * dims[0] * dims[1], v);
      }
    }
  }
  out->desc = in->desc;
  for (int a = 0; a < 3; ++a) {
    out->desc.dims[a] = dims[a];
    out->desc.spacing[a] = in->desc.spacing[a] * (n[a] - 1) / (dims[a] - 1);
  }
  out->desc.data = out->data = data;
  return 1;
}
