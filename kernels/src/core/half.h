// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* IEEE half precision for the transfer-function table: the CUDA kernels keep
 * it in shared memory as halves (half the bank traffic of floats), and the
 * CPU renderer classifies with the same rounded values. Values are in [0, 1]. */
#ifndef CVR_HALF_H
#define CVR_HALF_H

#include <stdint.h>
#include <string.h>

/* Round-to-nearest-even float -> half bits, for finite values >= 0. */
static inline uint16_t cvr_half_bits(float v) {
  uint32_t x;
  memcpy(&x, &v, sizeof x);
  x &= 0x7fffffffu;
  if (x >= 0x477ff000u) return 0x7bffu; /* beyond the largest half: clamp */
  if (x < 0x38800000u) {                /* half subnormal (or zero) */
    if (x < 0x33000000u) return 0;
    const uint32_t m = (x & 0x7fffffu) | 0x800000u;
    const int shift = 126 - (int)(x >> 23); /* 14..24 */
    const uint32_t h = m >> shift, rest = m & ((1u << shift) - 1u), half = 1u << (shift - 1);
    return (uint16_t)(h + (rest > half || (rest == half && (h & 1u))));
  }
  const uint32_t h = ((x >> 13) - (112u << 10)) & 0xffffu, rest = x & 0x1fffu;
  return (uint16_t)(h + (rest > 0x1000u || (rest == 0x1000u && (h & 1u))));
}

/* Half bits -> float for values >= 0: the exponent is rebased by 2^112, which
 * is exact for normal and subnormal halves alike. */
static inline float cvr_half_to_float(uint16_t h) {
  const uint32_t x = ((uint32_t)h << 13) & 0x0fffe000u;
  float f;
  memcpy(&f, &x, sizeof f);
  return f * 5.192296858534828e33f; /* 2^112 */
}

static inline float cvr_round_to_half(float v) { return cvr_half_to_float(cvr_half_bits(v)); }

#endif
