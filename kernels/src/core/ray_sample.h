// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Sampling (raycast.h): what a texture unit returns for each stored type and
 * how it filters, for every sampler that is not the texture unit. */
#ifndef CVR_RAY_SAMPLE_H
#define CVR_RAY_SAMPLE_H

#include "ray_lattice.h"

/* Clamps that drop NaN as fmaxf and fminf do (x NaN: the bound). On the
 * host a comparison, where fmaxf is a call into libm (no SSE instruction
 * has its NaN rule). */
#ifdef __CUDA_ARCH__
#  define CVR_AT_LEAST(x, lo) fmaxf((x), (lo))
#  define CVR_AT_MOST(x, hi) fminf((x), (hi))
#else
#  define CVR_AT_LEAST(x, lo) cvr_maxf((x), (lo))
#  define CVR_AT_MOST(x, hi) cvr_minf((x), (hi))
#endif
/* An integer texel v over d = 2^n - 1, correctly rounded. On the host in
 * double precision rather than by a division: the product lies within
 * 2^-52 (relative) of v / d, and v / d (d odd, below 2^16) lies at least
 * 2^-41 from any point where float rounding changes, so both round to the
 * same float (test_analytic checks every value). */
#ifdef __CUDA_ARCH__
#  define CVR_UNORM(v, d) CVR_DIV((float)(v), (float)(d))
#else
#  define CVR_UNORM(v, d) ((float)((double)(v) * (1.0 / (double)(d))))
#endif

/* What a texture unit returns for one texel of each stored type, in
 * cudaReadModeNormalizedFloat (float32 as it is). */
CVR_HD float cvr_texel_u8(unsigned char v) { return CVR_UNORM(v, 255); }
CVR_HD float cvr_texel_s8(signed char v) { return CVR_AT_LEAST(CVR_UNORM(v, 127), -1.0f); }
CVR_HD float cvr_texel_u16(unsigned short v) { return CVR_UNORM(v, 65535); }
CVR_HD float cvr_texel_s16(short v) { return CVR_AT_LEAST(CVR_UNORM(v, 32767), -1.0f); }
CVR_HD float cvr_texel_f32(float v) { return v; }

/* How a linear filter weighs two texels (test hooks choose; normal use is
 * the texture unit's 8-bit fixed point, rounded). */
enum { CVR_WEIGHTS_8BIT_ROUNDED = 0, CVR_WEIGHTS_EXACT, CVR_WEIGHTS_8BIT_TRUNCATED };

/* Texture-unit filtering along one axis of n texels at texel coordinate x
 * (index position + 0.5): the texels around x - 0.5, clamped to the edge,
 * and the weight of the second. Nearest takes texel floor(x). Every sampler
 * that is not the texture unit (the CPU renderer, the global-memory layouts)
 * filters through these, so they all agree with the hardware. */
CVR_HD float cvr_filter_axis(float x, int n, int weights, int *i0, int *i1) {
  const float xb = CVR_SUB(x, 0.5f);
  const float xq = weights == CVR_WEIGHTS_8BIT_ROUNDED
                       ? CVR_DIV(floorf(CVR_ADD(CVR_MUL(xb, 256.0f), 0.5f)), 256.0f)
                   : weights == CVR_WEIGHTS_8BIT_TRUNCATED ? CVR_DIV(floorf(CVR_MUL(xb, 256.0f)), 256.0f)
                                                           : xb;
  /* x beyond [-1, n] reads the edge texel either way; clamped, it converts
   * to an int (a ray's first sample may lie a sample past a thin volume) */
  const float xc = cvr_minf(cvr_maxf(xq, -1.0f), (float)n);
  const float fl = floorf(xc);
  const int i = (int)fl;
  *i0 = i < 0 ? 0 : (i > n - 1 ? n - 1 : i);
  *i1 = i + 1 < 0 ? 0 : (i + 1 > n - 1 ? n - 1 : i + 1);
  return CVR_SUB(xc, fl);
}

/* Trilinear blend of the eight texels c[x + 2y + 4z] with weights w. */
CVR_HD_INLINE float cvr_trilinear(const float c[8], const float w[3]) {
#define CVR_LERP(a, b, f) CVR_ADD((a), CVR_MUL((f), CVR_SUB((b), (a))))
  const float c00 = CVR_LERP(c[0], c[1], w[0]), c10 = CVR_LERP(c[2], c[3], w[0]);
  const float c01 = CVR_LERP(c[4], c[5], w[0]), c11 = CVR_LERP(c[6], c[7], w[0]);
  const float c0 = CVR_LERP(c00, c10, w[1]), c1 = CVR_LERP(c01, c11, w[1]);
  return CVR_LERP(c0, c1, w[2]);
#undef CVR_LERP
}

#endif /* CVR_RAY_SAMPLE_H */
