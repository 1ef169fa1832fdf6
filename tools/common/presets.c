// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Transfer-function presets, scalar type names and a deterministic PRNG for
 * the tools and tests. */
#include "cvr_tools.h"

void cvr_tools_ramp_tf(float *rgba, int size, double range0, double range1, double lo, double hi,
                       float max_opacity) {
  for (int i = 0; i < size; ++i) {
    const double v = range0 + (range1 - range0) * i / (size - 1);
    double t = (v - lo) / (hi - lo);
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    /* warm bone-like ramp: dark red through orange to white */
    rgba[4 * i + 0] = (float)(0.35 + 0.65 * t);
    rgba[4 * i + 1] = (float)(0.12 + 0.80 * t * t);
    rgba[4 * i + 2] = (float)(0.05 + 0.90 * t * t * t);
    rgba[4 * i + 3] = (float)(max_opacity * t);
  }
}

uint64_t cvr_tools_random(uint64_t *state) {
  uint64_t x = *state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return x * 0x2545F4914F6CDD1DULL;
}

const char *cvr_tools_type_name(cvr_scalar_type type) {
  static const char *names[] = {"int8", "uint8", "int16", "uint16", "int32", "uint32", "float32",
                                "float64"};
  return (unsigned)type < 8 ? names[type] : "unknown";
}
