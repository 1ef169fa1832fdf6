// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Every error path of the C API: each bad input gives its status and a
 * message that names the problem, and leaves the context able to render the
 * same image as before. Usage: test_api cpu|cuda */
#include <math.h>
#include <string.h>

#include "test_common.h"

static int cases = 0;

#define EXPECT_FAIL(ctx, call, status, keyword)                                                    \
  do {                                                                                             \
    ++cases;                                                                                       \
    const cvr_status st_ = (call);                                                                 \
    CHECK(st_ == (status), "%s returned %s, expected %s", #call, cvr_status_string(st_),          \
          cvr_status_string(status));                                                              \
    CHECK(strstr(cvr_last_error(ctx), (keyword)) != NULL, "%s: message \"%s\" lacks \"%s\"",      \
          #call, cvr_last_error(ctx), (keyword));                                                  \
  } while (0)

enum { N = 12, W = 24, H = 20 };

static uint8_t voxels[N * N * N];

static void make_volume(cvr_volume_desc *d) {
  cvr_volume_desc_init(d);
  for (int i = 0; i < N * N * N; ++i) voxels[i] = (uint8_t)((i * 37) % 251);
  d->type = CVR_UINT8;
  d->data = voxels;
  d->dims[0] = d->dims[1] = d->dims[2] = N;
}

static void render_ok(cvr_context *ctx, cvr_volume *v, cvr_transfer_function *tf,
                      const cvr_view *view, const cvr_render_settings *s, uint8_t *pixels) {
  const cvr_image image = {pixels, NULL, NULL, NULL};
  const cvr_status st = cvr_render(ctx, v, tf, view, s, &image, NULL);
  CHECK(st == CVR_OK, "valid render failed: %s", cvr_last_error(ctx));
}

int main(int argc, char **argv) {
  cvr_backend backend;
  cvr_context *ctx = cvr_test_context(argc, argv, &backend);

  /* ---- contexts */
  cvr_context_options o;
  cvr_context_options_init(&o);
  EXPECT_FAIL(NULL, cvr_context_create(&o, NULL), CVR_ERROR_INVALID_ARGUMENT, "out is NULL");
  cvr_context *other = (cvr_context *)&o; /* must be reset to NULL on failure */
  o.backend = (cvr_backend)17;
  EXPECT_FAIL(NULL, cvr_context_create(&o, &other), CVR_ERROR_INVALID_ARGUMENT, "backend");
  CHECK(other == NULL, "failed create left *out set");
  cvr_context_options_init(&o);
  o.device_index = -1;
  EXPECT_FAIL(NULL, cvr_context_create(&o, &other), CVR_ERROR_INVALID_ARGUMENT, "negative");
  cvr_context_options_init(&o);
  o.cpu_threads = -3;
  EXPECT_FAIL(NULL, cvr_context_create(&o, &other), CVR_ERROR_INVALID_ARGUMENT, "cpu_threads");
  cvr_context_options_init(&o);
  o.backend = CVR_BACKEND_CUDA;
  o.device_index = cvr_cuda_device_count() + 3; /* never exists */
  EXPECT_FAIL(NULL, cvr_context_create(&o, &other), CVR_ERROR_NO_DEVICE, "CUDA");
  o.backend = CVR_BACKEND_AUTO; /* AUTO falls back to the CPU and says why */
  CHECK(cvr_context_create(&o, &other) == CVR_OK, "AUTO with a missing device failed");
  CHECK(cvr_context_backend(other) == CVR_BACKEND_CPU, "AUTO did not fall back to the CPU");
  CHECK(strstr(cvr_context_description(other), "CUDA unavailable") != NULL,
        "fallback not explained: %s", cvr_context_description(other));
  cvr_context_destroy(other);
  cvr_context_destroy(NULL);
  cvr_volume_destroy(NULL);
  cvr_transfer_function_destroy(NULL);

  /* ---- volumes */
  cvr_volume_desc d;
  make_volume(&d);
  cvr_volume *v = NULL;
  EXPECT_FAIL(NULL, cvr_volume_create(NULL, &d, &v), CVR_ERROR_INVALID_ARGUMENT, "ctx is NULL");
  EXPECT_FAIL(ctx, cvr_volume_create(ctx, NULL, &v), CVR_ERROR_INVALID_ARGUMENT, "NULL");
  EXPECT_FAIL(ctx, cvr_volume_create(ctx, &d, NULL), CVR_ERROR_INVALID_ARGUMENT, "NULL");
  cvr_volume_desc bad = d;
  bad.data = NULL;
  EXPECT_FAIL(ctx, cvr_volume_create(ctx, &bad, &v), CVR_ERROR_INVALID_ARGUMENT, "data is NULL");
  const int bad_dims[][3] = {{1, N, N}, {N, 1, N}, {N, N, 0}, {-4, N, N}, {1, 1, 1}};
  for (size_t i = 0; i < sizeof bad_dims / sizeof bad_dims[0]; ++i) {
    bad = d;
    memcpy(bad.dims, bad_dims[i], sizeof bad.dims);
    EXPECT_FAIL(ctx, cvr_volume_create(ctx, &bad, &v), CVR_ERROR_INVALID_ARGUMENT, "at least 2");
  }
  bad = d;
  bad.dims[2] = 20000;
  EXPECT_FAIL(ctx, cvr_volume_create(ctx, &bad, &v), CVR_ERROR_UNSUPPORTED, "maximum");
  const double bad_spacing[] = {0.0, -1.0, NAN, INFINITY};
  for (size_t i = 0; i < 4; ++i) {
    bad = d;
    bad.spacing[1] = bad_spacing[i];
    EXPECT_FAIL(ctx, cvr_volume_create(ctx, &bad, &v), CVR_ERROR_INVALID_ARGUMENT, "spacing");
  }
  bad = d;
  bad.origin[0] = NAN;
  EXPECT_FAIL(ctx, cvr_volume_create(ctx, &bad, &v), CVR_ERROR_INVALID_ARGUMENT, "origin");
  bad = d;
  memset(bad.direction, 0, sizeof bad.direction);
  bad.direction[0] = bad.direction[3] = 1.0; /* two equal rows: singular */
  bad.direction[8] = 1.0;
  EXPECT_FAIL(ctx, cvr_volume_create(ctx, &bad, &v), CVR_ERROR_INVALID_ARGUMENT, "singular");
  bad = d;
  bad.type = (cvr_scalar_type)42;
  EXPECT_FAIL(ctx, cvr_volume_create(ctx, &bad, &v), CVR_ERROR_INVALID_ARGUMENT, "scalar type");
  CHECK(v == NULL, "failed create left a volume");
  CHECK(cvr_volume_create(ctx, &d, &v) == CVR_OK, "valid volume failed: %s", cvr_last_error(ctx));
  double range[2];
  EXPECT_FAIL(ctx, cvr_volume_get_range(v, NULL), CVR_ERROR_INVALID_ARGUMENT, "NULL");
  CHECK(cvr_volume_get_range(v, range) == CVR_OK && range[0] == 0.0 && range[1] == 250.0,
        "range [%g, %g], expected [0, 250]", range[0], range[1]);

  /* ---- transfer functions */
  float table[4 * 4] = {0, 0, 0, 0, 1, 0, 0, 0.2f, 0, 1, 0, 0.5f, 1, 1, 1, 1};
  cvr_transfer_function_desc t = {
      .rgba = table, .size = 4, .range = {0.0, 255.0}, .unit_distance = 1.0};
  cvr_transfer_function *tf = NULL;
  EXPECT_FAIL(NULL, cvr_transfer_function_create(NULL, &t, &tf), CVR_ERROR_INVALID_ARGUMENT,
              "ctx is NULL");
  EXPECT_FAIL(ctx, cvr_transfer_function_create(ctx, NULL, &tf), CVR_ERROR_INVALID_ARGUMENT, "NULL");
  cvr_transfer_function_desc tb = t;
  tb.rgba = NULL;
  EXPECT_FAIL(ctx, cvr_transfer_function_create(ctx, &tb, &tf), CVR_ERROR_INVALID_ARGUMENT, "rgba");
  const int bad_sizes[] = {1, 0, -5, CVR_TRANSFER_FUNCTION_MAX_SIZE + 1};
  for (int i = 0; i < 4; ++i) {
    tb = t;
    tb.size = bad_sizes[i];
    EXPECT_FAIL(ctx, cvr_transfer_function_create(ctx, &tb, &tf), CVR_ERROR_INVALID_ARGUMENT, "size");
  }
  const double bad_ranges[][2] = {{5, 5}, {10, 0}, {NAN, 1}, {0, INFINITY}};
  for (int i = 0; i < 4; ++i) {
    tb = t;
    tb.range[0] = bad_ranges[i][0];
    tb.range[1] = bad_ranges[i][1];
    EXPECT_FAIL(ctx, cvr_transfer_function_create(ctx, &tb, &tf), CVR_ERROR_INVALID_ARGUMENT, "range");
  }
  tb = t;
  tb.unit_distance = 0.0;
  EXPECT_FAIL(ctx, cvr_transfer_function_create(ctx, &tb, &tf), CVR_ERROR_INVALID_ARGUMENT,
              "unit distance");
  float bad_table[16];
  memcpy(bad_table, table, sizeof table);
  bad_table[6] = 1.5f;
  tb = t;
  tb.rgba = bad_table;
  EXPECT_FAIL(ctx, cvr_transfer_function_create(ctx, &tb, &tf), CVR_ERROR_INVALID_ARGUMENT,
              "outside [0, 1]");
  bad_table[6] = NAN;
  EXPECT_FAIL(ctx, cvr_transfer_function_create(ctx, &tb, &tf), CVR_ERROR_INVALID_ARGUMENT,
              "outside [0, 1]");
  CHECK(cvr_transfer_function_create(ctx, &t, &tf) == CVR_OK, "valid tf failed: %s",
        cvr_last_error(ctx));

  /* ---- a valid frame to compare against after every failure */
  double center[3], radius;
  cvr_tools_volume_bounds(&d, center, &radius);
  cvr_view view;
  cvr_tools_orbit_view(center, radius, 30.0, 20.0, CVR_PROJECTION_PERSPECTIVE, W, H, &view);
  cvr_render_settings s;
  cvr_render_settings_init(&s);
  s.sample_distance = 0.5;
  uint8_t before[W * H * 4], after[W * H * 4];
  render_ok(ctx, v, tf, &view, &s, before);
  long lit = 0;
  for (int i = 0; i < W * H; ++i) lit += before[4 * i + 3] > 0;
  CHECK(lit > W * H / 4, "the valid frame shows too little (%ld pixels)", lit);

  tb = t;
  tb.size = 1;
  EXPECT_FAIL(ctx, cvr_transfer_function_update(tf, &tb), CVR_ERROR_INVALID_ARGUMENT, "size");
  EXPECT_FAIL(NULL, cvr_transfer_function_update(NULL, &t), CVR_ERROR_INVALID_ARGUMENT, "NULL");
  EXPECT_FAIL(ctx, cvr_transfer_function_update(tf, NULL), CVR_ERROR_INVALID_ARGUMENT, "NULL");

  /* ---- the device copy of a transfer function follows its updates */
  float other_table[4 * 4] = {0, 0, 0, 0, 0, 0, 1, 0.9f, 1, 1, 0, 0.1f, 1, 1, 1, 1};
  cvr_transfer_function_desc t2 = t;
  t2.rgba = other_table;
  uint8_t changed[W * H * 4], fresh[W * H * 4];
  CHECK(cvr_transfer_function_update(tf, &t2) == CVR_OK, "update: %s", cvr_last_error(ctx));
  render_ok(ctx, v, tf, &view, &s, changed);
  CHECK(memcmp(changed, before, sizeof before) != 0, "an updated transfer function changed nothing");
  cvr_transfer_function *tf2 = NULL;
  CHECK(cvr_transfer_function_create(ctx, &t2, &tf2) == CVR_OK, "second tf");
  render_ok(ctx, v, tf2, &view, &s, fresh);
  CHECK(memcmp(changed, fresh, sizeof fresh) == 0, "updated and fresh functions render differently");
  cvr_transfer_function_destroy(tf2);
  cvr_transfer_function_destroy(tf); /* a new one may reuse its address */
  CHECK(cvr_transfer_function_create(ctx, &t, &tf) == CVR_OK, "recreated tf");
  render_ok(ctx, v, tf, &view, &s, fresh);
  CHECK(memcmp(before, fresh, sizeof fresh) == 0, "a recreated function rendered a stale table");

  /* ---- views */
  const cvr_image image = {after, NULL, NULL, NULL};
  cvr_view vb = view;
  const int bad_sizes2[][2] = {{0, H}, {W, 0}, {-1, H}, {40000, H}};
  for (int i = 0; i < 4; ++i) {
    vb = view;
    vb.width = bad_sizes2[i][0];
    vb.height = bad_sizes2[i][1];
    EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &vb, &s, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
                "viewport");
  }
  vb = view;
  memset(vb.world_to_clip, 0, sizeof vb.world_to_clip);
  EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &vb, &s, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "singular");
  vb = view;
  vb.world_to_clip[5] = NAN;
  EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &vb, &s, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "world_to_clip");
  vb = view;
  vb.projection = CVR_PROJECTION_PARALLEL;
  EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &vb, &s, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "projection");
  vb = view;
  vb.projection = (cvr_projection)9;
  EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &vb, &s, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "projection");
  vb = view;
  memset(vb.volume_to_world, 0, sizeof vb.volume_to_world);
  EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &vb, &s, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "volume_to_world");

  /* ---- settings */
  const double bad_dt[] = {0.0, -0.5, NAN, INFINITY};
  for (int i = 0; i < 4; ++i) {
    cvr_render_settings sb = s;
    sb.sample_distance = bad_dt[i];
    EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
                "sample distance");
  }
  cvr_render_settings sb = s;
  sb.sample_distance = 1e-9;
  EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "samples across");
  const double bad_ert[] = {0.0, -0.1, 1.5, NAN};
  for (int i = 0; i < 4; ++i) {
    sb = s;
    sb.termination_opacity = bad_ert[i];
    EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
                "termination opacity");
  }
  sb = s;
  sb.max_samples_per_ray = -1;
  EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "max samples");
  sb = s;
  sb.interpolation = (cvr_interpolation)7;
  EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "interpolation");
  sb = s;
  sb.strategy = (cvr_strategy)99;
  EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "strategy");
  const int bad_blocks[][2] = {{0, 16}, {16, 0}, {64, 64}, {-1, 32}, {1025, 1}};
  for (int i = 0; i < 5; ++i) {
    sb = s;
    sb.block_width = bad_blocks[i][0];
    sb.block_height = bad_blocks[i][1];
    EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
                "thread block");
  }
  const int bad_segments[] = {0, 3, 16, -4};
  for (int i = 0; i < 4; ++i) {
    sb = s;
    sb.ray_segments = bad_segments[i];
    EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
                "ray segments");
  }
  sb = s; /* 16 x 16 x 8 threads */
  sb.ray_segments = 8;
  EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "2048 threads");
  for (int i = 0; i < 3; ++i) { /* the block-shape strategy's two blocks */
    sb = s;
    sb.strategy = CVR_STRATEGY_BLOCK_SHAPE;
    int *b = i % 2 ? sb.vertical_block : sb.horizontal_block;
    b[0] = bad_blocks[i + 2][0];
    b[1] = bad_blocks[i + 2][1];
    EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
                "-warp block");
  }
  const int bad_widths[] = {0, 1, 3, 12, 64, -32};
  for (int i = 0; i < 6; ++i) {
    sb = s;
    sb.strategy = CVR_STRATEGY_WARP_MARCHING;
    sb.warp_width = bad_widths[i];
    EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
                "power of two");
  }
  const int bad_rays[][3] = {{8, 2, 1}, {8, 4, 4}, {32, 2, 1}, {4, 0, 8}, {4, 8, 0}};
  for (int i = 0; i < 5; ++i) { /* width, rays x, rays y */
    sb = s;
    sb.strategy = CVR_STRATEGY_WARP_MARCHING;
    sb.warp_width = bad_rays[i][0];
    sb.warp_rays[0] = bad_rays[i][1];
    sb.warp_rays[1] = bad_rays[i][2];
    EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
                "rays");
  }
  const int bad_warps[][2] = {{0, 8}, {8, 0}, {33, 1}, {8, 8}};
  for (int i = 0; i < 4; ++i) {
    sb = s;
    sb.strategy = CVR_STRATEGY_WARP_MARCHING;
    sb.block_warps[0] = bad_warps[i][0];
    sb.block_warps[1] = bad_warps[i][1];
    EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
                "warps");
  }
  sb = s;
  sb.strategy = CVR_STRATEGY_WARP_MARCHING;
  sb.warp_variant = (cvr_warp_variant)9;
  EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "warp variant");
  /* memory layout and in-place rotation (Strategies II) */
  sb = s;
  sb.memory_layout = (cvr_memory_layout)3;
  EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "memory layout");
  sb = s;
  sb.rotation_policy = (cvr_rotation_policy)-1;
  EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "rotation policy");
  const int bad_rotation_tiles[][2] = {{0, 8}, {33, 8}, {-4, 4}, {32, -1}, {32, 65}};
  for (int i = 0; i < 5; ++i) {
    sb = s;
    sb.rotation_policy = CVR_ROTATION_ON_REGION_CHANGE;
    sb.rotation_tile[0] = bad_rotation_tiles[i][0];
    sb.rotation_tile[1] = bad_rotation_tiles[i][1];
    EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
                "rotation tile");
  }
  const double bad_hysteresis[] = {-1.0, 45.01, 90.0, NAN};
  for (int i = 0; i < 4; ++i) {
    sb = s;
    sb.rotation_policy = CVR_ROTATION_HYSTERESIS;
    sb.rotation_hysteresis = bad_hysteresis[i];
    EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
                "hysteresis");
  }
  /* slab-based ray casting (Strategies III) */
  /* w, h, depth, border: a ring needs a pixel between its sides; gathering
   * needs a thread per border ray (4 x 4 has 16 threads, 20 border rays) */
  const int R = CVR_SLAB_BORDER_RING, G = CVR_SLAB_BORDER_GATHERED;
  const int bad_slabs[][4] = {{2, 8, 8, R},   {8, 2, 8, R},  {64, 32, 8, R},  {-3, 8, 8, R},
                              {32, 8, 0, R},  {32, 8, 5, R}, {32, 8, 64, R},  {4, 4, 8, G},
                              {32, 1, 8, G},  {0, 8, 8, G},  {64, 32, 8, G},  {16, 8, 8, 2}};
  for (int i = 0; i < (int)(sizeof bad_slabs / sizeof bad_slabs[0]); ++i) {
    sb = s;
    sb.strategy = CVR_STRATEGY_SLAB;
    sb.slab_block[0] = bad_slabs[i][0];
    sb.slab_block[1] = bad_slabs[i][1];
    sb.slab_depth = bad_slabs[i][2];
    sb.slab_border = (cvr_slab_border)bad_slabs[i][3];
    EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
                "slab");
  }
  /* auto-tuning (AUTO): the knobs are checked before anything is tuned */
  const int bad_repeats[] = {0, -2, 17};
  for (int i = 0; i < 3; ++i) {
    sb = s;
    sb.strategy = CVR_STRATEGY_AUTO;
    sb.tuning_repeats = bad_repeats[i];
    EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
                "tuning repeats");
  }
  const double bad_prune[] = {1.0, 0.5, NAN, INFINITY};
  for (int i = 0; i < 4; ++i) {
    sb = s;
    sb.strategy = CVR_STRATEGY_AUTO;
    sb.tuning_prune = bad_prune[i];
    EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
                "prune");
  }
  const double bad_budget[] = {0.0, -0.5, 1.5, NAN, INFINITY};
  for (int i = 0; i < 5; ++i) {
    sb = s;
    sb.strategy = CVR_STRATEGY_AUTO;
    sb.tuning_budget = bad_budget[i];
    EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
                "tuning budget");
  }
  const int bad_tiles[][2] = {{0, 8}, {8, 0}, {5000, 8}};
  for (int i = 0; i < 3; ++i) {
    sb = s;
    sb.cpu_tile_width = bad_tiles[i][0];
    sb.cpu_tile_height = bad_tiles[i][1];
    EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
                "CPU tile");
  }
  sb = s;
  sb.cpu_schedule = (cvr_cpu_schedule)5;
  EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "schedule");

  /* ---- shading */
  sb = s;
  sb.shading.enabled = 1;
  sb.shading.light_count = CVR_MAX_LIGHTS + 1;
  EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "lights");
  sb = s;
  sb.shading.enabled = 1;
  sb.shading.diffuse = -0.5;
  EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "shading coefficients");
  sb = s;
  sb.shading.enabled = 1;
  sb.shading.specular_power = NAN;
  EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "shading coefficients");
  sb = s;
  sb.shading.enabled = 1;
  sb.shading.lights[0].type = (cvr_light_type)7;
  EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "unknown type");
  sb = s;
  sb.shading.enabled = 1;
  sb.shading.lights[0].diffuse[1] = INFINITY;
  EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "not finite");
  /* finite, but beyond what float shading holds, or beyond vtkLight's ranges */
  for (int i = 0; i < 7; ++i) {
    sb = s;
    sb.shading.enabled = 1;
    cvr_light *l = &sb.shading.lights[0];
    l->type = CVR_LIGHT_POSITIONAL;
    l->position[2] = 10.0;
    const char *what = i < 3 ? "colours and attenuation" : i < 5 ? "within" : "exponent";
    switch (i) {
    case 0: l->diffuse[0] = 1e30; break;
    case 1: l->ambient[2] = -0.5; break;
    case 2: l->attenuation[1] = -1.0; break;
    case 3: l->position[0] = 1e30; break;
    case 4: l->focal_point[1] = -1e30; break;
    case 5: l->exponent = -1e30; break; /* a fuzzer's: infinite pixels before */
    default: l->cone_angle = -1.0; break;
    }
    EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
                what);
  }
  sb = s;
  sb.shading.enabled = 1;
  sb.shading.specular = 1e30;
  EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "shading coefficients");
  sb = s;
  sb.shading.enabled = 1;
  sb.shading.lights[0].type = CVR_LIGHT_DIRECTIONAL; /* position == focal point */
  EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &sb, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "no direction");

  /* ---- render arguments */
  EXPECT_FAIL(NULL, cvr_render(NULL, v, tf, &view, &s, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "ctx is NULL");
  EXPECT_FAIL(ctx, cvr_render(ctx, NULL, tf, &view, &s, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "must not be NULL");
  EXPECT_FAIL(ctx, cvr_render(ctx, v, NULL, &view, &s, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "must not be NULL");
  EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, NULL, &s, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "must not be NULL");
  EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, NULL, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "must not be NULL");
  EXPECT_FAIL(ctx, cvr_render(ctx, v, tf, &view, &s, NULL, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "must not be NULL");
  cvr_context_options_init(&o);
  o.backend = CVR_BACKEND_CPU;
  CHECK(cvr_context_create(&o, &other) == CVR_OK, "second context");
  cvr_volume *foreign = NULL;
  CHECK(cvr_volume_create(other, &d, &foreign) == CVR_OK, "foreign volume");
  EXPECT_FAIL(ctx, cvr_render(ctx, foreign, tf, &view, &s, &image, NULL), CVR_ERROR_INVALID_ARGUMENT,
              "another context");
  cvr_volume_destroy(foreign);
  cvr_context_destroy(other);

  /* nothing above disturbed the context: the same frame renders the same */
  memset(after, 0xAB, sizeof after);
  render_ok(ctx, v, tf, &view, &s, after);
  CHECK(memcmp(before, after, sizeof before) == 0, "the frame changed after the failed calls");
  /* an image with no outputs is valid (statistics only) */
  const cvr_image none = {NULL, NULL, NULL, NULL};
  cvr_render_stats st;
  CHECK(cvr_render(ctx, v, tf, &view, &s, &none, &st) == CVR_OK && st.samples > 0,
        "render without outputs: %s", cvr_last_error(ctx));
  for (int i = CVR_OK; i <= CVR_ERROR_INTERNAL; ++i)
    CHECK(strcmp(cvr_status_string((cvr_status)i), "unknown status") != 0, "status %d unnamed", i);

  cvr_transfer_function_destroy(tf);
  cvr_volume_destroy(v);
  cvr_context_destroy(ctx);
  printf("%d error cases tried\n", cases);
  return cvr_test_finish("test_api");
}
