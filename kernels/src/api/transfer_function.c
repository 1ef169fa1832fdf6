// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Transfer functions: a straight-RGBA table over a scalar range. */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cvr_internal.h"
#include "half.h"

/* Whether component 1 is the 2D function's y axis (cvr.h,
 * CVR_COMPONENTS_TRANSFER_2D). */
static int transfer_2d_y(const cvr_transfer_function_desc *d) {
  return d->component_count > 1 && d->component_mode == CVR_COMPONENTS_TRANSFER_2D;
}

static cvr_status validate_2d(cvr_context *ctx, const cvr_transfer_function_desc *d) {
  const int w = d->size_2d[0], h = d->size_2d[1];
  if (w < 2 || h < 2 || w > CVR_TRANSFER_FUNCTION_2D_MAX_SIZE || h > CVR_TRANSFER_FUNCTION_2D_MAX_SIZE)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "transfer function: 2D size %d x %d must be 2..%d each side", w, h,
                    CVR_TRANSFER_FUNCTION_2D_MAX_SIZE);
  if (transfer_2d_y(d)) {
    if (!isfinite(d->range_2d_y[0]) || !isfinite(d->range_2d_y[1]) ||
        !(d->range_2d_y[0] < d->range_2d_y[1]))
      return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                      "transfer function: 2D y range [%g, %g] (component 1) must be finite with "
                      "range_2d_y[0] < range_2d_y[1]", d->range_2d_y[0], d->range_2d_y[1]);
  } else if (!(d->gradient_max_2d > 0.0) || !isfinite(d->gradient_max_2d)) {
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "transfer function: 2D gradient maximum %g must be positive and finite",
                    d->gradient_max_2d);
  }
  for (long i = 0; i < 4L * w * h; ++i)
    if (!(d->rgba_2d[i] >= 0.0f && d->rgba_2d[i] <= 1.0f))
      return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                      "transfer function: 2D entry (%ld, %ld) component %ld is %g, outside [0, 1]",
                      i / 4 % w, i / 4 / w, i % 4, (double)d->rgba_2d[i]);
  return CVR_OK;
}

/* The size and magnitude range of the gradient-opacity tables, the
 * volume's and the labels'. */
static cvr_status validate_gradient_extent(cvr_context *ctx, const cvr_transfer_function_desc *d) {
  if (d->gradient_opacity_size < 2 || d->gradient_opacity_size > CVR_TRANSFER_FUNCTION_MAX_SIZE)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "transfer function: gradient-opacity size %d is outside 2..%d",
                    d->gradient_opacity_size, CVR_TRANSFER_FUNCTION_MAX_SIZE);
  if (!(d->gradient_opacity_max > 0.0) || !isfinite(d->gradient_opacity_max))
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "transfer function: gradient-opacity maximum %g must be positive and finite",
                    d->gradient_opacity_max);
  return CVR_OK;
}

static cvr_status validate_labels(cvr_context *ctx, const cvr_transfer_function_desc *d) {
  if (d->label_count == 0) return CVR_OK;
  if (d->label_count < 0 || d->label_count > CVR_MAX_LABEL)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "transfer function: %d label functions; 0..%d are supported", d->label_count,
                    CVR_MAX_LABEL);
  if (d->rgba_2d)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "transfer function: label functions need a 1D function (rgba), not a 2D one");
  if (!d->label_rgba)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "transfer function: label_rgba is NULL with %d label functions", d->label_count);
  for (long i = 0; i < 4L * d->size * d->label_count; ++i)
    if (!(d->label_rgba[i] >= 0.0f && d->label_rgba[i] <= 1.0f))
      return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                      "transfer function: label %ld entry %ld component %ld is %g, outside [0, 1]",
                      i / 4 / d->size + 1, i / 4 % d->size, i % 4, (double)d->label_rgba[i]);
  if (!d->label_gradient_opacity) return CVR_OK;
  const cvr_status st = validate_gradient_extent(ctx, d);
  if (st != CVR_OK) return st;
  for (long i = 0; i < (long)d->gradient_opacity_size * d->label_count; ++i)
    if (!(d->label_gradient_opacity[i] >= 0.0f && d->label_gradient_opacity[i] <= 1.0f))
      return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                      "transfer function: label %ld gradient-opacity entry %ld is %g, outside [0, 1]",
                      i / d->gradient_opacity_size + 1, i % d->gradient_opacity_size,
                      (double)d->label_gradient_opacity[i]);
  return CVR_OK;
}

static cvr_status validate(cvr_context *ctx, const cvr_transfer_function_desc *d);

/* The functions of a multi-component volume (cvr.h, cvr_component_mode). */
static cvr_status validate_components(cvr_context *ctx, const cvr_transfer_function_desc *d) {
  const int n = d->component_count;
  if (n == 0 || n == 1) return CVR_OK;
  if (n < 0 || n > CVR_MAX_COMPONENTS)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "transfer function: %d components; 1..%d are supported", n, CVR_MAX_COMPONENTS);
  if (d->component_mode != CVR_COMPONENTS_INDEPENDENT && d->component_mode != CVR_COMPONENTS_DEPENDENT &&
      d->component_mode != CVR_COMPONENTS_TRANSFER_2D)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "transfer function: unknown component mode %d",
                    (int)d->component_mode);
  if (d->component_mode == CVR_COMPONENTS_DEPENDENT && n != 2 && n != 4)
    return cvr_fail(ctx, CVR_ERROR_UNSUPPORTED,
                    "transfer function: dependent components are 2 (luminance, alpha) or 4 (RGBA), "
                    "not %d", n);
  if (transfer_2d_y(d)) { /* the 2D function (validated with it) is the only one */
    if (n != 2)
      return cvr_fail(ctx, CVR_ERROR_UNSUPPORTED,
                      "transfer function: a 2D function's axes are 2 components (x, y), not %d", n);
    if (!d->rgba_2d)
      return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                      "transfer function: 2D components without a 2D function (rgba_2d is NULL)");
    if (d->label_count)
      return cvr_fail(ctx, CVR_ERROR_UNSUPPORTED,
                      "transfer function: label functions with 2D components are not supported");
    return CVR_OK;
  }
  if (d->rgba_2d || d->label_count)
    return cvr_fail(ctx, CVR_ERROR_UNSUPPORTED,
                    "transfer function: %s with %d components is not supported",
                    d->rgba_2d ? "a 2D function" : "label functions", n);
  if (!d->component_functions)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "transfer function: component_functions is NULL with %d components", n);
  for (int c = 0; c < n && d->component_mode == CVR_COMPONENTS_INDEPENDENT; ++c)
    if (!(d->component_weights[c] >= 0.0 && d->component_weights[c] <= 1.0))
      return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                      "transfer function: component %d's weight %g is outside [0, 1]", c,
                      d->component_weights[c]);
  for (int c = 1; c < n; ++c) {
    const cvr_transfer_function_desc *f = &d->component_functions[c - 1];
    if (f->rgba_2d || f->label_count || f->component_count > 1)
      return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                      "transfer function: component %d's function has 2D, label or component "
                      "functions of its own", c);
    const cvr_status st = validate(ctx, f);
    if (st != CVR_OK) return cvr_fail(ctx, st, "component %d: %s", c, cvr_last_error(ctx));
  }
  return CVR_OK;
}

static cvr_status validate(cvr_context *ctx, const cvr_transfer_function_desc *d) {
  if (!d->rgba && !d->rgba_2d)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "transfer function: rgba is NULL");
  if (d->rgba_2d) {
    const cvr_status st = validate_2d(ctx, d);
    if (st != CVR_OK) return st;
  }
  if (!d->rgba_2d && (d->size < 2 || d->size > CVR_TRANSFER_FUNCTION_MAX_SIZE))
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "transfer function: size %d is outside 2..%d", d->size,
                    CVR_TRANSFER_FUNCTION_MAX_SIZE);
  if (!isfinite(d->range[0]) || !isfinite(d->range[1]) || !(d->range[0] < d->range[1]))
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "transfer function: range [%g, %g] must be finite with range[0] < range[1]",
                    d->range[0], d->range[1]);
  if (!(d->unit_distance > 0.0) || !isfinite(d->unit_distance))
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "transfer function: unit distance %g must be positive and finite",
                    d->unit_distance);
  for (int i = 0; !d->rgba_2d && i < 4 * d->size; ++i)
    if (!(d->rgba[i] >= 0.0f && d->rgba[i] <= 1.0f))
      return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                      "transfer function: entry %d component %d is %g, outside [0, 1]", i / 4,
                      i % 4, (double)d->rgba[i]);
  cvr_status st;
  if ((st = validate_labels(ctx, d)) != CVR_OK) return st;
  if ((st = validate_components(ctx, d)) != CVR_OK) return st;
  if (!d->gradient_opacity || d->rgba_2d) return CVR_OK; /* the 2D function replaces it */
  if ((st = validate_gradient_extent(ctx, d)) != CVR_OK) return st;
  for (int i = 0; i < d->gradient_opacity_size; ++i)
    if (!(d->gradient_opacity[i] >= 0.0f && d->gradient_opacity[i] <= 1.0f))
      return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                      "transfer function: gradient-opacity entry %d is %g, outside [0, 1]", i,
                      (double)d->gradient_opacity[i]);
  return CVR_OK;
}

/* Resamples n values to m <= n entries linearly (the ends stay). */
static void resample(const float *in, int n, float *out, int m) {
  for (int j = 0; j < m; ++j) {
    const double u = (double)j * (n - 1) / (m - 1);
    int i = (int)u;
    if (i > n - 2) i = n - 2;
    out[j] = (float)(in[i] + (u - i) * (in[i + 1] - in[i]));
  }
}

/* Versions are unique in the process, so a device copy keyed by (pointer,
 * version) can never mistake a new function at a freed one's address for it. */
static atomic_ullong next_version = 1;

/* A 2D function (cvr.h): kept as given (values rounded to half precision, as
 * the 1D table's), and as the 1D table each column's most opaque entry, with
 * the range moved to the outer columns' centres so that the 1D table's
 * coordinate is the 2D one's x. A sample's 2D opacity never exceeds that
 * table's (linear in x between two columns, each at most its maximum), which
 * is what decides whether it is visible and which macro-cells are empty. */
static void store_2d(cvr_transfer_function *tf, const cvr_transfer_function_desc *d,
                     cvr_rgba *table_2d) {
  const int w = d->size_2d[0], h = d->size_2d[1];
  for (int x = 0; x < w; ++x) {
    int most = 0;
    for (int y = 0; y < h; ++y) {
      const float *e = d->rgba_2d + 4 * ((size_t)y * w + x);
      cvr_rgba *o = &table_2d[(size_t)y * w + x];
      o->r = cvr_round_to_half(e[0]);
      o->g = cvr_round_to_half(e[1]);
      o->b = cvr_round_to_half(e[2]);
      o->a = cvr_round_to_half(e[3]);
      if (e[3] > 0.0f && o->a == 0.0f) o->a = 0x1p-24f; /* stays visible */
      if (o->a > table_2d[(size_t)most * w + x].a) most = y;
    }
    tf->table[x] = table_2d[(size_t)most * w + x];
  }
  tf->size = w;
  const double half_entry = 0.5 * (d->range[1] - d->range[0]) / w;
  tf->range[0] = d->range[0] + half_entry;
  tf->range[1] = d->range[1] - half_entry;
  tf->table_2d = table_2d;
  tf->size_2d[0] = w;
  tf->size_2d[1] = h;
  tf->gradient_max_2d = d->gradient_max_2d;
  tf->gradient_size = 0;
}

/* Resamples n straight-RGBA entries to m <= n linearly (the ends stay). */
static void resample_rgba(const float *in, int n, cvr_rgba *out, int m) {
  for (int j = 0; j < m; ++j) {
    const double u = (double)j * (n - 1) / (m - 1);
    int i = (int)u;
    if (i > n - 2) i = n - 2;
    const double f = u - i;
    const float *a = in + 4 * i, *b = a + 4;
    out[j].r = (float)(a[0] + f * (b[0] - a[0]));
    out[j].g = (float)(a[1] + f * (b[1] - a[1]));
    out[j].b = (float)(a[2] + f * (b[2] - a[2]));
    out[j].a = (float)(a[3] + f * (b[3] - a[3]));
  }
}

/* The storage a desc needs beyond the fixed tables, allocated before
 * anything changes, so that a failed update keeps the old function. */
typedef struct tf_storage {
  cvr_rgba *table_2d;
  cvr_rgba *label_table;
  float *label_gradient;
  cvr_transfer_function *component[CVR_MAX_COMPONENTS - 1];
} tf_storage;

static int component_count(const cvr_transfer_function_desc *d) {
  return d->component_count > 1 ? d->component_count : 1;
}

static int table_entries(int size) {
  return size <= CVR_TRANSFER_FUNCTION_TABLE_SIZE ? size : CVR_TRANSFER_FUNCTION_TABLE_SIZE;
}
static int gradient_entries(int size) {
  return size <= CVR_GRADIENT_OPACITY_TABLE_SIZE ? size : CVR_GRADIENT_OPACITY_TABLE_SIZE;
}

static void free_storage(tf_storage *m) {
  free(m->table_2d);
  free(m->label_table);
  free(m->label_gradient);
  for (int c = 0; c < CVR_MAX_COMPONENTS - 1; ++c) free(m->component[c]);
}

static cvr_status allocate_storage(cvr_context *ctx, const cvr_transfer_function_desc *d,
                                   tf_storage *m) {
  memset(m, 0, sizeof *m);
  int ok = 1;
  if (d->rgba_2d) ok &= (m->table_2d = malloc((size_t)d->size_2d[0] * d->size_2d[1] *
                                              sizeof *m->table_2d)) != NULL;
  if (d->label_count) {
    ok &= (m->label_table = malloc((size_t)table_entries(d->size) * d->label_count *
                                   sizeof *m->label_table)) != NULL;
    if (d->label_gradient_opacity)
      ok &= (m->label_gradient = malloc((size_t)gradient_entries(d->gradient_opacity_size) *
                                        d->label_count * sizeof *m->label_gradient)) != NULL;
  }
  for (int c = 1; c < component_count(d) && !transfer_2d_y(d); ++c)
    ok &= (m->component[c - 1] = calloc(1, sizeof *m->component[c - 1])) != NULL;
  if (ok) return CVR_OK;
  free_storage(m);
  return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY, "transfer function: out of host memory");
}

/* Label functions (cvr.h), resampled as the volume's table and its
 * gradient opacity are. */
static void store_labels(cvr_transfer_function *tf, const cvr_transfer_function_desc *d) {
  const int n = tf->size, g = gradient_entries(d->gradient_opacity_size);
  for (int l = 0; l < tf->label_count; ++l) {
    resample_rgba(d->label_rgba + 4 * (size_t)d->size * l, d->size, tf->label_table + (size_t)n * l, n);
    if (tf->label_gradient)
      resample(d->label_gradient_opacity + (size_t)d->gradient_opacity_size * l,
               d->gradient_opacity_size, tf->label_gradient + (size_t)g * l, g);
  }
  tf->label_gradient_size = tf->label_gradient ? g : 0;
  if (tf->label_gradient) tf->gradient_max = d->gradient_opacity_max;
}

/* Keeps the table, resampled linearly to the kernel's table size if larger;
 * takes the storage allocated for it and frees the old. */
static void store(cvr_transfer_function *tf, const cvr_transfer_function_desc *d, tf_storage *m) {
  free(tf->table_2d);
  free(tf->label_table);
  free(tf->label_gradient);
  for (int c = 0; c < CVR_MAX_COMPONENTS - 1; ++c) {
    cvr_transfer_function_destroy(tf->component[c]);
    tf->component[c] = m->component[c];
  }
  tf->component_count = component_count(d);
  tf->component_dependent = tf->component_count > 1 && d->component_mode == CVR_COMPONENTS_DEPENDENT;
  tf->transfer_2d_y = transfer_2d_y(d);
  tf->range_2d_y[0] = d->range_2d_y[0];
  tf->range_2d_y[1] = d->range_2d_y[1];
  for (int c = 0; c < CVR_MAX_COMPONENTS; ++c)
    tf->component_weight[c] = c < tf->component_count && !tf->component_dependent &&
                                      !tf->transfer_2d_y
                                  ? (float)d->component_weights[c] : 1.0f;
  for (int c = 1; c < tf->component_count && !tf->transfer_2d_y; ++c) {
    /* plain 1D functions: no storage of their own */
    tf_storage none;
    memset(&none, 0, sizeof none);
    tf->component[c - 1]->ctx = tf->ctx;
    store(tf->component[c - 1], &d->component_functions[c - 1], &none);
  }
  tf->table_2d = NULL;
  tf->label_table = m->label_table;
  tf->label_gradient = m->label_gradient;
  tf->label_count = d->label_count;
  tf->label_gradient_size = 0;
  tf->unit_distance = d->unit_distance;
  tf->version = atomic_fetch_add(&next_version, 1);
  if (d->rgba_2d) {
    store_2d(tf, d, m->table_2d);
    return;
  }
  const int n = table_entries(d->size);
  resample_rgba(d->rgba, d->size, tf->table, n);
  tf->size = n;
  tf->gradient_size = 0;
  if (d->gradient_opacity) {
    tf->gradient_size = gradient_entries(d->gradient_opacity_size);
    resample(d->gradient_opacity, d->gradient_opacity_size, tf->gradient_table, tf->gradient_size);
    tf->gradient_max = d->gradient_opacity_max;
  }
  tf->range[0] = d->range[0];
  tf->range[1] = d->range[1];
  store_labels(tf, d);
}

cvr_status cvr_transfer_function_create(cvr_context *ctx, const cvr_transfer_function_desc *desc,
                                        cvr_transfer_function **out) {
  if (!ctx)
    return cvr_fail(NULL, CVR_ERROR_INVALID_ARGUMENT, "cvr_transfer_function_create: ctx is NULL");
  if (!desc || !out)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "cvr_transfer_function_create: desc or out is NULL");
  *out = NULL;
  cvr_status st = validate(ctx, desc);
  if (st != CVR_OK) return st;
  tf_storage m;
  if ((st = allocate_storage(ctx, desc, &m)) != CVR_OK) return st;
  cvr_transfer_function *tf = calloc(1, sizeof *tf);
  if (!tf) {
    free_storage(&m);
    return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY, "transfer function: out of host memory");
  }
  tf->ctx = ctx;
  store(tf, desc, &m);
  *out = tf;
  return CVR_OK;
}

cvr_status cvr_transfer_function_update(cvr_transfer_function *tf,
                                        const cvr_transfer_function_desc *desc) {
  if (!tf)
    return cvr_fail(NULL, CVR_ERROR_INVALID_ARGUMENT, "cvr_transfer_function_update: tf is NULL");
  if (!desc)
    return cvr_fail(tf->ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "cvr_transfer_function_update: desc is NULL");
  cvr_status st = validate(tf->ctx, desc);
  if (st != CVR_OK) return st; /* the old table stays */
  tf_storage m;
  if ((st = allocate_storage(tf->ctx, desc, &m)) != CVR_OK) return st;
  store(tf, desc, &m);
  return CVR_OK;
}

void cvr_transfer_function_destroy(cvr_transfer_function *tf) {
  if (!tf) return;
  for (int c = 0; c < CVR_MAX_COMPONENTS - 1; ++c) cvr_transfer_function_destroy(tf->component[c]);
  free(tf->table_2d);
  free(tf->label_table);
  free(tf->label_gradient);
  free(tf);
}

