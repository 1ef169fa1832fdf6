// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* A helper thread that loads the kernels of AUTO's candidates, so that CUDA's
 * lazy loading happens there and not inside a frame (kernel_preload.h). It
 * shares nothing with the caller but the device and the holds. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, nanosleep */
#include "kernel_preload.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct cvr_kernel_preload {
  pthread_t thread;
  /* the caller's hold: no load starts before this time (monotonic, in
   * microseconds), and whether a load is under way */
  atomic_llong hold_until_us;
  atomic_int loading;
  atomic_int done;
  atomic_int loaded; /* uses loaded so far, in order */
  int device;
  int count;
  cvr_kernel_use uses[CVR_PRELOAD_MAX_CONFIGS];
  /* CVR_DEBUG_PRELOAD set: each step's time to stderr, since the start and
   * held back by the caller's holds */
  int trace;
  long long start_us, held_us;
};

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
  const cvr_render_settings *s = config >= 0 ? &p->uses[config].settings : NULL;
  fprintf(stderr, "cvr preload: %8.2f ms (%8.2f held back) %s", (now_us() - p->start_us) * 1e-3,
          p->held_us * 1e-3, step);
  if (s) fprintf(stderr, " %d of %d: %s, rotation %s", config + 1, p->count,
                 cvr_strategy_name(s->strategy), cvr_rotation_policy_name(s->rotation_policy));
  fprintf(stderr, "\n");
}

static void load_all(cvr_kernel_preload *p) {
  for (int i = 0; i < p->count; ++i) {
    begin_load(p);
    /* (a failure is the frame's to report, when it launches) */
    cvr_cuda_load_kernels(p->device, &p->uses[i]);
    end_load(p, "loaded", i);
    atomic_store(&p->loaded, i + 1);
  }
}

static void *thread_main(void *arg) {
  cvr_kernel_preload *p = arg;
  load_all(p);
  atomic_store(&p->done, 1);
  return NULL;
}

cvr_kernel_preload *cvr_kernel_preload_start(int device, const cvr_kernel_use *uses, int count) {
  cvr_kernel_preload *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->device = device;
  p->count = count < CVR_PRELOAD_MAX_CONFIGS ? count : CVR_PRELOAD_MAX_CONFIGS;
  memcpy(p->uses, uses, (size_t)p->count * sizeof *uses);
  atomic_init(&p->done, 0);
  atomic_init(&p->loaded, 0);
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

int cvr_kernel_preload_loaded(const cvr_kernel_preload *p) {
  return p ? atomic_load(&((cvr_kernel_preload *)p)->loaded) : 0;
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
