// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* A helper thread that launches each of AUTO's candidates once on a tiny
 * volume, so that CUDA's lazy loading happens there and not inside a frame
 * (kernel_preload.h). Everything it needs is its own: context, volume,
 * transfer function; nothing is shared with the caller but the device. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, nanosleep */
#include "kernel_preload.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SIDE 8 /* voxels per side, and pixels: one thread block of any candidate */

struct cvr_kernel_preload {
  pthread_t thread;
  /* the caller's hold: no load starts before this time (monotonic, in
   * microseconds), and whether a load is under way */
  atomic_llong hold_until_us;
  atomic_int loading;
  atomic_int done;
  atomic_int launched; /* configs launched so far, in order */
  int device_index;
  cvr_scalar_type stored_type;
  int gradient_opacity; /* the tiny frames' transfer function has one */
  int count;
  cvr_render_settings configs[CVR_PRELOAD_MAX_CONFIGS];
  /* CVR_DEBUG_PRELOAD set: each step's time to stderr, since the start and
   * held back by the caller's holds */
  int trace;
  long long start_us, held_us;
};

/* Voxels of the stored type with values across its range: rays sample and
 * composite as in a real frame (no kernel path is skipped as empty). */
static void *ramp(cvr_scalar_type type) {
  const size_t n = (size_t)SIDE * SIDE * SIDE;
  unsigned char *data = malloc(n * cvr_scalar_type_size(type));
  if (!data) return NULL;
  for (size_t i = 0; i < n; ++i) {
    const int v = (int)(i % 128);
    switch (type) {
      case CVR_UINT8: data[i] = (unsigned char)v; break;
      case CVR_INT8: ((signed char *)data)[i] = (signed char)(v - 64); break;
      case CVR_INT16: ((short *)data)[i] = (short)(v * 100 - 6400); break;
      case CVR_UINT16: ((unsigned short *)data)[i] = (unsigned short)(v * 100); break;
      default: ((float *)data)[i] = (float)v; break;
    }
  }
  return data;
}

static long long now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

/* Waits while the caller holds the helper, then marks a load under way. The
 * caller sets its hold before it looks at `loading`, this thread sets
 * `loading` before it looks at the hold again (sequentially consistent
 * atomics): one of the two sees the other. */
static void begin_load(cvr_kernel_preload *p) {
  const long long start = now_us();
  for (;;) {
    while (now_us() < atomic_load(&p->hold_until_us)) {
      const struct timespec pause = {0, 200000};
      nanosleep(&pause, NULL);
    }
    atomic_store(&p->loading, 1);
    if (now_us() >= atomic_load(&p->hold_until_us)) break;
    atomic_store(&p->loading, 0);
  }
  p->held_us += now_us() - start;
}

static void end_load(cvr_kernel_preload *p, const char *step, int config) {
  atomic_store(&p->loading, 0);
  if (!p->trace) return;
  const cvr_render_settings *s = config >= 0 ? &p->configs[config] : NULL;
  fprintf(stderr, "cvr preload: %8.2f ms (%8.2f held back) %s", (now_us() - p->start_us) * 1e-3,
          p->held_us * 1e-3, step);
  if (s) fprintf(stderr, " %d of %d: %s, rotation %s", config + 1, p->count,
                 cvr_strategy_name(s->strategy), cvr_rotation_policy_name(s->rotation_policy));
  fprintf(stderr, "\n");
}

static void load_all(cvr_kernel_preload *p) {
  cvr_context_options o;
  cvr_context_options_init(&o);
  o.backend = CVR_BACKEND_CUDA;
  o.device_index = p->device_index;
  cvr_context *ctx = NULL;
  begin_load(p);
  const cvr_status created = cvr_context_create(&o, &ctx);
  end_load(p, "context", -1);
  if (created != CVR_OK) return;
  cvr_volume *volume = NULL;
  cvr_transfer_function *tf = NULL;
  void *data = ramp(p->stored_type);
  cvr_volume_desc d;
  cvr_volume_desc_init(&d);
  d.type = p->stored_type;
  d.data = data;
  for (int a = 0; a < 3; ++a) {
    d.dims[a] = SIDE;
    d.spacing[a] = 1.0 / SIDE;
    d.origin[a] = -0.5;
  }
  const float rgba[8] = {0.2f, 0.4f, 0.6f, 0.0f, 1.0f, 0.8f, 0.6f, 0.5f};
  const float gradient_opacity[2] = {0.5f, 1.0f};
  const cvr_transfer_function_desc td = {
      .rgba = rgba, .size = 2, .range = {-6400.0, 12800.0}, .unit_distance = 1.0,
      .gradient_opacity = p->gradient_opacity ? gradient_opacity : NULL,
      .gradient_opacity_size = 2, .gradient_opacity_max = 1.0};
  begin_load(p);
  const int ready = data && cvr_volume_create(ctx, &d, &volume) == CVR_OK &&
                    cvr_transfer_function_create(ctx, &td, &tf) == CVR_OK;
  end_load(p, "volume", -1);
  if (ready) {
    /* parallel, looking along x (clip z = world x): a config whose rotation
     * policy is on turns the volume, so the rotation kernel loads too */
    cvr_view view;
    cvr_view_init(&view);
    memset(view.world_to_clip, 0, sizeof view.world_to_clip);
    view.world_to_clip[1] = view.world_to_clip[6] = view.world_to_clip[8] = 1.0;
    view.world_to_clip[15] = 1.0;
    view.width = view.height = SIDE;
    const cvr_image none = {NULL, NULL, NULL, NULL};
    for (int i = 0; i < p->count; ++i) {
      begin_load(p);
      /* (failures: the caller's) */
      cvr_render_frame(ctx, volume, tf, &view, &p->configs[i], &none, NULL);
      end_load(p, "launched", i);
      atomic_store(&p->launched, i + 1);
    }
  }
  cvr_transfer_function_destroy(tf);
  cvr_volume_destroy(volume);
  free(data);
  cvr_context_destroy(ctx);
}

static void *thread_main(void *arg) {
  cvr_kernel_preload *p = arg;
  load_all(p);
  atomic_store(&p->done, 1);
  return NULL;
}

cvr_kernel_preload *cvr_kernel_preload_start(int device_index, cvr_scalar_type stored_type,
                                             const cvr_render_settings *configs, int count,
                                             int gradient_opacity) {
  cvr_kernel_preload *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->device_index = device_index;
  p->stored_type = stored_type;
  p->gradient_opacity = gradient_opacity;
  p->count = count < CVR_PRELOAD_MAX_CONFIGS ? count : CVR_PRELOAD_MAX_CONFIGS;
  memcpy(p->configs, configs, (size_t)p->count * sizeof *configs);
  for (int i = 0; i < p->count; ++i) {
    p->configs[i].max_samples_per_ray = 0; /* the tiny volume's own */
    p->configs[i].sample_distance = 0.5 / SIDE;
  }
  atomic_init(&p->done, 0);
  atomic_init(&p->launched, 0);
  atomic_init(&p->hold_until_us, 0);
  atomic_init(&p->loading, 0);
  const char *trace = getenv("CVR_DEBUG_PRELOAD");
  p->trace = trace && trace[0] && strcmp(trace, "0");
  p->start_us = now_us();
  if (pthread_create(&p->thread, NULL, thread_main, p) != 0) {
    free(p);
    return NULL;
  }
  return p;
}

int cvr_kernel_preload_done(const cvr_kernel_preload *p) {
  return p && atomic_load(&((cvr_kernel_preload *)p)->done);
}

int cvr_kernel_preload_launched(const cvr_kernel_preload *p) {
  return p ? atomic_load(&((cvr_kernel_preload *)p)->launched) : 0;
}

int cvr_kernel_preload_hold(cvr_kernel_preload *p, double ms) {
  if (!p || cvr_kernel_preload_done(p)) return 1;
  atomic_store(&p->hold_until_us, now_us() + (long long)(ms * 1000.0));
  return !atomic_load(&p->loading);
}

void cvr_kernel_preload_release(cvr_kernel_preload *p) {
  if (p) atomic_store(&p->hold_until_us, 0);
}

void cvr_kernel_preload_finish(cvr_kernel_preload *p) {
  if (!p) return;
  pthread_join(p->thread, NULL);
  free(p);
}
