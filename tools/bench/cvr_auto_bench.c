// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Strategy AUTO against the per-view oracle and the standard strategy, over
 * a 360-frame orbit (one frame per degree, as an interactive rotation):
 *  - cold: AUTO from an empty table, one frame per view, wall time per frame
 *    (what the user waits for, tuning and kernel loading included);
 *  - then the same orbit until the class of every view has converged or ten
 *    (--settle-idle) orbits in a row measured nothing (AUTO measures within
 *    its budget, --budget, the settings' tuning_budget: it may take several
 *    orbits; at most 40), one summary line each;
 *  - warm: the same orbit again, converged;
 *  - at every --oracle-step degrees: AUTO (converged), the standard strategy
 *    16 x 16 and every candidate AUTO knows (of every view class: the
 *    oracle searches the whole space, AUTO only its class's pruned share),
 *    without and (CUDA) with in-place rotation, each warmed up once and
 *    timed --repeats times (median kernel time);
 *  - then at each of those views AUTO's choice and the sweep's three best
 *    again, interleaved, --confirm rounds (31; confirm(): the sweep's least of
 *    some 28 noisy medians is partly luck), for a second comparison
 *    ("confirmed") and what a frame after another configuration costs
 *    over a steady one (switch_over_steady);
 *  - with --replicate, a second sweep as the first, after it: its best at
 *    each view is confirmed with the others ("replicate"), and every
 *    confirmed ratio is then to the least of them all. The replicate is an
 *    exhaustive search of its own: how often it lands within 5% of the
 *    confirmed best is what the oracle's own noise allows any search;
 *  - last, the cold orbit and the warm one rendered again as they were,
 *    alternating, --replay rounds (replay(): first_orbit_paired, what the
 *    first orbit's choices cost over the warm ones, timed back to back).
 * Before the cold pass, one frame of the standard strategy (reported as
 * first_frame_ms): what any strategy's first frame in a context pays (the
 * volume's and table's uploads, the standard kernel's loading), so that
 * cold minus warm is what tuning costs.
 * Tuning's cost is cold minus warm, as a share of warm (everything the
 * first orbit lost: measuring, and rendering with what was not yet known
 * to be slower); of it, what measuring cost (measuring_share: the frames
 * that measured a candidate, over the frame before's kernel time). Volumes: the
 * micro-benchmark's random uint8 cube (--micro N: parallel views about y,
 * or the axis --micro-axis x|y|z names,
 * 512 samples per ray, no early termination) or a real NIfTI volume
 * (--volume FILE --lo A --hi B [--resample AxBxC]: perspective orbit, early
 * termination, opacity ramp). JSON lines, then a summary line; each orbit
 * frame also says the frame before's kernel time (before_ms: what a
 * measured frame was compared with). --tables DIR keeps AUTO's tables (its
 * cache files) in a new directory. --cache DIR starts AUTO from the tables
 * an earlier run kept there instead (and updates them): the cold pass is
 * then a later session's first orbit, whose excess over the warm one is
 * what a first orbit costs beside tuning (the GPU's state after a context
 * is made, kernels loaded on first use) and what the cells still measure. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cvr_commit.h"
#include "cvr_tools.h"
#include "tuner.h"

#define FRAMES 360
#define MAX_CONFIGS 48
#define MAX_ORBITS 40

typedef struct scene {
  cvr_volume *volume;
  cvr_transfer_function *tf;
  double center[3], radius;
  int micro, n, rays;
  int micro_axis; /* the axis the micro-benchmark's views turn about (1: y) */
  cvr_render_settings base;
  char name[128];
} scene;

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static void view_at(const scene *sc, int azimuth, cvr_view *view) {
  if (!sc->micro) {
    cvr_tools_orbit_view(sc->center, sc->radius, azimuth, 20.0, CVR_PROJECTION_PERSPECTIVE,
                         sc->rays, sc->rays, view);
    return;
  }
  cvr_view_init(view);
  double look[16], proj[16];
  const double eye[3] = {sc->center[0], sc->center[1], sc->center[2] + 2.0 * sc->n};
  const double up[3] = {0, 1, 0};
  cvr_tools_look_at(eye, sc->center, up, look);
  cvr_tools_ortho(0.5 * sc->n, 0.5 * sc->n, 0.1, 4.0 * sc->n, proj);
  cvr_tools_multiply(proj, look, view->world_to_clip);
  view->width = view->height = sc->rays;
  view->projection = CVR_PROJECTION_PARALLEL;
  cvr_tools_rotation_about(sc->micro_axis, azimuth, sc->center, view->volume_to_world);
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* median kernel time of `repeats` frames after one warm-up; 0 on failure */
/* The last timed() call's spread: (max - min) / median of its repeats, what
 * one frame's kernel time varies at a fixed view; and its warm-up frame's
 * kernel time (the first after another configuration, as AUTO's measured
 * frames are). */
static double last_spread = 0.0, last_first_ms = 0.0;

static double timed(cvr_context *ctx, const scene *sc, const cvr_view *view,
                    const cvr_render_settings *s, int repeats, cvr_render_stats *st) {
  const cvr_image none = {NULL, NULL, NULL, NULL};
  double ms[32];
  for (int k = 0; k <= repeats; ++k) {
    if (cvr_render(ctx, sc->volume, sc->tf, view, s, &none, st) != CVR_OK) return 0.0;
    if (k) ms[k - 1] = st->kernel_ms;
    else last_first_ms = st->kernel_ms;
  }
  qsort(ms, (size_t)repeats, sizeof ms[0], cmp_double);
  const double median = ms[repeats / 2];
  last_spread = median > 0.0 ? (ms[repeats - 1] - ms[0]) / median : 0.0;
  return median;
}

/* Turns the device copy to the voxel order `axes` (stats' volume_axes; the
 * volume's own order is 1 2 3) by the fewest quarter turns: every oracle
 * pass starts from the volume's own order, and AUTO's choice is confirmed
 * in the order AUTO rendered it (a copy AUTO turned stays turned after a
 * rotation trial that lost). 0 if not reached. */
static int set_orientation(cvr_context *ctx, const scene *sc, const int axes[3]) {
  cvr_render_settings s = sc->base;
  s.max_samples_per_ray = 1;
  cvr_view view;
  view_at(sc, 0, &view);
  view.width = view.height = 8;
  const cvr_image none = {NULL, NULL, NULL, NULL};
  cvr_render_stats st;
  s.rotation_policy = CVR_ROTATION_NEVER;
  if (cvr_render(ctx, sc->volume, sc->tf, &view, &s, &none, &st) != CVR_OK) return 0;
  if (!memcmp(st.volume_axes, axes, sizeof st.volume_axes)) return 1;
  s.rotation_policy = CVR_ROTATION_ON_REGION_CHANGE; /* what lets the copy turn */
  return cvr_debug_turn_to(sc->volume, &s, axes, NULL, NULL) == CVR_OK;
}

static const int own_order[3] = {1, 2, 3};

static int reset_orientation(cvr_context *ctx, const scene *sc) {
  return set_orientation(ctx, sc, own_order);
}

/* What a frame of an AUTO pass rendered, to render it again (replay()):
 * the candidate, the voxel order, and the turns' kernel time before it. */
typedef struct frame_record {
  int candidate; /* in all_candidates()'s list; -1: none matched */
  int axes[3];
  int tuning;
  double rotation_ms;
} frame_record;

/* Whether cvr_tuning_info's configuration ("name, layout...") is candidate `name`. */
static int configuration_is(const char *configuration, const char *name) {
  const size_t len = strlen(name);
  return !strncmp(configuration, name, len) && (configuration[len] == ',' || !configuration[len]);
}

/* The candidate of `cand` that a frame's stats say ran: strategy and launch
 * shape (the block-shape strategy picks its block per view, as it will
 * again). The CPU's stats hold the tile but not the schedule: where two
 * candidates share a tile, the one AUTO chose for the view after the frame
 * (`chosen`, its cvr_tuning_info.configuration) unless the frame measured,
 * which renders a candidate other than the choice (wrong where what it
 * measured became the choice at once: CPU only, 32x32 tiles). */
static int candidate_of(const cvr_render_stats *st, const cvr_candidate *cand,
                        char names[][CVR_TUNING_NAME_SIZE], int n, const char *chosen) {
  int match = -1;
  for (int i = 0; i < n; ++i) {
    const cvr_candidate *c = &cand[i];
    int same = c->strategy == st->strategy;
    if (same && c->cpu_tile[0] > 0)
      same = st->backend == CVR_BACKEND_CPU && c->cpu_tile[0] == st->block_width &&
             c->cpu_tile[1] == st->block_height;
    else if (same && c->strategy == CVR_STRATEGY_STANDARD)
      same = c->block[0] == st->block_width && c->block[1] == st->block_height &&
             c->ray_segments == st->ray_segments;
    else if (same && c->strategy == CVR_STRATEGY_WARP_MARCHING)
      same = c->warp_width == st->warp_width;
    else if (same && c->strategy == CVR_STRATEGY_SLAB)
      same = c->block[0] == st->block_width && c->block[1] == st->block_height &&
             c->slab_depth == st->slab_depth && c->slab_border == st->slab_border;
    if (!same) continue;
    if (match < 0 || configuration_is(chosen, names[i]) != st->tuning) match = i;
  }
  return match;
}

/* one orbit pass of AUTO, a frame per degree; wall and kernel totals, the
 * frames that measured a candidate, and what measuring cost: each such
 * frame's kernel time over the frame before's (AUTO's own estimate: the
 * frame before rendered the class's best, at a neighbouring view). A line
 * per frame, or (measuring_only) per frame that measured or turned. With
 * record, what each frame rendered (cand: every candidate, n of them). */
static int auto_pass(cvr_context *ctx, const scene *sc, const char *pass, int measuring_only,
                     FILE *out, double *wall_total, double *kernel_total, int *tuning_frames,
                     double *measuring_ms, int *turns, const cvr_candidate *cand,
                     char names[][CVR_TUNING_NAME_SIZE], int n, frame_record *record) {
  const cvr_image none = {NULL, NULL, NULL, NULL};
  cvr_render_settings s = sc->base;
  s.strategy = CVR_STRATEGY_AUTO;
  *wall_total = *kernel_total = *measuring_ms = 0.0;
  *tuning_frames = *turns = 0;
  double before = 0.0; /* the frame before's kernel time */
  for (int az = 0; az < FRAMES; ++az) {
    cvr_view view;
    view_at(sc, az, &view);
    cvr_render_stats st;
    const double t0 = now_ms();
    if (cvr_render(ctx, sc->volume, sc->tf, &view, &s, &none, &st) != CVR_OK) {
      fprintf(stderr, "cvr-auto-bench: %s\n", cvr_last_error(ctx));
      return 0;
    }
    const double wall = now_ms() - t0;
    *wall_total += wall;
    *kernel_total += st.kernel_ms;
    *tuning_frames += st.tuning;
    *turns += st.rotations;
    if (st.tuning && before > 0.0) *measuring_ms += fmax(0.0, st.kernel_ms - before);
    if (record) {
      cvr_tuning_info info;
      if (cvr_tuning_info_for(ctx, sc->volume, &view, &s, &info) != CVR_OK) {
        fprintf(stderr, "cvr-auto-bench: %s\n", cvr_last_error(ctx));
        return 0;
      }
      frame_record *r = &record[az];
      r->candidate = candidate_of(&st, cand, names, n, info.configuration);
      memcpy(r->axes, st.volume_axes, sizeof r->axes);
      r->tuning = st.tuning;
      r->rotation_ms = st.rotation_ms;
    }
    if (!measuring_only || st.tuning || st.rotations)
      fprintf(out,
              "{\"bench\":\"auto_orbit\",\"volume\":\"%s\",\"R\":%d,\"pass\":\"%s\","
              "\"azimuth\":%d,\"view_class\":%d,\"tuning\":%d,\"strategy\":\"%s\","
              "\"block\":\"%dx%d\",\"kernel_ms\":%.4f,\"wall_ms\":%.4f,\"rotations\":%d,"
              "\"rotation_ms\":%.4f,\"axes\":[%d,%d,%d],\"before_ms\":%.4f}\n",
              sc->name, sc->rays, pass, az, st.view_class, st.tuning,
              cvr_strategy_name(st.strategy), st.block_width, st.block_height, st.kernel_ms, wall,
              st.rotations, st.rotation_ms, st.volume_axes[0], st.volume_axes[1],
              st.volume_axes[2], before);
    before = st.kernel_ms;
  }
  return 1;
}

/* Whether the class of any view of the orbit is still tuning. */
static int still_tuning(cvr_context *ctx, const scene *sc) {
  cvr_render_settings s = sc->base;
  s.strategy = CVR_STRATEGY_AUTO;
  for (int az = 0; az < FRAMES; ++az) {
    cvr_view view;
    view_at(sc, az, &view);
    cvr_tuning_info info;
    if (cvr_tuning_info_for(ctx, sc->volume, &view, &s, &info) != CVR_OK || info.tuning) return 1;
  }
  return 0;
}

/* every candidate of every class, once each (by name) */
static int all_candidates(cvr_backend backend, int shaded, cvr_candidate *out,
                          char names[][CVR_TUNING_NAME_SIZE]) {
  int n = 0;
  for (int k = 0; k < CVR_TUNING_CLASSES; ++k) {
    cvr_tuning_class c;
    cvr_tuning_class_init(&c, backend, k, &(cvr_tuning_frames){shaded, CVR_BLEND_COMPOSITE, 0, 0});
    for (int i = 0; i < c.count; ++i) {
      int seen = 0;
      for (int j = 0; j < n && !seen; ++j) seen = !strcmp(names[j], c.names[i]);
      if (!seen && n < MAX_CONFIGS) {
        out[n] = c.candidates[i];
        memcpy(names[n++], c.names[i], CVR_TUNING_NAME_SIZE);
      }
    }
  }
  return n;
}

/* The oracle's sweep keeps the least of some 28 medians of 3 frames taken
 * minutes apart: at a fixed view frames vary by ~7%, so the sweep's winner
 * is partly luck, and a choice within 5% on average misses at some views.
 * Confirmation times AUTO's choice and the sweep's three best again,
 * interleaved at that view: `rounds` rounds, each rendering every one of
 * them twice (the first frame after another configuration, as AUTO's
 * measured frames are; the second steady), medians over rounds. Turned
 * configurations come after the unturned ones in a round, whose volume is
 * first turned back; AUTO's own choice is rendered in the voxel order AUTO
 * rendered it in. */
#define MAX_CONFIRM 5
#define MAX_CONFIRM_ROUNDS 64
typedef struct confirm_config {
  cvr_render_settings settings;
  int rotation;
  int own;          /* AUTO's choice: rendered in the voxel order AUTO had, `order` */
  int order[3];
  char name[CVR_TUNING_NAME_SIZE + 16];
  double steady_ms, switch_ms;
  double steady_rounds[MAX_CONFIRM_ROUNDS]; /* in round order (auto_confirm's steady_rounds) */
  int axes[3];
} confirm_config;

static int median_of(double *v, int n, double *out) {
  qsort(v, (size_t)n, sizeof v[0], cmp_double);
  *out = v[n / 2];
  return n > 0;
}

static int confirm(cvr_context *ctx, const scene *sc, const cvr_view *view, int cuda,
                   confirm_config *cfg, int n, int rounds) {
  const cvr_image none = {NULL, NULL, NULL, NULL};
  double steady[MAX_CONFIRM][MAX_CONFIRM_ROUNDS], first[MAX_CONFIRM][MAX_CONFIRM_ROUNDS];
  for (int r = 0; r < rounds; ++r)
    for (int pass = 0; pass < 2; ++pass)
      for (int j = 0; j < n; ++j) {
        if (cfg[j].rotation != pass) continue;
        if (cuda && cfg[j].own && !set_orientation(ctx, sc, cfg[j].order)) return 0;
        if (cuda && !cfg[j].own && !pass && !reset_orientation(ctx, sc)) return 0;
        cvr_render_stats st;
        for (int k = 0; k < 2; ++k) {
          if (cvr_render(ctx, sc->volume, sc->tf, view, &cfg[j].settings, &none, &st) != CVR_OK)
            return 0;
          (k ? steady : first)[j][r] = st.kernel_ms;
        }
        for (int a = 0; a < 3; ++a) cfg[j].axes[a] = st.volume_axes[a];
      }
  for (int j = 0; j < n; ++j) {
    memcpy(cfg[j].steady_rounds, steady[j], (size_t)rounds * sizeof steady[j][0]);
    median_of(steady[j], rounds, &cfg[j].steady_ms);
    median_of(first[j], rounds, &cfg[j].switch_ms);
  }
  return 1;
}

/* A sweep candidate to confirm, with rotation (pass 1) or without. */
static void add_confirmed(confirm_config *c, const scene *sc, const cvr_candidate *candidate,
                          const char *name, int rotation) {
  c->settings = sc->base;
  cvr_candidate_apply(candidate, &c->settings);
  c->rotation = rotation;
  c->own = 0;
  c->settings.rotation_policy = rotation ? CVR_ROTATION_HYSTERESIS : CVR_ROTATION_NEVER;
  snprintf(c->name, sizeof c->name, "%s", name);
}

/* The first orbit against the warm one, timed again back to back. Every
 * frame of each is rendered as it ran: the same candidate at the same view,
 * in the same voxel order, after the frame it followed (but for a turn's
 * first). The turns: REPLAY_CHUNK frames of one orbit, then the same frames
 * of the other, the one first alternating, `rounds` times over. A third
 * orbit, the warm one's frames in the first one's voxel order (and with its
 * turns), says what the warm orbit's order is worth: a copy a rotation trial
 * turned stays turned when rotation is off.
 * Cold minus warm timed minutes apart also holds what the machine's state
 * did in between: the same configuration at the same view ran from 6%
 * faster to 4.5% slower in the first orbit than in the warm one, one H100
 * run to the next, and whole orbits alternated on a shared CPU still
 * differed by 1-15% round to round
 * (tools/bench/results/2026-11-26-h100-auto-paired). Kernel time only, plus
 * each orbit's turns as they took: loading kernels and AUTO's bookkeeping on
 * the host are in the wall times. Sums per round: [0] cold, [1] warm, [2]
 * warm in the cold order; and the cold frames' excess over the warm ones at
 * the same view, summed over rounds, for the frames that measured
 * (measured_excess) and the others (other_excess). 0 if a frame cannot be
 * rendered again. */
#define REPLAY_CHUNK 10
#define REPLAY_PASSES 3
static int replay(cvr_context *ctx, const scene *sc, const cvr_candidate *cand,
                  const frame_record *record[REPLAY_PASSES], int rounds,
                  double sums[][REPLAY_PASSES],
                  double *measured_excess, double *other_excess) {
  const cvr_image none = {NULL, NULL, NULL, NULL};
  const int cuda = cvr_context_backend(ctx) == CVR_BACKEND_CUDA;
  double frame_sum[REPLAY_PASSES][FRAMES] = {{0.0}};
  int axes[3] = {0, 0, 0}; /* the copy's voxel order (0: not known) */
  for (int r = 0; r < rounds; ++r) {
    for (int p = 0; p < REPLAY_PASSES; ++p) sums[r][p] = 0.0;
    for (int chunk = 0; chunk < FRAMES; chunk += REPLAY_CHUNK)
      for (int k = 0; k < REPLAY_PASSES; ++k) {
        const int p = (r + chunk / REPLAY_CHUNK + k) % REPLAY_PASSES;
        for (int az = chunk; az < chunk + REPLAY_CHUNK && az < FRAMES; ++az) {
          const frame_record *f = &record[p][az];
          if (f->candidate < 0) {
            fprintf(stderr, "cvr-auto-bench: replay: no candidate is what frame %d ran\n", az);
            return 0;
          }
          if (cuda && memcmp(f->axes, axes, sizeof axes)) { /* untimed */
            if (!set_orientation(ctx, sc, f->axes)) return 0;
            memcpy(axes, f->axes, sizeof axes);
          }
          cvr_view view;
          view_at(sc, az, &view);
          cvr_render_settings s = sc->base;
          cvr_candidate_apply(&cand[f->candidate], &s);
          s.rotation_policy = CVR_ROTATION_NEVER;
          cvr_render_stats st;
          if (cvr_render(ctx, sc->volume, sc->tf, &view, &s, &none, &st) != CVR_OK) return 0;
          /* (a volume that turns only padded is rebuilt unpadded, unturned,
           * by NEVER: not replayed) */
          if (memcmp(st.volume_axes, f->axes, sizeof axes)) {
            fprintf(stderr, "cvr-auto-bench: replay: the copy lost its voxel order\n");
            return 0;
          }
          sums[r][p] += st.kernel_ms + f->rotation_ms;
          frame_sum[p][az] += st.kernel_ms;
        }
      }
  }
  *measured_excess = *other_excess = 0.0;
  for (int az = 0; az < FRAMES; ++az)
    *(record[0][az].tuning ? measured_excess : other_excess) += frame_sum[0][az] - frame_sum[1][az];
  return 1;
}

static void usage(void) {
  fprintf(stderr,
          "usage: cvr-auto-bench (--micro N [--micro-axis x|y|z] |\n"
          "                       --volume FILE --lo A --hi B [--resample AxBxC])\n"
          "                      [--rays R] [--shade] [--oracle-step DEG] [--repeats K]\n"
          "                      [--budget SHARE] [--tuning-repeats N] [--backend cuda|cpu]\n"
          "                      [--confirm ROUNDS] [--replicate] [--settle-idle N]\n"
          "                      [--replay ROUNDS] [--tables DIR | --cache DIR] [--out FILE]\n");
}

static int load_scene(cvr_context *ctx, const char *path, const int *resample, double lo, double hi,
                      int micro, scene *sc) {
  cvr_tools_volume data;
  memset(&data, 0, sizeof data);
  uint8_t *voxels = NULL;
  if (micro) {
    const int dims[3] = {micro, micro, micro};
    voxels = cvr_tools_random_voxels(dims); /* cvr-bench's volume */
    if (!voxels) return 0;
    cvr_volume_desc_init(&data.desc);
    data.desc.data = voxels;
    data.desc.dims[0] = data.desc.dims[1] = data.desc.dims[2] = micro;
    snprintf(sc->name, sizeof sc->name, "micro %d^3 uint8", micro);
  } else {
    char err[512];
    if (!cvr_tools_load_nifti(path, &data, err, sizeof err)) {
      fprintf(stderr, "cvr-auto-bench: %s\n", err);
      return 0;
    }
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    snprintf(sc->name, sizeof sc->name, "%s", base);
    if (resample[0] > 0) {
      cvr_tools_volume r;
      if (!cvr_tools_resample(&data, resample, &r)) return 0;
      cvr_tools_volume_free(&data);
      data = r;
      snprintf(sc->name + strlen(sc->name), sizeof sc->name - strlen(sc->name),
               " resampled to %dx%dx%d", resample[0], resample[1], resample[2]);
    }
  }
  if (cvr_volume_create(ctx, &data.desc, &sc->volume) != CVR_OK) {
    fprintf(stderr, "cvr-auto-bench: %s\n", cvr_last_error(ctx));
    return 0;
  }
  double range[2];
  cvr_volume_get_range(sc->volume, range);
  static float table[4 * 1024];
  double spacing = data.desc.spacing[0];
  for (int a = 1; a < 3; ++a) spacing = fmin(spacing, data.desc.spacing[a]);
  if (micro) cvr_tools_ramp_tf(table, 1024, 0.0, 255.0, 0.0, 255.0, 0.05f);
  else cvr_tools_ramp_tf(table, 1024, range[0], range[1], lo, hi, 0.5f);
  const cvr_transfer_function_desc td = {
      .rgba = table, .size = 1024, .range = {micro ? 0.0 : range[0], micro ? 255.0 : range[1]}, .unit_distance = micro ? 1.0 : spacing};
  cvr_transfer_function_create(ctx, &td, &sc->tf);
  cvr_render_settings_init(&sc->base);
  if (micro) {
    sc->n = micro;
    for (int a = 0; a < 3; ++a) sc->center[a] = 0.5 * (micro - 1);
    sc->base.sample_distance = 0.5;
    sc->base.early_termination = 0;
    sc->base.max_samples_per_ray = 512;
  } else {
    cvr_tools_volume_bounds(&data.desc, sc->center, &sc->radius);
    sc->base.sample_distance = 0.5 * spacing;
  }
  sc->micro = micro;
  if (voxels) free(voxels);
  else cvr_tools_volume_free(&data);
  return 1;
}

int main(int argc, char **argv) {
  const char *path = NULL, *out_path = NULL, *tables = NULL, *cache = NULL;
  int micro = 0, micro_axis = 1, rays = 512, oracle_step = 10, repeats = 3, shade = 0, replicate = 0;
  /* confirmation rounds: a frame varies by some 3% at a view (H100), and
   * over 9 rounds, as before, a view's verdict moved by as much as the 5%
   * it is judged by (2026-11-26-h100-confirm-rounds) */
  int rounds = 31;
  int settle_idle = 10; /* orbits in a row that measured nothing end the settling */
  int replay_rounds = 5; /* the first orbit against the warm one, paired (replay()) */
  double budget = -1.0;    /* the settings' default */
  int tuning_repeats = 0;  /* the same */
  int resample[3] = {0, 0, 0};
  double lo = 0.0, hi = 0.0;
  cvr_context_options o;
  cvr_context_options_init(&o);
  o.backend = CVR_BACKEND_CUDA;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--micro") && v) micro = atoi(argv[++i]);
    else if (!strcmp(a, "--micro-axis") && v) {
      const char *x = argv[++i];
      micro_axis = !strcmp(x, "x") ? 0 : !strcmp(x, "y") ? 1 : !strcmp(x, "z") ? 2 : -1;
    }
    else if (!strcmp(a, "--volume") && v) path = argv[++i];
    else if (!strcmp(a, "--lo") && v) lo = atof(argv[++i]);
    else if (!strcmp(a, "--hi") && v) hi = atof(argv[++i]);
    else if (!strcmp(a, "--resample") && v) sscanf(argv[++i], "%dx%dx%d", &resample[0], &resample[1], &resample[2]);
    else if (!strcmp(a, "--rays") && v) rays = atoi(argv[++i]);
    else if (!strcmp(a, "--shade")) shade = 1;
    else if (!strcmp(a, "--oracle-step") && v) oracle_step = atoi(argv[++i]);
    else if (!strcmp(a, "--repeats") && v) repeats = atoi(argv[++i]);
    else if (!strcmp(a, "--backend") && v) o.backend = !strcmp(argv[++i], "cpu") ? CVR_BACKEND_CPU : CVR_BACKEND_CUDA;
    else if (!strcmp(a, "--out") && v) out_path = argv[++i];
    else if (!strcmp(a, "--budget") && v) budget = atof(argv[++i]);
    else if (!strcmp(a, "--tuning-repeats") && v) tuning_repeats = atoi(argv[++i]);
    else if (!strcmp(a, "--confirm") && v) rounds = atoi(argv[++i]);
    else if (!strcmp(a, "--tables") && v) tables = argv[++i];
    else if (!strcmp(a, "--cache") && v) cache = argv[++i];
    else if (!strcmp(a, "--replicate")) replicate = 1;
    else if (!strcmp(a, "--settle-idle") && v) settle_idle = atoi(argv[++i]);
    else if (!strcmp(a, "--replay") && v) replay_rounds = atoi(argv[++i]);
    else {
      usage();
      return 2;
    }
  }
  if ((micro > 0) == (path != NULL) || (path && !(hi > lo)) || micro_axis < 0 || rays < 8 ||
      oracle_step < 1 ||
      repeats < 1 || repeats > 32 || rounds < 1 || rounds > MAX_CONFIRM_ROUNDS || settle_idle < 1 ||
      replay_rounds < 0 || replay_rounds > 32 ||
      (tables && cache) ||
      (budget != -1.0 && !(budget > 0.0 && budget <= 1.0))) {
    usage();
    return 2;
  }
  cvr_context *ctx = NULL;
  if (cvr_context_create(&o, &ctx) != CVR_OK) {
    fprintf(stderr, "cvr-auto-bench: %s\n", cvr_last_error(NULL));
    return o.backend == CVR_BACKEND_CUDA ? 125 : 1;
  }
  /* from nothing; nothing left behind, or AUTO's tables in a new directory */
  if (tables && mkdir(tables, 0755) != 0) {
    fprintf(stderr, "cvr-auto-bench: --tables %s: %s (a new directory)\n", tables, strerror(errno));
    return 2;
  }
  struct stat cache_stat;
  if (cache && (stat(cache, &cache_stat) != 0 || !S_ISDIR(cache_stat.st_mode))) {
    fprintf(stderr, "cvr-auto-bench: --cache %s: not a directory (an earlier run's --tables)\n",
            cache);
    return 2;
  }
  cvr_tuning_set_cache_dir(ctx, tables ? tables : cache ? cache : "");
  FILE *out = out_path ? fopen(out_path, "w") : stdout;
  scene sc;
  memset(&sc, 0, sizeof sc);
  sc.rays = rays;
  if (!out || !load_scene(ctx, path, resample, lo, hi, micro, &sc)) return 1;
  sc.micro_axis = micro_axis;
  sc.base.shading.enabled = shade;
  if (budget > 0.0) sc.base.tuning_budget = budget;
  if (tuning_repeats > 0) sc.base.tuning_repeats = tuning_repeats;
  cvr_tools_write_meta(out, cvr_context_description(ctx), CVR_GIT_COMMIT, argc, argv);

  double cold_wall, cold_kernel, warm_wall, warm_kernel;
  int cold_tuning, warm_tuning, cold_turns, warm_turns, settle_turns = 0;
  cvr_view first_view;
  view_at(&sc, 0, &first_view);
  const cvr_image no_image = {NULL, NULL, NULL, NULL};
  const double first_start = now_ms();
  if (cvr_render(ctx, sc.volume, sc.tf, &first_view, &sc.base, &no_image, NULL) != CVR_OK) {
    fprintf(stderr, "cvr-auto-bench: %s\n", cvr_last_error(ctx));
    return 1;
  }
  const double first_frame_ms = now_ms() - first_start;
  double cold_measuring, warm_measuring;
  cvr_candidate cand[MAX_CONFIGS];
  char names[MAX_CONFIGS][CVR_TUNING_NAME_SIZE];
  const int n = all_candidates(cvr_context_backend(ctx), shade, cand, names);
  static frame_record cold_frames[FRAMES], warm_frames[FRAMES];
  if (!auto_pass(ctx, &sc, "cold", 0, out, &cold_wall, &cold_kernel, &cold_tuning,
                 &cold_measuring, &cold_turns, cand, names, n, cold_frames))
    return 1;
  /* AUTO measures within its budget: orbits until every view's class has
   * converged, or ten (--settle-idle) orbits in a row measured nothing (a
   * class whose views turn the volume is never measured: the turn changes
   * its class; a rotation trial on a large volume, its turn undone, owes
   * the budget what several orbits pay: with two, as before, 4 of 20 runs
   * of the resampled cranium on the H100 stopped settling after 7-9
   * orbits, the classes of 4-12 views unmeasured, each after two trials:
   * 2026-11-26-h100-confirm-rounds), at
   * most MAX_ORBITS; their measuring frames and a summary each, then the
   * warm pass */
  int orbits = 1, idle = cold_tuning ? 0 : 1;
  for (int tuning = cold_tuning;
       idle < settle_idle && still_tuning(ctx, &sc) && orbits < MAX_ORBITS; ++orbits) {
    double wall, kernel, measuring;
    int turns;
    char pass[32];
    snprintf(pass, sizeof pass, "settle %d", orbits + 1);
    if (!auto_pass(ctx, &sc, pass, 1, out, &wall, &kernel, &tuning, &measuring, &turns, cand,
                   names, n, NULL))
      return 1;
    settle_turns += turns;
    idle = tuning ? 0 : idle + 1;
    fprintf(out,
            "{\"bench\":\"auto_settle\",\"volume\":\"%s\",\"R\":%d,\"orbit\":%d,"
            "\"tuning_frames\":%d,\"kernel_ms\":%.2f,\"wall_ms\":%.2f,\"measuring_ms\":%.3f}\n",
            sc.name, rays, orbits + 1, tuning, kernel, wall, measuring);
  }
  if (!auto_pass(ctx, &sc, "warm", 0, out, &warm_wall, &warm_kernel, &warm_tuning,
                 &warm_measuring, &warm_turns, cand, names, n, warm_frames))
    return 1;

  const int cuda = cvr_context_backend(ctx) == CVR_BACKEND_CUDA;
  enum { MAX_VIEWS = 360 };
  static double auto_ms[MAX_VIEWS], auto_rate[MAX_VIEWS], std_ms[MAX_VIEWS], oracle_ms[MAX_VIEWS];
  static int oracle_of[MAX_VIEWS], oracle_turned[MAX_VIEWS], auto_tuning[MAX_VIEWS];
  static char auto_config[MAX_VIEWS][160]; /* (cvr_tuning_info.configuration) */
  /* the sweep's median per view, rotation and candidate (0: did not run);
   * AUTO's settings per view as it decided (before the sweep turns the
   * volume), and the confirmation's timings */
  static double sweep_ms[MAX_VIEWS][2][MAX_CONFIGS];
  static confirm_config confirmed[MAX_VIEWS][MAX_CONFIRM];
  static int confirmed_count[MAX_VIEWS], auto_candidate[MAX_VIEWS];
  /* the replicate sweep's best per view, and where it is in the confirmation */
  static double replicate_ms[MAX_VIEWS];
  static int replicate_of[MAX_VIEWS], replicate_turned[MAX_VIEWS], replicate_at[MAX_VIEWS];
  int views = 0;
  /* grouped so that the volume is padded for rotation, or not, once per
   * group: AUTO as it decided; every candidate without rotation (the
   * standard strategy first); every candidate with rotation on (the volume
   * turned whenever the view looks along the stored x axis) */
  for (int az = 0; az < FRAMES; az += oracle_step, ++views) {
    cvr_view view;
    view_at(&sc, az, &view);
    cvr_render_stats st;
    cvr_render_settings s = sc.base;
    s.strategy = CVR_STRATEGY_AUTO;
    auto_ms[views] = timed(ctx, &sc, &view, &s, repeats, &st);
    if (!(auto_ms[views] > 0.0)) {
      fprintf(stderr, "cvr-auto-bench: %s\n", cvr_last_error(ctx));
      return 1;
    }
    auto_rate[views] = st.samples / (auto_ms[views] * 1e-3) / 1e9;
    auto_tuning[views] = st.tuning;
    cvr_tuning_info info;
    if (cvr_tuning_info_for(ctx, sc.volume, &view, &s, &info) != CVR_OK) {
      fprintf(stderr, "cvr-auto-bench: %s\n", cvr_last_error(ctx));
      return 1;
    }
    /* what ran, by the stats (CUDA: a stand-in, a turned copy); the CPU's
     * stats hold the tile but not the schedule: its candidate's name, as
     * the oracle's lines name it */
    if (cuda)
      snprintf(auto_config[views], sizeof auto_config[0], "%s %dx%d%s",
               cvr_strategy_name(st.strategy), st.block_width, st.block_height,
               st.volume_axes[0] != 1 || st.volume_axes[1] != 2 ? ", turned" : "");
    else
      snprintf(auto_config[views], sizeof auto_config[0], "%s", info.configuration);
    confirm_config *own = &confirmed[views][0];
    own->settings = info.settings;
    own->rotation = cuda && info.settings.rotation_policy != CVR_ROTATION_NEVER;
    own->own = 1;
    memcpy(own->order, st.volume_axes, sizeof own->order);
    snprintf(own->name, sizeof own->name, "AUTO: %.56s", info.configuration);
    confirmed_count[views] = 1;
    auto_candidate[views] = -1; /* which of the sweep's it is ("name, layout...") */
    for (int i = 0; i < n; ++i)
      if (configuration_is(info.configuration, names[i])) auto_candidate[views] = i;
    oracle_ms[views] = replicate_ms[views] = INFINITY;
    oracle_of[views] = replicate_of[views] = -1;
  }
  for (int run = 0; run < (cuda ? 2 : 1) * (1 + replicate); ++run) {
    const int sweep = run / (cuda ? 2 : 1), pass = run % (cuda ? 2 : 1);
    for (int v = 0; v < views; ++v) {
      if (v == 0 && cuda && !reset_orientation(ctx, &sc)) {
        fprintf(stderr, "cvr-auto-bench: cannot turn the volume back: %s\n", cvr_last_error(ctx));
        return 1;
      }
      const int az = v * oracle_step;
      cvr_view view;
      view_at(&sc, az, &view);
      cvr_render_stats st;
      cvr_render_settings s = sc.base;
      s.rotation_policy = pass ? CVR_ROTATION_HYSTERESIS : CVR_ROTATION_NEVER;
      if (!pass && !sweep) std_ms[v] = timed(ctx, &sc, &view, &s, repeats, &st);
      for (int i = 0; i < n; ++i) {
        s = sc.base;
        cvr_candidate_apply(&cand[i], &s);
        s.rotation_policy = pass ? CVR_ROTATION_HYSTERESIS : CVR_ROTATION_NEVER;
        const double ms = timed(ctx, &sc, &view, &s, repeats, &st);
        if (ms <= 0.0) continue; /* cannot run here */
        fprintf(out, "{\"bench\":\"%s\",\"volume\":\"%s\",\"R\":%d,\"azimuth\":%d,"
                     "\"config\":\"%s\",\"rotation\":%d,\"axes\":\"%+d%+d%+d\",\"ms\":%.4f,"
                     "\"spread\":%.4f,\"first_ms\":%.4f}\n",
                sweep ? "auto_replicate" : "auto_oracle", sc.name, rays, az, names[i], pass,
                st.volume_axes[0], st.volume_axes[1], st.volume_axes[2], ms, last_spread,
                last_first_ms);
        if (sweep) {
          if (ms < replicate_ms[v])
            replicate_ms[v] = ms, replicate_of[v] = i, replicate_turned[v] = pass;
          continue;
        }
        sweep_ms[v][pass][i] = ms;
        if (ms < oracle_ms[v]) oracle_ms[v] = ms, oracle_of[v] = i, oracle_turned[v] = pass;
      }
    }
  }
  /* the confirmation: AUTO's choice, the sweep's three best and the
   * replicate's best (each counted once), interleaved at each view */
  double confirmed_ratio[MAX_VIEWS], replicate_ratio[MAX_VIEWS];
  double switch_ratio[MAX_VIEWS * MAX_CONFIRM];
  int switches = 0;
  for (int v = 0; v < views; ++v) {
    for (int taken = 0; taken < 3;) {
      int bp = -1, bi = -1;
      for (int pass = 0; pass < 2; ++pass)
        for (int i = 0; i < n; ++i) {
          const double ms = sweep_ms[v][pass][i];
          int seen = !(ms > 0.0);
          for (int j = 1; j < confirmed_count[v] && !seen; ++j)
            seen = confirmed[v][j].rotation == pass && !strcmp(confirmed[v][j].name, names[i]);
          if (!seen && (bi < 0 || ms < sweep_ms[v][bp][bi])) bp = pass, bi = i;
        }
      if (bi < 0) break;
      ++taken;
      if (bi == auto_candidate[v] && bp == confirmed[v][0].rotation) {
        sweep_ms[v][bp][bi] = -sweep_ms[v][bp][bi]; /* AUTO's: in already; skipped hereafter */
        continue;
      }
      add_confirmed(&confirmed[v][confirmed_count[v]++], &sc, &cand[bi], names[bi], bp);
    }
    replicate_at[v] = -1;
    if (replicate && replicate_of[v] >= 0) {
      const int ri = replicate_of[v], rp = replicate_turned[v];
      if (ri == auto_candidate[v] && rp == confirmed[v][0].rotation) replicate_at[v] = 0;
      for (int j = 1; j < confirmed_count[v] && replicate_at[v] < 0; ++j)
        if (confirmed[v][j].rotation == rp && !strcmp(confirmed[v][j].name, names[ri]))
          replicate_at[v] = j;
      if (replicate_at[v] < 0) {
        replicate_at[v] = confirmed_count[v]++;
        add_confirmed(&confirmed[v][replicate_at[v]], &sc, &cand[ri], names[ri], rp);
      }
    }
    cvr_view view;
    view_at(&sc, v * oracle_step, &view);
    if (!confirm(ctx, &sc, &view, cuda, confirmed[v], confirmed_count[v], rounds)) {
      fprintf(stderr, "cvr-auto-bench: confirmation: %s\n", cvr_last_error(ctx));
      return 1;
    }
    double best = INFINITY;
    for (int j = 0; j < confirmed_count[v]; ++j) {
      const confirm_config *c = &confirmed[v][j];
      best = fmin(best, c->steady_ms);
      switch_ratio[switches++] = c->switch_ms / c->steady_ms;
      fprintf(out,
              "{\"bench\":\"auto_confirm\",\"volume\":\"%s\",\"R\":%d,\"azimuth\":%d,"
              "\"config\":\"%s\",\"rotation\":%d,\"axes\":\"%+d%+d%+d\",\"steady_ms\":%.4f,"
              "\"switch_ms\":%.4f,\"rounds\":%d,\"auto\":%d,\"replicate\":%d,"
              "\"steady_rounds\":[",
              sc.name, rays, v * oracle_step, c->name, c->rotation, c->axes[0], c->axes[1],
              c->axes[2], c->steady_ms, c->switch_ms, rounds, j == 0, j == replicate_at[v]);
      for (int r = 0; r < rounds; ++r) fprintf(out, "%s%.4f", r ? "," : "", c->steady_rounds[r]);
      fputs("]}\n", out);
    }
    confirmed_ratio[v] = confirmed[v][0].steady_ms / best;
    replicate_ratio[v] =
        replicate_at[v] >= 0 ? confirmed[v][replicate_at[v]].steady_ms / best : 0.0;
  }
  double switch_median = 0.0;
  median_of(switch_ratio, switches, &switch_median);

  /* last: it leaves the copy in the warm orbit's voxel order, or the cold's */
  static double replay_sums[32][REPLAY_PASSES];
  double measured_excess = 0.0, other_excess = 0.0, replay_sum[REPLAY_PASSES] = {0.0};
  static frame_record warm_in_cold_order[FRAMES];
  for (int az = 0; az < FRAMES; ++az) {
    warm_in_cold_order[az] = warm_frames[az];
    memcpy(warm_in_cold_order[az].axes, cold_frames[az].axes, sizeof cold_frames[az].axes);
    warm_in_cold_order[az].rotation_ms = cold_frames[az].rotation_ms;
  }
  const frame_record *records[REPLAY_PASSES] = {cold_frames, warm_frames, warm_in_cold_order};
  if (replay_rounds &&
      !replay(ctx, &sc, cand, records, replay_rounds, replay_sums, &measured_excess, &other_excess)) {
    fprintf(stderr, "cvr-auto-bench: the paired replay failed (%s): not reported\n",
            cvr_last_error(ctx)[0] ? cvr_last_error(ctx) : "see above");
    replay_rounds = 0;
  }
  for (int r = 0; r < replay_rounds; ++r) {
    for (int p = 0; p < REPLAY_PASSES; ++p) replay_sum[p] += replay_sums[r][p];
    fprintf(out,
            "{\"bench\":\"auto_replay\",\"volume\":\"%s\",\"R\":%d,\"round\":%d,"
            "\"cold_kernel_ms\":%.3f,\"warm_kernel_ms\":%.3f,"
            "\"warm_in_cold_order_kernel_ms\":%.3f}\n",
            sc.name, rays, r, replay_sums[r][0], replay_sums[r][1], replay_sums[r][2]);
  }

  double worst_ratio = 0.0, sum_ratio = 0.0, auto_best_rate = 0.0, auto_worst_rate = INFINITY;
  double confirmed_worst = 0.0, confirmed_sum = 0.0;
  int confirmed_within5 = 0, replicate_within5 = 0;
  double replicate_sum = 0.0;
  double std_sum = 0.0, auto_sum = 0.0;
  int within5 = 0;
  for (int v = 0; v < views; ++v) {
    if (oracle_of[v] < 0) {
      fprintf(stderr, "cvr-auto-bench: no candidate ran: %s\n", cvr_last_error(ctx));
      return 1;
    }
    const double ratio = auto_ms[v] / oracle_ms[v];
    fprintf(out,
            "{\"bench\":\"auto_view\",\"volume\":\"%s\",\"R\":%d,\"azimuth\":%d,\"auto_ms\":%.4f,"
            "\"auto_config\":\"%s\",\"auto_tuning\":%d,\"oracle_ms\":%.4f,\"oracle_config\":\"%s%s\","
            "\"standard_ms\":%.4f,\"auto_over_oracle\":%.4f,\"auto_gsamples_per_s\":%.2f,"
            "\"auto_over_oracle_confirmed\":%.4f",
            sc.name, rays, v * oracle_step, auto_ms[v], auto_config[v], auto_tuning[v], oracle_ms[v],
            names[oracle_of[v]], oracle_turned[v] ? ", rotation" : "", std_ms[v], ratio,
            auto_rate[v], confirmed_ratio[v]);
    if (replicate_at[v] >= 0) {
      fprintf(out, ",\"replicate_config\":\"%s%s\",\"replicate_over_oracle_confirmed\":%.4f",
              names[replicate_of[v]], replicate_turned[v] ? ", rotation" : "", replicate_ratio[v]);
      replicate_sum += replicate_ratio[v];
      replicate_within5 += replicate_ratio[v] <= 1.05;
    }
    fprintf(out, "}\n");
    worst_ratio = fmax(worst_ratio, ratio);
    sum_ratio += ratio;
    within5 += ratio <= 1.05;
    confirmed_worst = fmax(confirmed_worst, confirmed_ratio[v]);
    confirmed_sum += confirmed_ratio[v];
    confirmed_within5 += confirmed_ratio[v] <= 1.05;
    auto_best_rate = fmax(auto_best_rate, auto_rate[v]);
    auto_worst_rate = fmin(auto_worst_rate, auto_rate[v]);
    std_sum += std_ms[v];
    auto_sum += auto_ms[v];
  }
  fprintf(out,
          "{\"bench\":\"auto_summary\",\"volume\":\"%s\",\"R\":%d,\"shaded\":%d,\"frames\":%d,"
          "\"cold_wall_ms\":%.2f,\"warm_wall_ms\":%.2f,\"tuning_share\":%.4f,"
          "\"cold_kernel_ms\":%.2f,\"warm_kernel_ms\":%.2f,\"tuning_frames\":%d,"
          "\"warm_tuning_frames\":%d,\"views\":%d,\"auto_over_oracle_max\":%.4f,"
          "\"auto_over_oracle_mean\":%.4f,\"views_within_5pct\":%d,\"standard_over_auto\":%.4f,"
          "\"auto_worst_over_best_view\":%.4f,\"candidates\":%d,\"first_frame_ms\":%.2f,"
          "\"measuring_share\":%.4f,\"orbits_to_converge\":%d,\"classes\":%d,"
          "\"tuning_budget\":%g,\"tuning_repeats\":%d,\"confirm_rounds\":%d,"
          "\"views_within_5pct_confirmed\":%d,\"auto_over_oracle_confirmed_mean\":%.4f,"
          "\"auto_over_oracle_confirmed_max\":%.4f,\"switch_over_steady_median\":%.4f,"
          "\"turns_cold\":%d,\"turns_settling\":%d,\"turns_warm\":%d,\"from_cache\":%d",
          sc.name, rays, shade, FRAMES, cold_wall, warm_wall, (cold_wall - warm_wall) / warm_wall,
          cold_kernel, warm_kernel, cold_tuning, warm_tuning, views, worst_ratio, sum_ratio / views,
          within5, std_sum / auto_sum, auto_worst_rate / auto_best_rate, n, first_frame_ms,
          cold_measuring / cold_kernel, orbits, CVR_TUNING_CLASSES,
          sc.base.tuning_budget, sc.base.tuning_repeats, rounds, confirmed_within5,
          confirmed_sum / views, confirmed_worst, switch_median, cold_turns, settle_turns,
          warm_turns, cache != NULL);
  if (replay_rounds) {
    double turns_ms[2] = {0.0, 0.0};
    for (int az = 0; az < FRAMES; ++az)
      turns_ms[0] += cold_frames[az].rotation_ms, turns_ms[1] += warm_frames[az].rotation_ms;
    fprintf(out,
            ",\"replay_rounds\":%d,\"first_orbit_paired\":%.4f,"
            "\"first_orbit_paired_measured\":%.4f,\"first_orbit_paired_other\":%.4f,"
            "\"first_orbit_paired_turns\":%.4f,\"first_orbit_paired_order\":%.4f",
            replay_rounds, replay_sum[0] / replay_sum[1] - 1.0, measured_excess / replay_sum[1],
            other_excess / replay_sum[1], replay_rounds * (turns_ms[0] - turns_ms[1]) / replay_sum[1],
            replay_sum[2] / replay_sum[1] - 1.0);
  }
  if (replicate)
    fprintf(out, ",\"replicate_views_within_5pct_confirmed\":%d,"
                 "\"replicate_over_oracle_confirmed_mean\":%.4f",
            replicate_within5, replicate_sum / views);
  fprintf(out, "}\n");
  cvr_transfer_function_destroy(sc.tf);
  cvr_volume_destroy(sc.volume);
  cvr_context_destroy(ctx);
  if (out != stdout) fclose(out);
  return 0;
}
