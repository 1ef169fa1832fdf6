// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The auto-tuner's search (Bethel and Howison: measure the configurations,
 * keep the fastest), per view class, pruned by what the papers predict:
 *  - the view class is Sugimoto's: the volume plane most parallel to the
 *    screen and whether its axis of smaller stride runs across the screen,
 *    plus how the view leans: aligned with the plane's normal (within 5
 *    degrees: every ray steps along one axis), square, or oblique toward one
 *    of the plane's axes (rays then step along that axis too: toward the
 *    stride axis they stay in cache lines, toward the other they cross them,
 *    and the best block shape moves);
 *  - block shapes: the block-shape strategy's pair (its prediction first;
 *    one block per class, as the pair follows the stride axis on screen),
 *    then standard blocks tall and wide (both orientations in every class:
 *    the paper's rule that warps should run along the stride axis does not
 *    always hold on current GPUs), in the order they won most often;
 *  - warp marching (Wang) in its 3D shape (2 x 2 x 8, the paper's best),
 *    with shading first in the classes within 25 degrees of stored x (the
 *    paper's prediction) and second in the others, unless the image fills
 *    the GPU many times over, and 1D last;
 *  - the slab (Mensmann) only with shading, its only purpose, its border
 *    rays as a ring of threads and gathered;
 *  - on the CPU, tile shapes along the stride axis, dynamic and static.
 * The measurements behind the classes and the orders: doc/tuning.md,
 * candidates.
 * The first candidate is the papers' prediction, used until a measurement
 * says otherwise; the list order is the order of measurement, so what is
 * likely to win is found in the first frames. Every candidate is measured
 * once; only contenders (within CVR_TUNING_CONTENDER of the best) are
 * measured again, up to `repeats` times, and one measured prune times slower
 * than the best so far is dropped. How often a frame may measure is bounded
 * by what measuring has cost (cvr_tuning_budget). */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "tuner.h"

#define OBLIQUE_COS 0.9063 /* cos 25 degrees */
#define ALIGNED_COS 0.9962 /* cos 5 degrees */

int cvr_tuning_view_class_of(int normal_axis, int horizontal, const float d[3]) {
  const int primary = normal_axis == 0 ? 1 : 0, secondary = 3 - normal_axis - primary;
  const double len = sqrt((double)d[0] * d[0] + (double)d[1] * d[1] + (double)d[2] * d[2]);
  const double along = len > 0.0 ? fabs(d[normal_axis]) / len : 1.0;
  const int lean = along >= ALIGNED_COS ? CVR_TUNING_LEAN_ALIGNED
                   : along >= OBLIQUE_COS ? CVR_TUNING_LEAN_SQUARE
                   : fabsf(d[primary]) >= fabsf(d[secondary]) ? 1 : 2;
  return normal_axis * 8 + (horizontal ? 4 : 0) + lean;
}

int cvr_tuning_view_class(const cvr_ray_params *p) {
  cvr_block_shape_choice choice;
  cvr_choose_block_shape_for(p, &choice);
  float d[3];
  cvr_view_direction_index(p, d);
  return cvr_tuning_view_class_of(choice.plane_normal_axis, choice.horizontal, d);
}

int cvr_tuning_view_roll(const cvr_ray_params *p) {
  cvr_block_shape_choice choice;
  cvr_choose_block_shape_for(p, &choice);
  float right[3], up[3];
  cvr_screen_steps_index(p, right, up);
  const double across = fabs((double)right[choice.primary_axis]),
               upward = fabs((double)up[choice.primary_axis]);
  const double degrees = atan2(upward, across) * (180.0 / 3.14159265358979323846); /* 0 .. 90 */
  const double off = choice.horizontal ? degrees : 90.0 - degrees;                  /* 0 .. 45 */
  const double band = off / CVR_TUNING_ROLL_DEGREES; /* (NaN where the screen steps are not finite) */
  return !(band >= 0.0) ? 0 : band >= CVR_TUNING_ROLL_BINS ? CVR_TUNING_ROLL_BINS - 1 : (int)band;
}

void cvr_tuning_view_class_name(int view_class, char *out, size_t size) {
  if (view_class < 0 || view_class >= CVR_TUNING_CLASSES) {
    snprintf(out, size, "none");
    return;
  }
  const int normal = CVR_TUNING_CLASS_AXIS(view_class), lean = CVR_TUNING_CLASS_LEAN(view_class);
  const int primary = normal == 0 ? 1 : 0, secondary = 3 - normal - primary;
  char tilt[32] = "square";
  if (lean == CVR_TUNING_LEAN_ALIGNED) snprintf(tilt, sizeof tilt, "aligned");
  else if (lean) snprintf(tilt, sizeof tilt, "oblique toward %c", "xyz"[lean == 1 ? primary : secondary]);
  snprintf(out, size, "along %c, stride axis %s, %s", "xyz"[normal],
           CVR_TUNING_CLASS_ACROSS(view_class) ? "across" : "up", tilt);
}

static cvr_candidate standard(int w, int h) {
  cvr_candidate c = {CVR_STRATEGY_STANDARD, {w, h}, 0, 0, {0, 0}, CVR_CPU_SCHEDULE_DYNAMIC,
                     CVR_SLAB_BORDER_RING, 1};
  return c;
}

static cvr_candidate strategy(cvr_strategy s, int b0, int b1, int width, int depth) {
  cvr_candidate c = {s, {b0, b1}, width, depth, {0, 0}, CVR_CPU_SCHEDULE_DYNAMIC,
                     CVR_SLAB_BORDER_RING, 1};
  return c;
}

static cvr_candidate cpu_tile(int w, int h, cvr_cpu_schedule schedule) {
  cvr_candidate c = {CVR_STRATEGY_STANDARD, {0, 0}, 0, 0, {w, h}, schedule, CVR_SLAB_BORDER_RING, 1};
  return c;
}

int cvr_tuning_many_waves(int width, int height, int multiprocessors) {
  return multiprocessors > 0 && width > 0 && height > 0 &&
         (double)width * height >= (double)CVR_TUNING_MANY_WAVES_RAYS * multiprocessors;
}

/* Standard blocks in their order of measurement, by the image's regime on
 * the GPU (cvr_tuning_many_waves): wide and tall blocks in every class, the
 * ones that won most often first (doc/tuning.md, candidates). */
static const int few_waves_blocks[][2] = {{2, 128}, {4, 64}, {8, 8}, {16, 16},
                                          {64, 4},  {32, 8}, {16, 8}, {8, 16}};
static const int many_waves_blocks[][2] = {{8, 16}, {16, 16}, {2, 128}, {4, 64},
                                           {8, 8},  {64, 4},  {32, 8},  {16, 8}};
#define BLOCKS (int)(sizeof few_waves_blocks / sizeof few_waves_blocks[0])
_Static_assert(sizeof few_waves_blocks == sizeof many_waves_blocks,
               "both orders list the same blocks");

void cvr_tuning_class_init(cvr_tuning_class *c, cvr_backend backend, int view_class,
                           const cvr_tuning_frames *frames) {
  const int shaded = frames->shaded, many_waves = frames->many_waves;
  const cvr_blend_mode blend = frames->blend;
  memset(c, 0, sizeof *c);
  c->view_class = view_class;
  const int across = CVR_TUNING_CLASS_ACROSS(view_class); /* CPU tiles along the stride axis */
  cvr_candidate *k = c->candidates;
  int n = 0;
  if (backend == CVR_BACKEND_CPU) {
    k[n++] = cpu_tile(32, 32, CVR_CPU_SCHEDULE_DYNAMIC);
    k[n++] = across ? cpu_tile(128, 8, CVR_CPU_SCHEDULE_DYNAMIC) : cpu_tile(8, 128, CVR_CPU_SCHEDULE_DYNAMIC);
    k[n++] = cpu_tile(16, 16, CVR_CPU_SCHEDULE_DYNAMIC);
    k[n++] = cpu_tile(64, 64, CVR_CPU_SCHEDULE_DYNAMIC);
    k[n++] = across ? cpu_tile(64, 16, CVR_CPU_SCHEDULE_DYNAMIC) : cpu_tile(16, 64, CVR_CPU_SCHEDULE_DYNAMIC);
    k[n++] = cpu_tile(32, 32, CVR_CPU_SCHEDULE_STATIC);
    k[n++] = cpu_tile(8, 8, CVR_CPU_SCHEDULE_STATIC);
  } else {
    /* Wang et al.: facing the volume's ZY plane (rays along stored x) a
     * warp that marches along its rays samples neighbouring voxels, where
     * a warp of rays samples voxels a slice apart. With shading the 3D
     * warps win at the views within 25 degrees of x: those classes render
     * them first, not the block best elsewhere; where the image fills the
     * GPU many times over they come after the blocks (doc/tuning.md,
     * candidates). */
    const int shaded_composite = shaded && blend == CVR_BLEND_COMPOSITE;
    const int warp_early = shaded_composite && !many_waves;
    const int lean = CVR_TUNING_CLASS_LEAN(view_class);
    c->predicted = warp_early && CVR_TUNING_CLASS_AXIS(view_class) == 0 &&
                   (lean == CVR_TUNING_LEAN_SQUARE || lean == CVR_TUNING_LEAN_ALIGNED);
    if (c->predicted) k[n++] = strategy(CVR_STRATEGY_WARP_MARCHING, 1, 8, 8, 0);
    k[n++] = strategy(CVR_STRATEGY_BLOCK_SHAPE, 0, 0, 0, 0);
    if (warp_early && !c->predicted) /* Wang's 3D warps: often shading's best */
      k[n++] = strategy(CVR_STRATEGY_WARP_MARCHING, 1, 8, 8, 0);
    for (int b = 0; b < BLOCKS; ++b) {
      const int *block = many_waves ? many_waves_blocks[b] : few_waves_blocks[b];
      k[n++] = standard(block[0], block[1]);
    }
    /* Rays in 4 parts: where the image fills the GPU only a few times, 8x8
     * blocks of 4 threads a ray are the fastest at many views about z
     * (doc/tuning.md, candidates). Unshaded compositing only (cvr.h). */
    if (blend == CVR_BLEND_COMPOSITE && !shaded) {
      k[n] = standard(8, 8);
      k[n++].ray_segments = 4;
    }
    if (blend == CVR_BLEND_COMPOSITE && !warp_early) /* they composite only (cvr.h) */
      k[n++] = strategy(CVR_STRATEGY_WARP_MARCHING, 1, 8, 8, 0);
    if (shaded_composite && !frames->jittered) {
      k[n++] = strategy(CVR_STRATEGY_SLAB, 16, 8, 0, 8);
      k[n++] = strategy(CVR_STRATEGY_SLAB, 16, 16, 0, 8);
      /* the border rays gathered: faster at large viewports */
      k[n] = strategy(CVR_STRATEGY_SLAB, 16, 8, 0, 8);
      k[n++].slab_border = CVR_SLAB_BORDER_GATHERED;
    }
    if (blend == CVR_BLEND_COMPOSITE) k[n++] = strategy(CVR_STRATEGY_WARP_MARCHING, 1, 8, 32, 0);
  }
  c->count = n;
  for (int i = 0; i < n; ++i) {
    cvr_candidate_name(&k[i], c->names[i], CVR_TUNING_NAME_SIZE);
    c->prior[i] = i;
  }
}

static int index_of(const cvr_tuning_class *c, const char *name) {
  for (int i = 0; i < c->count; ++i)
    if (!strcmp(c->names[i], name)) return i;
  return -1;
}

/* How many of class c's candidates have been measured at least once. */
static int measured_count(const cvr_tuning_class *c) {
  int n = 0;
  for (int i = 0; i < c->count; ++i) n += c->measured[i] > 0;
  return n;
}

/* Whether class o has measured enough to tell class c what to expect: at
 * least SEED_KEEP candidates (a class whose remaining candidates wait for
 * their kernels still counts), and both aligned with an axis or neither
 * (along an axis candidates that differ by 1.3x a few degrees off tie). */
static int comparable(const cvr_tuning_class *o, const cvr_tuning_class *c) {
  return o != c && measured_count(o) >= CVR_TUNING_SEED_KEEP &&
         (CVR_TUNING_CLASS_LEAN(o->view_class) == CVR_TUNING_LEAN_ALIGNED) ==
             (CVR_TUNING_CLASS_LEAN(c->view_class) == CVR_TUNING_LEAN_ALIGNED);
}

void cvr_tuning_seed(cvr_tuning_class *c, const cvr_tuning_class *classes, int count, int repeats,
                     double prune) {
  if (c->seeded == 2) return;
  /* ratios to the best, by name, from informative classes along [0] other
   * axes and [1] the same axis; early: from any class that measured it */
  double sum[2][CVR_TUNING_MAX_CANDIDATES] = {{0.0}}, early_sum[CVR_TUNING_MAX_CANDIDATES] = {0.0};
  int seen[2][CVR_TUNING_MAX_CANDIDATES] = {{0}}, early_seen[CVR_TUNING_MAX_CANDIDATES] = {0};
  int tuned[2] = {0, 0};
  for (int j = 0; j < count; ++j) {
    const cvr_tuning_class *o = &classes[j];
    if (!comparable(o, c)) continue;
    /* informative once its best is measured as often as a contender is;
     * before, it only tells which candidate this class renders first */
    const int informative = o->measured[o->best] >= repeats;
    const int same = CVR_TUNING_CLASS_AXIS(o->view_class) == CVR_TUNING_CLASS_AXIS(c->view_class);
    const double best = cvr_tuning_mean(o, o->best);
    for (int i = 0; i < c->count; ++i) { /* candidates by name: class lists may differ */
      const int x = index_of(o, c->names[i]);
      /* the block-shape strategy's block is the paper's prediction for
       * the class (its pair's block for the stride axis on screen), right
       * in some classes and not in others of the same orientation: other
       * classes tell nothing of it, it is always measured */
      if (x < 0 || c->candidates[i].strategy == CVR_STRATEGY_BLOCK_SHAPE ||
          (c->predicted && i == 0))
        continue;
      /* not measured there (yet, or seeded away, or the device could not
       * run it: each class checks that before rendering): no word */
      if (!o->measured[x]) continue;
      const double ratio = cvr_tuning_mean(o, x) / best;
      early_sum[i] += ratio;
      ++early_seen[i];
      if (informative) {
        sum[same][i] += ratio;
        ++seen[same][i];
      }
    }
    tuned[same] += informative;
  }
  if (!tuned[0] && !tuned[1]) {
    /* a class with nothing measured yet renders first what is best so far
     * elsewhere (then the papers' prediction, and the rest in list order),
     * unless the papers predict its views' best (c->predicted) */
    if (c->predicted) return;
    int first = -1;
    for (int i = 0; i < c->count; ++i) {
      if (early_seen[i] && !c->dropped[i] &&
          (first < 0 || early_sum[i] / early_seen[i] < early_sum[first] / early_seen[first]))
        first = i;
    }
    if (first >= 0 && !measured_count(c)) {
      for (int i = 0; i < c->count; ++i) c->prior[i] = i;
      c->prior[first] = -1.0;
      cvr_tuning_update_best(c);
    }
    return;
  }
  const int level = tuned[1] ? 2 : 1;
  if (level <= c->seeded) return; /* (other axes only, done) */
  c->seeded = level;
  /* what this class measured already stays; the rest is ordered and
   * pruned: by every informative class once one along the same axis is,
   * SEED_PRUNE slower; before, by the other axes, prune slower (what the
   * prune would drop after one measurement) */
  const double limit = level == 2 ? fmin(prune, CVR_TUNING_SEED_PRUNE) : prune;
  double over[CVR_TUNING_MAX_CANDIDATES]; /* its ratio over the limit: >= 1, droppable */
  int order[CVR_TUNING_MAX_CANDIDATES], n = 0, standing = 0;
  for (int i = 0; i < c->count; ++i) {
    if (c->dropped[i]) continue;
    const int known = seen[0][i] + (level == 2 ? seen[1][i] : 0);
    standing += known || c->measured[i] > 0; /* the unknown are measured anyway */
    if (c->measured[i]) continue;
    /* never measured anywhere: tried early, right after the best elsewhere
     * (the papers' prediction for the class first) */
    c->prior[i] = c->predicted && i == 0 ? 0.0
                  : known ? (sum[0][i] + (level == 2 ? sum[1][i] : 0.0)) / known
                          : 1.001;
    over[i] = known ? c->prior[i] / limit : 0.0;
    order[n++] = i;
  }
  for (int a = 1; a < n; ++a) /* by prior, stable */
    for (int b = a; b > 0 && c->prior[order[b]] < c->prior[order[b - 1]]; --b) {
      const int x = order[b];
      order[b] = order[b - 1];
      order[b - 1] = x;
    }
  /* the most over its limit first, while more than SEED_KEEP of the known
   * stand */
  while (standing > CVR_TUNING_SEED_KEEP) {
    int worst = -1;
    for (int r = 0; r < n; ++r)
      if (!c->dropped[order[r]] && over[order[r]] >= 1.0 &&
          (worst < 0 || over[order[r]] > over[worst]))
        worst = order[r];
    if (worst < 0) break;
    c->dropped[worst] = 1;
    --standing;
  }
  cvr_tuning_update_best(c);
}

void cvr_candidate_apply(const cvr_candidate *c, cvr_render_settings *s) {
  s->strategy = c->strategy;
  switch (c->strategy) {
  case CVR_STRATEGY_STANDARD:
    if (c->block[0] > 0) {
      s->block_width = c->block[0];
      s->block_height = c->block[1];
      s->ray_segments = c->ray_segments;
    }
    break;
  case CVR_STRATEGY_WARP_MARCHING:
    s->block_warps[0] = c->block[0];
    s->block_warps[1] = c->block[1];
    s->warp_width = c->warp_width;
    s->warp_rays[0] = s->warp_rays[1] = 0;
    /* the single buffer: as fast as the double or faster at every view
     * measured (doc/tuning.md, candidates) */
    s->warp_variant = CVR_WARP_SB_SHUFFLE;
    break;
  case CVR_STRATEGY_SLAB:
    s->slab_block[0] = c->block[0];
    s->slab_block[1] = c->block[1];
    s->slab_depth = c->slab_depth;
    s->slab_border = c->slab_border;
    break;
  default: /* block shape: the settings' pair (the paper's by default) */
    break;
  }
  if (c->cpu_tile[0] > 0) {
    s->cpu_tile_width = c->cpu_tile[0];
    s->cpu_tile_height = c->cpu_tile[1];
    s->cpu_schedule = c->cpu_schedule;
  }
}

void cvr_candidate_name(const cvr_candidate *c, char *out, size_t size) {
  if (c->cpu_tile[0] > 0)
    snprintf(out, size, "cpu tiles %dx%d %s", c->cpu_tile[0], c->cpu_tile[1],
             c->cpu_schedule == CVR_CPU_SCHEDULE_STATIC ? "static" : "dynamic");
  else if (c->strategy == CVR_STRATEGY_STANDARD && c->ray_segments > 1)
    snprintf(out, size, "standard %dx%d, %d threads a ray", c->block[0], c->block[1],
             c->ray_segments);
  else if (c->strategy == CVR_STRATEGY_STANDARD)
    snprintf(out, size, "standard %dx%d", c->block[0], c->block[1]);
  else if (c->strategy == CVR_STRATEGY_WARP_MARCHING)
    snprintf(out, size, "warp marching %s, %d lanes/ray", c->warp_width == 32 ? "1D" : "3D",
             c->warp_width);
  else if (c->strategy == CVR_STRATEGY_SLAB)
    snprintf(out, size, "slab %dx%d depth %d%s", c->block[0], c->block[1], c->slab_depth,
             c->slab_border == CVR_SLAB_BORDER_GATHERED ? " gathered" : "");
  else
    snprintf(out, size, "%s", cvr_strategy_name(c->strategy));
}

/* The candidate measured fewer than `times` times (least first) whose mean
 * is within `factor` of the best's, or -1. */
static int repeat_within(const cvr_tuning_class *c, double factor, int times,
                         const unsigned char *waiting) {
  const double limit = factor * cvr_tuning_mean(c, c->best);
  int pick = -1;
  for (int i = 0; i < c->count; ++i)
    if (!c->dropped[i] && c->measured[i] > 0 && c->measured[i] < times &&
        cvr_tuning_mean(c, i) <= limit && !(waiting && waiting[i]) &&
        (pick < 0 || c->measured[i] < c->measured[pick]))
      pick = i;
  return pick;
}

/* Whether the class has measured its first CVR_TUNING_CORE candidates and
 * has further ones to measure: near ties' repeats then take their turn. */
static int further_waiting(const cvr_tuning_class *c) {
  if (measured_count(c) < CVR_TUNING_CORE) return 0;
  for (int i = 0; i < c->count; ++i)
    if (!c->dropped[i] && c->measured[i] == 0) return 1;
  return 0;
}

int cvr_tuning_next_ready(const cvr_tuning_class *c, int repeats, const unsigned char *waiting) {
  for (int i = 0; i < c->count; ++i) /* a win to confirm */
    if (c->pending[i] > 0.0 && !c->dropped[i] && !(waiting && waiting[i])) return i;
  int first = -1; /* everything once, lowest prior first */
  for (int i = 0; i < c->count; ++i)
    if (!c->dropped[i] && c->measured[i] == 0 && !(waiting && waiting[i]) &&
        (first < 0 || c->prior[i] < c->prior[first]))
      first = i;
  if (first >= 0 && further_waiting(c)) { /* near ties again first (tuner.h) */
    /* (short of `repeats`: a class's best measured that often tells other
     * classes what to expect, once everything was measured) */
    const int times = repeats - 1 < CVR_TUNING_NEAR_REPEATS ? repeats - 1 : CVR_TUNING_NEAR_REPEATS;
    const int tie = repeat_within(c, CVR_TUNING_NEAR, times, waiting);
    if (tie >= 0) return tie;
  }
  if (first >= 0) return first;
  /* then the contenders, least measured first */
  return repeat_within(c, CVR_TUNING_CONTENDER, repeats, waiting);
}

int cvr_tuning_next(const cvr_tuning_class *c, int repeats) {
  return cvr_tuning_next_ready(c, repeats, NULL);
}

double cvr_tuning_mean(const cvr_tuning_class *c, int i) {
  return c->measured[i] > 0 ? c->cost_sum[i] / c->measured[i] : INFINITY;
}

void cvr_tuning_update_best(cvr_tuning_class *c) {
  int best = -1;
  for (int j = 0; j < c->count; ++j)
    if (!c->dropped[j] && c->measured[j] > 0 &&
        (best < 0 || cvr_tuning_mean(c, j) < cvr_tuning_mean(c, best)))
      best = j;
  if (best < 0) { /* nothing measured yet: the lowest prior still standing */
    for (int j = 0; j < c->count; ++j)
      if (!c->dropped[j] && (best < 0 || c->prior[j] < c->prior[best])) best = j;
    if (best < 0) best = 0;
  }
  c->best = best;
}

void cvr_tuning_record(cvr_tuning_class *c, int i, double cost, double prune) {
  if (i < 0 || i >= c->count) return;
  const int valid = cost > 0.0 && isfinite(cost);
  if (valid && c->pending[i] > 0.0) { /* the confirmation */
    if (c->pending_slower[i]) {
      cost = fmax(cost, c->pending[i]);
    } else {
      c->measured[i] += 1;
      c->cost_sum[i] += c->pending[i];
    }
  } else if (valid && c->measured[i] == 0 && i != c->best && c->measured[c->best] > 0 &&
             cost < cvr_tuning_mean(c, c->best)) {
    c->pending[i] = cost; /* a first win: measured again before it counts */
    c->pending_slower[i] = cost * CVR_TUNING_CONTENDER < cvr_tuning_mean(c, c->best);
    return;
  }
  c->pending[i] = 0.0;
  if (!valid) {
    c->dropped[i] = 1;
  } else {
    c->measured[i] += 1;
    c->cost_sum[i] += cost;
  }
  cvr_tuning_update_best(c);
  const double limit = prune * cvr_tuning_mean(c, c->best);
  for (int j = 0; j < c->count; ++j)
    if (j != c->best && !c->dropped[j] && c->measured[j] > 0 && cvr_tuning_mean(c, j) > limit)
      c->dropped[j] = 1;
}

void cvr_tuning_record_relative(cvr_tuning_class *c, int i, double cost, double reference,
                                double prune) {
  const int scaled = cost > 0.0 && reference > 0.0 && isfinite(reference) &&
                     c->measured[c->best] > 0;
  cvr_tuning_record(c, i, scaled ? cost * cvr_tuning_mean(c, c->best) / reference : cost, prune);
}

int cvr_tuning_steady(double previous_ms, long long frames_before, double ms) {
  return previous_ms > 0.0 && ms > 0.0 && isfinite(previous_ms) && isfinite(ms) &&
         frames_before >= 1 && frames_before <= CVR_TUNING_STEADY_FRAMES &&
         ms <= CVR_TUNING_STEADY * previous_ms && previous_ms <= CVR_TUNING_STEADY * ms;
}

int cvr_tuning_order_valid(const int order[3]) {
  if (!order[0] && !order[1] && !order[2]) return 1;
  /* one that quarter turns reach: they reach the 24 signed permutations
   * that are no mirror images, and nothing else */
  static const int own[3] = {1, 2, 3};
  int path[8];
  return cvr_rotation_path(own, order, 6, path, 8) >= 0;
}

int cvr_tuning_account(const cvr_tuning_class *c, int i) {
  if (i < 0 || i >= c->count) return 0;
  if (c->measured[i] > 0) return further_waiting(c); /* (a near tie's repeat takes their turn) */
  return measured_count(c) >= CVR_TUNING_CORE;
}

int cvr_tuning_budget_allows(const cvr_tuning_budget *b, int account, double share) {
  if (share >= 1.0) return 1;
  const double mean_frame = b->frames > 0 ? b->frames_ms / (double)b->frames : 0.0;
  /* (the cells' credit pays for cells only) */
  const double spent = b->spent_ms[account != 0] +
                       (account == CVR_TUNING_CELL_ACCOUNT ? fmax(0.0, b->cells_ms) : 0.0);
  /* (a table's first frames: half the share, tuner.h) */
  const double now = b->frames < CVR_TUNING_BUDGET_EARLY_FRAMES ? 0.5 * share : share;
  return spent <= 0.5 * (now * b->frames_ms + CVR_TUNING_BUDGET_ALLOWANCE * mean_frame);
}

void cvr_tuning_budget_frame(cvr_tuning_budget *b, double ms, int account, double excess_ms) {
  if (!(ms > 0.0) || !isfinite(ms)) return;
  b->frames_ms += ms;
  b->frames += 1;
  if (excess_ms > 0.0 && isfinite(excess_ms)) b->spent_ms[account != 0] += excess_ms;
}

void cvr_tuning_budget_cell_frame(cvr_tuning_budget *b, double ms, double reference_ms) {
  if (!(ms > 0.0) || !isfinite(ms) || !(reference_ms > 0.0) || !isfinite(reference_ms)) return;
  b->frames_ms += ms;
  b->frames += 1;
  b->cells_ms += fmax(ms - reference_ms, -CVR_TUNING_CELL_CREDIT * reference_ms);
}

double cvr_tuning_budget_spent(const cvr_tuning_budget *b) {
  return b->spent_ms[0] + b->spent_ms[1] + fmax(0.0, b->cells_ms);
}

#define CELL_STEPS (180 / CVR_TUNING_CELL_DEGREES) /* per lean */

/* Where view direction d lies among class k's cells: which way along the
 * class's normal (the return value) and its lean toward each axis of the
 * plane, -90 .. 90 degrees, in cell widths from -90 (pos). */
static int cell_place(int view_class, const float d[3], double pos[2]) {
  const int normal = CVR_TUNING_CLASS_AXIS(view_class);
  const int primary = normal == 0 ? 1 : 0, secondary = 3 - normal - primary;
  const double along = fabs((double)d[normal]);
  const int axes[2] = {primary, secondary};
  for (int a = 0; a < 2; ++a) {
    const double lean = atan2((double)d[axes[a]], along) * (180.0 / 3.14159265358979323846);
    pos[a] = (lean + 90.0) / (double)CVR_TUNING_CELL_DEGREES;
  }
  return d[normal] < 0.0f ? 1 : 0;
}

static int cell_step(double pos) {
  const int step = (int)floor(pos);
  return step < 0 ? 0 : step >= CELL_STEPS ? CELL_STEPS - 1 : step;
}

/* (roll 0 keeps the bins of tables kept before the roll bands) */
static int bin_of(int side, int q0, int q1, int roll) {
  const int band = roll < 0 ? 0 : roll >= CVR_TUNING_ROLL_BINS ? CVR_TUNING_ROLL_BINS - 1 : roll;
  return (band * 2 + side) * CELL_STEPS * CELL_STEPS + q0 * CELL_STEPS + q1;
}

int cvr_tuning_cell_bin(int view_class, const float d[3], int roll) {
  double pos[2];
  const int side = cell_place(view_class, d, pos);
  return bin_of(side, cell_step(pos[0]), cell_step(pos[1]), roll);
}

/* Class k's cell `bin`, if there is one (its use not counted). */
static const cvr_tuning_cell *find_cell(const cvr_tuning_table *t, int view_class, int bin) {
  for (int j = 0; j < CVR_TUNING_CELLS; ++j)
    if (t->cells[j].used && t->cells[j].view_class == view_class && t->cells[j].bin == bin)
      return &t->cells[j];
  return NULL;
}

void cvr_tuning_cells_at(cvr_tuning_table *t, int view_class, const float d[3], int roll,
                         int create, cvr_tuning_view_cells *out) {
  memset(out, 0, sizeof *out);
  double pos[2], weight[2];
  int q[2], next[2];
  const int side = cell_place(view_class, d, pos);
  for (int a = 0; a < 2; ++a) {
    q[a] = cell_step(pos[a]);
    const double off = pos[a] - (q[a] + 0.5); /* from the cell's centre, -0.5 .. 0.5 */
    next[a] = q[a] + (off >= 0.0 ? 1 : -1);
    weight[a] = next[a] >= 0 && next[a] < CELL_STEPS ? fmin(0.5, fabs(off)) : 0.0;
  }
  out->own = cvr_tuning_cell_for(t, view_class, bin_of(side, q[0], q[1], roll), create);
  if (!out->own) return;
  const int corner[4][2] = {{q[0], q[1]}, {next[0], q[1]}, {q[0], next[1]}, {next[0], next[1]}};
  const double w[4] = {(1.0 - weight[0]) * (1.0 - weight[1]), weight[0] * (1.0 - weight[1]),
                       (1.0 - weight[0]) * weight[1], weight[0] * weight[1]};
  for (int j = 0; j < 4; ++j) {
    const cvr_tuning_cell *cell = out->own;
    if (j > 0) /* (none: another class's views, or none seen there yet) */
      cell = w[j] > 0.0 ? find_cell(t, view_class, bin_of(side, corner[j][0], corner[j][1], roll))
                        : NULL;
    if (!cell) continue;
    out->cells[out->count] = cell;
    out->weights[out->count++] = w[j];
  }
}

/* A view that sees one cell alone (cell may be NULL: none). */
static void one_cell(const cvr_tuning_cell *cell, cvr_tuning_view_cells *out) {
  memset(out, 0, sizeof *out);
  if (!cell) return;
  out->cells[0] = cell;
  out->weights[0] = 1.0;
  out->count = 1;
}

cvr_tuning_cell *cvr_tuning_cell_for(cvr_tuning_table *t, int view_class, int bin, int create) {
  cvr_tuning_cell *cell = NULL, *oldest = NULL;
  for (int j = 0; j < CVR_TUNING_CELLS && !cell; ++j) {
    cvr_tuning_cell *x = &t->cells[j];
    if (x->used && x->view_class == view_class && x->bin == bin) cell = x;
    else if (!oldest || (oldest->used && (!x->used || x->last_used < oldest->last_used))) oldest = x;
  }
  if (!cell && create) {
    cell = oldest;
    memset(cell, 0, sizeof *cell);
    cell->used = 1;
    cell->view_class = view_class;
    cell->bin = bin;
  }
  if (cell) cell->last_used = ++t->cell_clock;
  return cell;
}

void cvr_tuning_cells_clear(cvr_tuning_table *t, int view_class) {
  for (int j = 0; j < CVR_TUNING_CELLS; ++j)
    if (t->cells[j].used && t->cells[j].view_class == view_class)
      memset(&t->cells[j], 0, sizeof t->cells[j]);
}

int cvr_tuning_finalists(const cvr_tuning_class *c, int out[CVR_TUNING_FINALISTS]) {
  const double limit = CVR_TUNING_FINALIST * cvr_tuning_mean(c, c->best);
  int all[CVR_TUNING_MAX_CANDIDATES], n = 0;
  for (int i = 0; i < c->count; ++i)
    if (i != c->best && !c->dropped[i] && c->measured[i] && cvr_tuning_mean(c, i) <= limit)
      all[n++] = i;
  for (int a = 1; a < n; ++a) /* by mean, stable */
    for (int b = a; b > 0 && cvr_tuning_mean(c, all[b]) < cvr_tuning_mean(c, all[b - 1]); --b) {
      const int x = all[b];
      all[b] = all[b - 1];
      all[b - 1] = x;
    }
  if (n > CVR_TUNING_FINALISTS) n = CVR_TUNING_FINALISTS;
  memcpy(out, all, (size_t)n * sizeof all[0]);
  return n;
}

static double cell_mean(const cvr_tuning_cell *cell, int i) {
  return cell && cell->measured[i] ? cell->ratio_sum[i] / cell->measured[i] : INFINITY;
}

/* Candidate i's ratio to the class's best at a view: the weighted mean of
 * its cells' means, over those that measured it at least `least` times (at
 * least once); infinite unless the view's own cell has. */
static double view_mean(const cvr_tuning_view_cells *v, int i, int least) {
  if (least < 1) least = 1;
  if (!v || !v->count || v->cells[0]->measured[i] < least) return INFINITY;
  double sum = 0.0, weight = 0.0;
  for (int j = 0; j < v->count; ++j)
    if (v->cells[j]->measured[i] >= least) {
      sum += v->weights[j] * cell_mean(v->cells[j], i);
      weight += v->weights[j];
    }
  return sum / weight;
}

double cvr_tuning_view_ratio(const cvr_tuning_view_cells *v, const cvr_tuning_class *c, int i) {
  return i == c->best ? 1.0 : view_mean(v, i, 1);
}

int cvr_tuning_cell_next(const cvr_tuning_cell *cell, const cvr_tuning_class *c, int repeats) {
  int finalists[CVR_TUNING_FINALISTS];
  const int n = cvr_tuning_finalists(c, finalists);
  int pick = -1, least = 0; /* the least measured, the lower class mean first */
  for (int f = 0; f < n; ++f) {
    const int i = finalists[f], measured = cell ? cell->measured[i] : 0;
    /* left: one far slower at once, one clearly slower after two
     * measurements, or not faster than the class's best after three (it
     * would not be chosen) */
    if (measured >= repeats || (measured >= 1 && cell_mean(cell, i) > CVR_TUNING_CELL_LEAVE) ||
        (measured >= 2 && cell_mean(cell, i) > CVR_TUNING_CELL_DROP) ||
        (measured >= 3 && cell_mean(cell, i) >= 1.0))
      continue;
    if (pick < 0 || measured < least) pick = i, least = measured;
  }
  return pick;
}

int cvr_tuning_view_choice(const cvr_tuning_view_cells *v, const cvr_tuning_class *c,
                           int repeats) {
  int finalists[CVR_TUNING_FINALISTS];
  const int n = v && v->count ? cvr_tuning_finalists(c, finalists) : 0;
  const int enough = repeats < 2 ? repeats : 2;
  int choice = c->best;
  double least = 1.0; /* the class's best, against itself */
  for (int f = 0; f < n; ++f) {
    const double mean = view_mean(v, finalists[f], enough);
    if (mean < least) {
      least = mean;
      choice = finalists[f];
    }
  }
  return choice;
}

int cvr_tuning_cell_choice(const cvr_tuning_cell *cell, const cvr_tuning_class *c, int repeats) {
  cvr_tuning_view_cells v;
  one_cell(cell, &v);
  return cvr_tuning_view_choice(&v, c, repeats);
}

void cvr_tuning_cell_record(cvr_tuning_cell *cell, int i, double ratio) {
  if (!cell || i < 0 || i >= CVR_TUNING_MAX_CANDIDATES || !(ratio > 0.0) || !isfinite(ratio) ||
      cell->measured[i] == 255)
    return;
  cell->measured[i] += 1;
  cell->ratio_sum[i] += (float)fmin(4.0, fmax(0.25, ratio)); /* one wild frame bounded */
}

int cvr_tuning_rotation_trial_view(const float d[3], int partners, int fallback) {
  return cvr_rotation_turn(d, partners, fallback, CVR_ROTATION_HYSTERESIS,
                           CVR_TUNING_ROTATION_LEAN - 45.0, 0) != 0;
}

int cvr_tuning_rotation_record(cvr_tuning_rotation *r, double ratio) {
  if (r->decision != 0 || !(ratio > 0.0) || !isfinite(ratio) ||
      r->trials >= CVR_TUNING_ROTATION_TRIALS)
    return 0;
  r->ratios[r->trials++] = fmin(4.0, fmax(0.25, ratio));
  /* the median so far */
  double q[CVR_TUNING_ROTATION_TRIALS];
  const int n = r->trials;
  memcpy(q, r->ratios, sizeof q);
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && q[j - 1] > q[j]; --j) {
      const double swap = q[j];
      q[j] = q[j - 1];
      q[j - 1] = swap;
    }
  const double typical = n % 2 ? q[n / 2] : 0.5 * (q[n / 2 - 1] + q[n / 2]);
  /* not faster: two trials of which neither was, or three by their median */
  const int slower = (n == 2 && q[0] >= 1.0) || (n == 3 && typical >= 1.0);
  if (n < CVR_TUNING_ROTATION_TRIALS && !slower) return 0;
  cvr_tuning_rotation_decide(r, typical);
  return 1;
}

int cvr_tuning_toward_record(cvr_tuning_toward *w, double ratio) {
  if (w->decision != 0 || !(ratio > 0.0) || !isfinite(ratio) ||
      w->trials >= CVR_TUNING_TOWARD_TRIALS)
    return 0;
  w->ratios[w->trials++] = (float)fmin(4.0, fmax(0.25, ratio));
  const double faster = 1.0 - CVR_TUNING_ROTATION_GAIN;
  double typical = w->ratios[0];
  if (w->trials == 2) {
    const double a = w->ratios[0], b = w->ratios[1];
    if (!((a <= faster && b <= faster) || (a >= 1.0 && b >= 1.0))) return 0;
    typical = fmax(a, b);
  } else if (w->trials == 3) {
    const double a = w->ratios[0], b = w->ratios[1], c = w->ratios[2];
    typical = fmax(fmin(a, b), fmin(fmax(a, b), c)); /* the median */
  } else {
    return 0;
  }
  w->decision = typical <= faster ? 1 : -1;
  w->ratio = (float)typical;
  return 1;
}

int cvr_tuning_toward_watch(cvr_tuning_toward_account *w, double frame_ms, double ratio,
                            double turn_ms) {
  if (!(frame_ms >= 0.0) || !isfinite(frame_ms)) return 0;
  w->frames += 1;
  if (ratio > 0.0 && ratio < 1.0) w->saved_ms += frame_ms * (1.0 / ratio - 1.0);
  if (!(turn_ms > 0.0) || !isfinite(turn_ms)) return 0;
  /* (as the rotation's watch: a turn pays ahead for the frames after it) */
  if (w->frames >= CVR_TUNING_ROTATION_WATCH && w->turns_ms > w->saved_ms) return 1;
  w->turns_ms += turn_ms;
  return 0;
}

void cvr_tuning_rotation_decide(cvr_tuning_rotation *r, double ratio) {
  r->gain = 1.0 - ratio;
  r->decision = r->gain >= CVR_TUNING_ROTATION_GAIN ? 1 : -1;
  r->frames = 0; /* the watch starts afresh */
  r->saved_ms = r->turns_ms = 0.0;
}

int cvr_tuning_rotation_watch(cvr_tuning_rotation *r, double frame_ms, int favoured,
                              double turn_ms) {
  if (r->decision != 1 || !(frame_ms >= 0.0) || !isfinite(frame_ms)) return 0;
  r->frames += 1;
  /* the frame took (1 - gain) of what it would have unturned */
  if (favoured) r->saved_ms += frame_ms * r->gain / (1.0 - r->gain);
  if (!(turn_ms > 0.0) || !isfinite(turn_ms)) return 0;
  /* judged at a turn: the turns before it against what the frames since
   * the first saved (a turn pays ahead for the frames that follow it) */
  if (r->frames >= CVR_TUNING_ROTATION_WATCH && r->turns_ms > r->saved_ms) {
    r->decision = -1;
    return 1;
  }
  r->turns_ms += turn_ms;
  return 0;
}
