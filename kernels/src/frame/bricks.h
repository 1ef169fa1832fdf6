// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Bricked volumes: a volume larger than the context's memory budget
 * (cvr_context_options.memory_budget) is rendered brick by brick from a
 * cache of brick copies that the budget holds. This is the part every
 * backend shares: the grid, which bricks a frame draws and in what order,
 * which copies the cache keeps, and the statistics. A backend supplies how
 * a brick is copied into a cache slot and how the rays through it march
 * (cvr_brick_ops); the per-ray rules are in ray_bricks.h. */
#ifndef CVR_BRICKS_H
#define CVR_BRICKS_H

#include "cvr_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cvr_bricks {
  int shift;           /* bricks of 2^shift texels a side (cvr.h: brick_size) */
  int cells[3];        /* bricks per axis */
  int count;
  size_t slot_bytes;   /* the largest brick's copy, apron included */
  int slot_count;      /* copies the budget holds */
  int *slot_of;        /* per brick: the slot holding its copy, -1 */
  int *brick_in;       /* per slot: the brick it holds, -1 */
  unsigned long long *drawn_at; /* per slot: the frame that last drew it */
  unsigned long long frames;
  void *host_slots;    /* the CPU backend's cache: slot_count * slot_bytes */
  void *device_slots;  /* the CUDA backend's (bricks.cu) */
} cvr_bricks;

/* The texels brick b (its grid coordinates) keeps: base .. base + dims - 1
 * per axis, its own cells and the apron (ray_bricks.h). Every copy has the
 * same dims (the last bricks' reach further in), so that a texture of a
 * copy clamps where the volume's edges are, as the volume's would. */
void cvr_brick_box(const cvr_bricks *g, const int volume_dims[3], const int b[3], int base[3],
                   int dims[3]);

/* The bytes of volume data the context keeps for rendering: its
 * memory_budget, or on the CUDA backend without one the device's free
 * memory less a margin for the frames' buffers; 0: no bound (CPU). */
size_t cvr_bricks_budget(cvr_context *ctx);

/* The budget a new volume is held against (cvr_bricks_budget, found once:
 * the device's free memory falls as the volume is copied there), and
 * whether the volume is bricked under it: decided before its copy is made,
 * since a bricked volume is kept in host memory, on every backend. */
size_t cvr_bricks_budget_for(cvr_context *ctx, const cvr_volume *volume, int *bricked);
/* The volume's grid and cache under that budget (volume->bricks). Fails
 * where the budget cannot hold one brick. */
cvr_status cvr_bricks_create(cvr_context *ctx, cvr_volume *volume, size_t budget);
void cvr_bricks_destroy(cvr_volume *volume);
/* Empties the cache (the volume's voxels changed). */
void cvr_bricks_forget(cvr_volume *volume);

/* Why a frame cannot render from bricks (a message), or NULL. */
const char *cvr_bricks_unsupported(const cvr_volume *volume, const cvr_frame *frame);

/* A brick a frame draws: where its copy is and whether the frame copies it
 * there first, its grid coordinates, its texels (cvr_brick_box) and the
 * pixels whose rays may take samples it owns (x0, y0, x1, y1; x1 and y1
 * past the end). skip: every ray through it stopped in front (rays_done),
 * so it is neither loaded nor drawn, though its batch is. */
typedef struct cvr_brick_draw {
  int slot, load, skip;
  int batch; /* the frame's batches (the draw callback's), counted from 0 */
  int brick[3];
  int base[3], dims[3];
  int rect[4];
} cvr_brick_draw;

/* What a backend does for a bricked frame, called in this order: plan
 * once, then for each batch the loads of its bricks and its draw. */
typedef struct cvr_brick_ops {
  void *self;
  /* the frame's draws, front to back, before any is loaded or drawn */
  cvr_status (*plan)(void *self, const cvr_brick_draw *draws, int count);
  /* copies draw->base .. base + dims - 1 of the volume into draw->slot */
  cvr_status (*load)(void *self, const cvr_brick_draw *draw);
  /* marches the rays of draws[first .. first + count - 1], each over the
   * samples its brick owns: bricks at one distance in the frame's order,
   * which share no ray (so they may run at once), their copies loaded
   * (those marked skip are not: their rays have all stopped) */
  cvr_status (*draw)(void *self, const cvr_brick_draw *draws, int first, int count);
  /* optional, asked of a batch's draws (after the first batch) before their
   * loads where rays can stop early: whether every ray that takes samples
   * in the draw's brick has stopped in front of it (early termination; a
   * backend that knows only of earlier batches says 0 where unsure) */
  int (*rays_done)(void *self, const cvr_brick_draw *draw);
} cvr_brick_ops;

/* Draws a frame's bricks front to back (the order every ray meets them
 * in), skipping those whose cells empty-space skipping finds empty
 * (frame->ray.skip_empty, when set), those no pixel sees, those behind
 * opaque geometry and those whose rays have all stopped, in batches of
 * the bricks at one distance that the cache holds at once; each brick's
 * copy is loaded into the cache first where it is not there. A full cache
 * gives up the copy this frame needs latest (first the copies it does not
 * need, the least recently drawn of those). Adds to stats' brick fields. */
cvr_status cvr_bricks_draw_frame(cvr_context *ctx, const cvr_volume *volume,
                                 const cvr_frame *frame, const cvr_brick_ops *ops,
                                 cvr_render_stats *stats);

#ifdef __cplusplus
}
#endif

#endif
