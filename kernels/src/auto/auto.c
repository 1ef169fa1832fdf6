// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Strategy AUTO: what the tuner's model (tuner.c) learns, wired into
 * rendering. While a class has not converged, its frames alternate: one with
 * the class's best so far, then one with the next candidate to measure
 * (every strategy renders the same image, so the user sees no difference but
 * its speed), whose kernel time is recorded against the best's at the frame
 * before (cvr_tuning_record_relative: views within a class differ in cost,
 * neighbouring views hardly), if that frame was steady (cvr_tuning_steady:
 * as fast as the best's frame before it). A frame measures only while
 * the table's budget allows (cvr_tuning_budget: what measuring has cost
 * stays within the settings' tuning_budget share of the frames' time) and
 * no helper thread is loading kernels. A converged class goes on in the
 * view's cell (tuner.h: its finalists measured again there, the same way)
 * and renders with the cell's choice. Tables live in the context and, once a
 * class or a cell converges, in the cache directory. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "auto_internal.h"
#include "cuda_backend.h"


static const char *default_dir(char *out, size_t size) {
  const char *env = getenv("CVR_TUNING_CACHE_DIR");
  const char *xdg = getenv("XDG_CACHE_HOME");
  const char *home = getenv("HOME");
  if (env) snprintf(out, size, "%s", env);
  else if (xdg && xdg[0]) snprintf(out, size, "%s/cvr", xdg);
  else if (home && home[0]) snprintf(out, size, "%s/.cache/cvr", home);
  else out[0] = '\0';
  return out;
}

cvr_status cvr_tuner_create(cvr_context *ctx) {
  ctx->tuner = calloc(1, sizeof *ctx->tuner);
  if (!ctx->tuner) return CVR_ERROR_OUT_OF_MEMORY;
  default_dir(ctx->tuner->dir, sizeof ctx->tuner->dir);
  const char *debug = getenv("CVR_DEBUG_ROTATION");
  ctx->tuner->debug_rotation = debug && debug[0] && strcmp(debug, "0");
  return CVR_OK;
}

void cvr_tuner_destroy(cvr_context *ctx) {
  for (int i = 0; i < ctx->tuner->preload_count; ++i)
    cvr_kernel_preload_finish(ctx->tuner->preloads[i].loader);
  free(ctx->tuner);
  ctx->tuner = NULL;
}

/* n rounded to the nearer power of two (in ratio) */
static int power_of_two_class(int n) {
  int p = 1;
  while (p <= n / 2) p *= 2; /* p <= n < 2p */
  return (double)n * n > 2.0 * p * p ? 2 * p : p;
}

/* The device (GPU model and driver, or CPU threads) the measurements
 * belong to. */
static const char *device_key(const cvr_context *ctx, cvr_tuner *tu) {
  if (!tu->device[0]) {
    char device[128];
    snprintf(device, sizeof device, "%.120s", ctx->description);
    char *paren = strchr(device, '(');
    if (paren && ctx->backend == CVR_BACKEND_CUDA) *paren = '\0'; /* the model, not the ordinal */
    snprintf(tu->device, sizeof tu->device, "%s| driver %d", device,
             ctx->backend == CVR_BACKEND_CUDA ? cvr_cuda_driver_version() : 0);
  }
  return tu->device;
}

/* Everything a table's measurements depend on, beside the view class. */
static void table_key(const cvr_context *ctx, const cvr_volume *volume, const cvr_view *view,
                      const cvr_render_settings *s, char *out, size_t size) {
  const size_t bytes = cvr_scalar_type_size(volume->stored_type);
  /* composite keeps the key it had before the other blend modes came */
  char blend[48] = "";
  if (s->blend_mode != CVR_BLEND_COMPOSITE)
    snprintf(blend, sizeof blend, " | %s", cvr_blend_mode_name(s->blend_mode));
  else if (cvr_skip_shift_for(s)) /* skipping moves the costs: tuned apart */
    snprintf(blend, sizeof blend, " | skip %d", s->empty_space_cell);
  /* jittered frames have no slab candidates (tuning_frames) */
  snprintf(out, size, "%s | %dx%dx%d %s | image %dx%d | %s | %s%s%s", device_key(ctx, ctx->tuner),
           volume->dims[0], volume->dims[1], volume->dims[2],
           volume->stored_type == CVR_FLOAT32 ? "float" : (bytes == 1 ? "8-bit" : "16-bit"),
           power_of_two_class(view->width), power_of_two_class(view->height),
           view->projection == CVR_PROJECTION_PERSPECTIVE ? "perspective" : "parallel",
           s->shading.enabled ? "shaded" : "unshaded", blend, s->jittering ? " | jittered" : "");
}

static cvr_tuning_frames tuning_frames(const cvr_tuning_table *t, const cvr_render_settings *s) {
  const cvr_tuning_frames f = {s->shading.enabled, s->blend_mode, t->many_waves, s->jittering};
  return f;
}

static cvr_tuning_table *table_for(cvr_context *ctx, const cvr_volume *volume,
                                   const cvr_view *view, const cvr_render_settings *s) {
  cvr_tuner *tu = ctx->tuner;
  char key[256];
  table_key(ctx, volume, view, s, key, sizeof key);
  cvr_tuning_table *t = NULL;
  for (int i = 0; i < tu->table_count && !t; ++i)
    if (!strcmp(tu->tables[i].key, key)) t = &tu->tables[i];
  if (!t) {
    if (tu->table_count < MAX_TABLES) {
      t = &tu->tables[tu->table_count++];
    } else { /* the least recently used goes (its converged classes are on disk) */
      t = &tu->tables[0];
      for (int i = 1; i < MAX_TABLES; ++i)
        if (tu->tables[i].last_used < t->last_used) t = &tu->tables[i];
    }
    memset(t, 0, sizeof *t);
    tu->reference_table = NULL;
    tu->steady_table = NULL;
    snprintf(t->key, sizeof t->key, "%s", key);
    t->layout = CVR_LAYOUT_TEXTURE;
    /* (the key's image size class, so that the order follows from the key) */
    t->many_waves = cvr_tuning_many_waves(power_of_two_class(view->width),
                                          power_of_two_class(view->height), ctx->multiprocessors);
    const cvr_tuning_frames frames = tuning_frames(t, s);
    for (int k = 0; k < CVR_TUNING_CLASSES; ++k)
      cvr_tuning_class_init(&t->classes[k], ctx->backend, k, &frames);
    cvr_tuning_load(t, tu->dir, tu->warning, sizeof tu->warning);
  }
  t->last_used = ++tu->clock;
  return t;
}

void cvr_auto_save(cvr_context *ctx, const cvr_tuning_table *t) {
  cvr_tuner *tu = ctx->tuner;
  cvr_tuning_save(t, tu->dir, tu->warning, sizeof tu->warning);
}


/* The caller's settings with candidate i of class c and the table's layout. */
cvr_render_settings cvr_auto_concrete(const cvr_context *ctx, const cvr_tuning_table *t,
                                    const cvr_tuning_class *c, int i,
                                    const cvr_render_settings *s) {
  cvr_render_settings out = *s;
  cvr_candidate_apply(&c->candidates[i], &out);
  if (ctx->backend == CVR_BACKEND_CUDA) {
    out.memory_layout = t->layout;
    const cvr_tuning_rotation *r = &t->rotation;
    out.rotation_policy = r->decision == 1 ? CVR_ROTATION_HYSTERESIS : CVR_ROTATION_NEVER;
    if (r->decision == 0 && r->trials > 0) {
      /* between trials the copy stays as a trial left it: NEVER would
       * rebuild a padded volume unpadded (and unturned) */
      out.rotation_policy = CVR_ROTATION_HYSTERESIS;
      out.rotation_hysteresis = ROTATION_HOLD;
    }
    if (ctx->tuner->hold_order) { /* (turned toward the rays before the frame) */
      out.rotation_policy = CVR_ROTATION_HYSTERESIS;
      out.rotation_hysteresis = ROTATION_HOLD;
    }
  }
  return out;
}

/* Whether frames with tf in settings s take gradients for gradient opacity
 * or a 2D transfer function (the kernels' gradient instances, as shading
 * does). Labels' gradient opacity counts whether or not the volume has a
 * mask: an instance too many is only preloaded. */
static int gradient_opacity(const cvr_transfer_function *tf, const cvr_render_settings *s) {
  return s->blend_mode == CVR_BLEND_COMPOSITE &&
         (tf->gradient_size > 0 || tf->table_2d ||
          (tf->label_gradient && s->mask_type == CVR_MASK_LABEL_MAP));
}

static cvr_kernel_instance kernel_instance(const cvr_volume *volume, const cvr_tuning_table *t,
                                       const cvr_render_settings *s, int gradients) {
  const cvr_kernel_instance key = {(int)volume->stored_type, (int)t->layout,
                                   s->shading.enabled, (int)s->blend_mode, gradients};
  return key;
}

static int same_instance(const cvr_kernel_instance *a, const cvr_kernel_instance *b) {
  return a->stored_type == b->stored_type && a->layout == b->layout && a->shading == b->shading &&
         a->blend == b->blend && a->gradients == b->gradients;
}

static int same_family(const cvr_kernel_family *a, const cvr_kernel_family *b) {
  return a->strategy == b->strategy && a->split == b->split && a->slab_depth == b->slab_depth &&
         a->slab_gathered == b->slab_gathered;
}

/* Whether candidate c runs the standard kernel (every block and the
 * block-shape choice). */
static int standard_kernel(const cvr_candidate *c) {
  return c->strategy == CVR_STRATEGY_STANDARD || c->strategy == CVR_STRATEGY_BLOCK_SHAPE;
}

/* What CUDA loads for a candidate beside its instance (kernel_instance): its
 * kernel. The standard kernel serves every block and the block-shape
 * choice, its split kernel (standard_split.cu) every block with ray
 * segments, warp marching every warp width and shape of warps; the slab
 * kernel is one per depth and border. A kernel loads once for all the
 * shapes it is launched with: a class whose first frame had loaded the
 * standard kernel still held its other blocks back until the helper thread
 * had launched each (19-25 frames into a first orbit, the block-shape
 * choice measured again meanwhile). */
static cvr_kernel_family kernel_family(const cvr_candidate *c) {
  cvr_kernel_family f = {(int)c->strategy, 0, 0, 0};
  if (standard_kernel(c)) {
    f.strategy = CVR_STRATEGY_STANDARD;
    f.split = c->ray_segments > 1;
  } else if (c->strategy == CVR_STRATEGY_SLAB) {
    f.slab_depth = c->slab_depth;
    f.slab_gathered = c->slab_border == CVR_SLAB_BORDER_GATHERED;
  }
  return f;
}

/* What table t renders: each class's best and its cells' choices (a view
 * near a cell's edge may render another finalist its cell measured, as
 * the cell beside it weighs in: stand_in until that kernel is loaded). */
static void table_renders(const cvr_tuning_table *t, int repeats,
                          unsigned char out[CVR_TUNING_CLASSES][CVR_TUNING_MAX_CANDIDATES]) {
  memset(out, 0, CVR_TUNING_CLASSES * sizeof out[0]);
  for (int k = 0; k < CVR_TUNING_CLASSES; ++k) out[k][t->classes[k].best] = 1;
  for (int j = 0; j < CVR_TUNING_CELLS; ++j) {
    const cvr_tuning_cell *cell = &t->cells[j];
    if (cell->used && cell->view_class >= 0 && cell->view_class < CVR_TUNING_CLASSES)
      out[cell->view_class][cvr_tuning_cell_choice(cell, &t->classes[cell->view_class], repeats)] = 1;
  }
}

/* What CUDA loads for frames of `volume` in settings s (kernel_preload.h):
 * the settings as the frame renders them. gradients: gradient_opacity's. */
static void kernel_use(const cvr_volume *volume, cvr_render_settings s, int gradients,
                       cvr_kernel_use *out) {
  cvr_render_settings storage;
  out->settings = *cvr_frame_settings(volume, &s, &storage);
  out->stored_type = volume->stored_type;
  out->gradients = s.shading.enabled || gradients;
  out->scatters = cvr_shading_scatters(&s.shading, s.blend_mode);
}

/* Starts loading every candidate's kernels for this volume type, layout and
 * shading on a helper thread, once per context: the standard kernel's first
 * (the first frame loads it: it is ready at once), then those the table
 * renders (each class's best and its cells' choices: a table kept from an
 * earlier run renders them from its first frames on, stand_in meanwhile),
 * then the others in the order the classes measure them, this view's class
 * first in each, then the rotation kernel. Each as the frame renders it
 * (cvr_frame_settings: a strategy that does not render a case loads the
 * standard kernel's instances). */
static void start_preload(cvr_context *ctx, const cvr_tuning_table *t, int k,
                          const cvr_volume *volume, const cvr_render_settings *s, int gradients) {
  cvr_tuner *tu = ctx->tuner;
  if (ctx->backend != CVR_BACKEND_CUDA || tu->preload_count == MAX_PRELOADS) return;
  const cvr_kernel_instance key = kernel_instance(volume, t, s, gradients);
  for (int i = 0; i < tu->preload_count; ++i)
    if (same_instance(&tu->preloads[i].instance, &key)) return;
  cvr_kernel_use *uses = calloc(CVR_PRELOAD_MAX_CONFIGS, sizeof *uses); /* (the helper copies them) */
  if (!uses) return;
  cvr_kernel_family *families = tu->preloads[tu->preload_count].families;
  unsigned char renders[CVR_TUNING_CLASSES][CVR_TUNING_MAX_CANDIDATES];
  table_renders(t, s->tuning_repeats, renders);
  int n = 0;
  for (int pass = 0; pass < 3; ++pass)
    for (int j = 0; j < CVR_TUNING_CLASSES; ++j) {
      const int kj = (k + j) % CVR_TUNING_CLASSES;
      const cvr_tuning_class *c = &t->classes[kj];
      for (int i = 0; i < c->count && n < CVR_PRELOAD_MAX_CONFIGS - 1; ++i) {
        const cvr_kernel_family family = kernel_family(&c->candidates[i]);
        int seen = pass == 0 ? !standard_kernel(&c->candidates[i])
                   : pass == 1 ? !renders[kj][i]
                               : 0;
        for (int m = 0; m < n && !seen; ++m) seen = same_family(&families[m], &family);
        if (seen) continue;
        families[n] = family;
        kernel_use(volume, cvr_auto_concrete(ctx, t, c, i, s), gradients, &uses[n++]);
      }
    }
  cvr_render_settings rotating = cvr_auto_concrete(ctx, t, &t->classes[k], t->classes[k].best, s);
  rotating.rotation_policy = CVR_ROTATION_HYSTERESIS;
  kernel_use(volume, rotating, gradients, &uses[n]);
  const cvr_kernel_family rotation = {-1, 0, 0, 0};
  families[n++] = rotation;
  tu->preloads[tu->preload_count].count = n;
  tu->preloads[tu->preload_count].instance = key;
  tu->preloads[tu->preload_count++].loader = cvr_kernel_preload_start(ctx->device_index, uses, n);
  free(uses);
}

/* Whether a helper thread is still loading kernels. */
static int helper_running(const cvr_tuner *tu) {
  for (int p = 0; p < tu->preload_count; ++p)
    if (tu->preloads[p].loader && !cvr_kernel_preload_done(tu->preloads[p].loader)) return 1;
  return 0;
}

/* Whether the helper thread has loaded candidate i's kernel. instance: the
 * frame's kernel_instance. */
static int helper_loaded(const cvr_tuner *tu, const cvr_kernel_instance *instance,
                         const cvr_tuning_class *c, int i) {
  const cvr_kernel_family family = kernel_family(&c->candidates[i]);
  for (int p = 0; p < tu->preload_count; ++p) {
    if (!same_instance(&tu->preloads[p].instance, instance) || !tu->preloads[p].loader) continue;
    const int loaded = cvr_kernel_preload_loaded(tu->preloads[p].loader);
    for (int m = 0; m < tu->preloads[p].count; ++m)
      if (same_family(&tu->preloads[p].families[m], &family)) return m < loaded;
  }
  return 0;
}

/* Whether the device can run candidate i; one it cannot is dropped. */
static int runnable(cvr_context *ctx, const cvr_render_settings *s) {
  char saved[CVR_MESSAGE_SIZE];
  memcpy(saved, ctx->last_error, sizeof saved);
  const int ok = cvr_validate_settings(ctx, s) == CVR_OK &&
                 (ctx->backend != CVR_BACKEND_CUDA || cvr_cuda_validate_settings(ctx, s) == CVR_OK);
  memcpy(ctx->last_error, saved, sizeof saved);
  return ok;
}

/* Whether candidate i's kernel has run in this context (it is loaded).
 * instance: the frame's kernel_instance. */
static int is_warm(const cvr_tuner *tu, const cvr_kernel_instance *instance,
                   const cvr_tuning_class *c, int i) {
  const cvr_kernel_family family = kernel_family(&c->candidates[i]);
  for (int k = 0; k < tu->warm_count; ++k)
    if (same_instance(&tu->warm[k].instance, instance) && same_family(&tu->warm[k].family, &family))
      return 1;
  return 0;
}

static void mark_warm(cvr_tuner *tu, const cvr_kernel_instance *instance, const cvr_tuning_class *c,
                      int i) {
  if (is_warm(tu, instance, c, i)) return;
  if (tu->warm_count == MAX_WARM) { /* full: the oldest goes (at worst a needless 8 x 8 frame) */
    memmove(&tu->warm[0], &tu->warm[1], (MAX_WARM - 1) * sizeof tu->warm[0]);
    --tu->warm_count;
  }
  tu->warm[tu->warm_count].instance = *instance;
  tu->warm[tu->warm_count++].family = kernel_family(&c->candidates[i]);
}

double cvr_auto_cost_of(const cvr_render_stats *st) {
  return st->samples ? st->kernel_ms * 1e6 / (double)st->samples : 0.0;
}

/* The device copy's voxel order (as cvr_render_stats.volume_axes). */
void cvr_auto_copy_order(const cvr_volume *volume, int order[3]) {
  int axis[3], sign[3], offset[3];
  cvr_cuda_volume_orientation(volume, axis, sign, offset);
  for (int a = 0; a < 3; ++a) order[a] = sign[a] * (axis[a] + 1);
}

/* A new table's voxel order, predicted from its first view: stored x along
 * the volume axis nearest the screen's vertical, where a quarter turn puts
 * it there without padding (Misaki et al.: views along stored x are the
 * slow ones). Views turn most about the screen's vertical (horizontal
 * drags, turntables, the benchmark's orbits), and then never look along
 * it; first orbits then pay less for running in another order until a
 * trial (doc/tuning.md, the predicted order). A view that looks
 * along stored x after all still holds a rotation trial. Leaves t->order
 * as it is (none) where nothing is predicted: no axis is within 45 degrees
 * of the vertical, or x is it. */
static void predict_order(cvr_context *ctx, cvr_tuning_table *t, const cvr_volume *volume,
                          const cvr_view *view, const cvr_render_settings *s) {
  cvr_ray_params p;
  if (cvr_build_ray_params(ctx, volume, view, s->sample_distance, &p) != CVR_OK) return;
  float right[3], up[3];
  cvr_screen_steps_index(&p, right, up);
  int axis = 0;
  for (int a = 1; a < 3; ++a)
    if (fabsf(up[a]) > fabsf(up[axis])) axis = a;
  const double length = sqrt((double)up[0] * up[0] + (double)up[1] * up[1] + (double)up[2] * up[2]);
  if (axis == 0 || !(fabs((double)up[axis]) >= 0.7071 * length) ||
      volume->dims[axis] != volume->dims[0])
    return;
  int order[3] = {1, 2, 3};
  cvr_rotation_turn_order(order, axis);
  memcpy(t->order, order, sizeof order);
}

/* Turns the copy to voxel order `order` (padded as trials pad: a copy
 * rendered NEVER is rebuilt unpadded, in its own order); *ms: the
 * wall time it took (may be NULL). */
cvr_status cvr_auto_turn_copy_to(cvr_context *ctx, cvr_tuning_table *t, const cvr_volume *volume,
                               const cvr_render_settings *s, const int order[3], double *ms) {
  cvr_render_settings turn = cvr_auto_concrete(ctx, t, &t->classes[0], t->classes[0].best, s);
  turn.rotation_policy = CVR_ROTATION_HYSTERESIS;
  turn.rotation_hysteresis = ROTATION_HOLD;
  const double start = cvr_now_ms();
  const cvr_status st = cvr_cuda_turn_to((cvr_volume *)volume, &turn, order, NULL, NULL);
  if (ms) *ms = cvr_now_ms() - start;
  return st;
}

/* Whether AUTO's next frame of table t renders in the table's voxel order
 * (t->order): the one it last rendered in, which its classes and cells
 * measured in (a new copy starts in the volume's own; a rotation trial
 * turns it), or a new table's predicted from this view (predict_order).
 * Not while rotation is on (it turns the copy per view), nor for a volume
 * that does not turn (several components), nor a new table where nothing
 * is predicted. */
static int renders_in_table_order(cvr_context *ctx, cvr_tuning_table *t,
                                  const cvr_volume *volume, const cvr_view *view,
                                  const cvr_render_settings *s) {
  if (ctx->backend != CVR_BACKEND_CUDA || t->rotation.decision == 1 || volume->components > 1)
    return 0;
  if (!t->order[0]) predict_order(ctx, t, volume, view, s);
  return t->order[0] != 0;
}

/* Turns the device copy to the table's voxel order where the next frame
 * renders in it (renders_in_table_order): the fewest quarter turns that
 * reach it, once per copy. *turned: whether it turned. */
static cvr_status restore_order(cvr_context *ctx, cvr_tuning_table *t, const cvr_volume *volume,
                                const cvr_view *view, const cvr_render_settings *s,
                                int *turned) {
  int order[3];
  *turned = 0;
  if (!renders_in_table_order(ctx, t, volume, view, s)) return CVR_OK;
  cvr_auto_copy_order(volume, order);
  if (memcmp(order, t->order, sizeof order)) {
    /* (a copy that needs padding and renders NEVER is rebuilt unpadded, in
     * its own order, at its next frame: the table's order then follows) */
    const int before[3] = {order[0], order[1], order[2]};
    const cvr_status st = cvr_auto_turn_copy_to(ctx, t, volume, s, t->order, NULL);
    if (st != CVR_OK) return st;
    cvr_auto_copy_order(volume, order);
    *turned = memcmp(order, before, sizeof order) != 0;
  }
  memcpy(t->order, order, sizeof order);
  return CVR_OK;
}

/* The view's class as the kernels see it: in the device copy's voxel order,
 * which in-place rotation turns, or (order not NULL) in that order. dir: the
 * view direction there; roll: the image's roll band (cvr_tuning_view_roll). */
cvr_status cvr_auto_view_class_of(cvr_context *ctx, const cvr_volume *volume, const cvr_view *view,
                                const cvr_render_settings *s, const int *order, int *out,
                                float dir[3], int *roll, float own_dir[3]) {
  cvr_ray_params p;
  const cvr_status st = cvr_build_ray_params(ctx, volume, view, s->sample_distance, &p);
  if (st != CVR_OK) return st;
  if (own_dir) cvr_view_direction_index(&p, own_dir);
  if (ctx->backend == CVR_BACKEND_CUDA) {
    int axis[3], sign[3], offset[3];
    cvr_cuda_volume_orientation(volume, axis, sign, offset);
    for (int a = 0; order && a < 3; ++a) { /* (directions only: no offsets) */
      axis[a] = abs(order[a]) - 1;
      sign[a] = order[a] > 0 ? 1 : -1;
      offset[a] = 0;
    }
    cvr_reorient_ray_params(&p, axis, sign, offset, &p);
  }
  *out = cvr_tuning_view_class(&p);
  if (dir) cvr_view_direction_index(&p, dir);
  if (roll) *roll = cvr_tuning_view_roll(&p);
  return CVR_OK;
}

/* Whether a view along dir (the device copy's index space) is a rotation
 * trial's (cvr_tuning_rotation_trial_view), for the copy's partners. */
static int trial_view(const cvr_volume *volume, const float dir[3]) {
  int fallback = 2;
  const int partners = cvr_cuda_volume_partners(volume, &fallback);
  return cvr_tuning_rotation_trial_view(dir, partners, fallback);
}

/* What a turn made before a frame took beyond the frame: its wall time
 * over an ordinary frame's (the rotation kernel, and what a turn rebuilds),
 * at least the rotation kernel's time. */
static double turn_cost(const cvr_tuner *tu, const cvr_render_stats *st) {
  if (st->rotations == 0) return 0.0;
  return fmax(st->rotation_ms, st->total_ms - st->kernel_ms - tu->frame_overhead_ms);
}

/* A rotation trial (tuner.h), once the view's class has converged and the
 * table has not decided: at a trial view, a frame turns the volume (padding
 * it first, once), renders, and renders again; the second is measured
 * against the class's best unturned at the frame before (the frame right
 * after a turn runs fast); the copy stays as it turned, unless it was
 * slower and turning back pays (an orbit about the axis a turn put along
 * stored x keeps the copy turned, as rotation on would; doc/tuning.md,
 * rotation trials). Counts
 * against the budget, the turns included (paid: its reference frame was
 * paid for, the trial follows).
 * *tried: 1 if this frame was one (then rendered, *local filled), -1 if it
 * would be but has no reference (then the frame renders the class's best,
 * to be one), else 0. */
static cvr_status rotation_trial(cvr_context *ctx, cvr_tuning_table *t, int k, const float dir[3],
                                 const cvr_volume *volume, const cvr_transfer_function *tf,
                                 const cvr_view *view, const cvr_render_settings *s,
                                 const cvr_image *image, double reference_ms, int paid,
                                 cvr_render_stats *local, int *tried) {
  *tried = 0;
  if (t->rotation.decision != 0 || ctx->backend != CVR_BACKEND_CUDA || ctx->tuner->hold_order ||
      !trial_view(volume, dir) ||
      (!paid && !cvr_tuning_budget_allows(&t->budget, 0, s->tuning_budget)))
    return CVR_OK;
  if (!(reference_ms > 0.0)) {
    *tried = -1;
    return CVR_OK;
  }
  const cvr_tuning_class *c = &t->classes[k];
  cvr_render_settings turn = cvr_auto_concrete(ctx, t, c, c->best, s);
  turn.rotation_policy = CVR_ROTATION_ON_REGION_CHANGE; /* (the view is past the border) */
  int before[3];
  cvr_auto_copy_order(volume, before);
  cvr_status st = cvr_render_frame(ctx, volume, tf, view, &turn, image, local);
  if (st != CVR_OK) return st;
  *tried = 1;
  if (local->rotations == 0) { /* this volume does not turn (several components) */
    t->rotation.decision = -1;
    cvr_auto_save(ctx, t);
  }
  const double turn_ms = turn_cost(ctx->tuner, local), frame_ms = local->kernel_ms;
  double excess = turn_ms;
  cvr_render_stats again = {0};
  if (local->rotations > 0) { /* the frame again, turned as it is now: the one measured */
    if ((st = cvr_render_frame(ctx, volume, tf, view, &turn, image, &again)) != CVR_OK) return st;
    excess += local->kernel_ms; /* (a whole frame more) */
    local->kernel_ms += again.kernel_ms;
    local->total_ms += again.total_ms;
  }
  const int measured = local->rotations > 0 && again.rotations == 0 && again.kernel_ms > 0.0;
  const double ratio = measured ? again.kernel_ms / reference_ms : 0.0;
  if (measured) excess += fmax(0.0, again.kernel_ms - reference_ms);
  /* a turn that was slower is undone (back to the order before it) where that
   * pays within CVR_TUNING_ROTATION_WATCH such frames: a copy left turned
   * serves every later frame, and an orbit about the rotation axis never
   * looks along stored x again for another trial */
  if (measured && ratio >= 1.0 &&
      3.0 * turn_ms <= (ratio - 1.0) * reference_ms * CVR_TUNING_ROTATION_WATCH) {
    const double start = cvr_now_ms();
    if ((st = cvr_cuda_turn_to((cvr_volume *)volume, &turn, before, NULL, NULL)) != CVR_OK)
      return st;
    excess += cvr_now_ms() - start;
  }
  cvr_tuning_budget_frame(&t->budget, frame_ms, 0, excess);
  const int decided = measured && cvr_tuning_rotation_record(&t->rotation, ratio);
  if (ctx->tuner->debug_rotation)
    fprintf(stderr, "cvr rotation trial %d: turn %.3f ms, turned frame %.4f then %.4f ms, "
            "reference %.4f ms, ratio %.4f%s\n", t->rotation.trials, turn_ms, frame_ms,
            again.kernel_ms, reference_ms, ratio,
            decided ? (t->rotation.decision == 1 ? ": on" : ": off") : "");
  if (decided) cvr_auto_save(ctx, t);
  return CVR_OK;
}

/* How long a hold of the helper threads lasts unless renewed: a frame of
 * the best kept as the next frame's reference holds them until that frame. */
#define HOLD_MS 100.0

/* Holds every helper thread between two loads (cvr_kernel_preload_hold): 1
 * when none is loading now, and none starts before the hold ends. */
static int hold_helpers(cvr_tuner *tu) {
  int quiet = 1;
  for (int p = 0; p < tu->preload_count; ++p)
    quiet &= cvr_kernel_preload_hold(tu->preloads[p].loader, HOLD_MS);
  return quiet;
}

static void release_helpers(cvr_tuner *tu) {
  for (int p = 0; p < tu->preload_count; ++p) cvr_kernel_preload_release(tu->preloads[p].loader);
}

/* Which candidates wait for their kernels: while a helper thread loads, a
 * candidate is measured only once its kernel is loaded, by the helper or an
 * earlier frame (a first launch loads it: it would count against it).
 * instance: the frame's kernel_instance. */
static void waiting_for_kernels(const cvr_tuner *tu, const cvr_kernel_instance *instance,
                                const cvr_tuning_class *c,
                                unsigned char waiting[CVR_TUNING_MAX_CANDIDATES]) {
  memset(waiting, 0, CVR_TUNING_MAX_CANDIDATES);
  if (!helper_running(tu)) return;
  for (int j = 0; j < c->count; ++j)
    waiting[j] = !is_warm(tu, instance, c, j) && !helper_loaded(tu, instance, c, j);
}

/* Whether rendering candidate i now would load its kernel inside the frame:
 * it waits for the helper thread (waiting_for_kernels), and is not of the
 * standard kernel, which every first frame loads anyway. */
static int waits_for_kernel(const cvr_tuning_class *c,
                            const unsigned char waiting[CVR_TUNING_MAX_CANDIDATES], int i) {
  return waiting[i] && !standard_kernel(&c->candidates[i]);
}

/* What a frame renders in place of a configuration whose kernel waits for
 * the helper thread (CUDA would load it inside the frame: warp marching's
 * first frame took 16-33 ms of wall time in a later run's first orbit from
 * the tables kept): of the candidates loaded, or of the
 * standard kernel (every first frame loads it), the one of least class mean,
 * a loser pruned after it ran too (a shaded class may have dropped every
 * standard block); none measured, the first not dropped. */
static int stand_in(const cvr_tuning_class *c,
                    const unsigned char waiting[CVR_TUNING_MAX_CANDIDATES]) {
  int pick = -1;
  for (int j = 0; j < c->count; ++j)
    if ((!waiting[j] || standard_kernel(&c->candidates[j])) &&
        (c->measured[j] > 0 || !c->dropped[j]) &&
        (pick < 0 || cvr_tuning_mean(c, j) < cvr_tuning_mean(c, pick)))
      pick = j;
  return pick >= 0 ? pick : c->best;
}

/* One AUTO frame: the caller's inputs and what auto_render found for them. */
typedef struct auto_frame_plan {
  const cvr_volume *volume;
  const cvr_transfer_function *tf;
  const cvr_view *view;
  const cvr_render_settings *s;
  const cvr_image *image;
  int k;       /* the view's class */
  float dir[3]; /* and direction (cvr_auto_view_class_of) */
  /* the view's cells once the class has converged (NULL before): its own
   * measures, all of them choose */
  const cvr_tuning_view_cells *cells;
  /* no kernel load overlaps the frame (a frame measured, or kept as the
   * next one's reference, must be quiet) */
  int quiet;
  const cvr_kernel_instance *instance; /* the kernels' instances (is_warm, helper_loaded) */
  const unsigned char *waiting;        /* per candidate: its kernels not loaded yet */
} auto_frame_plan;

static cvr_status auto_frame(cvr_context *ctx, cvr_tuning_table *t, const auto_frame_plan *p,
                             cvr_render_stats *out) {
  const cvr_volume *volume = p->volume;
  const cvr_transfer_function *tf = p->tf;
  const cvr_view *view = p->view;
  const cvr_render_settings *s = p->s;
  const cvr_image *image = p->image;
  const int k = p->k, quiet = p->quiet;
  const float *dir = p->dir;
  const cvr_tuning_view_cells *cells = p->cells;
  const cvr_kernel_instance *instance = p->instance;
  const unsigned char *waiting = p->waiting;
  cvr_tuner *tu = ctx->tuner;
  cvr_tuning_class *c = &t->classes[k];
  const int repeats = s->tuning_repeats;
  cvr_tuning_cell *cell = cells ? cells->own : NULL;
  const int converged = cell != NULL;
  /* candidates are measured against the class's best at the frame before (a
   * neighbouring view): a frame of the best comes first, then one of a
   * candidate, and so on (cvr_tuning_record_relative); kernel times, not
   * costs per sample, as strategies count samples differently (the slab's
   * border rays) */
  const int referenced = tu->reference_table == t && tu->reference_class == k;
  const double reference_ms = referenced ? tu->reference_ms : 0.0;
  const int paid = referenced && tu->reference_paid;
  tu->reference_table = NULL;
  cvr_status st;
  int trial = 0;
  if (tu->debug_rotation && t->rotation.decision == 0 && trial_view(volume, dir))
    fprintf(stderr, "cvr rotation view: class %d converged %d quiet %d reference %d budget %d\n", k,
            converged, quiet, reference_ms > 0.0,
            cvr_tuning_budget_allows(&t->budget, 0, s->tuning_budget));
  if (converged && quiet &&
      (st = rotation_trial(ctx, t, k, dir, volume, tf, view, s, image, reference_ms, paid,
                           out, &trial)) != CVR_OK)
    return st;
  if (trial == 0 && converged && quiet &&
      (st = cvr_auto_toward_trial(ctx, t, k, volume, tf, view, s, image, reference_ms, paid, out,
                         &trial)) != CVR_OK)
    return st;
  if (trial > 0) {
    out->tuning = 1;
    return CVR_OK;
  }
  int i = -1;
  cvr_render_settings run;
  if (quiet && cell) { /* (the class measured its finalists: runnable; loaded
                         * in this process unless the table was kept) */
    i = cvr_tuning_cell_next(cell, c, repeats);
    if (i >= 0 && waiting[i]) i = -1;
  } else if (quiet) {
    for (i = cvr_tuning_next_ready(c, repeats, waiting); i >= 0;
         i = cvr_tuning_next_ready(c, repeats, waiting)) { /* one the device can run */
      run = cvr_auto_concrete(ctx, t, c, i, s);
      if (runnable(ctx, &run)) break;
      cvr_tuning_record(c, i, 0.0, s->tuning_prune);
    }
  }
  /* what measuring may cost (cvr_tuning_budget): a candidate waits for
   * frames to pay for it */
  const int account = cell ? CVR_TUNING_CELL_ACCOUNT : cvr_tuning_account(c, i);
  if (i >= 0 && !paid && !cvr_tuning_budget_allows(&t->budget, account, s->tuning_budget)) i = -1;
  /* no reference yet: this frame renders the class's best, to be one (once
   * its kernel is loaded) */
  const int wants_reference = (i >= 0 || trial < 0) && !(reference_ms > 0.0);
  if (wants_reference) i = -1;
  const int reference_frame = wants_reference && !waits_for_kernel(c, waiting, c->best);
  const int choice = cvr_tuning_view_choice(cells, c, repeats); /* (the class's best before) */
  int rendered = i >= 0 ? i : reference_frame ? c->best : choice;
  if (waits_for_kernel(c, waiting, rendered)) rendered = stand_in(c, waiting);
  run = cvr_auto_concrete(ctx, t, c, rendered, s);
  if (i >= 0 && !is_warm(tu, instance, c, i) && !helper_loaded(tu, instance, c, i)) {
    /* load its kernels here, not in the measured frame: an 8 x 8 frame, unseen */
    cvr_view tiny = *view;
    tiny.width = tiny.height = 8;
    tiny.opaque_depth = NULL;
    tiny.gl_opaque_depth = NULL;
    const cvr_image none = {NULL, NULL, NULL, NULL};
    if ((st = cvr_render_frame(ctx, volume, tf, &tiny, &run, &none, out)) != CVR_OK) return st;
  }
  if (i >= 0) mark_warm(tu, instance, c, i);
  const int best = c->best;
  if ((st = cvr_render_frame(ctx, volume, tf, view, &run, image, out)) != CVR_OK) return st;
  const int measurable = out->samples > 0 && out->kernel_ms > 0.0 && out->rotations == 0;
  /* a measured frame's time over the best's at the frame before is what
   * measuring cost; so is a reference frame's over the cell's faster choice
   * it stands in for */
  const double excess =
      !measurable ? 0.0
      : i >= 0    ? out->kernel_ms - reference_ms
      : reference_frame && choice != c->best
          ? out->kernel_ms * (1.0 - cvr_tuning_view_ratio(cells, c, choice))
          : 0.0;
  if (i >= 0 && cell && measurable) /* near ties: charged net (tuner.h) */
    cvr_tuning_budget_cell_frame(&t->budget, out->kernel_ms, reference_ms);
  else
    cvr_tuning_budget_frame(&t->budget, out->kernel_ms, account, excess);
  /* the best's time as this frame saw it (a frame of the best or of the
   * cell's choice), and whether it agrees with the last one's */
  double as_best = 0.0;
  if (i < 0 && measurable && quiet) {
    const double ratio = rendered == best ? 1.0 : cvr_tuning_view_ratio(cells, c, rendered);
    if (ratio > 0.0 && isfinite(ratio)) as_best = out->kernel_ms / ratio;
  }
  const int steady = as_best > 0.0 && tu->steady_table == t && tu->steady_class == k &&
                     cvr_tuning_steady(tu->steady_ms, (long long)(tu->frames - tu->steady_frame),
                                       as_best);
  if (as_best > 0.0) {
    tu->steady_table = t;
    tu->steady_class = k;
    tu->steady_frame = tu->frames;
    tu->steady_ms = as_best;
  }
  out->tuning = i >= 0; /* (a frame of the best is no tuning frame) */
  if (i >= 0) {
    if (measurable && cell) { /* (a turn changed the class) */
      cvr_tuning_cell_record(cell, i, out->kernel_ms / reference_ms);
      if (cvr_tuning_cell_next(cell, c, repeats) < 0) cvr_auto_save(ctx, t);
    } else if (measurable) {
      cvr_tuning_record_relative(c, i, out->kernel_ms, reference_ms, s->tuning_prune);
      if (cvr_tuning_next(c, repeats) < 0) cvr_auto_save(ctx, t);
    }
    return CVR_OK;
  }
  /* a frame of the best: the next one's reference, if it was steady, no
   * load overlapped it and its kernels were loaded before (its first frame
   * loads them) */
  if (rendered == best && steady &&
      (is_warm(tu, instance, c, best) || helper_loaded(tu, instance, c, best))) {
    if (reference_frame && c->measured[best] == 0) { /* the class's scale */
      cvr_tuning_record(c, best, cvr_auto_cost_of(out), s->tuning_prune);
      if (cvr_tuning_next(c, repeats) < 0) cvr_auto_save(ctx, t);
    }
    tu->reference_table = t;
    tu->reference_class = k;
    tu->reference_ms = out->kernel_ms;
    tu->reference_paid = reference_frame && excess > 0.0;
  }
  mark_warm(tu, instance, c, rendered);
  return CVR_OK;
}

static cvr_status auto_render(cvr_context *ctx, const cvr_volume *volume,
                              const cvr_transfer_function *tf, const cvr_view *view,
                              const cvr_render_settings *s, const cvr_image *image,
                              cvr_render_stats *stats) {
  int k = 0, turned = 0;
  float dir[3], own_dir[3];
  int roll = 0;
  cvr_status st = cvr_auto_view_class_of(ctx, volume, view, s, NULL, &k, dir, &roll, own_dir); /* (checks the view) */
  if (st != CVR_OK) return st;
  cvr_tuning_table *t = table_for(ctx, volume, view, s);
  cvr_tuner *tu = ctx->tuner;
  /* turned toward the rays where warp marching's turn was measured faster
   * at this view (tuner.h, cvr_tuning_toward), else in the table's order */
  cvr_tuning_toward *slot = cvr_auto_toward_slot(ctx, t, volume, view, s);
  tu->toward = slot;
  const int toward = slot && slot->decision == 1;
  int target[3];
  double toward_turn_ms = 0.0; /* a turn into or out of the order turned toward the rays */
  if (toward) {
    if (cvr_auto_toward_target(volume, dir, s, target)) {
      if ((st = cvr_auto_turn_copy_to(ctx, t, volume, s, target, &toward_turn_ms)) != CVR_OK) return st;
      turned = 1;
    }
  } else {
    const double start = cvr_now_ms();
    if ((st = restore_order(ctx, t, volume, view, s, &turned)) != CVR_OK) return st;
    if (turned && tu->last_toward) toward_turn_ms = cvr_now_ms() - start;
  }
  if (turned && (st = cvr_auto_view_class_of(ctx, volume, view, s, NULL, &k, dir, &roll, own_dir)) != CVR_OK) return st;
  cvr_tuning_class *c = &t->classes[k];
  start_preload(ctx, t, k, volume, s, gradient_opacity(tf, s));
  cvr_tuning_seed(c, t->classes, CVR_TUNING_CLASSES, s->tuning_repeats, s->tuning_prune);
  /* a frame that measures, or is kept as the reference of the next, holds
   * the helper threads between two of their kernel loads: a load stalls the
   * GPU now and then, and frames measured meanwhile ran up to 2x slow (a
   * wrong winner). Only when a candidate is ready to be measured:
   * else the helpers load what the class waits for. */
  unsigned char waiting[CVR_TUNING_MAX_CANDIDATES];
  /* the kernels' instances (is_warm, helper_loaded) */
  const cvr_kernel_instance instance_key = kernel_instance(volume, t, s, gradient_opacity(tf, s));
  const cvr_kernel_instance *instance = &instance_key;
  waiting_for_kernels(tu, instance, c, waiting);
  /* a converged class goes on in the view's cell: its finalists again, here */
  cvr_tuning_view_cells view_cells;
  const cvr_tuning_view_cells *cells = NULL;
  if (cvr_tuning_next(c, s->tuning_repeats) < 0) {
    cvr_tuning_cells_at(t, k, dir, roll, 1, &view_cells);
    cells = &view_cells;
  }
  const cvr_tuning_cell *cell = cells ? cells->own : NULL;
  int next = cell ? cvr_tuning_cell_next(cell, c, s->tuning_repeats)
                  : cvr_tuning_next_ready(c, s->tuning_repeats, waiting);
  if (next >= 0 && waiting[next]) next = -1; /* (a kept table's cell) */
  /* a kept choice whose kernel waits (stand_in) measures nothing: measuring
   * holds the helper thread, which loads that kernel */
  if (waits_for_kernel(c, waiting, cvr_tuning_view_choice(cells, c, s->tuning_repeats))) next = -1;
  const int account = cell ? CVR_TUNING_CELL_ACCOUNT : cvr_tuning_account(c, next);
  const int wanted = next >= 0 && cvr_tuning_budget_allows(&t->budget, account,
                                                           s->tuning_budget);
  /* (a frame right after a turn is neither measured nor a reference: a
   * volume that fits the L2 renders fast then) */
  const int quiet = (wanted ? hold_helpers(tu) : !helper_running(tu)) && !turned;
  cvr_render_stats local;
  memset(&local, 0, sizeof local);
  ++tu->frames;
  tu->hold_order = toward;
  tu->toward_tried = 0;
  auto_frame_plan plan = {volume, tf, view, s, image, k, {dir[0], dir[1], dir[2]}, cells,
                          quiet, instance, waiting};
  st = auto_frame(ctx, t, &plan, &local);
  tu->hold_order = 0;
  tu->toward = NULL;
  /* the hold stays until the next frame when this one is its reference */
  if (tu->reference_table != t || local.tuning) release_helpers(tu);
  if (st != CVR_OK) return st;
  /* rotation on: do its turns cost more than it saves? */
  /* (not for frames turned toward the rays, nor the turn back from them) */
  if (t->rotation.decision == 1 && !toward &&
      cvr_tuning_rotation_watch(&t->rotation, local.kernel_ms,
                                trial_view(volume, own_dir),
                                tu->last_toward ? 0.0 : turn_cost(tu, &local)))
    cvr_auto_save(ctx, t);
  /* turns toward the rays: do they cost more than they save? */
  if (!toward && tu->last_toward) toward_turn_ms += turn_cost(tu, &local);
  if (cvr_auto_toward_any(t) &&
      cvr_tuning_toward_watch(&t->toward_watch, local.kernel_ms,
                              toward ? slot->ratio : 0.0, toward_turn_ms)) {
    for (int v = 0; v < CVR_TUNING_CLASSES; ++v)
      for (int r = 0; r < CVR_TUNING_ROLL_BINS; ++r)
        if (t->toward[v][r].decision == 1) t->toward[v][r].decision = -1;
    cvr_auto_save(ctx, t);
  }
  tu->last_toward = toward;
  if (local.rotations == 0) tu->frame_overhead_ms = fmax(0.0, local.total_ms - local.kernel_ms);
  /* the order the table's frames render in (a trial may turn it), not the
   * one turned toward the rays */
  if (ctx->backend == CVR_BACKEND_CUDA && !toward && !tu->toward_tried)
    cvr_auto_copy_order(volume, t->order);
  local.view_class = k;
  if (stats) *stats = local;
  return CVR_OK;
}

cvr_status cvr_auto_render(cvr_context *ctx, const cvr_volume *volume,
                           const cvr_transfer_function *tf, const cvr_view *view,
                           const cvr_render_settings *s, const cvr_image *image,
                           cvr_render_stats *stats) {
  ++ctx->auto_rendering;
  const cvr_status st = auto_render(ctx, volume, tf, view, s, image, stats);
  --ctx->auto_rendering;
  return st;
}

/* Candidate i of class c, with the table's layout and rotation, in words.
 * toward: the view renders turned toward the rays (cvr_tuning_toward). */
static void describe(const cvr_context *ctx, const cvr_tuning_table *t, const cvr_tuning_class *c,
                     int i, int toward, char *out, size_t size) {
  if (ctx->backend == CVR_BACKEND_CUDA)
    snprintf(out, size, "%s, %s%s", c->names[i], cvr_memory_layout_name(t->layout),
             toward                     ? ", turned toward the rays"
             : t->rotation.decision == 1 ? ", rotation on"
                                         : "");
  else
    snprintf(out, size, "%s", c->names[i]);
}

/* The view's tuning state in class k, along dir with roll band roll in the
 * order its next frame renders in. */
static void fill_info(cvr_context *ctx, cvr_tuning_table *t, int k, const cvr_volume *volume,
                      const cvr_view *view, const float dir[3], int roll,
                      const cvr_render_settings *s, cvr_tuning_info *out) {
  const cvr_tuning_toward *w = cvr_auto_toward_slot(ctx, t, volume, view, s);
  const cvr_tuning_class *c = &t->classes[k];
  memset(out, 0, sizeof *out);
  out->view_class = k;
  cvr_tuning_view_class_name(k, out->view_class_name, sizeof out->view_class_name);
  cvr_tuning_view_cells cells;
  cvr_tuning_cells_at(t, k, dir, roll, 0, &cells);
  const cvr_tuning_cell *cell = cells.own;
  /* tuning while the class measures, then while the view's cell does, or
   * a trial of a rotation or of warp marching's turn waits for the view */
  out->tuning = cvr_tuning_next(c, s->tuning_repeats) >= 0 ||
                cvr_tuning_cell_next(cell, c, s->tuning_repeats) >= 0 ||
                (ctx->backend == CVR_BACKEND_CUDA && t->rotation.decision == 0 &&
                 trial_view(volume, dir)) ||
                cvr_auto_toward_waits(ctx, t, k, volume, view, s, dir);
  out->candidates = c->count;
  for (int i = 0; i < c->count; ++i) {
    out->measured += c->measured[i] > 0;
    out->dropped += c->dropped[i];
  }
  const int choice = cvr_tuning_view_choice(&cells, c, s->tuning_repeats);
  describe(ctx, t, c, choice, w && w->decision == 1, out->configuration,
           sizeof out->configuration);
  out->settings = cvr_auto_concrete(ctx, t, c, choice, s);
  snprintf(out->warning, sizeof out->warning, "%s", ctx->tuner->warning);
}

static cvr_status check_args(cvr_context *ctx, const cvr_volume *volume, const cvr_view *view,
                             const cvr_render_settings *s, const void *out, const char *what) {
  if (!ctx) return cvr_fail(NULL, CVR_ERROR_INVALID_ARGUMENT, "%s: ctx is NULL", what);
  if (!volume || !view || !s || !out)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "%s: NULL argument", what);
  if (volume->ctx != ctx)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "%s: the volume belongs to another context",
                    what);
  const cvr_status st = cvr_validate_settings(ctx, s);
  if (st != CVR_OK) return st;
  return CVR_OK;
}

/* A bricked volume (bricks.h) renders with the standard strategy: AUTO has
 * nothing to tune for it, and says so. */
static void bricked_info(const cvr_volume *volume, const cvr_render_settings *s,
                         cvr_tuning_info *out) {
  memset(out, 0, sizeof *out);
  cvr_render_settings storage;
  out->settings = *cvr_frame_settings(volume, s, &storage);
  snprintf(out->view_class_name, sizeof out->view_class_name, "a bricked volume");
  snprintf(out->configuration, sizeof out->configuration,
           "standard %dx%d (a volume larger than the memory budget, from bricks: not tuned)",
           out->settings.block_width, out->settings.block_height);
}

cvr_status cvr_tuning_info_for(cvr_context *ctx, const cvr_volume *volume, const cvr_view *view,
                               const cvr_render_settings *s, cvr_tuning_info *out) {
  cvr_status st = check_args(ctx, volume, view, s, out, "cvr_tuning_info_for");
  if (st == CVR_OK && volume->bricks) {
    bricked_info(volume, s, out);
    return CVR_OK;
  }
  int k = 0;
  float dir[3];
  int roll = 0;
  if (st == CVR_OK) st = cvr_auto_view_class_of(ctx, volume, view, s, NULL, &k, dir, &roll, NULL);
  if (st != CVR_OK) return st;
  cvr_tuning_table *t = table_for(ctx, volume, view, s);
  /* in the voxel order AUTO's next frame renders in, which that frame turns
   * the copy to (warp marching's turn, or restore_order) */
  const cvr_tuning_toward *toward = cvr_auto_toward_slot(ctx, t, volume, view, s);
  int target[3];
  if (toward && toward->decision == 1) {
    if (cvr_auto_toward_target(volume, dir, s, target) &&
        (st = cvr_auto_view_class_of(ctx, volume, view, s, target, &k, dir, &roll, NULL)) != CVR_OK)
      return st;
  } else if (renders_in_table_order(ctx, t, volume, view, s) &&
             (st = cvr_auto_view_class_of(ctx, volume, view, s, t->order, &k, dir, &roll, NULL)) != CVR_OK) {
    return st;
  }
  fill_info(ctx, t, k, volume, view, dir, roll, s, out);
  return CVR_OK;
}

/* repeats + 1 frames of one configuration at this view, the first a
 * warm-up; the mean kernel time of the others and the last one's samples
 * (0 when it could not run). */
cvr_status cvr_auto_measure(cvr_context *ctx, const cvr_volume *volume,
                          const cvr_transfer_function *tf, const cvr_view *view,
                          const cvr_render_settings *run, int repeats, const cvr_image *image,
                          double *ms, unsigned long long *samples) {
  *ms = 0.0;
  *samples = 0;
  if (!runnable(ctx, run)) return CVR_OK;
  double sum = 0.0;
  for (int r = 0; r <= repeats; ++r) {
    cvr_render_stats st;
    const cvr_status e = cvr_render_frame(ctx, volume, tf, view, run, image, &st);
    if (e != CVR_OK) return e;
    if (r) sum += st.kernel_ms;
    *samples = st.samples;
  }
  *ms = sum / repeats;
  return CVR_OK;
}

/* Every candidate of class k at this view, measured afresh (repeats + 1
 * frames each), then the class's best and the view's cell; progress over
 * steps from *step on. *scale: the costs' scale (per sample of the first
 * candidate that ran: kernel times compare strategies that count samples
 * differently). */
cvr_status cvr_auto_sweep_class(cvr_context *ctx, cvr_tuning_table *t, int k, const float dir[3],
                              int roll, const cvr_volume *volume, const cvr_transfer_function *tf,
                              const cvr_view *view, const cvr_render_settings *s,
                              const cvr_image *image, cvr_progress_callback progress, void *user,
                              int *step, int steps, int *stopped, double *scale) {
  cvr_tuning_class *c = &t->classes[k];
  const cvr_tuning_frames frames = tuning_frames(t, s);
  cvr_tuning_class_init(c, ctx->backend, k, &frames);
  /* the candidates' kernels loaded first, and nothing loading while measured */
  start_preload(ctx, t, k, volume, s, gradient_opacity(tf, s));
  while (helper_running(ctx->tuner)) {
    const struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
  }
  *scale = 0.0;
  for (int i = 0; i < c->count && !*stopped; ++i, ++*step) {
    const cvr_render_settings run = cvr_auto_concrete(ctx, t, c, i, s);
    double ms = 0.0;
    unsigned long long samples = 0;
    const cvr_status st = cvr_auto_measure(ctx, volume, tf, view, &run, s->tuning_repeats, image, &ms, &samples);
    if (st != CVR_OK) return st;
    if (!(*scale > 0.0) && ms > 0.0 && samples > 0) *scale = 1e6 / (double)samples;
    const double cost = ms * *scale;
    /* every candidate gets its full repeats here: no pruning */
    c->measured[i] = cost > 0.0 ? s->tuning_repeats : 0;
    c->cost_sum[i] = cost * c->measured[i];
    c->dropped[i] = cost <= 0.0;
    c->pending[i] = 0.0; /* (a first win of a frame before waits no more) */
    *stopped = progress && progress((double)(*step + 1) / steps, user);
  }
  cvr_tuning_update_best(c);
  /* the class's cells measured against the old best; this view's cell has
   * just measured every finalist, as often as a cell would */
  cvr_tuning_cells_clear(t, k);
  if (!*stopped) {
    cvr_tuning_cell *cell = cvr_tuning_cell_for(t, k, cvr_tuning_cell_bin(k, dir, roll), 1);
    int finalists[CVR_TUNING_FINALISTS];
    const int n = cvr_tuning_finalists(c, finalists);
    for (int f = 0; f < n; ++f)
      for (int r = 0; r < s->tuning_repeats; ++r)
        cvr_tuning_cell_record(cell, finalists[f],
                               cvr_tuning_mean(c, finalists[f]) / cvr_tuning_mean(c, c->best));
  }
  return CVR_OK;
}

/* cvr_tune_now's rotation: the copy turned, the view's class there swept
 * too, and the two winners compared (a winner that samples alike in every
 * order, the 3D warp, gains nothing from the turn that the standard kernel
 * gains much from). One view turns rotation on, never off once it is: a
 * view near a border gains little from a turn that others gain much from,
 * and the watch turns it off where turns cost more than they save
 * (cvr_tuning_rotation_watch). Off, the copy goes back to the table's
 * order. k: the view's class as the copy is, swept; scale: its costs'. */
static cvr_status decide_rotation(cvr_context *ctx, cvr_tuning_table *t, int k,
                                  const cvr_volume *volume, const cvr_transfer_function *tf,
                                  const cvr_view *view, const cvr_render_settings *s,
                                  const cvr_image *image, double scale) {
  const double unturned_ms = cvr_tuning_mean(&t->classes[k], t->classes[k].best) / scale;
  cvr_render_settings run = cvr_auto_concrete(ctx, t, &t->classes[k], t->classes[k].best, s);
  run.rotation_policy = CVR_ROTATION_HYSTERESIS;
  run.rotation_hysteresis = s->rotation_hysteresis;
  cvr_render_stats turn;
  cvr_status st = cvr_render_frame(ctx, volume, tf, view, &run, image, &turn);
  if (st != CVR_OK || turn.rotations == 0) return st; /* (several components: no turn) */
  float dir[3];
  int roll = 0;
  int turned = k, step = 0, stopped = 0;
  double turned_scale = 0.0;
  if ((st = cvr_auto_view_class_of(ctx, volume, view, s, NULL, &turned, dir, &roll, NULL)) != CVR_OK ||
      (st = cvr_auto_sweep_class(ctx, t, turned, dir, roll, volume, tf, view, s, image, NULL, NULL, &step, 1,
                        &stopped, &turned_scale)) != CVR_OK)
    return st;
  /* one view, its repeats: the same threshold as trials */
  const double ratio =
      cvr_tuning_mean(&t->classes[turned], t->classes[turned].best) / turned_scale / unturned_ms;
  if (ratio > 0.0 && isfinite(ratio) &&
      (t->rotation.decision != 1 || ratio <= 1.0 - CVR_TUNING_ROTATION_GAIN))
    cvr_tuning_rotation_decide(&t->rotation, ratio);
  int back = 0;
  return t->rotation.decision == 1 ? CVR_OK : restore_order(ctx, t, volume, view, s, &back);
}

static cvr_status tune_now(cvr_context *ctx, const cvr_volume *volume,
                           const cvr_transfer_function *tf, const cvr_view *view,
                           const cvr_render_settings *s, const cvr_image *image,
                           cvr_progress_callback progress, void *user, cvr_tuning_info *out) {
  cvr_status st = CVR_OK;
  int k = 0;
  float dir[3];
  int roll = 0;
  if (st == CVR_OK) st = cvr_auto_view_class_of(ctx, volume, view, s, NULL, &k, dir, &roll, NULL);
  if (st != CVR_OK) return st;
  cvr_tuning_table *t = table_for(ctx, volume, view, s);
  /* measured afresh: first in the order frames render in without warp
   * marching's turn, then with it (decide_toward) */
  cvr_tuning_toward *toward = cvr_auto_toward_slot(ctx, t, volume, view, s);
  if (toward) memset(toward, 0, sizeof *toward);
  int turned = 0; /* (measured in the order the table renders in) */
  if ((st = restore_order(ctx, t, volume, view, s, &turned)) != CVR_OK) return st;
  if (t->rotation.decision == 1) { /* ... or, rotation on, turned as this view's frames turn it */
    const cvr_render_settings run = cvr_auto_concrete(ctx, t, &t->classes[k], t->classes[k].best, s);
    cvr_render_stats st_turn;
    if ((st = cvr_render_frame(ctx, volume, tf, view, &run, image, &st_turn)) != CVR_OK) return st;
    turned = st_turn.rotations > 0;
  }
  if (turned && (st = cvr_auto_view_class_of(ctx, volume, view, s, NULL, &k, dir, &roll, NULL)) != CVR_OK) return st;
  const int layouts = ctx->backend == CVR_BACKEND_CUDA ? 3 : 0;
  const int steps = t->classes[k].count + layouts;
  int step = 0, stopped = 0;
  double scale = 0.0;
  if ((st = cvr_auto_sweep_class(ctx, t, k, dir, roll, volume, tf, view, s, image, progress, user, &step, steps,
                        &stopped, &scale)) != CVR_OK)
    return st;
  cvr_tuning_class *c = &t->classes[k];
  /* the memory layouts, for the winner (a table's choice: it stays) */
  if (layouts && !stopped) {
    double best_cost = INFINITY;
    cvr_memory_layout best_layout = t->layout;
    const cvr_memory_layout order[3] = {t->layout, (t->layout + 1) % 3, (t->layout + 2) % 3};
    for (int l = 0; l < 3 && !stopped; ++l, ++step) {
      cvr_render_settings run = cvr_auto_concrete(ctx, t, c, c->best, s);
      run.memory_layout = order[l];
      double cost = 0.0;
      unsigned long long samples = 0;
      st = cvr_auto_measure(ctx, volume, tf, view, &run, s->tuning_repeats, image, &cost, &samples);
      if (st == CVR_ERROR_OUT_OF_MEMORY) { /* that layout does not fit: skip it */
        cost = 0.0;
        st = CVR_OK;
      }
      if (st != CVR_OK) return st;
      if (cost > 0.0 && cost < best_cost) {
        best_cost = cost;
        best_layout = order[l];
      }
      stopped = progress && progress((double)(step + 1) / steps, user);
    }
    if (!stopped) {
      t->layout = best_layout;
      t->layout_tuned = 1;
      /* leave the volume in the chosen layout, and the image rendered with it */
      const cvr_render_settings run = cvr_auto_concrete(ctx, t, c, c->best, s);
      if ((st = cvr_render_frame(ctx, volume, tf, view, &run, image, NULL)) != CVR_OK) return st;
    }
  }
  /* in-place rotation, where a turn takes the view away from stored x in
   * the voxel order frames render in */
  if (ctx->backend == CVR_BACKEND_CUDA && !stopped) {
    int back = 0; /* (a layout change rebuilds the copy in the volume's own order) */
    if ((st = restore_order(ctx, t, volume, view, s, &back)) != CVR_OK) return st;
    if ((st = cvr_auto_view_class_of(ctx, volume, view, s, NULL, &k, dir, &roll, NULL)) != CVR_OK) return st;
    int fallback = 2;
    const int partners = cvr_cuda_volume_partners(volume, &fallback);
    if (cvr_rotation_turn(dir, partners, fallback, CVR_ROTATION_HYSTERESIS, s->rotation_hysteresis, 0) &&
        (st = decide_rotation(ctx, t, k, volume, tf, view, s, image, scale)) != CVR_OK)
      return st;
    /* the view's class where its next frame renders, swept too where the
     * layouts' rebuild and the rotation policy left the copy in another
     * voxel order than the one measured */
    if ((st = cvr_auto_view_class_of(ctx, volume, view, s, NULL, &k, dir, &roll, NULL)) != CVR_OK) return st;
    cvr_tuning_view_cells cells;
    cvr_tuning_cells_at(t, k, dir, roll, 0, &cells);
    const cvr_tuning_class *now = &t->classes[k];
    if (cvr_tuning_next(now, s->tuning_repeats) >= 0 ||
        cvr_tuning_cell_next(cells.own, now, s->tuning_repeats) >= 0) {
      int extra = 0;
      double extra_scale = 0.0;
      if ((st = cvr_auto_sweep_class(ctx, t, k, dir, roll, volume, tf, view, s, image, NULL, NULL, &extra, 1,
                            &stopped, &extra_scale)) != CVR_OK)
        return st;
    }
    if (!stopped &&
        ((st = cvr_auto_decide_toward(ctx, t, k, dir, roll, volume, tf, view, s, image)) != CVR_OK ||
         (st = cvr_auto_view_class_of(ctx, volume, view, s, NULL, &k, dir, &roll, NULL)) != CVR_OK))
      return st;
  }
  cvr_auto_save(ctx, t);
  fill_info(ctx, t, k, volume, view, dir, roll, s, out);
  return CVR_OK;
}

cvr_status cvr_tune_now(cvr_context *ctx, const cvr_volume *volume,
                        const cvr_transfer_function *tf, const cvr_view *view,
                        const cvr_render_settings *s, const cvr_image *image,
                        cvr_progress_callback progress, void *user, cvr_tuning_info *out) {
  cvr_status st = check_args(ctx, volume, view, s, out, "cvr_tune_now");
  if (st != CVR_OK) return st;
  if (!tf || !image)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "cvr_tune_now: NULL %s", tf ? "image" : "tf");
  if (volume->bricks) { /* nothing to sweep: the frame, as it renders */
    bricked_info(volume, s, out);
    return cvr_render_frame(ctx, volume, tf, view, &out->settings, image, NULL);
  }
  ++ctx->auto_rendering;
  st = tune_now(ctx, volume, tf, view, s, image, progress, user, out);
  --ctx->auto_rendering;
  return st;
}

cvr_status cvr_tuning_reset(cvr_context *ctx) {
  if (!ctx) return cvr_fail(NULL, CVR_ERROR_INVALID_ARGUMENT, "cvr_tuning_reset: ctx is NULL");
  cvr_tuner *tu = ctx->tuner;
  tu->table_count = 0;
  tu->reference_table = NULL;
  tu->steady_table = NULL;
  tu->warning[0] = '\0';
  if (!tu->dir[0]) return CVR_OK;
  DIR *d = opendir(tu->dir);
  if (!d) return CVR_OK; /* nothing written yet */
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    if (!strncmp(e->d_name, "cvr-tuning-", 11)) {
      char path[1400];
      snprintf(path, sizeof path, "%s/%s", tu->dir, e->d_name);
      remove(path);
    }
  closedir(d);
  return CVR_OK;
}

cvr_status cvr_tuning_set_cache_dir(cvr_context *ctx, const char *dir) {
  if (!ctx) return cvr_fail(NULL, CVR_ERROR_INVALID_ARGUMENT, "cvr_tuning_set_cache_dir: ctx is NULL");
  cvr_tuner *tu = ctx->tuner;
  if (dir && strlen(dir) >= sizeof tu->dir - 64)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "cvr_tuning_set_cache_dir: a path of %zu characters is too long (at most %zu)",
                    strlen(dir), sizeof tu->dir - 64);
  if (dir) snprintf(tu->dir, sizeof tu->dir, "%s", dir);
  else default_dir(tu->dir, sizeof tu->dir);
  tu->table_count = 0; /* what was learnt is reloaded from the new place */
  tu->reference_table = NULL;
  tu->steady_table = NULL;
  return CVR_OK;
}

const char *cvr_tuning_cache_dir(const cvr_context *ctx) {
  return ctx ? ctx->tuner->dir : "";
}
