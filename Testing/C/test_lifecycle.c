// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Nothing is kept between uses: 1000 cycles of context, volume and transfer
 * function created, a frame rendered (every tenth with AUTO, whose helper
 * thread loads kernels on a context of its own; on CUDA a volume that
 * changes its memory layout, and one turned in place), and everything
 * destroyed. Host memory (resident set) and, on CUDA, device memory must
 * come back: after the first 100 cycles (allocators and the driver settle)
 * neither may grow by more than a small bound over the remaining 900; a leak
 * of one small buffer per cycle would already exceed it. Images of the last
 * cycle equal those of the first. Usage: test_lifecycle cpu|cuda [cycles] */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cvr_internal.h"
#include "test_common.h"

/* built with AddressSanitizer (tools/sanitize.sh): gcc says so, clang answers __has_feature */
#if defined(__SANITIZE_ADDRESS__)
#  define CVR_ASAN 1
#elif defined(__has_feature)
#  if __has_feature(address_sanitizer)
#    define CVR_ASAN 1
#  endif
#endif
#ifndef CVR_ASAN
#  define CVR_ASAN 0
#endif

#define N 24
#define SIZE 32
/* per 900 cycles: a leak of 4 KB per cycle is 3.6 MB */
#define HOST_GROWTH_BYTES (2u << 20)
#define DEVICE_GROWTH_BYTES (2u << 20)

static long resident_bytes(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long pages = 0, resident = 0;
  if (f) {
    if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    fclose(f);
  }
  return resident * sysconf(_SC_PAGESIZE);
}

/* One cycle; its image into rgba. 0 on an error (reported). */
static int cycle(cvr_backend backend, int n, double azimuth, uint8_t *rgba, size_t *device_free) {
  cvr_context_options o;
  cvr_context_options_init(&o);
  o.backend = backend;
  cvr_context *ctx = NULL;
  if (cvr_context_create(&o, &ctx) != CVR_OK) {
    CHECK(0, "cycle %d: context: %s", n, cvr_last_error(NULL));
    return 0;
  }
  cvr_tuning_set_cache_dir(ctx, ""); /* nothing written */
  static uint8_t voxels[N * N * N];
  for (int i = 0; i < N * N * N; ++i) voxels[i] = (uint8_t)((i * 37 + i / N) % 251);
  cvr_volume_desc d;
  cvr_volume_desc_init(&d);
  d.type = CVR_UINT8;
  d.data = voxels;
  d.dims[0] = d.dims[1] = d.dims[2] = N;
  float table[4 * 64];
  for (int i = 0; i < 64; ++i) {
    table[4 * i] = i / 63.0f;
    table[4 * i + 1] = 0.5f;
    table[4 * i + 2] = 1.0f - i / 63.0f;
    table[4 * i + 3] = 0.05f * i / 63.0f;
  }
  const cvr_transfer_function_desc td = {.rgba = table, .size = 64, .range = {0.0, 255.0}, .unit_distance = 1.0};
  cvr_volume *v = NULL;
  cvr_transfer_function *tf = NULL;
  int ok = cvr_volume_create(ctx, &d, &v) == CVR_OK &&
           cvr_transfer_function_create(ctx, &td, &tf) == CVR_OK;
  cvr_view view;
  cvr_tools_orbit_view((double[3]){0.5 * (N - 1), 0.5 * (N - 1), 0.5 * (N - 1)}, 0.87 * N, azimuth,
                       20.0, CVR_PROJECTION_PERSPECTIVE, SIZE, SIZE, &view);
  cvr_render_settings s;
  cvr_render_settings_init(&s);
  const cvr_image image = {rgba, NULL, NULL, NULL};
  static uint8_t scratch[SIZE * SIZE * 4];
  const cvr_image other_image = {scratch, NULL, NULL, NULL};
  if (ok) ok = cvr_render(ctx, v, tf, &view, &s, &image, NULL) == CVR_OK;
  if (ok && n % 10 == 0) { /* AUTO: its tables, and on CUDA its helper thread */
    s.strategy = CVR_STRATEGY_AUTO;
    ok = cvr_render(ctx, v, tf, &view, &s, &other_image, NULL) == CVR_OK;
    s.strategy = CVR_STRATEGY_STANDARD;
  }
  if (ok && backend == CVR_BACKEND_CUDA && n % 10 == 5) { /* another layout, then a turn */
    cvr_render_settings other = s;
    other.memory_layout = CVR_LAYOUT_Z_ORDER;
    ok = cvr_render(ctx, v, tf, &view, &other, &other_image, NULL) == CVR_OK;
    other.memory_layout = CVR_LAYOUT_TEXTURE;
    other.rotation_policy = CVR_ROTATION_ON_REGION_CHANGE;
    if (ok) ok = cvr_render(ctx, v, tf, &view, &other, &other_image, NULL) == CVR_OK;
    if (ok) ok = cvr_debug_rotate(v, &other, 1, NULL) == CVR_OK;
    if (ok) ok = cvr_render(ctx, v, tf, &view, &other, &other_image, NULL) == CVR_OK;
  }
  if (!ok) CHECK(0, "cycle %d: %s", n, cvr_last_error(ctx));
  cvr_transfer_function_destroy(tf);
  cvr_volume_destroy(v);
  if (device_free && backend == CVR_BACKEND_CUDA) *device_free = cvr_debug_device_free_bytes(ctx);
  cvr_context_destroy(ctx);
  return ok;
}

int main(int argc, char **argv) {
  cvr_backend backend = CVR_BACKEND_CPU;
  cvr_context_destroy(cvr_test_context(argc, argv, &backend)); /* skips without a GPU */
  const int cycles = argc > 2 ? atoi(argv[2]) : 1000;
  if (cycles < 200) {
    fprintf(stderr, "usage: test_lifecycle cpu|cuda [cycles >= 200]\n");
    return 2;
  }
  static uint8_t first[SIZE * SIZE * 4], image[SIZE * SIZE * 4];
  long host_settled = 0;
  size_t device_settled = 0, device_now = 0;
  for (int n = 0; n < cycles && !cvr_test_failures; ++n) {
    /* the views differ from cycle to cycle; the last is the first's */
    const double azimuth = n == cycles - 1 ? 30.0 : 30.0 + n % 7;
    if (!cycle(backend, n, azimuth, n == 0 ? first : image, &device_now)) break;
    if (n == 99) {
      host_settled = resident_bytes();
      device_settled = device_now;
    }
  }
  const long host_end = resident_bytes();
  CHECK(!memcmp(first, image, sizeof image), "the last cycle's image differs from the first's");
  long shown = 0;
  for (int i = 3; i < SIZE * SIZE * 4; i += 4) shown += first[i] > 0;
  CHECK(shown > SIZE * SIZE / 4, "only %ld pixels show the volume", shown);
#if CVR_ASAN
  /* AddressSanitizer keeps freed memory in quarantine, so the resident set
   * grows without a leak; its leak checker judges leaks at exit instead */
  printf("AddressSanitizer build: the resident-set bound is left to LeakSanitizer\n");
#else
  CHECK(host_end - host_settled <= (long)HOST_GROWTH_BYTES,
        "host memory grew by %ld bytes over cycles 100..%d", host_end - host_settled, cycles);
#endif
  if (backend == CVR_BACKEND_CUDA)
    CHECK(device_settled <= device_now + DEVICE_GROWTH_BYTES,
          "device memory shrank by %zu bytes over cycles 100..%d", device_settled - device_now,
          cycles);
  printf("%d cycles (%s): resident %.1f MB after 100, %.1f MB at the end", cycles,
         cvr_backend_name(backend), host_settled / 1048576.0, host_end / 1048576.0);
  if (backend == CVR_BACKEND_CUDA)
    printf("; device free %.1f MB after 100, %.1f MB at the end", device_settled / 1048576.0,
           device_now / 1048576.0);
  printf("\n");
  return cvr_test_finish("test_lifecycle");
}
