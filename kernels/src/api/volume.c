// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Volumes: validation, the stored representation, and range. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bricks.h"
#include "cuda_backend.h"
#include "volume_convert.h"

void cvr_volume_desc_init(cvr_volume_desc *desc) {
  if (!desc) return;
  memset(desc, 0, sizeof *desc);
  desc->type = CVR_UINT8;
  for (int a = 0; a < 3; ++a) {
    desc->spacing[a] = 1.0;
    desc->direction[4 * a] = 1.0;
  }
}

static const char *type_name(cvr_scalar_type type) {
  static const char *const names[] = {"int8", "uint8", "int16", "uint16",
                                      "int32", "uint32", "float32", "float64"};
  return (unsigned)type < sizeof names / sizeof *names ? names[type] : "unknown type";
}

static int all_finite(const double *v, int n) {
  for (int i = 0; i < n; ++i)
    if (!isfinite(v[i])) return 0;
  return 1;
}

static double det3(const double *m) {
  return m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
         m[2] * (m[3] * m[7] - m[4] * m[6]);
}

static cvr_status validate(cvr_context *ctx, const cvr_volume_desc *d) {
  if (cvr_scalar_type_size(d->type) == 0)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "volume: unknown scalar type %d", (int)d->type);
  if (!d->data) return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "volume: data is NULL");
  if (d->components < 0 || d->components > CVR_MAX_COMPONENTS)
    return cvr_fail(ctx, CVR_ERROR_UNSUPPORTED, "volume: %d components per voxel; 1..%d are supported",
                    d->components, CVR_MAX_COMPONENTS);
  for (int a = 0; a < 3; ++a) {
    if (d->dims[a] < 2)
      return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                      "volume: dimensions %d x %d x %d: each must be at least 2 (a volume, "
                      "not an image or a line)", d->dims[0], d->dims[1], d->dims[2]);
    if (d->dims[a] > CVR_VOLUME_MAX_DIM)
      return cvr_fail(ctx, CVR_ERROR_UNSUPPORTED,
                      "volume: dimension %d on axis %d exceeds the supported maximum %d",
                      d->dims[a], a, CVR_VOLUME_MAX_DIM);
    if (!(d->spacing[a] > 0.0) || !isfinite(d->spacing[a]))
      return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                      "volume: spacing (%g, %g, %g) must be positive and finite", d->spacing[0],
                      d->spacing[1], d->spacing[2]);
  }
  if (!all_finite(d->origin, 3))
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "volume: origin is not finite");
  if (!all_finite(d->direction, 9) || fabs(det3(d->direction)) < 1e-9)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "volume: direction matrix is singular or not finite");
  return CVR_OK;
}

/* The upload of desc's scalars into a volume of ctx, widening range and,
 * with several components, component_ranges (reset here). */
static cvr_upload upload_of(const cvr_context *ctx, const cvr_volume_desc *desc, double range[2],
                            double (*component_ranges)[2]) {
  cvr_upload u;
  u.type = desc->type;
  u.data = desc->data;
  u.range = range;
  u.component_ranges = desc->components > 1 ? component_ranges : NULL;
  for (int c = 0; c < CVR_MAX_COMPONENTS; ++c) cvr_range_init(component_ranges[c]);
  u.progress = desc->progress;
  u.progress_user = desc->progress_user;
  u.threads = ctx->cpu_threads;
  return u;
}

static size_t value_count(const cvr_volume *v) {
  return (size_t)v->dims[0] * v->dims[1] * v->dims[2] * v->components;
}

/* The upload's scalars into host_data, converted, in chunks of about 64 Mi
 * values, whole voxels (progress between them); where host_data is the
 * caller's own (borrowed), only their range. */
static void cpu_store(cvr_volume *v, const cvr_upload *u) {
  const size_t count = value_count(v), chunk = ((size_t)64 << 20) / v->components * v->components;
  const size_t in = cvr_scalar_type_size(u->type), out = cvr_scalar_type_size(v->stored_type);
  for (size_t b = 0; b < count; b += chunk) {
    const size_t n = count - b < chunk ? count - b : chunk;
    cvr_convert_range(u->type, (const char *)u->data + b * in, n,
                      v->host_borrowed ? NULL : (char *)v->host_data + b * out, u->range,
                      v->components, u->component_ranges, u->threads);
    if (u->progress) u->progress((double)(b + n) / (double)count, u->progress_user);
  }
}

/* Host memory the system can still give (Linux: MemAvailable), or
 * SIZE_MAX where it does not say: a copy larger would be refused late or
 * not at all (overcommitted pages fail when first touched). */
static size_t host_memory_available(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  if (!f) return SIZE_MAX;
  char line[128];
  size_t kib = 0;
  int found = 0;
  while (!found && fgets(line, sizeof line, f)) found = sscanf(line, "MemAvailable: %zu kB", &kib) == 1;
  fclose(f);
  return found ? kib * 1024 : SIZE_MAX;
}

/* Drops the scalars the volume keeps in host memory (unpinned first). */
static void host_release(cvr_volume *v) {
  if (!v->host_data) return;
  if (v->bricks) cvr_cuda_bricks_unpin(v);
  if (!v->host_borrowed) free(v->host_data);
  v->host_data = NULL;
  v->host_borrowed = 0;
}

/* The volume's scalars in host memory (the CPU backend's, or a bricked
 * volume's), from the upload: the caller's own where desc lends them in the
 * type they are kept in, else a converted copy (written over the one the
 * volume has, if it has one). *replaced: the volume's scalars are new
 * memory (to be pinned again; unpinned where they were released). */
static cvr_status host_store(cvr_context *ctx, cvr_volume *v, const cvr_upload *u,
                             const cvr_volume_desc *desc, int *replaced) {
  const int borrow = desc->borrow_data && cvr_stored_type(desc->type) == desc->type;
  *replaced = borrow || v->host_borrowed || !v->host_data;
  if (borrow || v->host_borrowed) host_release(v);
  if (borrow) {
    v->host_data = (void *)desc->data; /* (read only) */
    v->host_borrowed = 1;
  } else if (!v->host_data) {
    const size_t bytes = value_count(v) * cvr_scalar_type_size(v->stored_type);
    const size_t available = host_memory_available();
    if (bytes > available)
      return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY,
                      "volume: cannot allocate %.1f MiB of host memory for its copy (%.1f MiB "
                      "free)", (double)bytes / 1048576.0, (double)available / 1048576.0);
    v->host_data = cvr_alloc_volume_copy(bytes);
    if (!v->host_data)
      return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY,
                      "volume: cannot allocate %zu bytes of host memory", bytes);
  }
  cpu_store(v, u);
  return CVR_OK;
}

size_t cvr_volume_host_bytes(const cvr_volume *volume) {
  if (!volume || !volume->host_data || volume->host_borrowed) return 0;
  return value_count(volume) * cvr_scalar_type_size(volume->stored_type);
}

/* CVR_DEBUG_VOLUMES set: each volume's creation, update and end to stderr,
 * with where its voxels went and the device's free memory then. */
static void trace_volume(const cvr_volume *v, const char *what, cvr_status st) {
  static int trace = -1;
  if (trace < 0) trace = getenv("CVR_DEBUG_VOLUMES") != NULL;
  if (!trace) return;
  const cvr_context *ctx = v->ctx;
  const size_t free_bytes = ctx->backend == CVR_BACKEND_CUDA && !ctx->lost
                                ? cvr_cuda_debug_free_bytes((cvr_context *)ctx) : 0;
  fprintf(stderr, "cvr volume %p: %s %d x %d x %d (%s): %s, %s%s; device memory free %.1f MiB\n",
          (const void *)v, what, v->dims[0], v->dims[1], v->dims[2], type_name(v->type),
          st == CVR_OK ? "done" : "failed",
          v->bricks ? "bricks" : (v->cuda ? "on the device" : "in host memory"),
          v->host_data ? (v->host_borrowed ? ", host scalars lent" : ", host copy") : "",
          (double)free_bytes / 1048576.0);
}

static void take_geometry(cvr_volume *v, const cvr_volume_desc *desc) {
  v->cell_data = desc->cell_data != 0;
  memcpy(v->spacing, desc->spacing, sizeof v->spacing);
  memcpy(v->origin, desc->origin, sizeof v->origin);
  memcpy(v->direction, desc->direction, sizeof v->direction);
}

cvr_status cvr_volume_create(cvr_context *ctx, const cvr_volume_desc *desc, cvr_volume **out) {
  if (!ctx) return cvr_fail(NULL, CVR_ERROR_INVALID_ARGUMENT, "cvr_volume_create: ctx is NULL");
  if (!desc || !out)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "cvr_volume_create: desc or out is NULL");
  *out = NULL;
  cvr_status st = validate(ctx, desc);
  if (st != CVR_OK) return st;

  cvr_volume *v = calloc(1, sizeof *v);
  if (!v) return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY, "volume: out of host memory");
  v->ctx = ctx;
  v->type = desc->type;
  v->stored_type = cvr_stored_type(desc->type);
  memcpy(v->dims, desc->dims, sizeof v->dims);
  take_geometry(v, desc);
  v->components = desc->components > 1 ? desc->components : 1;
  cvr_range_init(v->range); /* over every component of every voxel, found as they are copied */
  const cvr_upload u = upload_of(ctx, desc, v->range, v->component_range);
  int bricked = 0;
  const size_t budget = ctx->lost ? 0 : cvr_bricks_budget_for(ctx, v, &bricked);
  if (ctx->backend == CVR_BACKEND_CUDA && ctx->lost) {
    st = cvr_lost_failure(ctx, "cvr_volume_create");
  } else if (ctx->backend == CVR_BACKEND_CUDA && !bricked) {
    st = cvr_cuda_volume_upload(ctx, v, &u);
  } else { /* the CPU's copy, or a bricked volume's (bricks.h) */
    int replaced;
    st = host_store(ctx, v, &u, desc, &replaced);
  }
  if (st == CVR_OK && bricked) st = cvr_bricks_create(ctx, v, budget);
  if (st == CVR_OK && v->bricks && ctx->backend == CVR_BACKEND_CUDA)
    cvr_cuda_bricks_pin(v, value_count(v) * cvr_scalar_type_size(v->stored_type));
  trace_volume(v, "create", st);
  if (st != CVR_OK) {
    if (v->cuda) cvr_cuda_volume_release(v);
    cvr_bricks_destroy(v);
    host_release(v);
    free(v);
    return st;
  }
  cvr_range_finish(v->range);
  for (int c = 0; c < v->components && v->components > 1; ++c) cvr_range_finish(v->component_range[c]);
  *out = v;
  return CVR_OK;
}

cvr_status cvr_volume_update(cvr_volume *volume, const cvr_volume_desc *desc) {
  if (!volume || !desc)
    return cvr_fail(volume ? volume->ctx : NULL, CVR_ERROR_INVALID_ARGUMENT,
                    "cvr_volume_update: volume or desc is NULL");
  cvr_context *ctx = volume->ctx;
  cvr_status st = validate(ctx, desc);
  if (st != CVR_OK) return st;
  const int components = desc->components > 1 ? desc->components : 1;
  if (desc->type != volume->type || components != volume->components ||
      memcmp(desc->dims, volume->dims, sizeof volume->dims) != 0)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "cvr_volume_update: %d x %d x %d %s of %d components for a volume of %d x %d "
                    "x %d %s of %d: create a new volume for other dimensions, type or components",
                    desc->dims[0], desc->dims[1], desc->dims[2], type_name(desc->type),
                    components, volume->dims[0], volume->dims[1], volume->dims[2],
                    type_name(volume->type), volume->components);
  double range[2], component_range[CVR_MAX_COMPONENTS][2];
  cvr_range_init(range);
  const cvr_upload u = upload_of(ctx, desc, range, component_range);
  if (volume->bricks) { /* (bricks.h: the host copy, on every backend) */
    cvr_cpu_skip_release(volume);
    /* (lent again at the same address, as a caller writing its array in
     * place does: released and pinned again all the same) */
    int replaced;
    st = host_store(ctx, volume, &u, desc, &replaced);
    if (st == CVR_OK && replaced && ctx->backend == CVR_BACKEND_CUDA)
      cvr_cuda_bricks_pin(volume, value_count(volume) * cvr_scalar_type_size(volume->stored_type));
    cvr_bricks_forget(volume);
  } else if (ctx->backend == CVR_BACKEND_CUDA) {
    /* (a copy lost when a layout change failed is made again from the new values) */
    st = ctx->lost       ? cvr_lost_failure(ctx, "cvr_volume_update")
         : volume->cuda ? cvr_cuda_volume_update(ctx, volume, &u)
                        : cvr_cuda_volume_upload(ctx, volume, &u);
  } else {
    cvr_cpu_skip_release(volume); /* its cells' ranges were the old values' */
    int replaced;
    st = host_store(ctx, volume, &u, desc, &replaced);
  }
  trace_volume(volume, "update", st);
  if (st != CVR_OK) return st;
  take_geometry(volume, desc);
  cvr_range_finish(range);
  volume->range[0] = range[0];
  volume->range[1] = range[1];
  for (int c = 0; c < components && components > 1; ++c) {
    cvr_range_finish(component_range[c]);
    memcpy(volume->component_range[c], component_range[c], sizeof component_range[c]);
  }
  return CVR_OK;
}

cvr_status cvr_volume_set_mask(cvr_volume *volume, const unsigned char *labels) {
  if (!volume)
    return cvr_fail(NULL, CVR_ERROR_INVALID_ARGUMENT, "cvr_volume_set_mask: volume is NULL");
  cvr_context *ctx = volume->ctx;
  if (!labels) {
    free(volume->mask_host);
    volume->mask_host = NULL;
    cvr_cuda_mask_release(volume);
    return CVR_OK;
  }
  const size_t count = (size_t)volume->dims[0] * volume->dims[1] * volume->dims[2];
  if (ctx->backend == CVR_BACKEND_CUDA) {
    const cvr_status st = ctx->lost ? cvr_lost_failure(ctx, "cvr_volume_set_mask")
                                    : cvr_cuda_mask_upload(ctx, volume, labels);
    if (st != CVR_OK) cvr_cuda_mask_release(volume); /* no mask rather than a stale one */
    return st;
  }
  unsigned char *copy = malloc(count);
  if (!copy) {
    free(volume->mask_host);
    volume->mask_host = NULL;
    return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY,
                    "mask: cannot allocate %zu bytes of host memory", count);
  }
  memcpy(copy, labels, count);
  free(volume->mask_host);
  volume->mask_host = copy;
  return CVR_OK;
}

void cvr_volume_destroy(cvr_volume *volume) {
  if (!volume) return;
  trace_volume(volume, "destroy", CVR_OK);
  cvr_cuda_mask_release(volume);
  free(volume->mask_host);
  if (volume->cuda) cvr_cuda_volume_release(volume);
  cvr_cpu_skip_release(volume);
  cvr_bricks_destroy(volume);
  host_release(volume);
  free(volume);
}

cvr_status cvr_volume_get_component_range(const cvr_volume *volume, int component,
                                          double range[2]) {
  if (!volume || !range)
    return cvr_fail(volume ? volume->ctx : NULL, CVR_ERROR_INVALID_ARGUMENT,
                    "cvr_volume_get_component_range: volume or range is NULL");
  if (component < 0 || component >= volume->components)
    return cvr_fail(volume->ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "cvr_volume_get_component_range: component %d of a volume of %d", component,
                    volume->components);
  const double *r = volume->components > 1 ? volume->component_range[component] : volume->range;
  range[0] = r[0];
  range[1] = r[1];
  return CVR_OK;
}

cvr_status cvr_volume_get_range(const cvr_volume *volume, double range[2]) {
  if (!volume || !range)
    return cvr_fail(volume ? volume->ctx : NULL, CVR_ERROR_INVALID_ARGUMENT,
                    "cvr_volume_get_range: volume or range is NULL");
  range[0] = volume->range[0];
  range[1] = volume->range[1];
  return CVR_OK;
}
