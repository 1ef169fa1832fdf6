// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Multi-component volumes (raycast.h): classifying, mixing and blending a
 * sample's components. */
#ifndef CVR_RAY_COMPONENTS_H
#define CVR_RAY_COMPONENTS_H

#include "ray_gradient.h"

/* ---- multi-component volumes (cvr.h, cvr_component_mode) ----------------
 * A sample is its components' values v (as sampled); every backend and
 * strategy that renders such volumes classifies, mixes and blends them
 * through these. */

/* Component c's table entry at value, as cvr_classify. */
CVR_HD cvr_rgba cvr_component_entry(const cvr_ray_params *p, int c, float value) {
  return cvr_classify(p->component_table[c], p->component_size[c], p->component_scale[c],
                      p->component_bias[c], value);
}

/* Where value lies in component c's function's range, clamped to [0, 1]
 * (NaN: 0). */
CVR_HD float cvr_component_unit(const cvr_ray_params *p, int c, float value) {
  const float u = CVR_ADD(CVR_MUL(value, p->component_scale[c]), p->component_bias[c]);
  return fminf(fmaxf(CVR_DIV(u, (float)(p->component_size[c] - 1)), 0.0f), 1.0f);
}

/* Component c's gradient g applied to its classified sample s: its
 * gradient opacity, then shading. */
CVR_HD cvr_rgba cvr_apply_component_gradient(const cvr_ray_params *p, const cvr_ray *ray, float t,
                                             const float g[3], int c, cvr_rgba s,
                                             const float *through) {
  const cvr_rgba classified = s;
  if (p->component_gradient[c])
    s.a = CVR_MUL(s.a, cvr_gradient_opacity(p->component_gradient[c], p->component_gradient_size[c],
                                            cvr_gradient_magnitude(p->component_gradient_scale[c], g)));
  if (p->shading.enabled && s.a > 0.0f)
    s = through ? cvr_scatter(&p->shading, ray, t, g, classified,
                              cvr_shade(&p->shading, ray, t, g, s), through)
                : cvr_shade(&p->shading, ray, t, g, s);
  return s;
}

/* DEPENDENT: the colour of component 0's entry (two components) or the
 * first three components (four), the opacity of the last's entry. */
CVR_HD cvr_rgba cvr_dependent_entry(const cvr_ray_params *p, const float *v) {
  const int last = p->components - 1;
  cvr_rgba s;
  if (p->components == 2) {
    s = cvr_component_entry(p, 0, v[0]);
  } else {
    s.r = cvr_component_unit(p, 0, v[0]);
    s.g = cvr_component_unit(p, 1, v[1]);
    s.b = cvr_component_unit(p, 2, v[2]);
  }
  s.a = cvr_component_entry(p, last, v[last]).a;
  return s;
}

/* TRANSFER_2D: the 2D function's entry at a sample's two components. */
CVR_HD cvr_rgba cvr_transfer_2d_entry(const cvr_ray_params *p, const float *v) {
  return cvr_classify_2d_at(p, v[0],
                            CVR_ADD(CVR_MUL(v[1], p->component_scale[1]), p->component_bias[1]));
}

/* The component whose extreme picks the whole sample in MAXIMUM and MINIMUM,
 * and alone makes AVERAGE and ADDITIVE: DEPENDENT's opacity component,
 * TRANSFER_2D's x; -1 when each component counts on its own (INDEPENDENT). */
CVR_HD int cvr_component_key(const cvr_ray_params *p) {
  return p->dependent ? p->components - 1 : p->tf2d_y ? 0 : -1;
}

/* INDEPENDENT: classified components e mixed as VTK's mapper mixes them
 * (cvr.h): premultiplied sum w a rgb, opacity sum w a^2 / sum w a; returned
 * as straight colour. */
CVR_HD cvr_rgba cvr_mix_components(const cvr_ray_params *p, const cvr_rgba *e) {
  float total = 0.0f, alpha = 0.0f, r = 0.0f, g = 0.0f, b = 0.0f;
  CVR_UNROLL
  for (int c = 0; c < CVR_MAX_COMPONENTS; ++c) {
    if (c >= p->components) break;
    const float wa = p->component_weight[c] * e[c].a;
    total += wa;
    alpha += wa * e[c].a;
    r += wa * e[c].r;
    g += wa * e[c].g;
    b += wa * e[c].b;
  }
  cvr_rgba out = {0.0f, 0.0f, 0.0f, 0.0f};
  if (!(total > 0.0f)) return out;
  out.a = CVR_DIV(alpha, total);
  out.r = CVR_DIV(r, out.a);
  out.g = CVR_DIV(g, out.a);
  out.b = CVR_DIV(b, out.a);
  return out;
}

/* A multi-component sample of values v, classified, and with gradients g
 * (g[c]: component c's; NULL: none) their gradient opacity and shading
 * applied, and with through (NULL: none) scattering (cvr_scatter): straight
 * colour, opacity per sample. Where it is transparent without gradients, it
 * is with them. */
CVR_HD cvr_rgba cvr_classify_components(const cvr_ray_params *p, const cvr_ray *ray, float t,
                                        const float *v, const float (*g)[3],
                                        const float *through) {
  if (p->dependent) {
    cvr_rgba s = cvr_dependent_entry(p, v);
    if (g && s.a > 0.0f) s = cvr_apply_component_gradient(p, ray, t, g[0], 0, s, through);
    return s;
  }
  if (p->tf2d_y) { /* the 2D function replaces gradient opacity */
    cvr_rgba s = cvr_transfer_2d_entry(p, v);
    if (g && p->shading.enabled && s.a > 0.0f)
      s = through ? cvr_scatter(&p->shading, ray, t, g[0], s,
                                cvr_shade(&p->shading, ray, t, g[0], s), through)
                  : cvr_shade(&p->shading, ray, t, g[0], s);
    return s;
  }
  /* (initialized: compilers cannot see that mixing reads only the entries
   * set, and warn where they inline this far) */
  cvr_rgba e[CVR_MAX_COMPONENTS] = {{0.0f, 0.0f, 0.0f, 0.0f}};
  CVR_UNROLL
  for (int c = 0; c < CVR_MAX_COMPONENTS; ++c) {
    if (c >= p->components) break;
    e[c] = cvr_component_entry(p, c, v[c]);
    if (g && p->component_weight[c] > 0.0f && e[c].a > 0.0f)
      e[c] = cvr_apply_component_gradient(p, ray, t, g[c], c, e[c], through);
  }
  return cvr_mix_components(p, e);
}

/* ISOSURFACE: the sample past a crossing of component iso_component, whose
 * value v[iso_component] is already the iso value: INDEPENDENT classifies it
 * by that component's function alone, DEPENDENT as any of its samples. */
CVR_HD cvr_rgba cvr_classify_crossing(const cvr_ray_params *p, const cvr_ray *ray, float t,
                                      const float *v, const float (*g)[3],
                                      const float *through) {
  if (p->dependent || p->tf2d_y) return cvr_classify_components(p, ray, t, v, g, through);
  const int c = p->iso_component;
  cvr_rgba s = cvr_component_entry(p, c, v[c]);
  if (g && s.a > 0.0f) s = cvr_apply_component_gradient(p, ray, t, g[c], c, s, through);
  return s;
}

/* The projections (MAXIMUM, MINIMUM, AVERAGE, ADDITIVE) of multi-component
 * samples, per component (cvr.h); DEPENDENT and TRANSFER_2D keep, in
 * extreme, the whole sample of their key component's extreme
 * (cvr_component_key), and sum only that component. */
typedef struct cvr_component_blend {
  float extreme[CVR_MAX_COMPONENTS];
  float sum[CVR_MAX_COMPONENTS];
  unsigned count[CVR_MAX_COMPONENTS];
  unsigned taken;
} cvr_component_blend;

CVR_HD void cvr_component_blend_init(const cvr_ray_params *p, cvr_component_blend *q) {
  const float start = p->blend == CVR_BLEND_MINIMUM ? INFINITY : -INFINITY;
  const int key = cvr_component_key(p);
  CVR_UNROLL
  for (int c = 0; c < CVR_MAX_COMPONENTS; ++c) {
    q->extreme[c] = key >= 0 && c != key ? 0.0f : start;
    q->sum[c] = 0.0f;
    q->count[c] = 0;
  }
  q->taken = 0;
}

CVR_HD void cvr_component_blend_take(const cvr_ray_params *p, cvr_component_blend *q, const float *v) {
  const int last = p->components - 1, key = cvr_component_key(p);
  ++q->taken;
  if (p->blend == CVR_BLEND_MAXIMUM || p->blend == CVR_BLEND_MINIMUM) {
    const int max = p->blend == CVR_BLEND_MAXIMUM;
    if (key >= 0) { /* NaN is never extreme */
      if (max ? v[key] > q->extreme[key] : v[key] < q->extreme[key]) {
        CVR_UNROLL
        for (int c = 0; c < CVR_MAX_COMPONENTS; ++c)
          if (c <= last) q->extreme[c] = v[c];
      }
      return;
    }
    CVR_UNROLL
    for (int c = 0; c < CVR_MAX_COMPONENTS; ++c)
      if (c <= last) q->extreme[c] = max ? fmaxf(q->extreme[c], v[c]) : fminf(q->extreme[c], v[c]);
    return;
  }
  CVR_UNROLL
  for (int c = 0; c < CVR_MAX_COMPONENTS; ++c) {
    if (c > last || (key >= 0 && c != key)) continue;
    const float u = CVR_ADD(CVR_MUL(v[c], p->component_scale[c]), p->component_bias[c]);
    if (p->blend == CVR_BLEND_AVERAGE &&
        !(u >= p->component_average[c][0] && u <= p->component_average[c][1]))
      continue;
    ++q->count[c];
    const float s = fminf(fmaxf(CVR_DIV(u, (float)(p->component_size[c] - 1)), 0.0f), 1.0f);
    if (s > 0.0f) {
      const float a = p->tf2d_y ? cvr_transfer_2d_entry(p, v).a : cvr_component_entry(p, c, v[c]).a;
      q->sum[c] = CVR_ADD(q->sum[c], CVR_MUL(s, a));
    }
  }
}

/* The ray's pixel, premultiplied; transparent without samples (AVERAGE:
 * without any in range of a component of some weight). */
CVR_HD cvr_rgba cvr_component_blend_pixel(const cvr_ray_params *p, const cvr_component_blend *q) {
  cvr_rgba out = {0.0f, 0.0f, 0.0f, 0.0f};
  if (q->taken == 0) return out;
  const int last = p->components - 1, key = cvr_component_key(p);
  if (p->blend == CVR_BLEND_MAXIMUM || p->blend == CVR_BLEND_MINIMUM) {
    if (key >= 0) {
      const cvr_rgba s = p->dependent ? cvr_dependent_entry(p, q->extreme)
                                      : cvr_transfer_2d_entry(p, q->extreme);
      out.r = CVR_MUL(s.r, s.a);
      out.g = CVR_MUL(s.g, s.a);
      out.b = CVR_MUL(s.b, s.a);
      out.a = s.a;
      return out;
    }
    CVR_UNROLL
    for (int c = 0; c < CVR_MAX_COMPONENTS; ++c) {
      if (c > last) break;
      const cvr_rgba e = cvr_component_entry(p, c, q->extreme[c]);
      const float wa = p->component_weight[c] * e.a;
      out.r += wa * e.r;
      out.g += wa * e.g;
      out.b += wa * e.b;
      out.a += wa;
    }
    out.a = fminf(out.a, 1.0f);
    return out;
  }
  float grey = 0.0f;
  unsigned counted = 0;
  CVR_UNROLL
  for (int c = 0; c < CVR_MAX_COMPONENTS; ++c) {
    const float w = key >= 0 ? 1.0f : p->component_weight[c];
    if (c > last || (key >= 0 && c != key) || q->count[c] == 0 || !(w > 0.0f)) continue;
    counted += q->count[c];
    grey += p->blend == CVR_BLEND_AVERAGE ? w * CVR_DIV(q->sum[c], (float)q->count[c]) : w * q->sum[c];
  }
  if (counted == 0) return out;
  out.r = out.g = out.b = fminf(fmaxf(grey, 0.0f), 1.0f);
  out.a = 1.0f;
  return out;
}

/* Empty-space skipping. A sample at texel coordinate x filters the texels
 * around f = floor(x - 0.5) (cvr_filter_axis; f + 1 after its 8-bit
 * rounding, and the hardware's own may differ once more), so macro-cell c of
 * an axis takes the samples with f in [c B, c B + B - 1] (B = 2^shift) and
 * its value range covers texels c B - 1 .. c B + B + 1: every value such a
 * sample can take lies in it. Below 0 and beyond the last cell, the first
 * and last cells (the filter clamps there). */
CVR_HD int cvr_skip_cell(float x, int shift, int cells) {
  const float f = floorf(CVR_SUB(x, 0.5f));
  if (!(f >= 0.0f)) return 0;
  if (f >= (float)(cells << shift)) return cells - 1;
  const int c = (int)f >> shift;
  return c < cells - 1 ? c : cells - 1;
}

/* Texels of macro-cell c along an axis of n texels whose range it keeps. */
CVR_HD void cvr_skip_cell_texels(int c, int shift, int n, int *first, int *last) {
  const int a = (c << shift) - 1, b = ((c + 1) << shift) + 1;
  *first = a < 0 ? 0 : a;
  *last = b > n - 1 ? n - 1 : b;
}

/* Whether the transfer function gives every value in [lo, hi] (as sampled;
 * NaN inside is kept as lo = -inf) zero opacity: no table entry the
 * classification can interpolate there, one more each side against
 * rounding, has any. visible_prefix[i] counts the entries below i with
 * non-zero opacity (size + 1 of them). */
CVR_HD int cvr_skip_range_empty(const int *visible_prefix, int size, float scale, float bias,
                                float lo, float hi) {
  float a = CVR_ADD(CVR_MUL(lo, scale), bias), b = CVR_ADD(CVR_MUL(hi, scale), bias);
  if (a > b) {
    const float x = a;
    a = b;
    b = x;
  }
  a = fminf(fmaxf(a, 0.0f), (float)(size - 1)); /* fmaxf drops NaN: the first entry */
  b = fminf(fmaxf(b, 0.0f), (float)(size - 1));
  const int first = (int)a - 1 < 0 ? 0 : (int)a - 1;
  const int last = (int)b + 2 > size - 1 ? size - 1 : (int)b + 2;
  return visible_prefix[last + 1] - visible_prefix[first] == 0;
}

/* The macro-cells of the samples at texel coordinate pos. */
CVR_HD void cvr_skip_cells_at(const cvr_ray_params *p, const float pos[3], int c[3]) {
  for (int a = 0; a < 3; ++a) c[a] = cvr_skip_cell(pos[a], p->skip_shift, p->skip_cells[a]);
}

/* Whether the lattice sample at t lies in an empty macro-cell; c: that cell.
 * The cheap test a strategy makes as it marches (no division); ray is in the
 * grid's texel coordinates. */
CVR_HD int cvr_skip_empty_at(const cvr_ray_params *p, const cvr_ray *ray, float t, int c[3]) {
  float pos[3];
  cvr_ray_position(ray, t, pos);
  cvr_skip_cells_at(p, pos, c);
  const size_t i = ((size_t)c[2] * p->skip_cells[1] + c[1]) * p->skip_cells[0] + c[0];
#ifdef __CUDA_ARCH__
  return __ldg(p->skip_empty + i); /* read-only path: the grid stays in L1 */
#else
  return p->skip_empty[i];
#endif
}

/* How many lattice samples from t on (t's included, at most limit + 1) lie
 * in macro-cell c, the one of the sample at t: at least 1. Estimated from
 * where the ray leaves the cell (an approximate division: only the
 * estimate), then checked at its last sample; positions are monotonic in t
 * on every axis, so every sample between lies in the cell too, and the count
 * is exact whatever the rounding (shorter where both checks fail). */
CVR_HD_INLINE int cvr_skip_cell_samples(const cvr_ray_params *p, const cvr_ray *ray, float t,
                                        const int c[3], int limit) {
  float pos[3];
  cvr_ray_position(ray, t, pos);
  float leave = (float)limit + 1.0f; /* samples before the ray leaves the cell */
  for (int a = 0; a < 3; ++a) {
    const float s = ray->step[a];
    float edge; /* where the samples stop belonging to cell c[a] (the outer cells never end) */
    if (s > 0.0f && c[a] < p->skip_cells[a] - 1)
      edge = (float)((c[a] + 1) << p->skip_shift) + 0.5f;
    else if (s < 0.0f && c[a] > 0)
      edge = (float)(c[a] << p->skip_shift) + 0.5f;
    else
      continue;
#ifdef __CUDA_ARCH__
    leave = fminf(leave, __fdividef(edge - pos[a], s));
#else
    leave = cvr_minf(leave, (edge - pos[a]) / s);
#endif
  }
  int n = leave > 1.0f ? (int)ceilf(leave) : 1;
  if (n > limit + 1) n = limit + 1;
  for (int check = 0; check < 2 && n > 1; ++check) {
    int d[3];
    cvr_ray_position(ray, CVR_ADD(t, (float)(n - 1)), pos);
    cvr_skip_cells_at(p, pos, d);
    if (d[0] == c[0] && d[1] == c[1] && d[2] == c[2]) return n;
    --n; /* the estimate rounded past the edge */
  }
  return 1;
}

/* Output quantization shared by every backend. */
CVR_HD unsigned char cvr_to_unorm8(float v) {
  return (unsigned char)floorf(fminf(fmaxf(v, 0.0f), 1.0f) * 255.0f + 0.5f);
}

CVR_HD int cvr_ray_done(const cvr_ray_params *p, const cvr_rgba *acc) {
  return p->early_termination && acc->a >= p->termination_opacity;
}

#endif /* CVR_RAY_COMPONENTS_H */
