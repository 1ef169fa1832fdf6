// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Uploads (cvr_volume_create, cvr_volume_update) on one backend:
 *  - Every scalar type, on volumes large enough that the conversion is split
 *    over threads (7, so the parts are uneven) and the CUDA upload over
 *    several staging chunks: the voxels read back are the scalars as a cast
 *    to the stored type makes them, and the range is a plain scan's, NaN
 *    ignored, the extremes placed at the first and last voxel and inside.
 *  - An all-NaN volume has range [0, 0].
 *  - Two, three and four interleaved components (three widened to the
 *    texture's four channels on the host's threads): the voxels read back,
 *    each component's range a plain scan of its values (a NaN among them),
 *    the whole range their union; a component out of range refused.
 *  - Progress: the callback sees rising fractions that end at 1.
 *  - cvr_volume_update: a volume first rendered empty (its empty-space grid
 *    built: everything skipped), turned and moved to another memory layout
 *    (CUDA), then given new scalars, renders exactly the image of a volume
 *    created from them, reads them back, and has their range; a
 *    two-component volume likewise, with each component's range. Other dimensions, types or components
 *    are refused with a message, and the volume still renders.
 *  - CUDA: a volume larger than the device (1 TiB, one and four components)
 *    is refused before its scalars are read, saying how much it needed and
 *    how much was free; the context then uploads a small one.
 * Usage: test_upload cpu|cuda [--no-oom] [--pageable] (cuda skips without a
 * GPU; --no-oom leaves the 1 TiB volume out, whose failed allocations
 * compute-sanitizer reports as API errors; --pageable stages the CUDA
 * transfers in pageable memory, as where pinning fails: CVR_PINNED_STAGING=0). */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>
#include <string.h>

#include "cvr_internal.h"
#include "test_common.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next_random(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

/* Random scalars of type over most of its range, the extremes lo and hi
 * placed at the ends and inside, a few NaN among floats. */
static void *random_scalars(cvr_scalar_type type, size_t n, double lo, double hi) {
  const size_t size = cvr_scalar_type_size(type);
  char *v = malloc(n * size);
  for (size_t i = 0; i < n; ++i) {
    double x = lo + (hi - lo) * (0.05 + 0.9 * (double)(next_random() >> 11) / 9007199254740992.0);
    if (i == 0 || i == n / 3) x = lo;
    if (i == n - 1 || i == n / 2) x = hi;
    const int nan = (type == CVR_FLOAT32 || type == CVR_FLOAT64) && i % 997 == 5;
    void *p = v + i * size;
    switch (type) {
    case CVR_INT8: *(int8_t *)p = (int8_t)x; break;
    case CVR_UINT8: *(uint8_t *)p = (uint8_t)x; break;
    case CVR_INT16: *(int16_t *)p = (int16_t)x; break;
    case CVR_UINT16: *(uint16_t *)p = (uint16_t)x; break;
    case CVR_INT32: *(int32_t *)p = (int32_t)x; break;
    case CVR_UINT32: *(uint32_t *)p = (uint32_t)x; break;
    case CVR_FLOAT32: *(float *)p = nan ? NAN : (float)x; break;
    case CVR_FLOAT64: *(double *)p = nan ? NAN : x; break;
    }
  }
  return v;
}

static double value_at(cvr_scalar_type type, const void *v, size_t i) {
  switch (type) {
  case CVR_INT8: return ((const int8_t *)v)[i];
  case CVR_UINT8: return ((const uint8_t *)v)[i];
  case CVR_INT16: return ((const int16_t *)v)[i];
  case CVR_UINT16: return ((const uint16_t *)v)[i];
  case CVR_INT32: return ((const int32_t *)v)[i];
  case CVR_UINT32: return ((const uint32_t *)v)[i];
  case CVR_FLOAT32: return ((const float *)v)[i];
  default: return ((const double *)v)[i];
  }
}

/* The stored scalars a cast makes (8/16-bit kept, others float32). */
static void *stored_by_cast(cvr_scalar_type type, const void *v, size_t n) {
  const int keep = type == CVR_INT8 || type == CVR_UINT8 || type == CVR_INT16 || type == CVR_UINT16;
  void *out = malloc(n * (keep ? cvr_scalar_type_size(type) : 4));
  if (keep) {
    memcpy(out, v, n * cvr_scalar_type_size(type));
    return out;
  }
  for (size_t i = 0; i < n; ++i) ((float *)out)[i] = (float)value_at(type, v, i);
  return out;
}

static void plain_range(cvr_scalar_type type, const void *v, size_t n, double r[2]) {
  r[0] = INFINITY;
  r[1] = -INFINITY;
  for (size_t i = 0; i < n; ++i) {
    const double x = value_at(type, v, i);
    if (x != x) continue;
    r[0] = x < r[0] ? x : r[0];
    r[1] = x > r[1] ? x : r[1];
  }
  if (r[0] > r[1]) r[0] = r[1] = 0.0;
}

typedef struct progress_log {
  int calls, rising;
  double last;
} progress_log;

static int log_progress(double fraction, void *user) {
  progress_log *p = (progress_log *)user;
  p->rising &= fraction > p->last && fraction <= 1.0;
  p->last = fraction;
  ++p->calls;
  return 1; /* asks to stop, which an upload ignores */
}

static void check_type(cvr_context *ctx, cvr_scalar_type type, const int *dims, double lo, double hi) {
  const size_t n = (size_t)dims[0] * dims[1] * dims[2];
  void *data = random_scalars(type, n, lo, hi);
  cvr_volume_desc d;
  cvr_volume_desc_init(&d);
  d.type = type;
  d.data = data;
  memcpy(d.dims, dims, sizeof d.dims);
  progress_log log = {0, 1, 0.0};
  d.progress = log_progress;
  d.progress_user = &log;
  cvr_volume *v = NULL;
  CHECK(cvr_volume_create(ctx, &d, &v) == CVR_OK, "type %d: %s", (int)type, cvr_last_error(ctx));
  if (!v) {
    free(data);
    return;
  }
  double got[2], want[2];
  plain_range(type, data, n, want);
  cvr_volume_get_range(v, got);
  CHECK(got[0] == want[0] && got[1] == want[1], "type %d: range [%.17g, %.17g], a scan finds [%.17g, %.17g]",
        (int)type, got[0], got[1], want[0], want[1]);
  CHECK(log.calls >= 1 && log.rising && log.last == 1.0,
        "type %d: progress %d calls, rising %d, last %g", (int)type, log.calls, log.rising, log.last);
  void *expected = stored_by_cast(type, data, n);
  const size_t stored_bytes = n * cvr_scalar_type_size(v->stored_type);
  void *back = malloc(stored_bytes);
  CHECK(cvr_debug_read_volume(v, back) == CVR_OK && !memcmp(back, expected, stored_bytes),
        "type %d: the voxels read back are not the scalars as stored", (int)type);
  printf("type %d, %d x %d x %d: range [%g, %g], %d progress calls\n", (int)type, dims[0], dims[1],
         dims[2], got[0], got[1], log.calls);
  free(back);
  free(expected);
  cvr_volume_destroy(v);
  free(data);
}

/* Components of different spans: component c of voxel i at offset c * 1000
 * (a NaN in component 1 where the type has it), read back and ranged. */
static void check_component_ranges(cvr_context *ctx, cvr_scalar_type type, int components) {
  static const int dims[3] = {161, 130, 127}; /* parts of the pass split voxels: 64 % 3 != 0 */
  const size_t voxels = (size_t)dims[0] * dims[1] * dims[2], n = voxels * components;
  const double lo[4] = {-100.0, 0.0, 250.0, -20000.0}, hi[4] = {100.0, 3000.0, 255.0, 30000.0};
  const size_t in = cvr_scalar_type_size(type);
  unsigned char *data = malloc(n * in);
  double want[4][2] = {{INFINITY, -INFINITY}, {INFINITY, -INFINITY}, {INFINITY, -INFINITY},
                       {INFINITY, -INFINITY}};
  for (size_t i = 0; i < n; ++i) {
    const int c = (int)(i % (size_t)components);
    double x = lo[c] + (double)(next_random() % 1000) / 999.0 * (hi[c] - lo[c]);
    if (type == CVR_UINT8) x = fmax(0.0, fmin(255.0, x));
    if (type == CVR_INT16) x = floor(x);
    if (i / components == voxels / 2 && c == 1 && type == CVR_FLOAT32) x = NAN;
    if (type == CVR_UINT8) data[i] = (uint8_t)x;
    else if (type == CVR_INT16) ((int16_t *)data)[i] = (int16_t)x;
    else ((float *)data)[i] = (float)x;
    const double v = value_at(type, data, i);
    if (v < want[c][0]) want[c][0] = v;
    if (v > want[c][1]) want[c][1] = v;
  }
  cvr_volume_desc d;
  cvr_volume_desc_init(&d);
  d.type = type;
  d.data = data;
  d.components = components;
  memcpy(d.dims, dims, sizeof d.dims);
  cvr_volume *v = NULL;
  CHECK(cvr_volume_create(ctx, &d, &v) == CVR_OK, "%d components of type %d: %s", components,
        (int)type, cvr_last_error(ctx));
  if (!v) {
    free(data);
    return;
  }
  double all[2], union_[2] = {INFINITY, -INFINITY};
  cvr_volume_get_range(v, all);
  for (int c = 0; c < components; ++c) {
    double r[2] = {0.0, 0.0};
    CHECK(cvr_volume_get_component_range(v, c, r) == CVR_OK && r[0] == want[c][0] &&
              r[1] == want[c][1],
          "%d components of type %d: component %d range [%g, %g], a scan finds [%g, %g]",
          components, (int)type, c, r[0], r[1], want[c][0], want[c][1]);
    union_[0] = fmin(union_[0], r[0]);
    union_[1] = fmax(union_[1], r[1]);
  }
  CHECK(all[0] == union_[0] && all[1] == union_[1],
        "%d components: range [%g, %g], the components' union [%g, %g]", components, all[0], all[1],
        union_[0], union_[1]);
  void *expected = stored_by_cast(type, data, n);
  const size_t stored_bytes = n * cvr_scalar_type_size(v->stored_type);
  void *back = malloc(stored_bytes);
  CHECK(cvr_debug_read_volume(v, back) == CVR_OK && !memcmp(back, expected, stored_bytes),
        "%d components of type %d: the voxels read back are not the scalars", components, (int)type);
  double r[2];
  cvr_test_expect_failure(ctx, cvr_volume_get_component_range(v, components, r), "of a volume of",
                          "a component past the last");
  cvr_test_expect_failure(ctx, cvr_volume_get_component_range(v, -1, r), "component -1",
                          "component -1");
  printf("%d components of type %d: ranges", components, (int)type);
  for (int c = 0; c < components; ++c) printf(" [%g, %g]", want[c][0], want[c][1]);
  printf("\n");
  free(back);
  free(expected);
  cvr_volume_destroy(v);
  free(data);
}

static void check_all_nan(cvr_context *ctx) {
  const int dims[3] = {8, 8, 8};
  float data[8 * 8 * 8];
  for (int i = 0; i < 512; ++i) data[i] = NAN;
  cvr_volume_desc d;
  cvr_volume_desc_init(&d);
  d.type = CVR_FLOAT32;
  d.data = data;
  memcpy(d.dims, dims, sizeof d.dims);
  cvr_volume *v = NULL;
  double r[2] = {1, 1};
  CHECK(cvr_volume_create(ctx, &d, &v) == CVR_OK && cvr_volume_get_range(v, r) == CVR_OK &&
            r[0] == 0.0 && r[1] == 0.0,
        "all NaN: range [%g, %g], expected [0, 0]", r[0], r[1]);
  cvr_volume_destroy(v);
}

/* A sphere of value `peak` in a volume of uint8 zeros. */
static void sphere(uint8_t *v, const int *d, int peak) {
  for (int k = 0; k < d[2]; ++k)
    for (int j = 0; j < d[1]; ++j)
      for (int i = 0; i < d[0]; ++i) {
        const double x = (i - d[0] / 2.0) / d[0], y = (j - d[1] / 2.0) / d[1], z = (k - d[2] / 2.0) / d[2];
        const double r = sqrt(x * x + y * y + z * z);
        v[i + (size_t)d[0] * (j + (size_t)d[1] * k)] = (uint8_t)(r < 0.4 ? peak * (1.0 - r) : 0.0);
      }
}

static void check_update(cvr_context *ctx, cvr_backend backend) {
  const int dims[3] = {40, 33, 40}; /* x and z equally long: turns without padding */
  const size_t n = (size_t)dims[0] * dims[1] * dims[2];
  uint8_t *empty = calloc(n, 1), *full = malloc(n);
  sphere(full, dims, 250);
  cvr_volume_desc d;
  cvr_volume_desc_init(&d);
  d.type = CVR_UINT8;
  memcpy(d.dims, dims, sizeof d.dims);
  d.data = empty;
  cvr_volume *updated = NULL, *fresh = NULL;
  CHECK(cvr_volume_create(ctx, &d, &updated) == CVR_OK, "%s", cvr_last_error(ctx));
  /* transparent below 64: the empty volume's cells are all empty */
  static float table[256 * 4];
  for (int i = 0; i < 256; ++i) {
    table[4 * i] = 1.0f;
    table[4 * i + 1] = 0.6f;
    table[4 * i + 2] = 0.3f;
    table[4 * i + 3] = i < 64 ? 0.0f : 0.5f * (float)i / 255.0f;
  }
  cvr_transfer_function_desc tb = {.rgba = table, .size = 256, .range = {0.0, 255.0}, .unit_distance = 1.0};
  cvr_transfer_function *tf = NULL;
  CHECK(cvr_transfer_function_create(ctx, &tb, &tf) == CVR_OK, "%s", cvr_last_error(ctx));
  cvr_render_settings s;
  cvr_render_settings_init(&s);
  s.strategy = CVR_STRATEGY_STANDARD;
  s.early_termination = 0;
  if (backend == CVR_BACKEND_CUDA) {
    s.memory_layout = CVR_LAYOUT_ARRAY_ORDER; /* the update keeps the layout the frames chose */
    s.rotation_policy = CVR_ROTATION_ON_REGION_CHANGE;
  }
  enum { W = 48, H = 40 };
  static uint8_t a[W * H * 4], b[W * H * 4];
  cvr_render_stats st;
  /* a view along x (azimuth 90), which the rotation turns the copy for (CUDA) */
  cvr_view view;
  const double center[3] = {19.5, 16, 19.5};
  cvr_tools_orbit_view(center, 32.0, 90.0, 10.0, CVR_PROJECTION_PERSPECTIVE, W, H, &view);
  if (!updated || !tf) goto done;
  cvr_test_render(ctx, updated, tf, &view, &s, a, NULL, &st, "the empty volume");
  CHECK(cvr_test_visible(a, W * H) == 0 && st.samples_skipped_empty > 0,
        "the empty volume shows %ld pixels, skipped %llu samples", cvr_test_visible(a, W * H),
        (unsigned long long)st.samples_skipped_empty);
  d.data = full;
  progress_log log = {0, 1, 0.0};
  d.progress = log_progress;
  d.progress_user = &log;
  d.origin[0] = -0.5; /* the geometry comes with the update */
  CHECK(cvr_volume_update(updated, &d) == CVR_OK, "update: %s", cvr_last_error(ctx));
  CHECK(log.calls >= 1 && log.rising && log.last == 1.0, "update progress: %d calls, last %g",
        log.calls, log.last);
  double r[2];
  cvr_volume_get_range(updated, r);
  double want[2];
  plain_range(CVR_UINT8, full, n, want);
  CHECK(r[0] == want[0] && r[1] == want[1], "range after the update [%g, %g], expected [%g, %g]",
        r[0], r[1], want[0], want[1]);
  uint8_t *back = malloc(n);
  CHECK(cvr_debug_read_volume(updated, back) == CVR_OK && !memcmp(back, full, n),
        "the updated voxels read back differ");
  free(back);
  CHECK(cvr_volume_create(ctx, &d, &fresh) == CVR_OK, "%s", cvr_last_error(ctx));
  if (fresh) {
    double rf[2];
    cvr_volume_get_range(fresh, rf);
    CHECK(rf[0] == r[0] && rf[1] == r[1], "ranges: updated [%g, %g], fresh [%g, %g]", r[0], r[1],
          rf[0], rf[1]);
    cvr_test_render(ctx, updated, tf, &view, &s, a, NULL, &st, "the updated volume");
    const uint64_t updated_samples = cvr_test_visited(&st);
    cvr_test_render(ctx, fresh, tf, &view, &s, b, NULL, &st, "a volume of the same scalars");
    CHECK(cvr_test_visible(a, W * H) > W * H / 10, "the updated volume shows %ld pixels",
          cvr_test_visible(a, W * H));
    CHECK(!memcmp(a, b, sizeof a) && updated_samples == cvr_test_visited(&st),
          "the updated volume renders another image than a volume created from its scalars");
  }
  /* what an update cannot change */
  d.type = CVR_INT8;
  cvr_test_expect_failure(ctx, cvr_volume_update(updated, &d), "create a new volume", "another type");
  d.type = CVR_UINT8;
  d.dims[2] = 39;
  cvr_test_expect_failure(ctx, cvr_volume_update(updated, &d), "create a new volume", "other dimensions");
  d.dims[2] = 40;
  d.components = 2;
  cvr_test_expect_failure(ctx, cvr_volume_update(updated, &d), "create a new volume", "components");
  d.components = 1;
  CHECK(cvr_volume_update(NULL, &d) == CVR_ERROR_INVALID_ARGUMENT && strstr(cvr_last_error(NULL), "NULL"),
        "no volume: %s", cvr_last_error(NULL));
  cvr_test_expect_failure(ctx, cvr_volume_update(updated, NULL), "NULL", "no description");
  cvr_test_render(ctx, updated, tf, &view, &s, b, NULL, &st, "after the refused updates");
  CHECK(!memcmp(a, b, sizeof a), "a refused update changed the image");
done:
  cvr_volume_destroy(fresh);
  cvr_volume_destroy(updated);
  cvr_transfer_function_destroy(tf);
  free(empty);
  free(full);
}

static double two_components(int c, double x, const void *user) {
  (void)user;
  return c == 0 ? x : 255.0 - x;
}

static void check_components_update(cvr_context *ctx) {
  const int dims[3] = {24, 20, 18};
  const size_t n = (size_t)dims[0] * dims[1] * dims[2];
  uint8_t *one = malloc(n);
  sphere(one, dims, 200);
  cvr_volume_desc d;
  cvr_volume_desc_init(&d);
  d.type = CVR_UINT8;
  d.data = one;
  memcpy(d.dims, dims, sizeof d.dims);
  cvr_volume *v = cvr_test_components_volume(ctx, &d, 2, two_components, NULL);
  uint8_t *pairs = malloc(2 * n), *back = malloc(2 * n);
  for (size_t i = 0; i < n; ++i) {
    pairs[2 * i] = (uint8_t)(255 - one[i]);
    pairs[2 * i + 1] = one[i] / 2;
  }
  d.data = pairs;
  d.components = 2;
  CHECK(v && cvr_volume_update(v, &d) == CVR_OK, "two components: %s", cvr_last_error(ctx));
  CHECK(v && cvr_debug_read_volume(v, back) == CVR_OK && !memcmp(back, pairs, 2 * n),
        "two components: the updated voxels read back differ");
  double r[2] = {0, 0};
  if (v) cvr_volume_get_range(v, r);
  CHECK(r[0] == 0.0 && r[1] == 255.0, "two components: range [%g, %g], expected [0, 255]", r[0], r[1]);
  /* each component's range is the new values' */
  double want[2][2] = {{255.0, 0.0}, {255.0, 0.0}}, got[2][2] = {{0, 0}, {0, 0}};
  for (size_t i = 0; i < 2 * n; ++i) {
    want[i % 2][0] = fmin(want[i % 2][0], pairs[i]);
    want[i % 2][1] = fmax(want[i % 2][1], pairs[i]);
  }
  for (int c = 0; v && c < 2; ++c) cvr_volume_get_component_range(v, c, got[c]);
  CHECK(!memcmp(got, want, sizeof got),
        "two components after the update: ranges [%g, %g] [%g, %g], expected [%g, %g] [%g, %g]",
        got[0][0], got[0][1], got[1][0], got[1][1], want[0][0], want[0][1], want[1][0], want[1][1]);
  cvr_volume_destroy(v);
  free(one);
  free(pairs);
  free(back);
}

/* A 1 TiB volume on the device: refused, its buffer never read (a byte). */
static void check_too_large(cvr_context *ctx) {
  static uint8_t one = 7;
  for (int components = 1; components <= 4; components += 3) {
    cvr_volume_desc d;
    cvr_volume_desc_init(&d);
    d.type = CVR_UINT8;
    d.data = &one;
    d.components = components;
    d.dims[0] = d.dims[1] = 16384;
    d.dims[2] = 4096 / components;
    cvr_volume *v = NULL;
    const cvr_status st = cvr_volume_create(ctx, &d, &v);
    printf("a 1 TiB volume of %d component(s): %s\n", components, cvr_last_error(ctx));
    CHECK(st == CVR_ERROR_OUT_OF_MEMORY || st == CVR_ERROR_DEVICE,
          "a 1 TiB volume of %d component(s): status %d", components, (int)st);
    CHECK(!v && strstr(cvr_last_error(ctx), "cannot allocate") &&
              strstr(cvr_last_error(ctx), "MiB free"),
          "a 1 TiB volume: message \"%s\"", cvr_last_error(ctx));
  }
  uint8_t small[8 * 8 * 8] = {0};
  cvr_volume_desc d;
  cvr_volume_desc_init(&d);
  d.type = CVR_UINT8;
  d.data = small;
  d.dims[0] = d.dims[1] = d.dims[2] = 8;
  cvr_volume *v = NULL;
  CHECK(cvr_volume_create(ctx, &d, &v) == CVR_OK, "then a small volume: %s", cvr_last_error(ctx));
  cvr_volume_destroy(v);
}

static int has_flag(int argc, char **argv, const char *flag) {
  for (int i = 2; i < argc; ++i)
    if (!strcmp(argv[i], flag)) return 1;
  return 0;
}

int main(int argc, char **argv) {
  if (has_flag(argc, argv, "--pageable")) setenv("CVR_PINNED_STAGING", "0", 1);
  cvr_context_options o;
  cvr_context_options_init(&o);
  o.backend = argc > 1 && !strcmp(argv[1], "cuda") ? CVR_BACKEND_CUDA : CVR_BACKEND_CPU;
  if (o.backend == CVR_BACKEND_CUDA && cvr_cuda_device_count() == 0) {
    printf("SKIP: no usable CUDA device\n");
    return CVR_TEST_SKIP;
  }
  o.cpu_threads = 7; /* uneven parts of the conversion */
  cvr_context *ctx = NULL;
  if (cvr_context_create(&o, &ctx) != CVR_OK) {
    fprintf(stderr, "cannot create a context: %s\n", cvr_last_error(NULL));
    return 1;
  }
  printf("backend: %s\n", cvr_context_description(ctx));
  /* 2.6 Mi voxels: several threads' parts of every type, several chunks */
  static const int dims[3] = {161, 130, 127};
  check_type(ctx, CVR_INT8, dims, -128, 127);
  check_type(ctx, CVR_UINT8, dims, 0, 255);
  check_type(ctx, CVR_INT16, dims, -32768, 32767);
  check_type(ctx, CVR_UINT16, dims, 0, 65535);
  check_type(ctx, CVR_INT32, dims, -2147483648.0, 2147483647.0);
  check_type(ctx, CVR_UINT32, dims, 0, 4294967295.0);
  check_type(ctx, CVR_FLOAT32, dims, -3e38, 3e38);
  check_type(ctx, CVR_FLOAT64, dims, -1e300, 1e300);
  static const int small[3] = {5, 4, 3}; /* one slice a chunk */
  check_type(ctx, CVR_INT16, small, -7, 9);
  check_all_nan(ctx);
  check_component_ranges(ctx, CVR_UINT8, 3);
  check_component_ranges(ctx, CVR_INT16, 2);
  check_component_ranges(ctx, CVR_FLOAT32, 4);
  check_component_ranges(ctx, CVR_FLOAT32, 3);
  check_update(ctx, o.backend);
  check_components_update(ctx);
  if (o.backend == CVR_BACKEND_CUDA && !has_flag(argc, argv, "--no-oom")) check_too_large(ctx);
  cvr_context_destroy(ctx);
  return cvr_test_finish(o.backend == CVR_BACKEND_CPU        ? "upload (cpu)"
                         : has_flag(argc, argv, "--pageable") ? "upload (cuda, pageable staging)"
                                                               : "upload (cuda)");
}
