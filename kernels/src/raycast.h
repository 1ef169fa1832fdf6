// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/*
 * The one implementation of ray setup, the sample lattice, transfer-function
 * lookup and compositing. Compiled both as C11 (CPU backend) and by nvcc
 * (every CUDA strategy), so all backends and strategies take the same
 * samples at the same positions and composite them the same way.
 *
 * Positions and the ray's sample range are computed with explicitly rounded
 * operations (no fused multiply-add on either side; the host code is built
 * with -ffp-contract=off), so a CPU and a GPU ray visit bit-identical sample
 * positions. That keeps the CPU renderer a tight reference.
 */
#ifndef CVR_RAYCAST_H
#define CVR_RAYCAST_H

#include "cvr.h"

#ifdef __CUDACC__
#  define CVR_HD __host__ __device__ __forceinline__
#  if defined(__CUDA_ARCH__)
#    define CVR_MUL(a, b) __fmul_rn((a), (b))
#    define CVR_ADD(a, b) __fadd_rn((a), (b))
#    define CVR_DIV(a, b) __fdiv_rn((a), (b))
#    define CVR_SQRT(a) __fsqrt_rn(a)
#  endif
#else
#  define CVR_HD static inline
#endif
/* CVR_HD for the few functions the CPU renderer must inline into its
 * per-ISA clones (cpu_renderer.c), which the compiler would call instead */
#if defined(__CUDACC__) || !(defined(__GNUC__) || defined(__clang__))
#  define CVR_HD_INLINE CVR_HD
#else
#  define CVR_HD_INLINE static inline __attribute__((always_inline))
#endif
#ifndef CVR_MUL
#  include <math.h>
#  define CVR_MUL(a, b) ((a) * (b))
#  define CVR_ADD(a, b) ((a) + (b))
#  define CVR_DIV(a, b) ((a) / (b))
#  define CVR_SQRT(a) sqrtf(a)
#endif
#define CVR_SUB(a, b) CVR_ADD((a), -(b))

/* 16-byte aligned so kernels load a table entry with one vector load. */
#ifdef __cplusplus
#  define CVR_ALIGN16 alignas(16)
#else
#  define CVR_ALIGN16 _Alignas(16)
#endif
typedef struct cvr_rgba { CVR_ALIGN16 float r; float g, b, a; } cvr_rgba;


/* One light in world space, in the form the shading loop wants. */
typedef struct cvr_light_params {
  int type;                 /* cvr_light_type */
  int spot;                 /* positional with a cone */
  float ambient[3], diffuse[3], specular[3];
  float position[3];
  float direction[3];       /* unit: where the light shines (directional, spot) */
  float attenuation[3];
  float cos_cone, exponent;
} cvr_light_params;

/* Volumetric scattering (cvr.h, cvr_shading), in the coordinates of the
 * copy the samples come from (CUDA: the stored one). */
typedef struct cvr_scattering_params {
  float blend;           /* VTK's blending / 2, in (0, 1]; 0: off */
  int above_one;         /* VTK's blending >= 1: the second weight formula */
  float anisotropy;      /* Henyey-Greenstein g; 0: isotropic */
  float reach;           /* the longest shadow ray, texture units */
  float cutoff;          /* a shadow ray stops letting through less: 1/4096 over the
                            phase function's largest value */
  float texels[3];       /* texels a texture unit along each axis (the dimensions) */
  /* per light, texel coordinates: a positional light's position, a
   * directional one's direction towards it (headlights: the ray's) */
  float light[CVR_MAX_LIGHTS][3];
  float density_scale[3]; /* index-space gradient -> |G| (cvr.h) components */
  int unit_gradient;      /* |G| is 1 (gradient opacity on) */
} cvr_scattering_params;

typedef struct cvr_shading_params {
  int enabled, two_sided, light_count;
  int normals_as_color; /* test hook: colour = (N + 1) / 2, to compare gradients */
  float ambient, diffuse, specular, power;
  float gradient_to_world[9]; /* index-space gradient -> world (world_to_index^T) */
  cvr_light_params lights[CVR_MAX_LIGHTS];
  cvr_scattering_params scattering;
} cvr_shading_params;

/* Everything a ray needs, in float, built once per frame on the host
 * (view.c) and passed by value to kernels. */
typedef struct cvr_ray_params {
  float clip_to_world[16];  /* row-major */
  float world_to_clip[16];
  float world_to_index[12]; /* 3x4 affine, row-major */
  float box_min[3], box_max[3]; /* the volume in index space */
  /* the box whose entry starts each ray's lattice (cvr_ray_clip), in the
   * same coordinates: the whole data where the volume is a piece of it
   * (cvr_view.lattice_box), else the volume's own box (lattice_box 0) */
  int lattice_box;
  float lattice_min[3], lattice_max[3];
  float eye[3];             /* world eye point (perspective only) */
  int width, height;
  int perspective;
  float sample_distance;    /* world units */
  float lattice_offset;     /* 0; tests shift it to prove their tolerances */
  int max_samples;          /* 0 = unlimited */
  int early_termination;
  float termination_opacity;
  int jitter;               /* rays start cvr_jitter(px, py) of a sample deep, not one */
  /* transfer-function coordinate = sampled value * tf_scale + tf_bias, where
   * the sampled value is what the texture unit returns (normalized for 8/16-bit
   * integers, raw for float) */
  float tf_scale, tf_bias;
  int tf_size;
  int blend;                /* cvr_blend_mode */
  float average_lo, average_hi; /* AVERAGE: the range, as table coordinates */
  int iso_count;            /* ISOSURFACE: the iso values as sampled, ascending, distinct */
  float iso[CVR_MAX_ISO_VALUES];
  float slice[4];           /* SLICE: the plane n . x + d = 0, world space, |n| = 1 */
  int gradient_opacity;     /* entries of the gradient-opacity table, 0: none (cvr.h) */
  const float *gradient_table; /* ... the table (host memory for the CPU, device for CUDA) */
  float gradient_scale[3];  /* index-space gradient component (the ray's axes) ->
                               table coordinate of the magnitude (with tf2d: the
                               2D table's y coordinate + 0.5) */
  /* a 2D transfer function (cvr.h): tf_size x tf2d_height entries (host
   * memory for the CPU, device for CUDA), x the 1D table's coordinate (that
   * table holds its columns' most opaque entries); NULL: none */
  const cvr_rgba *tf2d;
  int tf2d_height;
  int clip_count;           /* clipping planes: n . x + d >= 0 kept, world space, |n| = 1 */
  float clip[CVR_MAX_CLIP_PLANES][4];
  int cropping;             /* cropping: the planes in the ray's sample coordinates */
  float crop[6];            /* (texel coordinates; CUDA: the stored copy's) and the */
  unsigned crop_flags;      /* regions kept, as cvr_render_settings in those coordinates */
  /* empty-space skipping: per macro-cell of 2^skip_shift texels a side of
   * the sampled copy (CUDA: the stored one), whether it is empty
   * (cvr_skip_empty_at, cvr_skip_cell_samples); NULL: off */
  const unsigned char *skip_empty;
  int skip_cells[3], skip_shift;
  /* the volume's mask as this frame uses it (cvr.h, cvr_mask_type;
   * CVR_MASK_NONE: not at all): labels in the volume's index order (host
   * memory for the CPU, device for CUDA); the ray's texel coordinate T maps
   * to the volume's x[mask_axis[a]] = mask_sign[a] T[a] + mask_shift[a]
   * (CUDA: its copy's orientation undone) */
  int mask;
  const unsigned char *mask_labels;
  int mask_dims[3];
  int mask_axis[3];
  float mask_sign[3], mask_shift[3];
  /* LABEL_MAP: rows of tf_size entries for labels 1..label_count, and their
   * gradient opacity (rows of label_gradient_size, or NULL); the weight of a
   * label's entry against the volume's */
  const cvr_rgba *label_table;
  int label_count;
  const float *label_gradient;
  int label_gradient_size;
  float mask_blend;
  /* a multi-component volume (cvr.h, cvr_component_mode): components values
   * per sample, component c classified by component_table[c]
   * (component_size[c] entries at coordinate value * component_scale[c] +
   * component_bias[c]; host memory for the CPU, device for CUDA), its
   * gradient opacity by component_gradient[c] (or NULL) at the gradient
   * magnitude scaled as gradient_scale is; 1: the fields above alone */
  int components;
  int dependent;
  int tf2d_y;               /* TRANSFER_2D: tf2d at (component 0, component 1),
                               component 1's row coordinate + 0.5 at value *
                               component_scale[1] + component_bias[1] */
  int iso_component;        /* ISOSURFACE: the component whose crossings count */
  int component_gradients;  /* some component has gradient opacity */
  float component_weight[CVR_MAX_COMPONENTS];
  const cvr_rgba *component_table[CVR_MAX_COMPONENTS];
  int component_size[CVR_MAX_COMPONENTS];
  float component_scale[CVR_MAX_COMPONENTS], component_bias[CVR_MAX_COMPONENTS];
  float component_average[CVR_MAX_COMPONENTS][2]; /* AVERAGE: the range, as table coordinates */
  const float *component_gradient[CVR_MAX_COMPONENTS];
  int component_gradient_size[CVR_MAX_COMPONENTS];
  float component_gradient_scale[CVR_MAX_COMPONENTS][3];
  cvr_shading_params shading;
} cvr_ray_params;

#ifdef __CUDACC__
#  define CVR_UNROLL _Pragma("unroll")
#  define CVR_NO_UNROLL _Pragma("unroll 1")
#else
#  define CVR_UNROLL
#  define CVR_NO_UNROLL
#endif

/* cvr_ray_params.mask: no mask, or cvr_mask_type + 1 */
#define CVR_MASK_NONE 0
#define CVR_MASK_REMOVES 1  /* CVR_MASK_BINARY */
#define CVR_MASK_LABELS 2   /* CVR_MASK_LABEL_MAP */

/* One ray: sample k sits at texel coordinate origin + t * step with
 * t = k + lattice_offset, for k in [k_first, k_last] (the origin moved by
 * the ray's phase, cvr_ray_clip). Texel coordinates are index positions +
 * 0.5 (the texture addresses texel centres), so the coordinate goes to the
 * texture as it is. */
typedef struct cvr_ray {
  float origin[3];      /* texel coordinates, k = 0 */
  float step[3];        /* index space, one sample */
  float world_origin[3];
  float world_step[3];
  int k_first, k_last;
} cvr_ray;

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

/* The texel a texture with nearest filtering reads at coordinate x. */
CVR_HD int cvr_nearest_texel(float x, int n) {
  const int i = (int)floorf(x);
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
CVR_HD float cvr_trilinear(const float c[8], const float w[3]) {
#define CVR_LERP(a, b, f) CVR_ADD((a), CVR_MUL((f), CVR_SUB((b), (a))))
  const float c00 = CVR_LERP(c[0], c[1], w[0]), c10 = CVR_LERP(c[2], c[3], w[0]);
  const float c01 = CVR_LERP(c[4], c[5], w[0]), c11 = CVR_LERP(c[6], c[7], w[0]);
  const float c0 = CVR_LERP(c00, c10, w[1]), c1 = CVR_LERP(c01, c11, w[1]);
  return CVR_LERP(c0, c1, w[2]);
#undef CVR_LERP
}

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

/* Index-space gradient at a sample from its six neighbours one voxel away
 * (+x, -x, +y, -y, +z, -z): central differences per index unit. */
CVR_HD void cvr_gradient(const float neighbours[6], float gradient[3]) {
  for (int a = 0; a < 3; ++a) gradient[a] = 0.5f * (neighbours[2 * a] - neighbours[2 * a + 1]);
}

CVR_HD float cvr_dot3(const float *a, const float *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

CVR_HD void cvr_cross3(const float *a, const float *b, float *out) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

/* Gradients of the slab strategy (Mensmann et al. section 5.2), taken in eye
 * space from the slab cache: central differences D = (f(+) - f(-)) / 2 with
 * the neighbouring rays across (u) and up (v) at the same lattice index, and
 * with the ray's own previous and next samples (t). Each difference measures
 * the gradient g along the half distance between its two samples: a_u.g,
 * a_v.g and step.g. For parallel projection a_u is half the difference of
 * the neighbours' origins (their steps are equal); for perspective the rays
 * share the eye as origin and a_u = t (step_right - step_left) / 2 grows
 * with the lattice parameter t. So a_u = c A_u with c = 1 or t, and the
 * index-space gradient solves  [A_u; A_v; step] g = (D_u / c, D_v / c, D_t).
 * The basis holds the inverse's columns; 0 when the rays are degenerate. */
typedef struct cvr_eye_basis {
  float column[3][3];
} cvr_eye_basis;

CVR_HD int cvr_eye_basis_invert(const float a_u[3], const float a_v[3], const float step[3],
                                cvr_eye_basis *out) {
  cvr_cross3(a_v, step, out->column[0]);
  cvr_cross3(step, a_u, out->column[1]);
  cvr_cross3(a_u, a_v, out->column[2]);
  const float det = cvr_dot3(a_u, out->column[0]);
  const int ok = det != 0.0f && det == det;
  for (int c = 0; c < 3; ++c)
    for (int a = 0; a < 3; ++a) out->column[c][a] = ok ? out->column[c][a] / det : 0.0f;
  return ok;
}

/* The basis of a ray from its neighbours' lines (cvr_ray_line; left, right,
 * below, above), whose origin and step are in the same coordinates as ray's. */
CVR_HD int cvr_eye_basis_for(int perspective, const cvr_ray *ray, const cvr_ray *left,
                             const cvr_ray *right, const cvr_ray *below, const cvr_ray *above,
                             cvr_eye_basis *out) {
  float a_u[3], a_v[3];
  for (int a = 0; a < 3; ++a) {
    a_u[a] = perspective ? 0.5f * (right->step[a] - left->step[a])
                         : 0.5f * (right->origin[a] - left->origin[a]);
    a_v[a] = perspective ? 0.5f * (above->step[a] - below->step[a])
                         : 0.5f * (above->origin[a] - below->origin[a]);
  }
  return cvr_eye_basis_invert(a_u, a_v, ray->step, out);
}

/* The index-space gradient from the three central differences at lattice
 * parameter t (perspective: the lateral ones scale with 1 / t). */
CVR_HD void cvr_eye_gradient(const cvr_eye_basis *b, int perspective, float t, float d_u,
                             float d_v, float d_t, float gradient[3]) {
  const float c = perspective ? 1.0f / t : 1.0f;
  const float r[3] = {d_u * c, d_v * c, d_t};
  for (int a = 0; a < 3; ++a)
    gradient[a] = b->column[0][a] * r[0] + b->column[1][a] * r[1] + b->column[2][a] * r[2];
}

/* Light l as the sample at parameter t of a ray sees it: the unit direction
 * towards it (world space) and, returned, its attenuation (positional
 * lights, spots). v: the unit direction towards the eye. */
CVR_HD float cvr_light_toward(const cvr_light_params *l, const cvr_ray *ray, float t,
                              const float v[3], float dir[3]) {
  if (l->type == 0) { /* headlight: along the ray, towards the eye */
    for (int a = 0; a < 3; ++a) dir[a] = v[a];
    return 1.0f;
  }
  if (l->type == 1) {
    for (int a = 0; a < 3; ++a) dir[a] = -l->direction[a];
    return 1.0f;
  }
  float dist2 = 0.0f;
  for (int a = 0; a < 3; ++a) {
    dir[a] = l->position[a] - (ray->world_origin[a] + t * ray->world_step[a]);
    dist2 += dir[a] * dir[a];
  }
  const float dist = sqrtf(dist2);
  for (int a = 0; a < 3; ++a) dir[a] = dist > 0.0f ? dir[a] / dist : 0.0f;
  float att = 1.0f / (l->attenuation[0] + l->attenuation[1] * dist + l->attenuation[2] * dist2);
  if (l->spot) {
    const float cone = -cvr_dot3(dir, l->direction);
    att = cone >= l->cos_cone ? att * powf(cone, l->exponent) : 0.0f;
  }
  return att;
}

/* The unit direction from a sample of a ray towards the eye (world). */
CVR_HD void cvr_toward_eye(const cvr_ray *ray, float v[3]) {
  for (int a = 0; a < 3; ++a) v[a] = -ray->world_step[a];
  const float v_len = sqrtf(cvr_dot3(v, v));
  for (int a = 0; a < 3; ++a) v[a] /= v_len;
}

/* Phong-shades a classified sample (cvr.h, cvr_shading): the colour becomes
 * the lit colour, the opacity stays. gradient is in index space; t places the
 * sample on the ray (for positional lights). */
CVR_HD cvr_rgba cvr_shade(const cvr_shading_params *sh, const cvr_ray *ray, float t,
                          const float gradient[3], cvr_rgba s) {
  float n[3], v[3]; /* v as cvr_toward_eye */
  for (int r = 0; r < 3; ++r) {
    const float *m = sh->gradient_to_world + 3 * r;
    n[r] = -(m[0] * gradient[0] + m[1] * gradient[1] + m[2] * gradient[2]);
    v[r] = -ray->world_step[r];
  }
  const float n_len = sqrtf(cvr_dot3(n, n)), v_len = sqrtf(cvr_dot3(v, v));
  const int lit = n_len > 0.0f;
  for (int a = 0; a < 3; ++a) {
    n[a] = lit ? n[a] / n_len : 0.0f;
    v[a] /= v_len;
  }
  float ambient[3] = {0.0f, 0.0f, 0.0f}, diffuse[3] = {0.0f, 0.0f, 0.0f};
  float specular[3] = {0.0f, 0.0f, 0.0f};
  CVR_NO_UNROLL /* (a kernel inlines this at every sample it shades: one copy of the body) */
  for (int i = 0; i < sh->light_count; ++i) {
    const cvr_light_params *l = &sh->lights[i];
    for (int c = 0; c < 3; ++c) ambient[c] += l->ambient[c];
    if (!lit) continue;
    float dir[3]; /* from the sample towards the light */
    const float att = cvr_light_toward(l, ray, t, v, dir);
    float h[3];
    for (int a = 0; a < 3; ++a) h[a] = dir[a] + v[a];
    const float h_len = sqrtf(cvr_dot3(h, h));
    float ndl = cvr_dot3(n, dir), ndh = h_len > 0.0f ? cvr_dot3(n, h) / h_len : 0.0f;
    if (sh->two_sided) {
      ndl = fabsf(ndl);
      ndh = fabsf(ndh);
    }
    const float d = att * cvr_maxf(ndl, 0.0f);
    const float sp = ndh > 0.0f ? att * powf(ndh, sh->power) : 0.0f;
    for (int c = 0; c < 3; ++c) {
      diffuse[c] += d * l->diffuse[c];
      specular[c] += sp * l->specular[c];
    }
  }
  cvr_rgba out;
  if (sh->normals_as_color) {
    out.r = 0.5f * (n[0] + 1.0f);
    out.g = 0.5f * (n[1] + 1.0f);
    out.b = 0.5f * (n[2] + 1.0f);
    out.a = s.a;
    return out;
  }
  out.r = sh->ambient * ambient[0] * s.r + sh->diffuse * diffuse[0] * s.r + sh->specular * specular[0];
  out.g = sh->ambient * ambient[1] * s.g + sh->diffuse * diffuse[1] * s.g + sh->specular * specular[1];
  out.b = sh->ambient * ambient[2] * s.b + sh->diffuse * diffuse[2] * s.b + sh->specular * specular[2];
  out.a = s.a;
  return out;
}

/* ---- volumetric scattering (cvr.h, cvr_shading) ---------------------------
 * A shaded sample's shadow rays are marched by each backend with its own
 * sampler (cvr_shadow_setup, cvr_shadow_opacity); the light they let
 * through, per light, goes to cvr_scatter, which mixes the scattered light
 * with the Phong colour. */

/* VTK's Henyey-Greenstein phase function, 1 where isotropic; cos_angle
 * between the light's travel and the way to the eye (|g| = 1: a spike,
 * taken as 0 where 0 / 0). */
CVR_HD float cvr_phase(float g, float cos_angle) {
  if (g == 0.0f) return 1.0f;
  const float g2 = g * g, d = 1.0f + g2 - 2.0f * g * cos_angle;
  return d > 0.0f ? (1.0f - g2) / (d * sqrtf(d)) : 0.0f;
}

/* One shadow ray: sample k at start + k step, texel coordinates of the
 * sampled copy; it stops once the light through it is below cutoff. */
typedef struct cvr_shadow_ray {
  float start[3], step[3];
  float cutoff;
} cvr_shadow_ray;

/* Light i's shadow ray from the sample at texel position pos of a ray, as
 * VTK's volumeShadow marches it: in texture space (the volume the unit
 * cube) with the ray's step, from one step towards the light on, to the
 * volume's edge, the light or the reach. Returns its number of samples (0:
 * the light arrives whole). */
CVR_HD int cvr_shadow_setup(const cvr_shading_params *sh, int i, const cvr_ray *ray,
                            const float pos[3], cvr_shadow_ray *out) {
  const cvr_scattering_params *sc = &sh->scattering;
  const int type = sh->lights[i].type;
  float p[3], d[3], step[3];
  for (int a = 0; a < 3; ++a) {
    const float toward = type == 0 ? -ray->step[a] : type == 1 ? sc->light[i][a]
                                                               : sc->light[i][a] - pos[a];
    p[a] = pos[a] / sc->texels[a];
    d[a] = toward / sc->texels[a];
    step[a] = ray->step[a] / sc->texels[a];
  }
  const float len = sqrtf(cvr_dot3(d, d)), length_step = sqrtf(cvr_dot3(step, step));
  if (!(len > 0.0f) || !(length_step > 0.0f)) return 0;
  float t_in = -3.0e38f, t_out = 3.0e38f;
  for (int a = 0; a < 3; ++a) {
    d[a] /= len;
    p[a] += length_step * d[a];
    if (d[a] != 0.0f) {
      const float t0 = -p[a] / d[a], t1 = (1.0f - p[a]) / d[a];
      t_in = cvr_maxf(t_in, cvr_minf(t0, t1));
      t_out = cvr_minf(t_out, cvr_maxf(t0, t1));
    } else if (p[a] < 0.0f || p[a] > 1.0f) {
      return 0;
    }
  }
  if (!(t_out > cvr_maxf(t_in, 0.0f)) || t_out < length_step) return 0;
  float reach = cvr_minf(t_out, sc->reach);
  if (type == 2) reach = cvr_minf(reach, len - length_step);
  if (!(reach >= 0.001f)) return 0; /* VTK's epsilon */
  for (int a = 0; a < 3; ++a) {
    out->start[a] = p[a] * sc->texels[a];
    out->step[a] = length_step * d[a] * sc->texels[a];
  }
  out->cutoff = sc->cutoff;
  return (int)ceilf(reach / length_step);
}

/* Whether a shadow sample's opacity needs its gradient (cvr_shadow_opacity). */
CVR_HD int cvr_shadow_needs_gradient(const cvr_ray_params *p) {
  return p->components == 1 && (p->gradient_opacity || p->tf2d);
}

/* Mixes a sample's scattered light into its Phong colour lit (cvr.h):
 * s is the classified sample (straight colour, its opacity before gradient
 * opacity), gradient its index-space gradient, through[i] the light the
 * shadow ray towards light i let through. */
CVR_HD cvr_rgba cvr_scatter(const cvr_shading_params *sh, const cvr_ray *ray, float t,
                            const float gradient[3], cvr_rgba s, cvr_rgba lit,
                            const float *through) {
  const cvr_scattering_params *sc = &sh->scattering;
  if (sh->normals_as_color) return lit;
  float v[3];
  cvr_toward_eye(ray, v);
  float scattered[3] = {0.0f, 0.0f, 0.0f};
  CVR_NO_UNROLL
  for (int i = 0; i < sh->light_count; ++i) {
    const cvr_light_params *l = &sh->lights[i];
    float dir[3];
    const float att = cvr_light_toward(l, ray, t, v, dir);
    /* the light travels along -dir, then towards the eye: a headlight's
     * light comes straight back */
    const float phase = cvr_phase(sc->anisotropy, l->type == 0 ? -1.0f : -cvr_dot3(dir, v));
    const float k = through[i] * phase * att * sh->diffuse;
    const float ambient = l->type == 0 ? 0.0f : sh->ambient;
    scattered[0] += k * l->diffuse[0] * s.r + ambient * l->ambient[0];
    scattered[1] += k * l->diffuse[1] * s.g + ambient * l->ambient[1];
    scattered[2] += k * l->diffuse[2] * s.b + ambient * l->ambient[2];
  }
  float g = 1.0f;
  if (!sc->unit_gradient) {
    const float x = gradient[0] * sc->density_scale[0], y = gradient[1] * sc->density_scale[1];
    const float z = gradient[2] * sc->density_scale[2];
    g = sqrtf(x * x + y * y + z * z);
  } else if (gradient[0] == 0.0f && gradient[1] == 0.0f && gradient[2] == 0.0f) {
    g = 0.0f;
  }
  const float b = sc->blend, e = expf(-2.0f * b * g * s.a);
  const float w = sc->above_one ? 2.0f * (1.0f - b) * e + 2.0f * b - 1.0f : 2.0f * b * e;
  lit.r = (1.0f - w) * lit.r + w * scattered[0];
  lit.g = (1.0f - w) * lit.g + w * scattered[1];
  lit.b = (1.0f - w) * lit.b + w * scattered[2];
  return lit;
}

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
  cvr_rgba e[CVR_MAX_COMPONENTS];
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

#endif /* CVR_RAYCAST_H */
