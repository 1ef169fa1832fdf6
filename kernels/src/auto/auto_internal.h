// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Strategy AUTO inside the library: the tuner's state (a context's tables,
 * kernels loaded, the frame before) and the helpers auto.c shares with
 * auto_toward.c, warp marching's turn by view. Not exported. */
#ifndef CVR_AUTO_INTERNAL_H
#define CVR_AUTO_INTERNAL_H

#include "kernel_preload.h"
#include "tuner.h"

/* The kernel instances a frame's features select (kernel_instance in auto.c):
 * the volume's stored type, the table's memory layout, shading, blend mode
 * and gradients. */
typedef struct cvr_kernel_instance {
  int stored_type, layout, shading, blend, gradients;
} cvr_kernel_instance;

/* The kernel a candidate runs, whatever block or warp shape it launches
 * with (kernel_family in auto.c): its strategy (the standard one for the
 * block-shape choice; -1: the rotation kernel), whether with ray segments
 * (the split kernel), and a slab kernel's depth and border. */
typedef struct cvr_kernel_family {
  int strategy, split, slab_depth, slab_gathered;
} cvr_kernel_family;

#define MAX_TABLES 8
#define MAX_WARM 256
#define MAX_PRELOADS 8

typedef struct cvr_tuner {
  cvr_tuning_table tables[MAX_TABLES];
  int table_count;
  unsigned long long clock;
  char dir[1024];
  char device[160];  /* the tables' device part of the key, found once */
  char warning[512]; /* the last cache-file problem */
  /* kernels that have run in this context: the first launch of a kernel
   * loads it (CUDA's lazy loading), which would count against it */
  struct {
    cvr_kernel_instance instance;
    cvr_kernel_family family;
  } warm[MAX_WARM];
  int warm_count;
  /* the same loads made ahead on a helper thread, per kernel set: stored
   * type, layout, shading and composite or not (kernel_preload.h) */
  struct {
    cvr_kernel_instance instance;
    cvr_kernel_preload *loader;
    int count; /* its configs: their kernel_family in launch order */
    cvr_kernel_family families[CVR_PRELOAD_MAX_CONFIGS];
  } preloads[MAX_PRELOADS];
  int preload_count;
  /* the last AUTO frame, when it rendered its class's best unturned: the
   * reference the next frame's candidate is measured against */
  const cvr_tuning_table *reference_table;
  int reference_class;
  double reference_ms; /* its kernel time */
  /* it was rendered for the measurement the budget allowed then (a frame of
   * the best in place of a cell's faster choice, paid for): that
   * measurement follows whatever its cost did to the budget */
  int reference_paid;
  /* an AUTO frame's wall time beyond its kernel, the last without a turn:
   * what a turn took is a turning frame's beyond that */
  double frame_overhead_ms;
  /* the last quiet frame that rendered its class's best, or the cell's
   * choice of known ratio to it: the best's kernel time there, which the
   * next reference must agree with (cvr_tuning_steady) */
  const cvr_tuning_table *steady_table;
  int steady_class;
  unsigned long long steady_frame;
  double steady_ms;
  unsigned long long frames; /* AUTO frames so far */
  /* CVR_DEBUG_ROTATION=1 in the environment: each rotation trial's times to
   * stderr (the turned frame's two renders, the reference, the decision),
   * and while undecided, at each trial view, what a trial there waits for */
  int debug_rotation;
  /* this frame's slot of warp marching's turn (tuner.h, cvr_tuning_toward;
   * NULL: none), and whether the frame renders turned toward the rays: then
   * the copy holds the order the turn left (concrete) */
  cvr_tuning_toward *toward;
  int hold_order;
  int last_toward; /* the frame before rendered turned toward the rays */
  int toward_tried; /* this frame was a trial of the turn */
} cvr_tuner;

/* The hysteresis that keeps the copy padded (as any policy but NEVER) but
 * never turns it. */
#define ROTATION_HOLD 45.0

/* auto.c */
/* Writes table t to the cache directory (a problem: the tuner's warning). */
void cvr_auto_save(cvr_context *ctx, const cvr_tuning_table *t);
/* The caller's settings with candidate i of class c and the table's layout
 * and rotation (held where the frame renders turned toward the rays). */
cvr_render_settings cvr_auto_concrete(const cvr_context *ctx, const cvr_tuning_table *t,
                                      const cvr_tuning_class *c, int i,
                                      const cvr_render_settings *s);
/* A frame's cost: nanoseconds a volume sample of its kernel time. */
double cvr_auto_cost_of(const cvr_render_stats *st);
/* The device copy's voxel order (as cvr_render_stats.volume_axes). */
void cvr_auto_copy_order(const cvr_volume *volume, int order[3]);
/* The view's class as the kernels see it: in the device copy's voxel
 * order, or (order not NULL) in that order; dir, roll, own_dir as auto.c
 * says. */
cvr_status cvr_auto_view_class_of(cvr_context *ctx, const cvr_volume *volume, const cvr_view *view,
                                  const cvr_render_settings *s, const int *order, int *out,
                                  float dir[3], int *roll, float own_dir[3]);
/* repeats + 1 frames of one configuration, the first a warm-up: the mean
 * kernel time of the others (0: it could not run). */
cvr_status cvr_auto_measure(cvr_context *ctx, const cvr_volume *volume,
                            const cvr_transfer_function *tf, const cvr_view *view,
                            const cvr_render_settings *run, int repeats, const cvr_image *image,
                            double *ms, unsigned long long *samples);
/* Every candidate of class k at this view, measured afresh (cvr_tune_now). */
cvr_status cvr_auto_sweep_class(cvr_context *ctx, cvr_tuning_table *t, int k, const float dir[3],
                                int roll, const cvr_volume *volume,
                                const cvr_transfer_function *tf, const cvr_view *view,
                                const cvr_render_settings *s, const cvr_image *image,
                                cvr_progress_callback progress, void *user, int *step, int steps,
                                int *stopped, double *scale);

/* Turns the copy to voxel order `order` (padded, never turned by the
 * frames' policy: ROTATION_HOLD); *ms: the wall time it took (may be NULL). */
cvr_status cvr_auto_turn_copy_to(cvr_context *ctx, cvr_tuning_table *t, const cvr_volume *volume,
                                 const cvr_render_settings *s, const int order[3], double *ms);

/* auto_toward.c: warp marching's turn by view (tuner.h, cvr_tuning_toward) */
cvr_tuning_toward *cvr_auto_toward_slot(cvr_context *ctx, cvr_tuning_table *t,
                                        const cvr_volume *volume, const cvr_view *view,
                                        const cvr_render_settings *s);
int cvr_auto_toward_any(const cvr_tuning_table *t);
int cvr_auto_toward_target(const cvr_volume *volume, const float dir[3],
                           const cvr_render_settings *s, int target[3]);
cvr_status cvr_auto_toward_trial(cvr_context *ctx, cvr_tuning_table *t, int k,
                                 const cvr_volume *volume, const cvr_transfer_function *tf,
                                 const cvr_view *view, const cvr_render_settings *s,
                                 const cvr_image *image, double reference_ms, int paid,
                                 cvr_render_stats *local, int *tried);
int cvr_auto_toward_waits(cvr_context *ctx, cvr_tuning_table *t, int k, const cvr_volume *volume,
                          const cvr_view *view, const cvr_render_settings *s, const float dir[3]);
cvr_status cvr_auto_decide_toward(cvr_context *ctx, cvr_tuning_table *t, int k, const float dir[3],
                                  int roll, const cvr_volume *volume,
                                  const cvr_transfer_function *tf, const cvr_view *view,
                                  const cvr_render_settings *s, const cvr_image *image);

#endif
