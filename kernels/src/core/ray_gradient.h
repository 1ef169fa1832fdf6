// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* What a sample's gradient does to it (raycast.h): gradient opacity, label
 * maps, 2D transfer functions. */
#ifndef CVR_RAY_GRADIENT_H
#define CVR_RAY_GRADIENT_H

#include "ray_shade.h"

/* Gradient opacity: the table's value (linear between entries, clamped) at
 * the magnitude of an index-space gradient, measured as VTK does (cvr.h,
 * cvr_transfer_function_desc); gradient_scale folds in the spacing, the
 * stored type's normalization and the table's extent. */
CVR_HD float cvr_gradient_magnitude(const float scale[3], const float gradient[3]) {
  const float x = CVR_MUL(gradient[0], scale[0]);
  const float y = CVR_MUL(gradient[1], scale[1]);
  const float z = CVR_MUL(gradient[2], scale[2]);
  return CVR_SQRT(CVR_ADD(CVR_ADD(CVR_MUL(x, x), CVR_MUL(y, y)), CVR_MUL(z, z)));
}
CVR_HD float cvr_gradient_coordinate(const cvr_ray_params *p, const float gradient[3]) {
  return cvr_gradient_magnitude(p->gradient_scale, gradient);
}

/* A gradient-opacity table of size entries at coordinate u. */
CVR_HD float cvr_gradient_opacity(const float *table, int size, float u) {
  u = fminf(u, (float)(size - 1));
  int i = (int)u;
  if (i > size - 2) i = size - 2;
  const float f = CVR_SUB(u, (float)i);
  return CVR_ADD(table[i], CVR_MUL(f, CVR_SUB(table[i + 1], table[i])));
}

/* LABEL_MAP: label l's entry (l > 0, a row) at a value, as cvr_classify. */
CVR_HD cvr_rgba cvr_label_entry(const cvr_ray_params *p, int label, float value) {
  return cvr_classify(p->label_table + (size_t)(label - 1) * p->tf_size, p->tf_size, p->tf_scale,
                      p->tf_bias, value);
}

/* A sample of value at a voxel of label (cvr_ray_label), classified as s by
 * the volume's table, before any gradient: with a label, its entry mixed
 * in. Where this is transparent, so is the sample after its gradient. */
CVR_HD cvr_rgba cvr_classify_label(const cvr_ray_params *p, int label, float value, cvr_rgba s) {
  return label ? cvr_lerp_rgba(s, cvr_label_entry(p, label, value), p->mask_blend) : s;
}

/* A 2D transfer function's entry at a value (as sampled) and a row
 * coordinate + 0.5 (entries of its height, a texture's): bilinear between
 * the four entries around them, as a texture filters, clamped to the edge
 * entries. */
CVR_HD cvr_rgba cvr_classify_2d_at(const cvr_ray_params *p, float value, float y_coordinate) {
  float fx;
  const int i = cvr_table_coordinate(p->tf_size, p->tf_scale, p->tf_bias, value, &fx);
  const float y = fminf(fmaxf(CVR_SUB(y_coordinate, 0.5f), 0.0f), (float)(p->tf2d_height - 1));
  int j = (int)y;
  if (j > p->tf2d_height - 2) j = p->tf2d_height - 2;
  const cvr_rgba *row = p->tf2d + (size_t)j * p->tf_size + i;
  const cvr_rgba below = cvr_lerp_rgba(row[0], row[1], fx);
  const cvr_rgba above = cvr_lerp_rgba(row[p->tf_size], row[p->tf_size + 1], fx);
  return cvr_lerp_rgba(below, above, CVR_SUB(y, (float)j));
}

/* The same at a value and gradient (y: the gradient magnitude). */
CVR_HD cvr_rgba cvr_classify_2d(const cvr_ray_params *p, float value, const float gradient[3]) {
  return cvr_classify_2d_at(p, value, cvr_gradient_coordinate(p, gradient));
}

/* What a visible sample's gradient does to it: a 2D transfer function
 * classifies it again by value and gradient, or the gradient opacity scales
 * its opacity; then Phong shading lights its colour (each where enabled).
 * Every backend and strategy goes through here once it has the gradient of
 * the sample of `value` classified as s. */
CVR_HD cvr_rgba cvr_apply_gradient(const cvr_ray_params *p, const cvr_ray *ray, float t,
                                   const float gradient[3], float value, int label, cvr_rgba s,
                                   const float *through) {
  float opacity = s.a; /* before gradient opacity: scattering's weight takes it */
  if (p->tf2d) opacity = (s = cvr_classify_2d(p, value, gradient)).a;
  else if (p->gradient_opacity)
    s.a = CVR_MUL(s.a, cvr_gradient_opacity(p->gradient_table, p->gradient_opacity,
                                            cvr_gradient_coordinate(p, gradient)));
  if (label) { /* the label's entry and gradient opacity, mixed in before shading (affine in
                  the colour, so shading the mix is mixing the shaded) */
    cvr_rgba e = cvr_label_entry(p, label, value);
    if (p->label_gradient)
      e.a = CVR_MUL(e.a, cvr_gradient_opacity(p->label_gradient + (size_t)(label - 1) *
                                                                      p->label_gradient_size,
                                              p->label_gradient_size,
                                              cvr_gradient_coordinate(p, gradient)));
    s = cvr_lerp_rgba(s, e, p->mask_blend);
  }
  if (p->shading.enabled && s.a > 0.0f) {
    if (through) {
      cvr_rgba classified = s;
      classified.a = opacity;
      s = cvr_scatter(&p->shading, ray, t, gradient, classified,
                      cvr_shade(&p->shading, ray, t, gradient, s), through);
    } else {
      s = cvr_shade(&p->shading, ray, t, gradient, s);
    }
  }
  return s;
}

/* A single-component shadow sample's opacity: a, the 1D table's at its
 * value, with the gradient opacity or the 2D function at its gradient (NULL
 * where cvr_shadow_needs_gradient says none is needed), as a primary sample
 * of the volume's own function. */
CVR_HD float cvr_shadow_opacity(const cvr_ray_params *p, float value, float a,
                                const float *gradient) {
  if (p->tf2d) return cvr_classify_2d(p, value, gradient).a;
  if (p->gradient_opacity)
    a = CVR_MUL(a, cvr_gradient_opacity(p->gradient_table, p->gradient_opacity,
                                        cvr_gradient_coordinate(p, gradient)));
  return a;
}

/* Whether a visible sample needs its gradient. */
CVR_HD int cvr_needs_gradient(const cvr_ray_params *p) {
  return p->shading.enabled || p->gradient_opacity || (p->tf2d && !p->tf2d_y) ||
         p->label_gradient || p->component_gradients;
}

#endif /* CVR_RAY_GRADIENT_H */
