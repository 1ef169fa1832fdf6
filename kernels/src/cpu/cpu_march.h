// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The CPU renderer's rays (cpu_renderer.c, and cpu_bricks.c for bricked
 * volumes): sampling array-order voxels the way the texture unit filters,
 * gradients, and marching a ray's samples, over the core of raycast.h.
 * Everything inlines into the callers' per-type, per-ISA loops. */
#ifndef CVR_CPU_MARCH_H
#define CVR_CPU_MARCH_H

#include <string.h>

#include "cvr_internal.h"

/* The voxels a ray samples: the whole volume, or a brick's copy (bricks.h),
 * which holds the texels around its own: then data is where the brick's
 * strides would put the volume's first texel (cpu_bricks.c), so that the
 * volume's texel indices address it. Filtering clamps at the volume's edges
 * (dims) either way. */
typedef struct cpu_volume {
  const void *data;
  int components; /* values per voxel, interleaved */
  int dims[3];
  size_t stride_y, stride_z;
  int nearest;
  int weights; /* CVR_WEIGHTS_* */
} cpu_volume;

#define CVR_ALWAYS_INLINE static inline __attribute__((always_inline))

/* One texel of each stored type, as the texture unit returns it. */
CVR_ALWAYS_INLINE float texel_u8(const void *d, size_t i) { return cvr_texel_u8(((const uint8_t *)d)[i]); }
CVR_ALWAYS_INLINE float texel_s8(const void *d, size_t i) { return cvr_texel_s8(((const int8_t *)d)[i]); }
CVR_ALWAYS_INLINE float texel_u16(const void *d, size_t i) { return cvr_texel_u16(((const uint16_t *)d)[i]); }
CVR_ALWAYS_INLINE float texel_s16(const void *d, size_t i) { return cvr_texel_s16(((const int16_t *)d)[i]); }
CVR_ALWAYS_INLINE float texel_f32(const void *d, size_t i) { return ((const float *)d)[i]; }

typedef float (*texel_fn)(const void *, size_t);

/* Texture-unit filtering at texel coordinate p (index position + 0.5), the
 * shared filter of raycast.h over array-order data. */
CVR_ALWAYS_INLINE float sample_volume(const cpu_volume *v, texel_fn texel, const float p[3]) {
  if (v->nearest)
    return texel(v->data, (size_t)cvr_nearest_texel(p[0], v->dims[0]) +
                              (size_t)cvr_nearest_texel(p[1], v->dims[1]) * v->stride_y +
                              (size_t)cvr_nearest_texel(p[2], v->dims[2]) * v->stride_z);
  int i0[3], i1[3];
  float w[3];
  for (int a = 0; a < 3; ++a) w[a] = cvr_filter_axis(p[a], v->dims[a], v->weights, &i0[a], &i1[a]);
  const size_t y0 = (size_t)i0[1] * v->stride_y, y1 = (size_t)i1[1] * v->stride_y;
  const size_t z0 = (size_t)i0[2] * v->stride_z, z1 = (size_t)i1[2] * v->stride_z;
  const float c[8] = {texel(v->data, i0[0] + y0 + z0), texel(v->data, i1[0] + y0 + z0),
                      texel(v->data, i0[0] + y1 + z0), texel(v->data, i1[0] + y1 + z0),
                      texel(v->data, i0[0] + y0 + z1), texel(v->data, i1[0] + y0 + z1),
                      texel(v->data, i0[0] + y1 + z1), texel(v->data, i1[0] + y1 + z1)};
  return cvr_trilinear(c, w);
}

/* Every component of a multi-component volume at p, each filtered as
 * sample_volume filters one. */
CVR_ALWAYS_INLINE void sample_components(const cpu_volume *v, texel_fn texel, const float p[3],
                                         float out[CVR_MAX_COMPONENTS]) {
  const size_t n = (size_t)v->components;
  if (v->nearest) {
    const size_t i = (size_t)cvr_nearest_texel(p[0], v->dims[0]) +
                     (size_t)cvr_nearest_texel(p[1], v->dims[1]) * v->stride_y +
                     (size_t)cvr_nearest_texel(p[2], v->dims[2]) * v->stride_z;
    for (size_t c = 0; c < n; ++c) out[c] = texel(v->data, n * i + c);
    return;
  }
  int i0[3], i1[3];
  float w[3];
  for (int a = 0; a < 3; ++a) w[a] = cvr_filter_axis(p[a], v->dims[a], v->weights, &i0[a], &i1[a]);
  const size_t y0 = (size_t)i0[1] * v->stride_y, y1 = (size_t)i1[1] * v->stride_y;
  const size_t z0 = (size_t)i0[2] * v->stride_z, z1 = (size_t)i1[2] * v->stride_z;
  const size_t corner[8] = {i0[0] + y0 + z0, i1[0] + y0 + z0, i0[0] + y1 + z0, i1[0] + y1 + z0,
                            i0[0] + y0 + z1, i1[0] + y0 + z1, i0[0] + y1 + z1, i1[0] + y1 + z1};
  for (size_t c = 0; c < n; ++c) {
    float texels[8];
    for (int k = 0; k < 8; ++k) texels[k] = texel(v->data, n * corner[k] + c);
    out[c] = cvr_trilinear(texels, w);
  }
}

/* The gradient of every component at p (central differences, as
 * apply_gradient). */
CVR_ALWAYS_INLINE void component_gradients(const cpu_volume *v, texel_fn texel, const float p[3],
                                           float g[CVR_MAX_COMPONENTS][3]) {
  float neighbours[6][CVR_MAX_COMPONENTS];
  for (int a = 0; a < 3; ++a)
    for (int side = 0; side < 2; ++side) {
      float q[3] = {p[0], p[1], p[2]};
      q[a] += side ? -1.0f : 1.0f;
      sample_components(v, texel, q, neighbours[2 * a + side]);
    }
  for (int c = 0; c < v->components; ++c) {
    const float n[6] = {neighbours[0][c], neighbours[1][c], neighbours[2][c],
                        neighbours[3][c], neighbours[4][c], neighbours[5][c]};
    cvr_gradient(n, g[c]);
  }
}

/* The gradient at p from its six neighbours (raycast.h, cvr_gradient). */
CVR_ALWAYS_INLINE void gradient_at(const cpu_volume *v, texel_fn texel, const float p[3],
                                   float gradient[3]) {
  float neighbours[6];
  for (int a = 0; a < 3; ++a)
    for (int side = 0; side < 2; ++side) {
      float q[3] = {p[0], p[1], p[2]};
      q[a] += side ? -1.0f : 1.0f;
      neighbours[2 * a + side] = sample_volume(v, texel, q);
    }
  cvr_gradient(neighbours, gradient);
}

/* The opacity of a shadow ray's sample at p: the volume's function, as a
 * primary sample's (raycast.h, cvr_shadow_opacity; components mixed). */
CVR_ALWAYS_INLINE float shadow_opacity(const cvr_frame *f, const cvr_ray *ray, const cpu_volume *v,
                                       texel_fn texel, const float q[3]) {
  const cvr_ray_params *p = &f->ray;
  if (p->components > 1) {
    float values[CVR_MAX_COMPONENTS];
    sample_components(v, texel, q, values);
    return cvr_classify_components(p, ray, 0.0f, values, NULL, NULL).a;
  }
  const float value = sample_volume(v, texel, q);
  const float a = cvr_classify(f->sample_table, p->tf_size, p->tf_scale, p->tf_bias, value).a;
  if (!cvr_shadow_needs_gradient(p)) return a;
  float gradient[3];
  gradient_at(v, texel, q, gradient);
  return cvr_shadow_opacity(p, value, a, gradient);
}

/* The light that reaches the sample at pos from each light through the
 * volume (raycast.h, cvr_shadow_setup): volumetric scattering's shadows. */
CVR_ALWAYS_INLINE void light_through(const cvr_frame *f, const cvr_ray *ray, const cpu_volume *v,
                          texel_fn texel, const float pos[3], float through[CVR_MAX_LIGHTS]) {
  const cvr_ray_params *p = &f->ray;
  for (int i = 0; i < p->shading.light_count; ++i) {
    cvr_shadow_ray shadow;
    const int n = cvr_shadow_setup(&p->shading, i, ray, pos, &shadow);
    float light = 1.0f;
    for (int k = 0; k < n && light >= shadow.cutoff; ++k) {
      float q[3];
      for (int a = 0; a < 3; ++a) q[a] = shadow.start[a] + (float)k * shadow.step[a];
      light *= 1.0f - shadow_opacity(f, ray, v, texel, q);
    }
    through[i] = light;
  }
}

/* A visible sample with the gradient from its six neighbours applied
 * (gradient opacity, shading, scattering). */
CVR_ALWAYS_INLINE cvr_rgba apply_gradient(const cvr_frame *f, const cvr_ray *ray,
                                          const cpu_volume *v, texel_fn texel, const float pos[3],
                                          float t, float value, int label, cvr_rgba s) {
  float gradient[3], through[CVR_MAX_LIGHTS];
  gradient_at(v, texel, pos, gradient);
  const int scatter = f->ray.shading.scattering.blend > 0.0f;
  if (scatter) light_through(f, ray, v, texel, pos, through);
  return cvr_apply_gradient(&f->ray, ray, t, gradient, value, label, s, scatter ? through : NULL);
}

typedef struct pixel_result {
  cvr_rgba color;
  float depth;
  int hit;
  uint64_t samples;
  uint64_t lattice; /* the ray's lattice samples, taken or not */
  uint64_t skipped; /* in empty macro-cells */
} pixel_result;

/* A classified multi-component sample at pos, its gradients applied where
 * visible and needed (cvr_classify_components, or for an iso crossing
 * cvr_classify_crossing). */
CVR_ALWAYS_INLINE cvr_rgba classify_components(const cvr_frame *f, const cvr_ray *ray,
                                               const cpu_volume *v, texel_fn texel,
                                               const float pos[3], float t, const float *values,
                                               int crossing) {
  const cvr_ray_params *p = &f->ray;
  cvr_rgba s = crossing ? cvr_classify_crossing(p, ray, t, values, NULL, NULL)
                        : cvr_classify_components(p, ray, t, values, NULL, NULL);
  if (!(s.a > 0.0f) || !cvr_needs_gradient(p)) return s;
  float g[CVR_MAX_COMPONENTS][3], through[CVR_MAX_LIGHTS];
  component_gradients(v, texel, pos, g);
  const int scatter = p->shading.scattering.blend > 0.0f;
  if (scatter) light_through(f, ray, v, texel, pos, through);
  return crossing ? cvr_classify_crossing(p, ray, t, values, (const float(*)[3])g,
                                          scatter ? through : NULL)
                  : cvr_classify_components(p, ray, t, values, (const float(*)[3])g,
                                            scatter ? through : NULL);
}

/* One ray through a multi-component volume (cvr.h, cvr_component_mode): the
 * same lattice, removal and blending as cast_ray, per component. */
CVR_ALWAYS_INLINE pixel_result cast_ray_components(const cvr_frame *f, const cpu_volume *v,
                                                   texel_fn texel, int px, int py) {
  pixel_result r = {{0.0f, 0.0f, 0.0f, 0.0f}, 1.0f, 0, 0, 0, 0};
  const cvr_ray_params *p = &f->ray;
  cvr_ray ray;
  float values[CVR_MAX_COMPONENTS], pos[3];
  const float depth = f->opaque_depth ? f->opaque_depth[(size_t)py * p->width + px] : 1.0f;
  if (p->blend == CVR_BLEND_SLICE) {
    float t;
    if (!cvr_slice_setup(p, px, py, depth, &ray, &t)) return r;
    r.hit = 1;
    r.samples = r.lattice = 1;
    cvr_ray_position(&ray, t, pos);
    if (!cvr_sample_kept(p, pos)) return r;
    sample_components(v, texel, pos, values);
    const cvr_rgba s = classify_components(f, &ray, v, texel, pos, t, values, 0);
    cvr_composite(&r.color, s);
    if (s.a > 0.0f) r.depth = cvr_ray_depth(p, &ray, t);
    return r;
  }
  if (!cvr_ray_setup(p, px, py, depth, &ray)) return r;
  r.hit = 1;
  const float t_first = cvr_ray_t_first(&ray, p->lattice_offset);
  const float t_last = cvr_ray_t_last(&ray, p->lattice_offset);
  r.lattice = (uint64_t)(ray.k_last - ray.k_first + 1);
  if (p->blend != CVR_BLEND_COMPOSITE && p->blend != CVR_BLEND_ISOSURFACE) {
    cvr_component_blend q;
    cvr_component_blend_init(p, &q);
    for (float t = t_first; t <= t_last; t += 1.0f) {
      cvr_ray_position(&ray, t, pos);
      ++r.samples;
      if (!cvr_sample_kept(p, pos)) continue;
      sample_components(v, texel, pos, values);
      cvr_component_blend_take(p, &q, values);
    }
    r.color = cvr_component_blend_pixel(p, &q);
    if (r.color.a > 0.0f) r.depth = cvr_ray_depth(p, &ray, t_first);
    return r;
  }
  const int iso = p->blend == CVR_BLEND_ISOSURFACE;
  int interval = -1; /* ISOSURFACE */
  float t_hit = -1.0f;
  for (float t = t_first; t <= t_last; t += 1.0f) {
    cvr_ray_position(&ray, t, pos);
    ++r.samples;
    if (!cvr_sample_kept(p, pos)) continue;
    sample_components(v, texel, pos, values);
    if (iso && !cvr_iso_take(p, &interval, &values[p->iso_component])) continue;
    const cvr_rgba c = classify_components(f, &ray, v, texel, pos, t, values, iso);
    if (c.a > 0.0f && t_hit < 0.0f) t_hit = t;
    cvr_composite(&r.color, c);
    if (cvr_ray_done(p, &r.color)) break;
  }
  if (t_hit >= 0.0f) r.depth = cvr_ray_depth(p, &ray, t_hit);
  return r;
}

/* Marches the samples t_from .. t_to (lattice parameters) of a ray through
 * a one-component volume into st, front to back (reverse_order: back to
 * front, only for the tests that prove such a bug would be caught). The
 * whole ray, or the part of it one brick owns. */
CVR_ALWAYS_INLINE void march_samples(const cvr_frame *f, const cpu_volume *v, texel_fn texel,
                                     const cvr_ray *ray, float t_from, float t_to,
                                     int reverse_order, cvr_ray_state *st) {
  const cvr_ray_params *p = &f->ray;
  if (p->blend != CVR_BLEND_COMPOSITE && p->blend != CVR_BLEND_ISOSURFACE) {
    /* the order does not matter here */
    for (float t = t_from; t <= t_to; t += 1.0f) {
      float pos[3];
      cvr_ray_position(ray, t, pos);
      ++st->samples;
      if (!cvr_sample_kept(p, pos)) continue;
      const float value = sample_volume(v, texel, pos);
      const float weight = cvr_blend_take(p, &st->blend, value);
      if (weight > 0.0f)
        cvr_blend_add(&st->blend, weight,
                      cvr_classify(f->sample_table, p->tf_size, p->tf_scale, p->tf_bias, value).a);
    }
    return;
  }
  /* (the state in locals: stores through st could alias the voxels' bytes) */
  const int iso = p->blend == CVR_BLEND_ISOSURFACE, gradients = cvr_needs_gradient(p);
  cvr_rgba color = st->color;
  float t_hit = st->t_hit;
  int interval = st->interval;
  unsigned samples = 0, skipped = 0;
  int known = 0; /* samples from t on known to lie in a cell that is not empty */
  float t = reverse_order ? t_to : t_from;
  for (; reverse_order ? t >= t_from : t <= t_to; t = reverse_order ? t - 1.0f : t + 1.0f) {
    if (p->skip_empty && known-- == 0) { /* (never with reverse_order: cvr_cpu_render) */
      int cell[3];
      const int empty = cvr_skip_empty_at(p, ray, t, cell);
      const int n = cvr_skip_cell_samples(p, ray, t, cell, (int)(t_to - t));
      if (empty) {
        skipped += (unsigned)n;
        t += (float)(n - 1); /* the loop steps past the last */
        known = 0;
        continue;
      }
      known = n - 1;
    }
    float pos[3];
    cvr_ray_position(ray, t, pos);
    ++samples;
    if (!cvr_sample_kept(p, pos)) continue; /* transparent */
    float value = sample_volume(v, texel, pos);
    if (iso && !cvr_iso_take(p, &interval, &value)) continue; /* no surface here */
    const cvr_rgba s = cvr_classify(f->sample_table, p->tf_size, p->tf_scale, p->tf_bias, value);
    const int label = cvr_ray_label(p, ray, t);
    cvr_rgba c = cvr_classify_label(p, label, value, s);
    if (gradients && c.a > 0.0f) c = apply_gradient(f, ray, v, texel, pos, t, value, label, s);
    if (c.a > 0.0f && t_hit < 0.0f) t_hit = t;
    cvr_composite(&color, c);
    if (cvr_ray_done(p, &color)) {
      st->t_stop = t;
      break;
    }
  }
  st->color = color;
  st->t_hit = t_hit;
  st->interval = interval;
  st->samples += samples;
  st->skipped += skipped;
}

/* SLICE: the ray's one sample, at t where it meets the plane, into st. */
CVR_ALWAYS_INLINE void slice_sample(const cvr_frame *f, const cpu_volume *v, texel_fn texel,
                                    const cvr_ray *ray, float t, cvr_ray_state *st) {
  const cvr_ray_params *p = &f->ray;
  float pos[3];
  cvr_ray_position(ray, t, pos);
  st->samples = 1;
  if (!cvr_sample_kept(p, pos)) return;
  const float value = sample_volume(v, texel, pos);
  cvr_rgba s = cvr_classify(f->sample_table, p->tf_size, p->tf_scale, p->tf_bias, value);
  if (cvr_needs_gradient(p) && s.a > 0.0f) s = apply_gradient(f, ray, v, texel, pos, t, value, 0, s);
  cvr_composite(&st->color, s);
  if (s.a > 0.0f) st->t_hit = t;
}

/* The pixel of a one-component ray that has taken its samples into st
 * (its depth: the first visible sample's; a projection's, its first
 * sample's). */
CVR_ALWAYS_INLINE pixel_result ray_pixel(const cvr_frame *f, const cvr_ray *ray,
                                         const cvr_ray_state *st) {
  const cvr_ray_params *p = &f->ray;
  pixel_result r = {{0.0f, 0.0f, 0.0f, 0.0f}, 1.0f, 1, st->samples, 0, st->skipped};
  if (p->blend == CVR_BLEND_SLICE) {
    r.lattice = 1;
    r.color = st->color;
    if (st->t_hit >= 0.0f) r.depth = cvr_ray_depth(p, ray, st->t_hit);
    return r;
  }
  r.lattice = (uint64_t)(ray->k_last - ray->k_first + 1);
  if (p->blend != CVR_BLEND_COMPOSITE && p->blend != CVR_BLEND_ISOSURFACE) {
    const cvr_rgba extreme =
        cvr_classify(f->sample_table, p->tf_size, p->tf_scale, p->tf_bias, st->blend.extreme);
    r.color = cvr_blend_pixel(p, &st->blend, extreme);
    if (r.color.a > 0.0f) r.depth = cvr_ray_depth(p, ray, cvr_ray_t_first(ray, p->lattice_offset));
    return r;
  }
  r.color = st->color;
  if (st->t_hit >= 0.0f) r.depth = cvr_ray_depth(p, ray, st->t_hit);
  return r;
}

/* One ray, front to back on the shared lattice. reverse_order exists only
 * for the tests that prove a reversed compositing order would be caught. */
CVR_ALWAYS_INLINE pixel_result cast_ray(const cvr_frame *f, const cpu_volume *v, texel_fn texel,
                                        int reverse_order, int px, int py) {
  const pixel_result none = {{0.0f, 0.0f, 0.0f, 0.0f}, 1.0f, 0, 0, 0, 0};
  const cvr_ray_params *p = &f->ray;
  if (p->components > 1) return cast_ray_components(f, v, texel, px, py);
  cvr_ray ray;
  cvr_ray_state st;
  cvr_ray_state_init(p, &st);
  const float depth = f->opaque_depth ? f->opaque_depth[(size_t)py * p->width + px] : 1.0f;
  if (p->blend == CVR_BLEND_SLICE) { /* one sample, where the ray meets the plane */
    float t;
    if (!cvr_slice_setup(p, px, py, depth, &ray, &t)) return none;
    slice_sample(f, v, texel, &ray, t, &st);
    return ray_pixel(f, &ray, &st);
  }
  if (!cvr_ray_setup(p, px, py, depth, &ray)) return none;
  march_samples(f, v, texel, &ray, cvr_ray_t_first(&ray, p->lattice_offset),
                cvr_ray_t_last(&ray, p->lattice_offset), reverse_order, &st);
  return ray_pixel(f, &ray, &st);
}

#endif
