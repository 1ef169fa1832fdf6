// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
#include "test_common.h"

#include <math.h>
#include <string.h>

int cvr_test_failures = 0;

cvr_context *cvr_test_context(int argc, char **argv, cvr_backend *backend) {
  cvr_context_options o;
  cvr_context_options_init(&o);
  o.backend = argc > 1 && !strcmp(argv[1], "cuda") ? CVR_BACKEND_CUDA : CVR_BACKEND_CPU;
  if (o.backend == CVR_BACKEND_CUDA && cvr_cuda_device_count() == 0) {
    printf("SKIP: no usable CUDA device\n");
    exit(CVR_TEST_SKIP);
  }
  cvr_context *ctx = NULL;
  if (cvr_context_create(&o, &ctx) != CVR_OK) {
    fprintf(stderr, "cannot create a %s context: %s\n", cvr_backend_name(o.backend),
            cvr_last_error(NULL));
    exit(1);
  }
  printf("backend: %s\n", cvr_context_description(ctx));
  if (backend) *backend = o.backend;
  return ctx;
}

int cvr_test_load(const char *relative, cvr_tools_volume *out) {
  const char *dir = getenv("CVR_DATA_DIR");
  if (!dir || !*dir) dir = CVR_DATA_DIR;
  char path[4096], err[512];
  snprintf(path, sizeof path, "%s/%s", dir, relative);
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  fclose(f);
  if (!cvr_tools_load_nifti(path, out, err, sizeof err)) {
    fprintf(stderr, "%s\n", err);
    exit(1);
  }
  return 1;
}

int cvr_test_finish(const char *name) {
  if (cvr_test_failures) {
    printf("%s: %d check(s) failed\n", name, cvr_test_failures);
    return 1;
  }
  printf("%s: all checks passed\n", name);
  return 0;
}

cvr_test_diff cvr_test_compare(const uint8_t *a, const uint8_t *b, const float *depth_a,
                               const float *depth_b, long pixels) {
  cvr_test_diff d;
  d.color = cvr_tools_compare_rgba8(a, b, pixels, CVR_TOL_LEVELS);
  long over = 0;
  for (long i = 0; depth_a && depth_b && i < pixels; ++i)
    if (fabsf(depth_a[i] - depth_b[i]) > 1e-3f) ++over;
  d.depth_over_fraction = pixels ? (double)over / pixels : 0.0;
  return d;
}

int cvr_test_within_tolerance(const cvr_test_diff *d) {
  return d->color.over_fraction <= CVR_TOL_OVER_FRACTION &&
         d->color.mean_diff <= CVR_TOL_MEAN_LEVELS &&
         d->depth_over_fraction <= CVR_TOL_OVER_FRACTION;
}

long cvr_test_visible(const uint8_t *rgba, long pixels) {
  long n = 0;
  for (long i = 0; i < pixels; ++i) n += rgba[4 * i + 3] > 0;
  return n;
}

int cvr_test_render(cvr_context *ctx, const cvr_volume *v, const cvr_transfer_function *tf,
                    const cvr_view *view, const cvr_render_settings *s, uint8_t *rgba, float *depth,
                    cvr_render_stats *stats, const char *what) {
  const cvr_image img = {rgba, NULL, depth, NULL};
  const cvr_status r = cvr_render(ctx, v, tf, view, s, &img, stats);
  CHECK(r == CVR_OK, "%s: %s", what, cvr_last_error(ctx));
  return r == CVR_OK;
}

cvr_transfer_function *cvr_test_ramp(cvr_context *ctx, const double range[2], double lo, double hi,
                                     double unit_distance) {
  float table[4 * 256];
  cvr_tools_ramp_tf(table, 256, range[0], range[1], lo, hi, 0.5f);
  const cvr_transfer_function_desc d = {
      .rgba = table, .size = 256, .range = {range[0], range[1]}, .unit_distance = unit_distance};
  cvr_transfer_function *tf = NULL;
  if (cvr_transfer_function_create(ctx, &d, &tf) != CVR_OK) {
    fprintf(stderr, "transfer function: %s\n", cvr_last_error(ctx));
    exit(1);
  }
  return tf;
}

void cvr_test_expect_failure(cvr_context *ctx, cvr_status got, const char *needle, const char *what) {
  CHECK(got != CVR_OK, "%s was accepted", what);
  if (got != CVR_OK)
    CHECK(strstr(cvr_last_error(ctx), needle) != NULL, "%s: message \"%s\" does not say \"%s\"",
          what, cvr_last_error(ctx), needle);
}

static double value_at(const cvr_volume_desc *d, size_t i) {
  switch (d->type) {
  case CVR_UINT8: return ((const uint8_t *)d->data)[i];
  case CVR_INT8: return ((const int8_t *)d->data)[i];
  case CVR_UINT16: return ((const uint16_t *)d->data)[i];
  case CVR_INT16: return ((const int16_t *)d->data)[i];
  case CVR_FLOAT32: return ((const float *)d->data)[i];
  default: return 0.0;
  }
}

static void store_at(cvr_scalar_type type, void *data, size_t i, double v) {
  switch (type) {
  case CVR_UINT8: ((uint8_t *)data)[i] = (uint8_t)v; break;
  case CVR_INT8: ((int8_t *)data)[i] = (int8_t)v; break;
  case CVR_UINT16: ((uint16_t *)data)[i] = (uint16_t)v; break;
  case CVR_INT16: ((int16_t *)data)[i] = (int16_t)v; break;
  case CVR_FLOAT32: ((float *)data)[i] = (float)v; break;
  default: break;
  }
}

cvr_volume *cvr_test_components_volume(cvr_context *ctx, const cvr_volume_desc *one, int n,
                                       double (*value)(int c, double x, const void *user),
                                       const void *user) {
  const size_t count = (size_t)one->dims[0] * one->dims[1] * one->dims[2];
  void *data = malloc(count * n * cvr_scalar_type_size(one->type));
  if (!data) exit(1);
  for (size_t i = 0; i < count; ++i) {
    const double x = value_at(one, i);
    for (int c = 0; c < n; ++c) store_at(one->type, data, n * i + c, value(c, x, user));
  }
  cvr_volume_desc d = *one;
  d.data = data;
  d.components = n;
  cvr_volume *v = NULL;
  CHECK(cvr_volume_create(ctx, &d, &v) == CVR_OK, "%d components: %s", n, cvr_last_error(ctx));
  free(data);
  return v;
}

const cvr_test_dataset cvr_test_datasets[3] = {
    {"scivis/bonsai.nii.gz", 30.0, 180.0},
    {"ct/cranium_ct.nii.gz", 100.0, 1500.0},
    {"mri/avm_mra_337x319x154.nii.gz", 60.0, 200.0},
};

int cvr_test_scene_open(cvr_context *ctx, const cvr_test_dataset *d, cvr_test_scene *s) {
  memset(s, 0, sizeof *s);
  if (!cvr_test_load(d->file, &s->data)) {
    printf("data %s not found: skipped\n", d->file);
    return 0;
  }
  if (cvr_volume_create(ctx, &s->data.desc, &s->volume) != CVR_OK) {
    fprintf(stderr, "%s: %s\n", d->file, cvr_last_error(ctx));
    exit(1);
  }
  double range[2], min_spacing = s->data.desc.spacing[0];
  cvr_volume_get_range(s->volume, range);
  for (int a = 1; a < 3; ++a)
    if (s->data.desc.spacing[a] < min_spacing) min_spacing = s->data.desc.spacing[a];
  s->tf = cvr_test_ramp(ctx, range, d->lo, d->hi, min_spacing);
  s->sample_distance = 0.5 * min_spacing;
  cvr_tools_volume_bounds(&s->data.desc, s->center, &s->radius);
  return 1;
}

void cvr_test_scene_close(cvr_test_scene *s) {
  cvr_transfer_function_destroy(s->tf);
  cvr_volume_destroy(s->volume);
  cvr_tools_volume_free(&s->data);
}

void cvr_test_scene_view(const cvr_test_scene *s, int i, cvr_projection p, int width, int height,
                         cvr_view *view) {
  static const double elevations[4] = {-40.0, -10.0, 20.0, 50.0};
  cvr_tools_orbit_view(s->center, s->radius, 30.0 * i + 7.0, elevations[i % 4], p, width, height,
                       view);
}

cvr_transfer_function *cvr_test_column_tf(cvr_context *ctx, double unit_distance) {
  float t[4 * CVR_COLUMN_TABLE];
  for (int i = 0; i < CVR_COLUMN_TABLE; ++i) {
    t[4 * i + 0] = 0.8f;
    t[4 * i + 1] = 0.4f;
    t[4 * i + 2] = 0.2f;
    t[4 * i + 3] = (float)i / (CVR_COLUMN_TABLE - 1);
  }
  const cvr_transfer_function_desc d = {
      .rgba = t, .size = CVR_COLUMN_TABLE, .range = {0.0, 255.0}, .unit_distance = unit_distance};
  cvr_transfer_function *tf = NULL;
  CHECK(cvr_transfer_function_create(ctx, &d, &tf) == CVR_OK, "tf: %s", cvr_last_error(ctx));
  return tf;
}

void cvr_test_column_view(cvr_view *view) {
  cvr_view_init(view);
  const double eye[3] = {7.5, 7.5, 40.0}, at[3] = {7.5, 7.5, 0.0}, up[3] = {0.0, 1.0, 0.0};
  double look[16], proj[16];
  cvr_tools_look_at(eye, at, up, look);
  cvr_tools_ortho(10.0, 10.0, 1.0, 60.0, proj); /* pixel centres on the voxel columns */
  cvr_tools_multiply(proj, look, view->world_to_clip);
  view->width = CVR_COLUMN_W;
  view->height = CVR_COLUMN_H;
  view->projection = CVR_PROJECTION_PARALLEL;
}

cvr_volume *cvr_test_column_volume(cvr_context *ctx, const uint8_t *voxels) {
  return cvr_test_column_components(ctx, voxels, 1);
}

cvr_volume *cvr_test_column_components(cvr_context *ctx, const uint8_t *voxels, int components) {
  cvr_volume_desc d;
  cvr_volume_desc_init(&d);
  d.type = CVR_UINT8;
  d.dims[0] = d.dims[1] = d.dims[2] = CVR_COLUMN_N;
  d.components = components;
  d.data = voxels;
  cvr_volume *v = NULL;
  CHECK(cvr_volume_create(ctx, &d, &v) == CVR_OK, "column volume: %s", cvr_last_error(ctx));
  return v;
}

const float cvr_test_table_2x2[2 * 2 * 4] = {
    1.0f, 0.0f, 0.0f, 0.25f,  0.0f, 1.0f, 0.0f, 0.5f,  /* row 0: red, green */
    0.0f, 0.0f, 1.0f, 0.125f, 1.0f, 1.0f, 1.0f, 1.0f}; /* row 1: blue, white */

void cvr_test_table_2x2_entry(double fx, double fy, double out[4]) {
  const float *t = cvr_test_table_2x2;
  const double x = fmin(fmax(fx * 2.0 - 0.5, 0.0), 1.0);
  const double y = fmin(fmax(fy * 2.0 - 0.5, 0.0), 1.0);
  for (int c = 0; c < 4; ++c) {
    const double below = t[c] + x * (t[4 + c] - t[c]);
    const double above = t[8 + c] + x * (t[12 + c] - t[8 + c]);
    out[c] = below + y * (above - below);
  }
}

const float *cvr_test_column_pixel(const float *rgba32f, int i, int j) {
  /* the view spans world [-2.5, 17.5] in x and y, one unit per pixel */
  return rgba32f + 4 * ((size_t)(j + 2) * CVR_COLUMN_W + (i + 2));
}
