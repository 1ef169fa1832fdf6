// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The scalar types' sizes and the normalization their textures read with. */
#include "cvr_internal.h"

size_t cvr_scalar_type_size(cvr_scalar_type type) {
  switch (type) {
  case CVR_INT8: case CVR_UINT8: return 1;
  case CVR_INT16: case CVR_UINT16: return 2;
  case CVR_INT32: case CVR_UINT32: case CVR_FLOAT32: return 4;
  case CVR_FLOAT64: return 8;
  }
  return 0;
}

double cvr_stored_type_normalization(cvr_scalar_type stored_type) {
  switch (stored_type) {
  case CVR_INT8: return 1.0 / 127.0;
  case CVR_UINT8: return 1.0 / 255.0;
  case CVR_INT16: return 1.0 / 32767.0;
  case CVR_UINT16: return 1.0 / 65535.0;
  default: return 1.0;
  }
}
