// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* cvr-upload-bench: time to first image through the public C API. For each
 * size N and scalar type, an N^3 volume of random values in host memory:
 * cvr_volume_create (wall clock; GB/s of the caller's bytes, and their
 * ratio to a host-to-device copy from pinned memory and from the volume's
 * own pageable memory, measured in the same run), the first and second
 * frame after it (default settings, 512^2 rays, a perspective view), a
 * cvr_volume_update with other values of the same size, and the peak
 * resident host memory during the upload against the input's size. The
 * context's creation is timed once. Output: JSON lines. */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cvr.h"
#include "cvr_commit.h"
#include "cvr_tools.h"

/* (weak: the benchmark also runs on a library from before cvr_volume_update,
 * to time its uploads in the same call; update_ok is then 0) */
#pragma weak cvr_volume_update

#ifdef CVR_BENCH_HAVE_CUDA
int cvr_bench_host_to_device(const void *host, size_t bytes, int repeats, double *gbytes_per_s);
void *cvr_bench_pinned(size_t bytes);
void cvr_bench_pinned_free(void *p);
#endif

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Peak resident memory since the last reset, in bytes (Linux: VmHWM). */
static double peak_rss(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  double kb = 0.0;
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "VmHWM:", 6)) kb = atof(line + 6);
  if (f) fclose(f);
  return kb * 1024.0;
}

static void reset_peak_rss(void) {
  FILE *f = fopen("/proc/self/clear_refs", "w");
  if (f) {
    fputs("5", f);
    fclose(f);
  }
}

typedef struct fill_job {
  cvr_scalar_type type;
  void *data;
  size_t begin, end;
  uint64_t seed;
} fill_job;

/* Random values over the type's range (floats in [0, 1)). */
static void *fill_part(void *arg) {
  const fill_job *j = (const fill_job *)arg;
  uint64_t x = j->seed * 0x9e3779b97f4a7c15ull + 1;
  for (size_t i = j->begin; i < j->end; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    switch (j->type) {
    case CVR_UINT8: ((uint8_t *)j->data)[i] = (uint8_t)x; break;
    case CVR_INT16: ((int16_t *)j->data)[i] = (int16_t)x; break;
    default: ((float *)j->data)[i] = (float)(x >> 40) / 16777216.0f; break;
    }
  }
  return NULL;
}

static void fill(cvr_scalar_type type, void *data, size_t n, uint64_t seed) {
  enum { T = 16 };
  pthread_t id[T];
  fill_job jobs[T];
  for (int t = 0; t < T; ++t) {
    jobs[t] = (fill_job){type, data, n * t / T, n * (t + 1) / T, seed + (uint64_t)t};
    pthread_create(&id[t], NULL, fill_part, &jobs[t]);
  }
  for (int t = 0; t < T; ++t) pthread_join(id[t], NULL);
}

static int parse_type(const char *s, cvr_scalar_type *t) {
  if (!strcmp(s, "uint8")) *t = CVR_UINT8;
  else if (!strcmp(s, "int16")) *t = CVR_INT16;
  else if (!strcmp(s, "float32")) *t = CVR_FLOAT32;
  else return 0;
  return 1;
}

static int frame(cvr_context *ctx, cvr_volume *v, cvr_transfer_function *tf, const int *d,
                 double *ms) {
  const double center[3] = {0.5 * (d[0] - 1), 0.5 * (d[1] - 1), 0.5 * (d[2] - 1)};
  cvr_view view;
  cvr_tools_orbit_view(center, 0.87 * d[0], 30.0, 20.0, CVR_PROJECTION_PERSPECTIVE, 512, 512, &view);
  cvr_render_settings s;
  cvr_render_settings_init(&s);
  static uint8_t rgba[512 * 512 * 4];
  const cvr_image image = {rgba, NULL, NULL, NULL};
  const double t0 = now_s();
  const cvr_status st = cvr_render(ctx, v, tf, &view, &s, &image, NULL);
  *ms = (now_s() - t0) * 1e3;
  return st == CVR_OK;
}

int main(int argc, char **argv) {
  int sizes[8] = {512, 1024, 2048}, n_sizes = 3, repeats = 2;
  cvr_scalar_type types[3] = {CVR_UINT8, CVR_INT16, CVR_FLOAT32};
  int n_types = 3;
  const char *out_path = NULL;
  cvr_context_options o;
  cvr_context_options_init(&o);
  o.backend = CVR_BACKEND_CUDA;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--sizes") && v) {
      n_sizes = 0;
      for (char *s = argv[++i]; s && *s && n_sizes < 8; s = strchr(s, ',') ? strchr(s, ',') + 1 : NULL)
        sizes[n_sizes++] = atoi(s);
    } else if (!strcmp(a, "--types") && v) {
      n_types = 0;
      char list[128];
      snprintf(list, sizeof list, "%s", argv[++i]);
      for (char *t = strtok(list, ","); t && n_types < 3; t = strtok(NULL, ","))
        if (!parse_type(t, &types[n_types++])) {
          fprintf(stderr, "cvr-upload-bench: unknown type %s (uint8, int16, float32)\n", t);
          return 2;
        }
    } else if (!strcmp(a, "--repeats") && v) repeats = atoi(argv[++i]);
    else if (!strcmp(a, "--threads") && v) o.cpu_threads = atoi(argv[++i]);
    else if (!strcmp(a, "--backend") && v) o.backend = !strcmp(argv[++i], "cpu") ? CVR_BACKEND_CPU : CVR_BACKEND_CUDA;
    else if (!strcmp(a, "--out") && v) out_path = argv[++i];
    else {
      fprintf(stderr, "usage: cvr-upload-bench [--sizes N,...] [--types uint8,int16,float32] "
                      "[--repeats K] [--threads T (host threads; 0: one per core)] "
                      "[--backend cuda|cpu] [--out FILE]\n");
      return 2;
    }
  }
  FILE *out = out_path ? fopen(out_path, "w") : stdout;
  if (!out || repeats < 1) return 2;
  cvr_context *ctx = NULL;
  const double c0 = now_s();
  if (cvr_context_create(&o, &ctx) != CVR_OK) {
    fprintf(stderr, "cvr-upload-bench: %s\n", cvr_last_error(NULL));
    return o.backend == CVR_BACKEND_CUDA ? 125 : 1;
  }
  cvr_tools_write_meta(out, cvr_context_description(ctx), CVR_GIT_COMMIT, argc, argv);
  fprintf(out, "{\"bench\":\"context\",\"ms\":%.1f,\"cores\":%ld,\"threads\":%d}\n",
          (now_s() - c0) * 1e3, sysconf(_SC_NPROCESSORS_ONLN), o.cpu_threads);
  float table[4 * 256];
  cvr_tools_ramp_tf(table, 256, 0.0, 255.0, 0.0, 255.0, 0.05f);
  int rc = 0;
  for (int si = 0; si < n_sizes && !rc; ++si)
    for (int ti = 0; ti < n_types && !rc; ++ti) {
      const int n = sizes[si], d[3] = {n, n, n};
      const size_t count = (size_t)n * n * n, bytes = count * cvr_scalar_type_size(types[ti]);
      void *data = malloc(bytes), *other = malloc(bytes);
      if (!data || !other) {
        fprintf(stderr, "cvr-upload-bench: no host memory for %d^3\n", n);
        free(data);
        free(other);
        rc = 1;
        break;
      }
      fill(types[ti], data, count, 1);
      fill(types[ti], other, count, 99);
      /* the reference copies: 1 GiB (or the volume) from pinned memory and
       * from the volume's own pageable memory */
      double pinned = 0.0, pageable = 0.0;
#ifdef CVR_BENCH_HAVE_CUDA
      const size_t ref = o.backend == CVR_BACKEND_CPU ? 0 : bytes < ((size_t)1 << 30) ? bytes : ((size_t)1 << 30);
      void *p = ref ? cvr_bench_pinned(ref) : NULL;
      if (p) {
        memcpy(p, data, ref);
        cvr_bench_host_to_device(p, ref, 3, &pinned);
        cvr_bench_pinned_free(p);
      }
      if (ref) cvr_bench_host_to_device(data, ref, 3, &pageable);
#endif
      const double range_hi = types[ti] == CVR_FLOAT32 ? 1.0 : (types[ti] == CVR_INT16 ? 32767.0 : 255.0);
      const cvr_transfer_function_desc td = {
          .rgba = table, .size = 256, .range = {0.0, range_hi},
          .unit_distance = 1.0};
      cvr_transfer_function *tf = NULL;
      cvr_transfer_function_create(ctx, &td, &tf);
      for (int r = 0; r < repeats && !rc; ++r) {
        cvr_volume_desc desc;
        cvr_volume_desc_init(&desc);
        desc.type = types[ti];
        desc.data = data;
        memcpy(desc.dims, d, sizeof desc.dims);
        reset_peak_rss();
        const double base = peak_rss();
        cvr_volume *v = NULL;
        const double t0 = now_s();
        if (cvr_volume_create(ctx, &desc, &v) != CVR_OK) {
          fprintf(out, "{\"bench\":\"upload\",\"N\":%d,\"type\":\"%s\",\"error\":\"%s\"}\n", n,
                  types[ti] == CVR_UINT8 ? "uint8" : types[ti] == CVR_INT16 ? "int16" : "float32",
                  cvr_last_error(ctx));
          break;
        }
        const double create_s = now_s() - t0, peak = peak_rss();
        double first = 0.0, second = 0.0;
        const int ok = frame(ctx, v, tf, d, &first) && frame(ctx, v, tf, d, &second);
        desc.data = other;
        const double u0 = now_s();
        const int updated = cvr_volume_update && cvr_volume_update(v, &desc) == CVR_OK;
        const double update_s = now_s() - u0;
        double after_update = 0.0;
        frame(ctx, v, tf, d, &after_update);
        fprintf(out,
                "{\"bench\":\"upload\",\"N\":%d,\"type\":\"%s\",\"gib\":%.3f,\"repeat\":%d,"
                "\"create_ms\":%.1f,\"gbytes_per_s\":%.2f,\"pinned_gbytes_per_s\":%.2f,"
                "\"of_pinned\":%.3f,\"pageable_gbytes_per_s\":%.2f,\"first_frame_ms\":%.1f,"
                "\"second_frame_ms\":%.2f,\"first_image_ms\":%.1f,\"update_ms\":%.1f,"
                "\"update_gbytes_per_s\":%.2f,\"frame_after_update_ms\":%.2f,"
                "\"peak_rss_over_base_gib\":%.3f,\"base_rss_gib\":%.3f,\"frames_ok\":%d,"
                "\"update_ok\":%d}\n",
                n, types[ti] == CVR_UINT8 ? "uint8" : types[ti] == CVR_INT16 ? "int16" : "float32",
                bytes / 1073741824.0, r, create_s * 1e3, bytes / create_s / 1e9, pinned,
                pinned > 0.0 ? bytes / create_s / 1e9 / pinned : 0.0, pageable, first, second,
                create_s * 1e3 + first, update_s * 1e3, bytes / update_s / 1e9, after_update,
                (peak - base) / 1073741824.0, base / 1073741824.0, ok, updated);
        fflush(out);
        cvr_volume_destroy(v);
      }
      cvr_transfer_function_destroy(tf);
      free(data);
      free(other);
    }
  cvr_context_destroy(ctx);
  if (out != stdout) fclose(out);
  return rc;
}
