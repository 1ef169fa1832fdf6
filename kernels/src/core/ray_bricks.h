// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Bricks (raycast.h): which brick owns a sample, the samples of a ray a
 * brick owns, and what a ray carries from one brick to the next.
 *
 * A bricked volume (bricks.h) is cut along a grid of bricks of 2^shift
 * texels a side, the way empty-space skipping cuts it into macro-cells
 * (cvr_skip_cell): a sample belongs to the brick whose cell holds the first
 * texel its filter reads, the outer bricks taking everything beyond the
 * volume. So every lattice sample belongs to exactly one brick, decided by
 * its own position computed as every backend computes it, and a brick is a
 * whole number of macro-cells. Along a ray the brick of its samples changes
 * monotonically on every axis, so the samples a brick owns are one run of
 * consecutive k; a frame that composites each brick's run into the ray's
 * state, bricks front to back, takes the samples of the unbricked frame in
 * the same order with the same arithmetic: the same image, bit for bit. */
#ifndef CVR_RAY_BRICKS_H
#define CVR_RAY_BRICKS_H

#include "ray_components.h"

/* Texels a brick's copy keeps beyond its own cells on each side: the filter
 * reads texels f .. f + 2 of a sample whose cell holds f (cvr_skip_cell),
 * and gradients the samples one texel either side. */
#define CVR_BRICK_APRON_LOW 2
#define CVR_BRICK_APRON_HIGH 3

/* The brick cell along one axis of the sample at lattice parameter t. */
CVR_HD int cvr_brick_cell_at(const cvr_ray *ray, int axis, float t, int shift, int cells) {
  return cvr_skip_cell(CVR_ADD(ray->origin[axis], CVR_MUL(t, ray->step[axis])), shift, cells);
}

/* The first k in [lo, hi] whose sample's cell along `axis`, times sign,
 * reaches sign * cell (hi + 1 where none does), looked for from `guess`:
 * the test is monotonic in k (positions are), so the answer is exact
 * whatever the guess, which only makes it quick (a few tests when it is
 * near, a doubling search when not). */
CVR_HD int cvr_brick_first_k(const cvr_ray *ray, float lattice_offset, int axis, int shift,
                             int cells, int sign, int cell, int lo, int hi, float guess) {
  int below = lo - 1, above = hi + 1; /* known: fails at below, holds at above */
  int k = lo;
  if (guess > (float)lo) k = guess < (float)hi ? (int)guess : hi; /* (NaN: lo) */
  int stride = 1;
  for (;;) { /* bracket: below < answer <= above */
    const int holds =
        sign * cvr_brick_cell_at(ray, axis, CVR_ADD((float)k, lattice_offset), shift, cells) >= sign * cell;
    if (holds) {
      above = k;
      k -= stride;
      if (k <= below) break;
    } else {
      below = k;
      k += stride;
      if (k >= above) break;
    }
    stride *= 2;
  }
  while (above - below > 1) { /* bisect */
    const int mid = below + (above - below) / 2;
    if (sign * cvr_brick_cell_at(ray, axis, CVR_ADD((float)mid, lattice_offset), shift, cells) >=
        sign * cell)
      above = mid;
    else
      below = mid;
  }
  return above;
}

/* The samples k_first .. k_last of a clipped ray (cvr_ray_clip, texel
 * coordinates) that brick `brick` of a grid of cells[3] bricks of 2^shift
 * texels owns: [*k0, *k1]; returns whether there is any. */
CVR_HD int cvr_brick_samples(const cvr_ray *ray, float lattice_offset, int shift,
                             const int cells[3], const int brick[3], int *k0, int *k1) {
  int lo = ray->k_first, hi = ray->k_last;
  for (int a = 0; a < 3 && lo <= hi; ++a) {
    const float s = ray->step[a];
    const int b = brick[a];
    if (!(s != 0.0f)) { /* the cell never changes along the ray */
      if (cvr_brick_cell_at(ray, a, CVR_ADD((float)lo, lattice_offset), shift, cells[a]) != b) return 0;
      continue;
    }
    const int sign = s > 0.0f ? 1 : -1;
    /* where the position crosses the brick's faces (texel b B + 0.5 starts
     * cell b): the guesses */
    const float o = ray->origin[a];
    const float face_in = (float)((sign > 0 ? b : b + 1) << shift) + 0.5f;
    const float face_out = (float)((sign > 0 ? b + 1 : b) << shift) + 0.5f;
    const float g0 = CVR_SUB(CVR_DIV(CVR_SUB(face_in, o), s), lattice_offset);
    const float g1 = CVR_SUB(CVR_DIV(CVR_SUB(face_out, o), s), lattice_offset);
    const int first = cvr_brick_first_k(ray, lattice_offset, a, shift, cells[a], sign, b, lo, hi,
                                        ceilf(g0));
    const int past = cvr_brick_first_k(ray, lattice_offset, a, shift, cells[a], sign, b + sign,
                                       first, hi, ceilf(g1));
    lo = first;
    hi = past - 1;
  }
  *k0 = lo;
  *k1 = hi;
  return lo <= hi;
}

/* What a ray has gathered when it leaves a brick, all the next one needs to
 * go on as if the volume were one: its colour (compositing, isosurfaces,
 * slices), the first visible sample, its iso interval, a projection's
 * extreme or sum, and its counts. */
typedef struct cvr_ray_state {
  cvr_rgba color;
  float t_hit;     /* lattice parameter of the first visible sample; -1: none yet */
  int interval;    /* ISOSURFACE (cvr_iso_take); -1 before the first sample */
  float t_stop;    /* where early termination stopped the ray; -1: it did not */
  cvr_blend_state blend; /* MAXIMUM .. ADDITIVE */
  unsigned samples, skipped; /* taken, and stepped over as empty */
} cvr_ray_state;

CVR_HD void cvr_ray_state_init(const cvr_ray_params *p, cvr_ray_state *st) {
  st->color.r = st->color.g = st->color.b = st->color.a = 0.0f;
  st->t_hit = -1.0f;
  st->interval = -1;
  st->t_stop = -1.0f;
  cvr_blend_init(p, &st->blend);
  st->samples = st->skipped = 0;
}

/* Whether the ray's later bricks can change nothing (early termination). */
CVR_HD int cvr_ray_state_done(const cvr_ray_params *p, const cvr_ray_state *st) {
  return (p->blend == CVR_BLEND_COMPOSITE || p->blend == CVR_BLEND_ISOSURFACE) &&
         cvr_ray_done(p, &st->color);
}

#endif /* CVR_RAY_BRICKS_H */
