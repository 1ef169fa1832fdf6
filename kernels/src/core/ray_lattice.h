// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Rays and the sample lattice (raycast.h): a pixel's line, its range in the
 * volume, clipping and cropping, where its samples lie and how deep. */
#ifndef CVR_RAY_LATTICE_H
#define CVR_RAY_LATTICE_H

#include "ray_types.h"

CVR_HD float cvr_minf(float a, float b) { return a < b ? a : b; }
/* Neither infinite nor NaN (x - x is NaN for both). */
CVR_HD int cvr_finite(float x) { return CVR_SUB(x, x) == 0.0f; }
CVR_HD float cvr_maxf(float a, float b) { return a > b ? a : b; }

/* p' = M (x, y, z, 1), perspective divide. M row-major 4x4. */
CVR_HD void cvr_transform_point4(const float *m, float x, float y, float z,
                                 float out[3]) {
  float v[4];
  for (int r = 0; r < 4; ++r) {
    const float *row = m + 4 * r;
    v[r] = CVR_ADD(CVR_ADD(CVR_MUL(row[0], x), CVR_MUL(row[1], y)),
                   CVR_ADD(CVR_MUL(row[2], z), row[3]));
  }
  out[0] = CVR_DIV(v[0], v[3]);
  out[1] = CVR_DIV(v[1], v[3]);
  out[2] = CVR_DIV(v[2], v[3]);
}

CVR_HD void cvr_transform_affine(const float *m, const float p[3], float out[3]) {
  for (int r = 0; r < 3; ++r) {
    const float *row = m + 4 * r;
    out[r] = CVR_ADD(CVR_ADD(CVR_MUL(row[0], p[0]), CVR_MUL(row[1], p[1])),
                     CVR_ADD(CVR_MUL(row[2], p[2]), row[3]));
  }
}

CVR_HD void cvr_transform_vector(const float *m, const float v[3], float out[3]) {
  for (int r = 0; r < 3; ++r) {
    const float *row = m + 4 * r;
    out[r] = CVR_ADD(CVR_ADD(CVR_MUL(row[0], v[0]), CVR_MUL(row[1], v[1])),
                     CVR_MUL(row[2], v[2]));
  }
}

/* Jittering: a fraction in [0, 1) per pixel, from an integer hash (the
 * same on every backend), that shifts the ray's lattice along it, so that
 * neighbouring rays sample at different depths and the slicing pattern of a
 * regular lattice (wood grain) becomes fine noise. */
CVR_HD float cvr_jitter(int px, int py) {
  unsigned h = (unsigned)px * 0x8da6b343u ^ (unsigned)py * 0xd8163841u;
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return (float)(h >> 8) * (1.0f / 16777216.0f);
}

/* The line of the ray through the centre of pixel (px, py): its world and
 * index-space origin (the eye, perspective, or the near plane, parallel)
 * and step (one sample distance), and the part of it between the near and
 * far planes (or the opaque geometry) as parameters [*t0, *t1] in samples
 * from the origin. opaque_depth is the window depth of opaque geometry at
 * the pixel (1: none). Pixels outside the viewport have lines too (the slab
 * strategy's border rays). Returns 0 for a degenerate projection. */
CVR_HD int cvr_ray_line(const cvr_ray_params *p, int px, int py, float opaque_depth, cvr_ray *ray,
                        float *t0, float *t1) {
  const float x = CVR_SUB(CVR_DIV((float)(2 * px + 1), (float)p->width), 1.0f);
  const float y = CVR_SUB(CVR_DIV((float)(2 * py + 1), (float)p->height), 1.0f);
  float near_w[3], far_w[3], dir[3], start[3];
  cvr_transform_point4(p->clip_to_world, x, y, -1.0f, near_w);
  cvr_transform_point4(p->clip_to_world, x, y, 1.0f, far_w);
  for (int a = 0; a < 3; ++a) {
    dir[a] = CVR_SUB(far_w[a], near_w[a]);
    start[a] = p->perspective ? p->eye[a] : near_w[a];
  }
  const float len = CVR_SQRT(CVR_ADD(CVR_ADD(CVR_MUL(dir[0], dir[0]),
                                             CVR_MUL(dir[1], dir[1])),
                                     CVR_MUL(dir[2], dir[2])));
  if (!(len > 0.0f)) return 0;
  const float dt = p->sample_distance;
  float t_near = 0.0f; /* near and far planes, in samples from start */
  float t_far = CVR_DIV(len, dt);
  if (p->perspective) {
    float dn = 0.0f, df = 0.0f;
    for (int a = 0; a < 3; ++a) {
      dn = CVR_ADD(dn, CVR_MUL(CVR_SUB(near_w[a], start[a]), dir[a]));
      df = CVR_ADD(df, CVR_MUL(CVR_SUB(far_w[a], start[a]), dir[a]));
    }
    t_near = CVR_DIV(CVR_DIV(dn, len), dt);
    t_far = CVR_DIV(CVR_DIV(df, len), dt);
  }
  if (opaque_depth < 1.0f) { /* stop at the geometry's surface */
    float surface[3], ds = 0.0f;
    cvr_transform_point4(p->clip_to_world, x, y, CVR_SUB(CVR_MUL(opaque_depth, 2.0f), 1.0f), surface);
    for (int a = 0; a < 3; ++a) ds = CVR_ADD(ds, CVR_MUL(CVR_SUB(surface[a], start[a]), dir[a]));
    t_far = cvr_minf(t_far, CVR_DIV(CVR_DIV(ds, len), dt));
  }
  float wstep[3];
  for (int a = 0; a < 3; ++a) wstep[a] = CVR_MUL(CVR_DIV(dir[a], len), dt);
  for (int a = 0; a < 3; ++a) {
    ray->world_origin[a] = start[a];
    ray->world_step[a] = wstep[a];
  }
  cvr_transform_affine(p->world_to_index, start, ray->origin);
  cvr_transform_vector(p->world_to_index, wstep, ray->step);
  *t0 = t_near;
  *t1 = t_far;
  /* a nearly singular camera can overflow the line (found by fuzzing: the
   * direction's length infinite, the step NaN): such a ray samples nothing */
  for (int a = 0; a < 3; ++a)
    if (!cvr_finite(ray->origin[a]) || !cvr_finite(ray->step[a]) || !cvr_finite(start[a]) ||
        !cvr_finite(wstep[a]))
      return 0;
  return 1;
}

/* Narrows [*t0, *t1] of a line (cvr_ray_line, origin still in index space)
 * to the part inside the box [lo, hi] and on the kept side of every clipping
 * plane; returns 1 where any is left, 0 where the line runs parallel to a
 * face or plane outside it, -1 where it misses otherwise. */
CVR_HD int cvr_ray_range_in(const cvr_ray_params *p, const cvr_ray *ray, const float *lo,
                            const float *hi, float *t0_inout, float *t1_inout) {
  /* (*t0 is the largest of the lower bounds even where the line misses: the
   * ray's phase, cvr_ray_clip, does not depend on the far bound) */
  float t0 = *t0_inout, t1 = *t1_inout;
  int meets = 1;
  for (int i = 0; i < p->clip_count; ++i) { /* clipping planes: the kept side of each */
    const float *c = p->clip[i];
    const float *o = ray->world_origin, *s = ray->world_step;
    const float at_origin = CVR_ADD(CVR_ADD(CVR_MUL(c[0], o[0]), CVR_MUL(c[1], o[1])),
                                    CVR_ADD(CVR_MUL(c[2], o[2]), c[3]));
    const float rate = CVR_ADD(CVR_ADD(CVR_MUL(c[0], s[0]), CVR_MUL(c[1], s[1])), CVR_MUL(c[2], s[2]));
    if (rate == 0.0f) { /* parallel to the plane: all kept or all clipped */
      if (!(at_origin >= 0.0f)) meets = 0;
      continue;
    }
    const float t = CVR_DIV(-at_origin, rate);
    if (rate > 0.0f) t0 = cvr_maxf(t0, t);
    else t1 = cvr_minf(t1, t);
  }
  for (int a = 0; a < 3; ++a) { /* slab test, in units of samples */
    const float o = ray->origin[a], s = ray->step[a];
    if (s == 0.0f) {
      if (o < lo[a] || o > hi[a]) meets = 0;
      continue;
    }
    const float ta = CVR_DIV(CVR_SUB(lo[a], o), s);
    const float tb = CVR_DIV(CVR_SUB(hi[a], o), s);
    t0 = cvr_maxf(t0, cvr_minf(ta, tb));
    t1 = cvr_minf(t1, cvr_maxf(ta, tb));
  }
  *t0_inout = t0;
  *t1_inout = t1;
  return meets && t0 <= t1 ? 1 : -meets; /* 1: a part is left; 0: parallel and outside */
}

/* The part of a line inside the volume's box, clipped. */
CVR_HD int cvr_ray_range(const cvr_ray_params *p, const cvr_ray *ray, float *t0_inout,
                         float *t1_inout) {
  return cvr_ray_range_in(p, ray, p->box_min, p->box_max, t0_inout, t1_inout) > 0;
}

/* How deep the ray through pixel (px, py) takes its first sample behind its
 * entry, in samples: one, or the pixel's jitter (VTK's GPU mapper does the
 * same). */
CVR_HD float cvr_ray_lead(const cvr_ray_params *p, int px, int py) {
  return p->jitter ? cvr_jitter(px, py) : 1.0f;
}

/* The phase of a line (cvr_ray_line, origin still in index space; see
 * cvr_ray_clip) and, in *from, the index of its first sample; narrows
 * [*t0, *t1] to the volume's box and clipping planes (empty: *t0 > *t1). */
CVR_HD float cvr_ray_phase(const cvr_ray_params *p, const cvr_ray *ray, float *t0, float *t1,
                           float lead, float *from) {
  float e0 = *t0, e1 = *t1;
  const int range = cvr_ray_range_in(p, ray, p->box_min, p->box_max, t0, t1);
  if (range <= 0) *t1 = -16777216.0f; /* (t0 > t1) */
  const int entered = p->lattice_box ? cvr_ray_range_in(p, ray, p->lattice_min, p->lattice_max,
                                                        &e0, &e1) != 0
                                     : range != 0;
  if (!p->lattice_box) e0 = *t0;
  *from = -16777216.0f; /* (parallel outside: no phase, no bound) */
  if (!entered) return 0.0f;
  const float start = CVR_ADD(e0, lead);
  *from = floorf(start);
  return CVR_SUB(start, *from);
}

/* Moves a line's origin by `shift` samples along it. */
CVR_HD void cvr_ray_shift(cvr_ray *ray, float shift) {
  for (int a = 0; a < 3; ++a) {
    ray->origin[a] = CVR_ADD(ray->origin[a], CVR_MUL(shift, ray->step[a]));
    ray->world_origin[a] = CVR_ADD(ray->world_origin[a], CVR_MUL(shift, ray->world_step[a]));
  }
}

/* The samples of a line (cvr_ray_line, origin still in index space) inside
 * the volume's box within [t0, t1], clipped: sets k_first and k_last (capped
 * at max_samples) and returns whether there is any.
 *
 * The lattice starts at the ray's entry into its lattice box (the volume's,
 * or the whole data's of which it is a piece) past the clipping planes and
 * the near plane, `lead` samples deep, as VTK's mapper starts its rays: the
 * first samples behind a face, a clipping plane or (for a crop plane
 * parallel to the face the ray enters) a crop plane then lie at one depth
 * across the image. (Anchored at the eye instead, that depth varies from 0
 * to 1 sample across a face that is not square to the rays: terraces on an
 * opaque face.) The lattice keeps integer indices from the line's origin:
 * the entry's fraction of a sample, the ray's phase, moves the origin along
 * the ray (returned in *phase when not NULL), so that neighbouring rays'
 * samples k stay within a sample of one depth (the slab strategy's cache).
 * The phase depends on the line alone, not on how far it reaches (the far
 * plane, opaque geometry), so that the slab strategy's neighbouring rays
 * compute each other's. */
CVR_HD int cvr_ray_clip(const cvr_ray_params *p, cvr_ray *ray, float t0, float t1, float lead,
                        float *phase) {
  float from;
  const float shift = cvr_ray_phase(p, ray, &t0, &t1, lead, &from);
  cvr_ray_shift(ray, shift);
  if (phase) *phase = shift;
  if (!(t0 <= t1)) return 0;
  /* samples k + lattice_offset in [from, t1 - shift] and past t0 - shift
   * (which from is, unless the lattice box is larger than the volume's) */
  float first = ceilf(CVR_SUB(from, p->lattice_offset));
  if (p->lattice_box)
    first = cvr_maxf(first, ceilf(CVR_SUB(CVR_SUB(t0, shift), p->lattice_offset)));
  float last = floorf(CVR_SUB(CVR_SUB(t1, shift), p->lattice_offset));
  /* a ray that meets the volume takes its first sample even where that lies
   * past its exit (a grazing ray, or opaque geometry within the lead), as
   * VTK's mapper samples before it checks; not for a piece, whose neighbour
   * takes that sample */
  if (!p->lattice_box) last = cvr_maxf(last, first);
  if (!(first <= last)) return 0; /* (also NaN) */
  /* within +-2^24 samples, where floats still count them (and ints hold them) */
  first = cvr_maxf(first, -16777216.0f);
  last = cvr_minf(last, 16777216.0f);
  if (first > last) return 0;
  ray->k_first = (int)first;
  ray->k_last = (int)last;
  if (p->max_samples > 0 && ray->k_last - ray->k_first >= p->max_samples)
    ray->k_last = ray->k_first + p->max_samples - 1;
  return 1;
}

/* Index positions to texel coordinates (the texture addresses texel centres). */
CVR_HD void cvr_ray_to_texel(cvr_ray *ray) {
  for (int a = 0; a < 3; ++a) ray->origin[a] = CVR_ADD(ray->origin[a], 0.5f);
}

/* The line of pixel (px, py) moved to its phase (cvr_ray_clip), without its
 * samples' range: all a sample's depth (cvr_ray_depth) needs. Returns
 * whether the line meets the volume. */
CVR_HD int cvr_ray_phased_line(const cvr_ray_params *p, int px, int py, float opaque_depth,
                               cvr_ray *ray) {
  float t0, t1, from;
  if (!cvr_ray_line(p, px, py, opaque_depth, ray, &t0, &t1)) return 0;
  cvr_ray_shift(ray, cvr_ray_phase(p, ray, &t0, &t1, cvr_ray_lead(p, px, py), &from));
  return t0 <= t1;
}

/* Sets up the ray through the centre of pixel (px, py) and returns whether it
 * takes any sample (no sample lies beyond opaque_depth). */
CVR_HD int cvr_ray_setup(const cvr_ray_params *p, int px, int py, float opaque_depth,
                         cvr_ray *ray) {
  float t0, t1;
  if (!cvr_ray_line(p, px, py, opaque_depth, ray, &t0, &t1) ||
      !cvr_ray_clip(p, ray, t0, t1, cvr_ray_lead(p, px, py), 0))
    return 0;
  cvr_ray_to_texel(ray);
  return 1;
}

/* SLICE: sets up the ray through the centre of pixel (px, py) and finds the
 * parameter *t (not on the lattice) where it meets the slice plane inside
 * the volume, on the kept side of the clipping planes and before opaque
 * geometry; returns whether it does. */
CVR_HD int cvr_slice_setup(const cvr_ray_params *p, int px, int py, float opaque_depth,
                           cvr_ray *ray, float *t) {
  float t0, t1;
  if (!cvr_ray_line(p, px, py, opaque_depth, ray, &t0, &t1) || !cvr_ray_range(p, ray, &t0, &t1))
    return 0;
  const float *n = p->slice, *o = ray->world_origin, *s = ray->world_step;
  const float at_origin = CVR_ADD(CVR_ADD(CVR_MUL(n[0], o[0]), CVR_MUL(n[1], o[1])),
                                  CVR_ADD(CVR_MUL(n[2], o[2]), n[3]));
  const float rate = CVR_ADD(CVR_ADD(CVR_MUL(n[0], s[0]), CVR_MUL(n[1], s[1])), CVR_MUL(n[2], s[2]));
  if (rate == 0.0f) return 0; /* along the plane */
  const float ts = CVR_DIV(-at_origin, rate);
  if (!(ts >= t0 && ts <= t1)) return 0;
  cvr_ray_to_texel(ray);
  ray->k_first = ray->k_last = 0;
  *t = ts;
  return 1;
}

/* The lattice parameters of the first and last samples; the samples between
 * add 1.0f, which every backend does the same way (exact while |t| < 2^23). */
CVR_HD float cvr_ray_t_first(const cvr_ray *ray, float lattice_offset) {
  return CVR_ADD((float)ray->k_first, lattice_offset);
}
CVR_HD float cvr_ray_t_last(const cvr_ray *ray, float lattice_offset) {
  return CVR_ADD((float)ray->k_last, lattice_offset);
}

/* Texel coordinate of the sample at lattice parameter t. */
CVR_HD void cvr_ray_position(const cvr_ray *ray, float t, float pos[3]) {
  pos[0] = CVR_ADD(ray->origin[0], CVR_MUL(t, ray->step[0]));
  pos[1] = CVR_ADD(ray->origin[1], CVR_MUL(t, ray->step[1]));
  pos[2] = CVR_ADD(ray->origin[2], CVR_MUL(t, ray->step[2]));
}

/* Cropping: whether the sample at pos (the ray's coordinates, those of
 * p->crop) lies in a kept region. Per axis the region coordinate is 0 below
 * the first plane, 1 from it to the second, 2 from the second on. */
CVR_HD int cvr_crop_keeps(const cvr_ray_params *p, const float pos[3]) {
  const int region = (pos[0] >= p->crop[0]) + (pos[0] >= p->crop[1]) +
                     3 * ((pos[1] >= p->crop[2]) + (pos[1] >= p->crop[3])) +
                     9 * ((pos[2] >= p->crop[4]) + (pos[2] >= p->crop[5]));
  return (int)((p->crop_flags >> region) & 1u);
}

/* The texel a texture with nearest filtering reads at coordinate x
 * (clamped to [-1, n] before it becomes an int: the texel is the same for
 * any coordinate beyond, and a far one would overflow; NaN reads texel 0). */
CVR_HD int cvr_nearest_texel(float x, int n) {
  const float c = x > -1.0f ? (x < (float)n ? x : (float)n) : -1.0f;
  const int i = (int)floorf(c);
  return i < 0 ? 0 : (i > n - 1 ? n - 1 : i);
}

/* The mask's label of the voxel nearest the sample at pos (the ray's
 * coordinates), as a texture with nearest filtering finds it. */
CVR_HD int cvr_mask_label(const cvr_ray_params *p, const float pos[3]) {
  int i[3];
  for (int a = 0; a < 3; ++a) {
    const int v = p->mask_axis[a];
    i[v] = cvr_nearest_texel(CVR_ADD(CVR_MUL(p->mask_sign[a], pos[a]), p->mask_shift[a]),
                             p->mask_dims[v]);
  }
  return p->mask_labels[(size_t)i[0] +
                        (size_t)p->mask_dims[0] * ((size_t)i[1] + (size_t)p->mask_dims[1] * i[2])];
}

/* Whether the sample at pos counts: cropping and a binary mask remove
 * samples (transparent, in every strategy and blend mode). */
CVR_HD int cvr_sample_kept(const cvr_ray_params *p, const float pos[3]) {
  if (p->cropping && !cvr_crop_keeps(p, pos)) return 0;
  return p->mask != CVR_MASK_REMOVES || cvr_mask_label(p, pos) != 0;
}

/* Whether cropping or a binary mask removes the sample at lattice parameter
 * t (cvr_sample_kept). */
CVR_HD int cvr_ray_cropped(const cvr_ray_params *p, const cvr_ray *ray, float t) {
  if (!p->cropping && p->mask != CVR_MASK_REMOVES) return 0;
  float pos[3];
  cvr_ray_position(ray, t, pos);
  return !cvr_sample_kept(p, pos);
}

/* LABEL_MAP: the label whose function classifies the sample at lattice
 * parameter t, 0 where the volume's does (label 0, or one without a
 * function). */
CVR_HD int cvr_ray_label(const cvr_ray_params *p, const cvr_ray *ray, float t) {
  if (p->mask != CVR_MASK_LABELS) return 0;
  float pos[3];
  cvr_ray_position(ray, t, pos);
  const int label = cvr_mask_label(p, pos);
  return label <= p->label_count ? label : 0;
}

/* Window depth in [0, 1] of the sample at lattice parameter t. */
CVR_HD float cvr_ray_depth(const cvr_ray_params *p, const cvr_ray *ray, float t) {
  float w[3], ndc[3];
  for (int a = 0; a < 3; ++a)
    w[a] = CVR_ADD(ray->world_origin[a], CVR_MUL(t, ray->world_step[a]));
  cvr_transform_point4(p->world_to_clip, w[0], w[1], w[2], ndc);
  const float d = CVR_ADD(CVR_MUL(ndc[2], 0.5f), 0.5f);
  return cvr_minf(cvr_maxf(d, 0.0f), 1.0f);
}

#endif /* CVR_RAY_LATTICE_H */
