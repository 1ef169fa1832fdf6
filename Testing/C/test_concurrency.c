// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Several renderers at once, and a context used from a thread other than
 * its creator's (argv[1]: cpu or cuda; cuda skips without a device).
 *
 *  - THREADS threads each create their own context, volume and transfer
 *    function (different data, functions and strategies, one with AUTO and
 *    its helper thread, one with empty-space skipping) and render FRAMES
 *    views at the same time: every image must equal the one a single thread
 *    rendered beforehand with the same inputs, bit for bit (CUDA: within the
 *    tolerance, since AUTO's choice there depends on timings);
 *  - a context, volume and function created on the main thread render from
 *    a worker thread, then again from the main thread, and are destroyed
 *    there: the same images;
 *  - one context holds two volumes and two functions and renders them
 *    alternately: each keeps its own image. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "test_common.h"

enum { THREADS = 4, FRAMES = 6, N = 40, W = 48, H = 40, PIXELS = W * H };

static cvr_backend backend;

typedef struct job {
  int index;
  uint8_t images[FRAMES][PIXELS * 4];
  int ok;
} job;

static cvr_context *new_context(void) {
  cvr_context_options o;
  cvr_context_options_init(&o);
  o.backend = backend;
  o.cpu_threads = 2;
  cvr_context *ctx = NULL;
  if (cvr_context_create(&o, &ctx) != CVR_OK) return NULL;
  cvr_tuning_set_cache_dir(ctx, ""); /* AUTO's tables in memory only */
  return ctx;
}

/* Data, function, settings and views that differ from job to job. */
static uint8_t *voxels_for(int index) {
  uint8_t *v = malloc((size_t)N * N * N);
  for (int z = 0; z < N; ++z)
    for (int y = 0; y < N; ++y)
      for (int x = 0; x < N; ++x) {
        const double r = sqrt(pow(x - 20.0 - index, 2) + pow(y - 18.0, 2) + pow(z - 21.0 + index, 2));
        const double value = r < 16.0 ? 240.0 * (1.0 - r / 16.0) + (x * index) % 7 : 3.0;
        v[((size_t)z * N + y) * N + x] = (uint8_t)value;
      }
  return v;
}

static cvr_volume *volume_for(cvr_context *ctx, int index, const uint8_t *voxels) {
  cvr_volume_desc d;
  cvr_volume_desc_init(&d);
  d.dims[0] = d.dims[1] = d.dims[2] = N;
  d.spacing[2] = 1.0 + 0.1 * index;
  d.type = CVR_UINT8;
  d.data = voxels;
  cvr_volume *v = NULL;
  return cvr_volume_create(ctx, &d, &v) == CVR_OK ? v : NULL;
}

static cvr_transfer_function *tf_for(cvr_context *ctx, int index) {
  const double range[2] = {0.0, 255.0};
  return cvr_test_ramp(ctx, range, 20.0 + 10.0 * index, 250.0, 2.0);
}

static void settings_for(int index, cvr_render_settings *s) {
  cvr_render_settings_init(s);
  s->sample_distance = 0.5;
  s->shading.enabled = index % 2;
  s->strategy = index == 1 ? CVR_STRATEGY_AUTO : (index == 2 ? CVR_STRATEGY_WARP_MARCHING : CVR_STRATEGY_STANDARD);
  s->empty_space_skipping = index == 3;
  s->cpu_tile_width = 8 + 8 * index;
}

static void view_for(int index, int frame, cvr_view *view) {
  const double center[3] = {20.0, 20.0, 20.0 * (1.0 + 0.1 * index)};
  cvr_tools_orbit_view(center, 36.0, 25.0 * frame + 11.0 * index, 15.0 * (frame % 3) - 10.0,
                       frame % 2 ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL, W, H, view);
}

/* Renders a job's frames in a context of its own; 0 on failure. */
static int render_job(job *j) {
  cvr_context *ctx = new_context();
  if (!ctx) return 0;
  uint8_t *voxels = voxels_for(j->index);
  cvr_volume *v = volume_for(ctx, j->index, voxels);
  cvr_transfer_function *tf = tf_for(ctx, j->index);
  int ok = v && tf;
  for (int f = 0; f < FRAMES && ok; ++f) {
    cvr_view view;
    view_for(j->index, f, &view);
    cvr_render_settings s;
    settings_for(j->index, &s);
    const cvr_image img = {j->images[f], NULL, NULL, NULL};
    ok = cvr_render(ctx, v, tf, &view, &s, &img, NULL) == CVR_OK;
    if (!ok) fprintf(stderr, "job %d frame %d: %s\n", j->index, f, cvr_last_error(ctx));
  }
  cvr_transfer_function_destroy(tf);
  cvr_volume_destroy(v);
  cvr_context_destroy(ctx);
  free(voxels);
  return ok;
}

static void *run_job(void *arg) {
  job *j = arg;
  j->ok = render_job(j);
  return NULL;
}

/* Bit for bit on the CPU; on CUDA, AUTO picks among strategies (whose images
 * agree within the tolerance of test_common.h) by timings that differ from
 * run to run, so there the tolerance holds. */
static void same_images(const job *a, const job *b, const char *what) {
  for (int f = 0; f < FRAMES; ++f) {
    if (backend == CVR_BACKEND_CUDA) {
      const cvr_test_diff d = cvr_test_compare(a->images[f], b->images[f], NULL, NULL, PIXELS);
      CHECK(cvr_test_within_tolerance(&d), "%s, job %d frame %d: over %.4f%% mean %.4f", what,
            a->index, f, 100.0 * d.color.over_fraction, d.color.mean_diff);
      continue;
    }
    long differ = 0;
    for (long i = 0; i < PIXELS * 4; ++i) differ += a->images[f][i] != b->images[f][i];
    CHECK(differ == 0, "%s, job %d frame %d: %ld bytes differ from the single-threaded image", what,
          a->index, f, differ);
  }
}

static void parallel_contexts(void) {
  static job alone[THREADS], together[THREADS];
  for (int i = 0; i < THREADS; ++i) {
    alone[i].index = together[i].index = i;
    CHECK(render_job(&alone[i]), "job %d alone failed", i);
  }
  pthread_t threads[THREADS];
  for (int i = 0; i < THREADS; ++i) pthread_create(&threads[i], NULL, run_job, &together[i]);
  for (int i = 0; i < THREADS; ++i) pthread_join(threads[i], NULL);
  for (int i = 0; i < THREADS; ++i) {
    CHECK(together[i].ok, "job %d in parallel failed", i);
    same_images(&together[i], &alone[i], "contexts in parallel threads");
  }
  long shown = 0;
  for (long p = 3; p < PIXELS * 4; p += 4) shown += alone[0].images[0][p] > 0;
  CHECK(shown > PIXELS / 20, "the volume covers only %ld pixels", shown);
}

/* A context made here, used by a worker, then here again. */
typedef struct borrowed {
  cvr_context *ctx;
  cvr_volume *volume;
  cvr_transfer_function *tf;
  job *out;
  int ok;
} borrowed;

static void *render_borrowed(void *arg) {
  borrowed *b = arg;
  b->ok = 1;
  for (int f = 0; f < FRAMES && b->ok; ++f) {
    cvr_view view;
    view_for(b->out->index, f, &view);
    cvr_render_settings s;
    settings_for(b->out->index, &s);
    const cvr_image img = {b->out->images[f], NULL, NULL, NULL};
    b->ok = cvr_render(b->ctx, b->volume, b->tf, &view, &s, &img, NULL) == CVR_OK;
  }
  return NULL;
}

static void other_thread(void) {
  static job reference, worker, main_again;
  reference.index = worker.index = main_again.index = 1; /* AUTO, its helper started by the worker */
  CHECK(render_job(&reference), "reference failed");
  uint8_t *voxels = voxels_for(1);
  borrowed b = {new_context(), NULL, NULL, &worker, 0};
  b.volume = volume_for(b.ctx, 1, voxels);
  b.tf = tf_for(b.ctx, 1);
  pthread_t t;
  pthread_create(&t, NULL, render_borrowed, &b);
  pthread_join(t, NULL);
  CHECK(b.ok, "rendering from another thread: %s", cvr_last_error(b.ctx));
  same_images(&worker, &reference, "a context used from another thread");
  b.out = &main_again;
  render_borrowed(&b);
  CHECK(b.ok, "rendering on the creating thread after a worker: %s", cvr_last_error(b.ctx));
  same_images(&main_again, &reference, "the creating thread again");
  cvr_transfer_function_destroy(b.tf);
  cvr_volume_destroy(b.volume);
  cvr_context_destroy(b.ctx);
  free(voxels);
}

static void two_volumes_one_context(void) {
  static job reference[2], shared[2];
  for (int i = 0; i < 2; ++i) {
    reference[i].index = shared[i].index = 2 * i; /* standard, and standard with skipping off */
    CHECK(render_job(&reference[i]), "reference %d failed", i);
  }
  cvr_context *ctx = new_context();
  uint8_t *voxels[2] = {voxels_for(0), voxels_for(2)};
  cvr_volume *v[2] = {volume_for(ctx, 0, voxels[0]), volume_for(ctx, 2, voxels[1])};
  cvr_transfer_function *tf[2] = {tf_for(ctx, 0), tf_for(ctx, 2)};
  for (int f = 0; f < FRAMES; ++f)
    for (int i = 0; i < 2; ++i) { /* alternately */
      cvr_view view;
      view_for(shared[i].index, f, &view);
      cvr_render_settings s;
      settings_for(shared[i].index, &s);
      const cvr_image img = {shared[i].images[f], NULL, NULL, NULL};
      CHECK(cvr_render(ctx, v[i], tf[i], &view, &s, &img, NULL) == CVR_OK, "%s", cvr_last_error(ctx));
    }
  for (int i = 0; i < 2; ++i) {
    same_images(&shared[i], &reference[i], "two volumes in one context");
    cvr_transfer_function_destroy(tf[i]);
    cvr_volume_destroy(v[i]);
    free(voxels[i]);
  }
  cvr_context_destroy(ctx);
}

int main(int argc, char **argv) {
  cvr_context_destroy(cvr_test_context(argc, argv, &backend)); /* skips without a GPU */
  parallel_contexts();
  other_thread();
  two_volumes_one_context();
  return cvr_test_finish(backend == CVR_BACKEND_CUDA ? "test_concurrency cuda" : "test_concurrency cpu");
}
