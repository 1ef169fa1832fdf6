// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Classification by the transfer-function table and blending (raycast.h):
 * front-to-back compositing, the projections, isosurfaces. */
#ifndef CVR_RAY_BLEND_H
#define CVR_RAY_BLEND_H

#include "ray_sample.h"

/* Where value falls in a table of size entries: entry i, fraction f towards
 * entry i + 1. NaN values map to the first entry (fmaxf/fminf drop NaN). */
CVR_HD int cvr_table_coordinate(int size, float scale, float bias, float value, float *f) {
  float u = value * scale + bias;
  u = CVR_AT_MOST(CVR_AT_LEAST(u, 0.0f), (float)(size - 1));
  int i = (int)u;
  if (i > size - 2) i = size - 2;
  *f = u - (float)i;
  return i;
}

CVR_HD cvr_rgba cvr_lerp_rgba(cvr_rgba a, cvr_rgba b, float f) {
  cvr_rgba c;
  c.r = a.r + f * (b.r - a.r);
  c.g = a.g + f * (b.g - a.g);
  c.b = a.b + f * (b.b - a.b);
  c.a = a.a + f * (b.a - a.a);
  return c;
}

/* Classified sample: straight colour and opacity already corrected for the
 * sample distance, linearly interpolated in the table. Table entries hold
 * half-precision values (transfer_function.c), the form the CUDA kernels
 * keep in shared memory, so every backend classifies identically. */
CVR_HD cvr_rgba cvr_classify(const cvr_rgba *table, int size, float scale, float bias,
                             float value) {
  float f;
  const int i = cvr_table_coordinate(size, scale, bias, value, &f);
  return cvr_lerp_rgba(table[i], table[i + 1], f);
}

/* Front-to-back "over": acc += (1 - acc.a) * premultiplied(sample). */
CVR_HD void cvr_composite(cvr_rgba *acc, cvr_rgba s) {
  const float w = (1.0f - acc->a) * s.a;
  acc->r += w * s.r;
  acc->g += w * s.g;
  acc->b += w * s.b;
  acc->a += w;
}

/* The blend modes other than COMPOSITE (cvr.h, cvr_blend_mode): what a ray
 * keeps of its samples, and its pixel. Every backend and strategy that
 * renders them goes through these. */
typedef struct cvr_blend_state {
  float extreme;  /* MAXIMUM, MINIMUM: the value so far, as sampled */
  float sum;      /* AVERAGE, ADDITIVE: opacity(s) * s so far */
  unsigned count; /* samples taken (AVERAGE: those in its range) */
} cvr_blend_state;

CVR_HD void cvr_blend_init(const cvr_ray_params *p, cvr_blend_state *q) {
  q->extreme = p->blend == CVR_BLEND_MINIMUM ? INFINITY : -INFINITY;
  q->sum = 0.0f;
  q->count = 0;
}

/* Takes the sample of value (as sampled) into q. Returns the weight s (the
 * value normalized to the table, [0, 1]) that the sample's opacity gets in
 * the sum, or 0 when the sample adds nothing to it: then the caller need not
 * classify it. The sampled value's order is the data's (the texture's
 * normalization and the table mapping increase), so the extreme is kept as
 * sampled and classified once at the end; NaN values are never extreme. */
CVR_HD float cvr_blend_take(const cvr_ray_params *p, cvr_blend_state *q, float value) {
  if (p->blend == CVR_BLEND_MAXIMUM || p->blend == CVR_BLEND_MINIMUM) {
    q->extreme = p->blend == CVR_BLEND_MAXIMUM ? fmaxf(q->extreme, value) : fminf(q->extreme, value);
    ++q->count;
    return 0.0f;
  }
  const float u = CVR_ADD(CVR_MUL(value, p->tf_scale), p->tf_bias);
  if (p->blend == CVR_BLEND_AVERAGE && !(u >= p->average_lo && u <= p->average_hi)) return 0.0f;
  ++q->count;
  return fminf(fmaxf(CVR_DIV(u, (float)(p->tf_size - 1)), 0.0f), 1.0f);
}

/* Adds a taken sample's opacity with the weight cvr_blend_take gave. */
CVR_HD void cvr_blend_add(cvr_blend_state *q, float weight, float opacity) {
  q->sum = CVR_ADD(q->sum, CVR_MUL(weight, opacity));
}

/* The ray's pixel, premultiplied. extreme: the classified q->extreme
 * (MAXIMUM, MINIMUM; unused otherwise). No sample: transparent. */
CVR_HD cvr_rgba cvr_blend_pixel(const cvr_ray_params *p, const cvr_blend_state *q,
                                     cvr_rgba extreme) {
  cvr_rgba out = {0.0f, 0.0f, 0.0f, 0.0f};
  if (q->count == 0) return out;
  if (p->blend == CVR_BLEND_MAXIMUM || p->blend == CVR_BLEND_MINIMUM) {
    out.r = CVR_MUL(extreme.r, extreme.a);
    out.g = CVR_MUL(extreme.g, extreme.a);
    out.b = CVR_MUL(extreme.b, extreme.a);
    out.a = extreme.a;
    return out;
  }
  float grey = p->blend == CVR_BLEND_AVERAGE ? CVR_DIV(q->sum, (float)q->count) : q->sum;
  grey = fminf(fmaxf(grey, 0.0f), 1.0f);
  out.r = out.g = out.b = grey;
  out.a = 1.0f;
  return out;
}

/* ISOSURFACE (VTK's rule). A ray keeps the interval of the iso values its
 * last sample lay in: i for iso[i - 1] <= value < iso[i] (iso[-1] = -inf,
 * iso[n] = +inf); -1 before its first sample. */
CVR_HD int cvr_iso_interval(const cvr_ray_params *p, float value) {
  int i = 0;
  while (i < p->iso_count && value >= p->iso[i]) ++i;
  return i;
}

/* Takes a sample of *value into the ray's interval; returns whether it
 * crossed an iso value, and then sets *value to it (the value to classify and
 * composite). A sample beyond either end of the interval crosses that end and
 * moves the interval one step, so a jump over several iso values crosses them
 * on successive samples. The first sample only finds its interval; NaN
 * crosses nothing. */
CVR_HD int cvr_iso_take(const cvr_ray_params *p, int *interval, float *value) {
  const int i = *interval;
  if (i < 0) {
    *interval = cvr_iso_interval(p, *value);
    return 0;
  }
  if (i > 0 && *value < p->iso[i - 1]) {
    *value = p->iso[i - 1];
    *interval = i - 1;
    return 1;
  }
  if (i < p->iso_count && *value > p->iso[i]) {
    *value = p->iso[i];
    *interval = i + 1;
    return 1;
  }
  return 0;
}

#endif /* CVR_RAY_BLEND_H */
