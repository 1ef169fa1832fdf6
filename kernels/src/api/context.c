// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Contexts: backend choice and lifetime. */
#include <stdio.h>
#include <stdlib.h>

#include "cuda_backend.h"

void cvr_context_options_init(cvr_context_options *options) {
  if (!options) return;
  options->backend = CVR_BACKEND_AUTO;
  options->device_index = 0;
  options->cpu_threads = 0;
  options->memory_budget = 0;
  options->brick_size = 0;
}

int cvr_cuda_device_count(void) { return cvr_cuda_count_devices(); }

static void describe_cpu(cvr_context *ctx, const char *why) {
  snprintf(ctx->description, sizeof ctx->description, "CPU: %d threads%s%s%s", ctx->cpu_threads,
           why ? " (CUDA unavailable: " : "", why ? why : "", why ? ")" : "");
}

cvr_status cvr_context_create(const cvr_context_options *options, cvr_context **out) {
  if (!out) return cvr_fail(NULL, CVR_ERROR_INVALID_ARGUMENT, "cvr_context_create: out is NULL");
  *out = NULL;
  cvr_context_options defaults;
  cvr_context_options_init(&defaults);
  if (!options) options = &defaults;
  if (options->backend != CVR_BACKEND_AUTO && options->backend != CVR_BACKEND_CUDA &&
      options->backend != CVR_BACKEND_CPU)
    return cvr_fail(NULL, CVR_ERROR_INVALID_ARGUMENT, "cvr_context_create: unknown backend %d",
                    (int)options->backend);
  if (options->device_index < 0)
    return cvr_fail(NULL, CVR_ERROR_INVALID_ARGUMENT,
                    "cvr_context_create: device index %d is negative", options->device_index);
  if (options->cpu_threads < 0 || options->cpu_threads > 4096)
    return cvr_fail(NULL, CVR_ERROR_INVALID_ARGUMENT,
                    "cvr_context_create: cpu_threads %d is outside 0..4096 (0 = one per core)",
                    options->cpu_threads);

  const int brick_size = options->brick_size ? options->brick_size : 128;
  if (brick_size < 16 || brick_size > 256 || (brick_size & (brick_size - 1)))
    return cvr_fail(NULL, CVR_ERROR_INVALID_ARGUMENT,
                    "cvr_context_create: brick_size %d is not a power of two in 16..256 (0 = 128)",
                    options->brick_size);

  cvr_context *ctx = calloc(1, sizeof *ctx);
  if (!ctx) return cvr_fail(NULL, CVR_ERROR_OUT_OF_MEMORY, "cvr_context_create: out of host memory");
  if (cvr_tuner_create(ctx) != CVR_OK) {
    free(ctx);
    return cvr_fail(NULL, CVR_ERROR_OUT_OF_MEMORY, "cvr_context_create: out of host memory");
  }
  ctx->device_index = options->device_index;
  ctx->cpu_threads = options->cpu_threads ? options->cpu_threads : cvr_cpu_default_threads();
  ctx->memory_budget = options->memory_budget;
  while ((1 << ctx->brick_shift) < brick_size) ++ctx->brick_shift;

  const char *lose = getenv("CVR_DEBUG_LOSE_DEVICE_AT_RENDER");
  ctx->debug.lose_device_at_render = lose ? atoi(lose) : 0;
  if (options->backend == CVR_BACKEND_CPU) {
    ctx->backend = CVR_BACKEND_CPU;
    describe_cpu(ctx, NULL);
  } else {
    cvr_status st = cvr_cuda_context_create(ctx, options->device_index);
    if (st == CVR_OK) {
      ctx->backend = CVR_BACKEND_CUDA;
    } else if (options->backend == CVR_BACKEND_AUTO) {
      ctx->backend = CVR_BACKEND_CPU;
      ctx->lost = 0; /* a device lost earlier in the process: the CPU is fine */
      describe_cpu(ctx, ctx->last_error);
      ctx->last_error[0] = '\0';
    } else {
      cvr_fail(NULL, st, "%s", ctx->last_error);
      cvr_tuner_destroy(ctx);
      free(ctx);
      return st;
    }
  }
  *out = ctx;
  return CVR_OK;
}

void cvr_context_destroy(cvr_context *ctx) {
  if (!ctx) return;
  if (ctx->backend == CVR_BACKEND_CUDA) cvr_cuda_context_destroy(ctx);
  cvr_tuner_destroy(ctx);
  free(ctx);
}

cvr_backend cvr_context_backend(const cvr_context *ctx) {
  return ctx ? ctx->backend : CVR_BACKEND_AUTO;
}

int cvr_context_lost(const cvr_context *ctx) { return ctx && ctx->lost; }

cvr_status cvr_debug_lose_device(cvr_context *ctx) {
  if (!ctx || ctx->backend != CVR_BACKEND_CUDA)
    return cvr_fail(ctx, CVR_ERROR_UNSUPPORTED, "cvr_debug_lose_device: not a CUDA context");
  return cvr_cuda_debug_lose_device(ctx);
}

const char *cvr_context_description(const cvr_context *ctx) {
  return ctx ? ctx->description : "no context";
}

void cvr_debug_set(cvr_context *ctx, const cvr_debug_options *options) {
  if (ctx && options) ctx->debug = *options;
}
