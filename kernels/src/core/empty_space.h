// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Empty-space skipping's macro-cell grid (raycast.h, cvr_skip_empty_at): the
 * value range of every cell of one copy of a volume, built once, and which
 * cells the frame's transfer function leaves empty, found again when the
 * table changes. The CPU backend keeps its grid in host memory
 * (empty_space.c), the CUDA backend the same on the device for the stored
 * copy (empty_space.cu). */
#ifndef CVR_EMPTY_SPACE_H
#define CVR_EMPTY_SPACE_H

#include "cvr.h"
#include "raycast.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cvr_skip_grid {
  int shift;            /* cells of 2^shift texels a side; 0: none built */
  int cells[3];
  float *range;         /* lo, hi per cell, x fastest (NaN inside: lo = -inf) */
  unsigned char *empty; /* per cell: 1 where the table below gives no opacity */
  /* whether any cell is empty: where none is, a frame skips nothing and
   * renders without looking (the strategies' leaner instances, CUDA) */
  int any_empty;
  /* the table the flags were found for */
  int flags_valid;
  unsigned long long tf_version;
  float sample_distance, tf_scale, tf_bias;
  int blend;
  int mask; /* label functions count (cvr_ray_params.mask) */
  /* the flags' generation, unique in the process: a copy of them elsewhere
   * (the CUDA backend's of a bricked volume) is current while it matches */
  unsigned long long generation;
} cvr_skip_grid;

/* Cells per axis for a volume of dims texels. */
void cvr_skip_grid_cells(const int dims[3], int shift, int cells[3]);
size_t cvr_skip_grid_count(const cvr_skip_grid *g);

/* visible_prefix[i] = entries below i of the table with non-zero opacity
 * (size + 1 values), what cvr_skip_range_empty reads. */
void cvr_skip_visible_prefix(const cvr_rgba *table, int size, int *visible_prefix);

/* Whether the grid's flags were found for this frame's table; records it. */
int cvr_skip_flags_current(cvr_skip_grid *g, const cvr_transfer_function *tf,
                           const cvr_ray_params *p);

/* The shift of empty_space_cell, or 0 where the frame does not skip
 * (COMPOSITE only: the projections and isosurfaces see every sample). */
int cvr_skip_shift_for(const cvr_render_settings *s);

#ifdef __cplusplus
}
#endif

#endif
