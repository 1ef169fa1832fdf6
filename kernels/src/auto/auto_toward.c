// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Warp marching's turn by view in strategy AUTO (tuner.h, cvr_tuning_toward):
 * where a view's frames turn the device copy toward the rays, the trials
 * that decide it online and cvr_tune_now's measurement. auto.c renders the
 * frames. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "auto_internal.h"
#include "cuda_backend.h"

/* The view's slot of warp marching's turn (cvr_tuning_toward): its class
 * and roll band in the volume's own voxel order. NULL where the copy does
 * not turn (the CPU, several components) or warp marching is no candidate
 * (it composites only). */
cvr_tuning_toward *cvr_auto_toward_slot(cvr_context *ctx, cvr_tuning_table *t,
                                      const cvr_volume *volume, const cvr_view *view,
                                      const cvr_render_settings *s) {
  static const int own[3] = {1, 2, 3};
  int k = 0, roll = 0;
  if (ctx->backend != CVR_BACKEND_CUDA || volume->components > 1 ||
      s->blend_mode != CVR_BLEND_COMPOSITE ||
      cvr_auto_view_class_of(ctx, volume, view, s, own, &k, NULL, &roll, NULL) != CVR_OK)
    return NULL;
  return &t->toward[k][roll];
}

/* Whether a view of table t renders turned toward the rays. */
int cvr_auto_toward_any(const cvr_tuning_table *t) {
  for (int k = 0; k < CVR_TUNING_CLASSES; ++k)
    for (int r = 0; r < CVR_TUNING_ROLL_BINS; ++r)
      if (t->toward[k][r].decision == 1) return 1;
  return 0;
}

/* Where warp marching's turn (cvr_rotation_turn's along_rays, with the
 * settings' hysteresis) takes the copy at a view along dir (the copy's
 * index space): 1 and the voxel order it turns to, or 0 where it stays. */
int cvr_auto_toward_target(const cvr_volume *volume, const float dir[3],
                         const cvr_render_settings *s, int target[3]) {
  int fallback = 2;
  const int partners = cvr_cuda_volume_partners(volume, &fallback);
  const int partner = cvr_rotation_turn(dir, partners, fallback, CVR_ROTATION_HYSTERESIS,
                                        s->rotation_hysteresis, 1);
  if (!partner) return 0;
  cvr_auto_copy_order(volume, target);
  cvr_rotation_turn_order(target, partner);
  return 1;
}

/* The candidate a trial of warp marching's turn renders in class c (the
 * turned view's): the view's choice once c has converged, else its warp
 * marching of least mean, by c's measurements or else by those of class
 * `away` (the unturned view's), else its first warp marching. -1: none. */
static int cvr_auto_toward_candidate(const cvr_tuning_class *c, const cvr_tuning_class *away,
                            const cvr_tuning_view_cells *cells, int repeats) {
  if (cvr_tuning_next(c, repeats) < 0) return cvr_tuning_view_choice(cells, c, repeats);
  int pick = -1, first = -1;
  double pick_mean = INFINITY;
  for (int i = 0; i < c->count; ++i) {
    if (c->candidates[i].strategy != CVR_STRATEGY_WARP_MARCHING || c->dropped[i]) continue;
    if (first < 0) first = i;
    double mean = c->measured[i] > 0 ? cvr_tuning_mean(c, i) : INFINITY;
    for (int j = 0; j < away->count && !(mean < INFINITY); ++j)
      if (away->measured[j] > 0 && !strcmp(away->names[j], c->names[i]))
        mean = 1e6 + cvr_tuning_mean(away, j); /* (after any of c's own) */
    if (mean < pick_mean) {
      pick_mean = mean;
      pick = i;
    }
  }
  return pick >= 0 ? pick : first;
}

/* Trials of warp marching's turn are for volumes of at least this many
 * times the L2 cache: Wang et al.'s favourable views save memory traffic;
 * the turns and their trials are dear next to the frames of a volume the
 * L2 mostly holds (a trial took some 1000 frames of the 1% budget on
 * bonsai, 256^3), and at the H100's 1024^3 views about z (20x its L2) the
 * standard kernel ran faster than warp marching turned, at 2048^3 (160x)
 * slower. */
#define TOWARD_L2_MULTIPLE 8
/* How much slower than the unturned view's class the turned view's may be
 * measured elsewhere for a trial still to be worth its turns: class costs
 * are in nanoseconds a sample of their first views, a rough comparison
 * across classes. */
#define TOWARD_PRIOR 1.1

/* Whether a trial of warp marching's turn may pay at a view of class k
 * (unturned) that the turn takes to class u: a volume of at least
 * TOWARD_L2_MULTIPLE times the L2, and where both classes have converged,
 * u measured at most TOWARD_PRIOR times k's cost. */
static int cvr_auto_toward_promising(const cvr_context *ctx, const cvr_volume *volume,
                            const cvr_tuning_class *k, const cvr_tuning_class *u, int repeats) {
  const double bytes = (double)volume->dims[0] * volume->dims[1] * volume->dims[2] *
                       (double)cvr_scalar_type_size(volume->stored_type);
  if (!(ctx->l2_bytes > 0 && bytes >= (double)TOWARD_L2_MULTIPLE * (double)ctx->l2_bytes))
    return 0;
  return cvr_tuning_next(k, repeats) >= 0 || cvr_tuning_next(u, repeats) >= 0 ||
         cvr_tuning_mean(u, u->best) <= TOWARD_PRIOR * cvr_tuning_mean(k, k->best);
}

/* A trial of warp marching's turn (tuner.h, cvr_tuning_toward), once the
 * view's class has converged and its slot has not decided: the copy turns
 * toward the rays, the frame renders twice with the turned view's
 * candidate (toward_candidate), and the second is measured against the
 * class's best unturned at the frame before. Not decided toward, the copy
 * turns back. The turned class's first measurement, when it has none, is
 * the candidate's (its scale). Counts against the budget, the turns
 * included. *tried as rotation_trial's. */
cvr_status cvr_auto_toward_trial(cvr_context *ctx, cvr_tuning_table *t, int k,
                               const cvr_volume *volume, const cvr_transfer_function *tf,
                               const cvr_view *view, const cvr_render_settings *s,
                               const cvr_image *image, double reference_ms, int paid,
                               cvr_render_stats *local, int *tried) {
  cvr_tuner *tu = ctx->tuner;
  cvr_tuning_toward *w = tu->toward;
  *tried = 0;
  if (!w || w->decision != 0 || tu->hold_order ||
      (!paid && !cvr_tuning_budget_allows(&t->budget, 0, s->tuning_budget)))
    return CVR_OK;
  float dir[3], turned_dir[3];
  int roll = 0, target[3], turned = 0, turned_roll = 0;
  cvr_status st = cvr_auto_view_class_of(ctx, volume, view, s, NULL, &k, dir, &roll, NULL);
  if (st != CVR_OK || !cvr_auto_toward_target(volume, dir, s, target)) return st;
  if ((st = cvr_auto_view_class_of(ctx, volume, view, s, target, &turned, turned_dir, &turned_roll,
                          NULL)) != CVR_OK)
    return st;
  cvr_tuning_class *c = &t->classes[turned];
  if (!cvr_auto_toward_promising(ctx, volume, &t->classes[k], c, s->tuning_repeats)) return CVR_OK;
  cvr_tuning_view_cells cells;
  cvr_tuning_cells_at(t, turned, turned_dir, turned_roll, 0, &cells);
  const int i = cvr_auto_toward_candidate(c, &t->classes[k], &cells, s->tuning_repeats);
  if (i < 0) return CVR_OK;
  if (!(reference_ms > 0.0)) {
    *tried = -1;
    return CVR_OK;
  }
  int before[3];
  cvr_auto_copy_order(volume, before);
  double turn_ms = 0.0, back_ms = 0.0;
  if ((st = cvr_auto_turn_copy_to(ctx, t, volume, s, target, &turn_ms)) != CVR_OK) return st;
  tu->hold_order = 1;
  const cvr_render_settings run = cvr_auto_concrete(ctx, t, c, i, s);
  tu->hold_order = 0;
  cvr_render_stats again = {0};
  if ((st = cvr_render_frame(ctx, volume, tf, view, &run, image, local)) != CVR_OK ||
      (st = cvr_render_frame(ctx, volume, tf, view, &run, image, &again)) != CVR_OK)
    return st;
  *tried = 1;
  tu->toward_tried = 1;
  const double frame_ms = local->kernel_ms;
  local->kernel_ms += again.kernel_ms;
  local->total_ms += again.total_ms;
  const int measured = local->rotations == 0 && again.rotations == 0 && again.kernel_ms > 0.0;
  const double ratio = measured ? again.kernel_ms / reference_ms : 0.0;
  const int decided = measured && cvr_tuning_toward_record(w, ratio);
  if (decided && ctx->debug.auto_toward) {
    w->decision = (signed char)ctx->debug.auto_toward;
    w->ratio = w->decision == 1 ? fminf(0.99f, w->ratio) : 0.0f;
  }
  int measured_any = 0;
  for (int j = 0; j < c->count; ++j) measured_any |= c->measured[j] > 0;
  if (measured && !measured_any) cvr_tuning_record(c, i, cvr_auto_cost_of(&again), s->tuning_prune);
  if (w->decision != 1 && (st = cvr_auto_turn_copy_to(ctx, t, volume, s, before, &back_ms)) != CVR_OK)
    return st;
  cvr_tuning_budget_frame(&t->budget, frame_ms, 0,
                          turn_ms + back_ms + frame_ms + fmax(0.0, again.kernel_ms - reference_ms));
  if (tu->debug_rotation)
    fprintf(stderr, "cvr toward trial %d (%s): turn %.3f ms, frames %.4f then %.4f ms, "
            "reference %.4f ms, ratio %.4f%s\n", w->trials, c->names[i], turn_ms, frame_ms,
            again.kernel_ms, reference_ms, ratio,
            decided ? (w->decision == 1 ? ": toward" : ": not") : "");
  if (decided) cvr_auto_save(ctx, t);
  return CVR_OK;
}

/* Whether a trial of warp marching's turn waits for the view: its slot has
 * not decided, the turn would take the copy elsewhere, and a trial may pay
 * (toward_promising). k, dir: the view's class and direction in the order
 * its next frame renders in. */
int cvr_auto_toward_waits(cvr_context *ctx, cvr_tuning_table *t, int k, const cvr_volume *volume,
                        const cvr_view *view, const cvr_render_settings *s, const float dir[3]) {
  const cvr_tuning_toward *w = cvr_auto_toward_slot(ctx, t, volume, view, s);
  int target[3], u = 0;
  return w && w->decision == 0 && cvr_auto_toward_target(volume, dir, s, target) &&
         cvr_auto_view_class_of(ctx, volume, view, s, target, &u, NULL, NULL, NULL) == CVR_OK &&
         cvr_auto_toward_promising(ctx, volume, &t->classes[k], &t->classes[u], s->tuning_repeats);
}

/* cvr_tune_now's warp-marching turn (tuner.h, cvr_tuning_toward): the
 * view's choice as its frames render it now (class k, view along dir in the
 * copy's order) against the copy turned toward the rays, the turned view's
 * class swept there where it has not converged; toward if that is
 * CVR_TUNING_ROTATION_GAIN faster. The copy is left in the order the view's
 * frames render in. */
cvr_status cvr_auto_decide_toward(cvr_context *ctx, cvr_tuning_table *t, int k, const float dir[3],
                                int roll, const cvr_volume *volume,
                                const cvr_transfer_function *tf, const cvr_view *view,
                                const cvr_render_settings *s, const cvr_image *image) {
  cvr_tuning_toward *w = cvr_auto_toward_slot(ctx, t, volume, view, s);
  int target[3], before[3];
  if (!w || !cvr_auto_toward_target(volume, dir, s, target)) return CVR_OK;
  cvr_auto_copy_order(volume, before);
  cvr_tuning_view_cells cells;
  cvr_tuning_cells_at(t, k, dir, roll, 0, &cells);
  const cvr_tuning_class *c = &t->classes[k];
  double away_ms = 0.0, toward_ms = 0.0;
  unsigned long long samples = 0;
  ctx->tuner->hold_order = 1; /* (every frame below in the order the copy is in) */
  cvr_render_settings run = cvr_auto_concrete(ctx, t, c, cvr_tuning_view_choice(&cells, c, s->tuning_repeats), s);
  cvr_status st = cvr_auto_measure(ctx, volume, tf, view, &run, s->tuning_repeats, image, &away_ms, &samples);
  if (st == CVR_OK) st = cvr_auto_turn_copy_to(ctx, t, volume, s, target, NULL);
  int turned = 0, turned_roll = 0, step = 0, stopped = 0;
  float turned_dir[3];
  double scale = 0.0;
  if (st == CVR_OK)
    st = cvr_auto_view_class_of(ctx, volume, view, s, NULL, &turned, turned_dir, &turned_roll, NULL);
  if (st == CVR_OK) cvr_tuning_cells_at(t, turned, turned_dir, turned_roll, 0, &cells);
  const cvr_tuning_class *u = &t->classes[turned];
  if (st == CVR_OK && (cvr_tuning_next(u, s->tuning_repeats) >= 0 ||
                       cvr_tuning_cell_next(cells.own, u, s->tuning_repeats) >= 0))
    st = cvr_auto_sweep_class(ctx, t, turned, turned_dir, turned_roll, volume, tf, view, s, image, NULL,
                     NULL, &step, 1, &stopped, &scale);
  if (st == CVR_OK) {
    cvr_tuning_cells_at(t, turned, turned_dir, turned_roll, 0, &cells);
    run = cvr_auto_concrete(ctx, t, u, cvr_tuning_view_choice(&cells, u, s->tuning_repeats), s);
    st = cvr_auto_measure(ctx, volume, tf, view, &run, s->tuning_repeats, image, &toward_ms, &samples);
  }
  ctx->tuner->hold_order = 0;
  if (st != CVR_OK) return st;
  memset(w, 0, sizeof *w);
  w->decision = away_ms > 0.0 && toward_ms > 0.0 &&
                        toward_ms <= (1.0 - CVR_TUNING_ROTATION_GAIN) * away_ms
                    ? 1
                    : -1;
  if (ctx->debug.auto_toward) w->decision = (signed char)ctx->debug.auto_toward;
  w->ratio = w->decision == 1 ? (float)fmin(0.99, fmax(0.01, toward_ms / away_ms)) : 0.0f;
  if (ctx->tuner->debug_rotation)
    fprintf(stderr, "cvr toward (cvr_tune_now): %.4f ms turned, %.4f ms not: %s\n", toward_ms,
            away_ms, w->decision == 1 ? "toward" : "not");
  return w->decision == 1 ? CVR_OK : cvr_auto_turn_copy_to(ctx, t, volume, s, before, NULL);
}

