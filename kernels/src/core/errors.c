// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Status strings and error messages. */
#include <stdarg.h>
#include <stdio.h>

#include "cvr_internal.h"

/* Failures with no context to hold them (cvr_context_create, NULL handles). */
static _Thread_local char thread_last_error[CVR_MESSAGE_SIZE];

cvr_status cvr_fail(cvr_context *ctx, cvr_status status, const char *fmt, ...) {
  char *buffer = ctx ? ctx->last_error : thread_last_error;
  va_list args;
  va_start(args, fmt);
  vsnprintf(buffer, CVR_MESSAGE_SIZE, fmt, args);
  va_end(args);
  return status;
}

const char *cvr_last_error(const cvr_context *ctx) {
  return ctx ? ctx->last_error : thread_last_error;
}

const char *cvr_status_string(cvr_status status) {
  switch (status) {
  case CVR_OK: return "success";
  case CVR_ERROR_INVALID_ARGUMENT: return "invalid argument";
  case CVR_ERROR_UNSUPPORTED: return "unsupported";
  case CVR_ERROR_OUT_OF_MEMORY: return "out of memory";
  case CVR_ERROR_NO_DEVICE: return "no CUDA device";
  case CVR_ERROR_DEVICE: return "CUDA device error";
  case CVR_ERROR_INTERNAL: return "internal error";
  case CVR_ERROR_DEVICE_LOST: return "CUDA device lost";
  }
  return "unknown status";
}

const char *cvr_backend_name(cvr_backend backend) {
  switch (backend) {
  case CVR_BACKEND_AUTO: return "auto";
  case CVR_BACKEND_CUDA: return "cuda";
  case CVR_BACKEND_CPU: return "cpu";
  }
  return "unknown";
}

const char *cvr_strategy_name(cvr_strategy strategy) {
  switch (strategy) {
  case CVR_STRATEGY_STANDARD: return "standard";
  case CVR_STRATEGY_BLOCK_SHAPE: return "block-shape";
  case CVR_STRATEGY_WARP_MARCHING: return "warp-marching";
  case CVR_STRATEGY_SLAB: return "slab";
  case CVR_STRATEGY_AUTO: return "auto";
  }
  return "unknown";
}

const char *cvr_blend_mode_name(cvr_blend_mode mode) {
  switch (mode) {
  case CVR_BLEND_COMPOSITE: return "composite";
  case CVR_BLEND_MAXIMUM: return "maximum intensity";
  case CVR_BLEND_MINIMUM: return "minimum intensity";
  case CVR_BLEND_AVERAGE: return "average intensity";
  case CVR_BLEND_ADDITIVE: return "additive";
  case CVR_BLEND_ISOSURFACE: return "isosurface";
  case CVR_BLEND_SLICE: return "slice";
  }
  return "unknown";
}

const char *cvr_warp_variant_name(cvr_warp_variant variant) {
  switch (variant) {
  case CVR_WARP_SB_SHARED: return "SBShared";
  case CVR_WARP_DB_SHARED: return "DBShared";
  case CVR_WARP_SB_SHUFFLE: return "SBShuffle";
  case CVR_WARP_DB_SHUFFLE: return "DBShuffle";
  }
  return "unknown";
}

const char *cvr_slab_border_name(cvr_slab_border border) {
  switch (border) {
  case CVR_SLAB_BORDER_RING: return "ring";
  case CVR_SLAB_BORDER_GATHERED: return "gathered";
  }
  return "unknown";
}

const char *cvr_memory_layout_name(cvr_memory_layout layout) {
  switch (layout) {
  case CVR_LAYOUT_TEXTURE: return "texture";
  case CVR_LAYOUT_ARRAY_ORDER: return "array order";
  case CVR_LAYOUT_Z_ORDER: return "Z-order";
  }
  return "unknown";
}

const char *cvr_rotation_policy_name(cvr_rotation_policy policy) {
  switch (policy) {
  case CVR_ROTATION_NEVER: return "never";
  case CVR_ROTATION_ON_REGION_CHANGE: return "on region change";
  case CVR_ROTATION_HYSTERESIS: return "hysteresis";
  }
  return "unknown";
}

cvr_status cvr_lost_failure(cvr_context *ctx, const char *what) {
  return cvr_fail(ctx, CVR_ERROR_DEVICE_LOST, "%s: the CUDA device was lost earlier (%s)", what,
                  ctx->lost_reason);
}
