// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
#include <math.h>
#include <string.h>

#include "volume_convert.h"

cvr_scalar_type cvr_stored_type(cvr_scalar_type type) {
  switch (type) {
  case CVR_INT8: case CVR_UINT8: case CVR_INT16: case CVR_UINT16: return type;
  default: return CVR_FLOAT32;
  }
}

#define CONVERT_TO_FLOAT(T)                                                                        \
  do {                                                                                             \
    const T *s = (const T *)src;                                                                   \
    float *d = (float *)dst;                                                                       \
    for (size_t i = 0; i < count; ++i) d[i] = (float)s[i];                                         \
  } while (0)

void cvr_convert_to_stored(cvr_scalar_type type, const void *src, size_t count, void *dst) {
  switch (type) {
  case CVR_INT32: CONVERT_TO_FLOAT(int32_t); break;
  case CVR_UINT32: CONVERT_TO_FLOAT(uint32_t); break;
  case CVR_FLOAT64: CONVERT_TO_FLOAT(double); break;
  default: memcpy(dst, src, count * cvr_scalar_type_size(type)); break;
  }
}

#define RANGE_OF(T)                                                                                \
  do {                                                                                             \
    const T *s = (const T *)data;                                                                  \
    for (size_t i = 0; i < count; ++i) {                                                           \
      const double v = (double)s[i];                                                               \
      if (v != v) continue;                                                                        \
      if (v < lo) lo = v;                                                                          \
      if (v > hi) hi = v;                                                                          \
    }                                                                                              \
  } while (0)

void cvr_scalar_range(cvr_scalar_type type, const void *data, size_t count, double range[2]) {
  double lo = INFINITY, hi = -INFINITY;
  switch (type) {
  case CVR_INT8: RANGE_OF(int8_t); break;
  case CVR_UINT8: RANGE_OF(uint8_t); break;
  case CVR_INT16: RANGE_OF(int16_t); break;
  case CVR_UINT16: RANGE_OF(uint16_t); break;
  case CVR_INT32: RANGE_OF(int32_t); break;
  case CVR_UINT32: RANGE_OF(uint32_t); break;
  case CVR_FLOAT32: RANGE_OF(float); break;
  case CVR_FLOAT64: RANGE_OF(double); break;
  }
  if (lo > hi) lo = hi = 0.0;
  range[0] = lo;
  range[1] = hi;
}
