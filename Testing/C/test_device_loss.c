// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* A CUDA device lost mid-run (a sticky error: here a kernel that writes to
 * an invalid address, as a broken kernel or a failing GPU makes one).
 *  - Through the environment's CVR_DEBUG_LOSE_DEVICE_AT_RENDER=3 (the hook
 *    the VTK tests use): renders 1 and 2 of a CUDA context succeed, the
 *    third loses the device and fails with CVR_ERROR_DEVICE_LOST, saying so;
 *    cvr_context_lost says so too.
 *  - Every later call that needs the device fails the same way with the
 *    first loss's message (render, AUTO, a new volume, a mask, an OpenGL
 *    buffer), and nothing crashes: objects and context are destroyed.
 *  - A new AUTO context in the same process (whose device stays broken)
 *    falls back to the CPU and renders the frame the CPU renders, bit for
 *    bit; a CPU context made before the loss still renders it too.
 * Its own process: the device cannot be used again in it. Not under
 * compute-sanitizer (the fault is meant).
 * Usage: test_device_loss (skips without a GPU) */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdlib.h>
#include <string.h>

#include "test_common.h"

enum { PIXELS = CVR_COLUMN_W * CVR_COLUMN_H };

static cvr_status render(cvr_context *ctx, cvr_volume *v, cvr_transfer_function *tf,
                         cvr_strategy strategy, uint8_t *rgba) {
  cvr_view view;
  cvr_test_column_view(&view);
  cvr_render_settings s;
  cvr_render_settings_init(&s);
  s.sample_distance = 0.5;
  s.strategy = strategy;
  const cvr_image img = {rgba, NULL, NULL, NULL};
  return cvr_render(ctx, v, tf, &view, &s, &img, NULL);
}

static void expect_lost(cvr_context *ctx, cvr_status st, const char *what) {
  CHECK(st == CVR_ERROR_DEVICE_LOST, "%s after the loss: status %d (%s)", what, (int)st,
        cvr_last_error(ctx));
  CHECK(strstr(cvr_last_error(ctx), "illegal memory access") != NULL,
        "%s: \"%s\" does not carry the loss's cause", what, cvr_last_error(ctx));
}

int main(void) {
  if (cvr_cuda_device_count() == 0) {
    printf("SKIP: no usable CUDA device\n");
    return CVR_TEST_SKIP;
  }
  static uint8_t voxels[CVR_COLUMN_N * CVR_COLUMN_N * CVR_COLUMN_N];
  for (size_t i = 0; i < sizeof voxels; ++i) voxels[i] = (uint8_t)(i * 7 % 251);
  static uint8_t reference[4 * PIXELS], image[4 * PIXELS];

  /* the CPU's frame, from a context made before the loss */
  char *cpu_arg[] = {"test_device_loss", "cpu"};
  cvr_context *cpu = cvr_test_context(2, cpu_arg, NULL);
  cvr_volume *cpu_volume = cvr_test_column_volume(cpu, voxels);
  cvr_transfer_function *cpu_tf = cvr_test_column_tf(cpu, 1.0);
  CHECK(render(cpu, cpu_volume, cpu_tf, CVR_STRATEGY_STANDARD, reference) == CVR_OK, "CPU: %s",
        cvr_last_error(cpu));

  setenv("CVR_DEBUG_LOSE_DEVICE_AT_RENDER", "3", 1);
  char *cuda_arg[] = {"test_device_loss", "cuda"};
  cvr_context *gpu = cvr_test_context(2, cuda_arg, NULL);
  unsetenv("CVR_DEBUG_LOSE_DEVICE_AT_RENDER");
  cvr_volume *volume = cvr_test_column_volume(gpu, voxels);
  cvr_transfer_function *tf = cvr_test_column_tf(gpu, 1.0);
  for (int frame = 1; frame <= 2; ++frame)
    CHECK(render(gpu, volume, tf, CVR_STRATEGY_STANDARD, image) == CVR_OK && !cvr_context_lost(gpu),
          "frame %d before the loss: %s", frame, cvr_last_error(gpu));
  const cvr_status lost = render(gpu, volume, tf, CVR_STRATEGY_STANDARD, image);
  printf("the third frame: %s\n", cvr_last_error(gpu));
  CHECK(lost == CVR_ERROR_DEVICE_LOST && cvr_context_lost(gpu),
        "the third frame: status %d, lost %d", (int)lost, cvr_context_lost(gpu));
  CHECK(strstr(cvr_last_error(gpu), "CUDA device is lost") != NULL,
        "the loss is not said: \"%s\"", cvr_last_error(gpu));
  CHECK(!strcmp(cvr_status_string(CVR_ERROR_DEVICE_LOST), "CUDA device lost"), "status name \"%s\"",
        cvr_status_string(CVR_ERROR_DEVICE_LOST));

  /* every later call that needs the device */
  expect_lost(gpu, render(gpu, volume, tf, CVR_STRATEGY_STANDARD, image), "a render");
  expect_lost(gpu, render(gpu, volume, tf, CVR_STRATEGY_AUTO, image), "an AUTO render");
  cvr_volume_desc d;
  cvr_volume_desc_init(&d);
  d.type = CVR_UINT8;
  d.dims[0] = d.dims[1] = d.dims[2] = CVR_COLUMN_N;
  d.data = voxels;
  cvr_volume *another = NULL;
  expect_lost(gpu, cvr_volume_create(gpu, &d, &another), "a new volume");
  CHECK(!another, "a volume was created on a lost device");
  unsigned char labels[CVR_COLUMN_N * CVR_COLUMN_N * CVR_COLUMN_N] = {0};
  expect_lost(gpu, cvr_volume_set_mask(volume, labels), "a mask");
  cvr_gl_buffer *buffer = NULL;
  expect_lost(gpu, cvr_gl_buffer_register(gpu, 1u, &buffer), "an OpenGL buffer");
  cvr_transfer_function_destroy(tf);
  cvr_volume_destroy(volume);
  cvr_context_destroy(gpu);

  /* the CPU goes on */
  memset(image, 0, sizeof image);
  CHECK(render(cpu, cpu_volume, cpu_tf, CVR_STRATEGY_STANDARD, image) == CVR_OK &&
            !memcmp(image, reference, sizeof image),
        "the CPU context after the loss: %s", cvr_last_error(cpu));
  cvr_context_options o;
  cvr_context_options_init(&o);
  cvr_context *fallback = NULL;
  CHECK(cvr_context_create(&o, &fallback) == CVR_OK, "an AUTO context after the loss: %s",
        cvr_last_error(NULL));
  if (fallback) {
    printf("an AUTO context after the loss: %s\n", cvr_context_description(fallback));
    CHECK(cvr_context_backend(fallback) == CVR_BACKEND_CPU, "the AUTO context is on %s",
          cvr_backend_name(cvr_context_backend(fallback)));
    cvr_volume *v = cvr_test_column_volume(fallback, voxels);
    cvr_transfer_function *t = cvr_test_column_tf(fallback, 1.0);
    memset(image, 0, sizeof image);
    CHECK(v && t && render(fallback, v, t, CVR_STRATEGY_AUTO, image) == CVR_OK &&
              !memcmp(image, reference, sizeof image),
          "the AUTO context's frame differs from the CPU's: %s", cvr_last_error(fallback));
    cvr_transfer_function_destroy(t);
    cvr_volume_destroy(v);
    cvr_context_destroy(fallback);
  }
  cvr_transfer_function_destroy(cpu_tf);
  cvr_volume_destroy(cpu_volume);
  cvr_context_destroy(cpu);
  return cvr_test_finish("test_device_loss");
}
