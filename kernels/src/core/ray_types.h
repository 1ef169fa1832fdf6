// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The core's types and arithmetic (raycast.h): CVR_HD, explicitly rounded
 * float operations, and the per-frame parameters a ray reads. */
#ifndef CVR_RAY_TYPES_H
#define CVR_RAY_TYPES_H

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

#endif /* CVR_RAY_TYPES_H */
