// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Volumes that read the caller's scalars where they are
 * (cvr_volume_desc.borrow_data), on one backend (argv[1]: cpu or cuda; cuda
 * skips without a device). Where the library keeps the scalars in host
 * memory — the CPU backend, and on CUDA a volume larger than the memory
 * budget, rendered from bricks — a lent volume keeps no copy of its own:
 * cvr_volume_host_bytes is 0 and the process's resident memory grows by a
 * small part of the volume where a copy grows it by the volume. It renders
 * what a copy renders, bit for bit, and follows updates: new lent scalars,
 * scalars not lent (a copy again), lent ones again, new values at the same
 * address (on CUDA still pinned after them all); the scalars it no
 * longer reads are freed at once (under AddressSanitizer a read of them
 * would fail the test). Where it keeps no host copy (CUDA's device copy)
 * or converts the type (float64), lending changes nothing. */
#include <string.h>
#include <unistd.h>

#include "cvr_internal.h"
#include "test_common.h"

enum { N = 256, W = 64, H = 56, PIXELS = W * H };
static const size_t VOXELS = (size_t)N * N * N;

/* The process's resident memory in bytes (Linux), 0 where unknown. */
static size_t resident_bytes(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  unsigned long size = 0, resident = 0;
  const int got = f ? fscanf(f, "%lu %lu", &size, &resident) : 0;
  if (f) fclose(f);
  return got == 2 ? (size_t)resident * (size_t)sysconf(_SC_PAGESIZE) : 0;
}

/* A smooth scene (a ball and a shell) whose values depend on `phase`. */
static uint16_t *scene(int phase) {
  uint16_t *v = malloc(VOXELS * sizeof *v);
  CHECK(v != NULL, "out of memory");
  if (!v) exit(1);
  for (int z = 0; z < N; ++z)
    for (int y = 0; y < N; ++y)
      for (int x = 0; x < N; ++x) {
        const double dx = x - 0.5 * N + 9 * phase, dy = y - 0.45 * N, dz = z - 0.55 * N;
        const double r = sqrt(dx * dx + dy * dy + dz * dz);
        double value = 2000.0 + 30.0 * ((x * 7 + y * 3 + z * 5 + phase) % 17);
        if (r < 0.3 * N) value = 30000.0 + 400.0 * r;
        if (fabs(r - (0.4 + 0.02 * phase) * N) < 3.0) value = 52000.0;
        v[((size_t)z * N + y) * N + x] = (uint16_t)value;
      }
  return v;
}

static cvr_volume_desc desc_of(const void *data, cvr_scalar_type type, int borrow) {
  cvr_volume_desc d;
  cvr_volume_desc_init(&d);
  d.type = type;
  d.data = data;
  d.dims[0] = d.dims[1] = d.dims[2] = N;
  d.borrow_data = borrow;
  return d;
}

static cvr_volume *create(cvr_context *ctx, const cvr_volume_desc *d, size_t *grew) {
  const size_t before = resident_bytes();
  cvr_volume *v = NULL;
  CHECK(cvr_volume_create(ctx, d, &v) == CVR_OK, "volume: %s", cvr_last_error(ctx));
  const size_t after = resident_bytes();
  if (grew) *grew = after > before ? after - before : 0;
  return v;
}

typedef struct frame_out {
  float rgba[4 * PIXELS], depth[PIXELS];
} frame_out;

static void render(cvr_context *ctx, const cvr_volume *v, const cvr_transfer_function *tf, int i,
                   frame_out *out) {
  const double center[3] = {0.5 * (N - 1), 0.5 * (N - 1), 0.5 * (N - 1)};
  cvr_view view;
  cvr_tools_orbit_view(center, 0.9 * N, 53.0 * i + 20.0, 25.0 - 10.0 * i, CVR_PROJECTION_PERSPECTIVE,
                       W, H, &view);
  cvr_render_settings s;
  cvr_render_settings_init(&s);
  s.strategy = CVR_STRATEGY_STANDARD;
  s.shading.enabled = i % 2;
  cvr_image image = {0};
  image.rgba32f = out->rgba;
  image.depth = out->depth;
  CHECK(cvr_render(ctx, v, tf, &view, &s, &image, NULL) == CVR_OK, "render: %s",
        cvr_last_error(ctx));
}

/* The lent volume's frames against the copy's: the same bit for bit. */
static void expect_same_frames(cvr_context *ctx, const cvr_volume *lent, const cvr_volume *copy,
                               const cvr_transfer_function *tf, const char *what) {
  static frame_out a, b;
  for (int i = 0; i < 3; ++i) {
    render(ctx, lent, tf, i, &a);
    render(ctx, copy, tf, i, &b);
    long visible = 0;
    for (long p = 0; p < PIXELS; ++p) visible += a.rgba[4 * p + 3] > 0.01f;
    CHECK(memcmp(&a, &b, sizeof a) == 0, "%s, view %d: the lent volume's frame differs from the copy's",
          what, i);
    CHECK(visible > PIXELS / 16, "%s, view %d: %ld pixels drawn (the scene should show)", what, i,
          visible);
  }
}

static void expect_range(const cvr_volume *v, const uint16_t *voxels, const char *what) {
  uint16_t lo = 65535, hi = 0;
  for (size_t i = 0; i < VOXELS; ++i) {
    if (voxels[i] < lo) lo = voxels[i];
    if (voxels[i] > hi) hi = voxels[i];
  }
  double r[2];
  cvr_volume_get_range(v, r);
  CHECK(r[0] == lo && r[1] == hi, "%s: range [%g, %g], the scalars' [%d, %d]", what, r[0], r[1],
        lo, hi);
}

int main(int argc, char **argv) {
  const int cuda = argc > 1 && !strcmp(argv[1], "cuda");
  if (cuda && cvr_cuda_device_count() == 0) {
    printf("SKIP: no usable CUDA device\n");
    return CVR_TEST_SKIP;
  }
  const size_t bytes = VOXELS * sizeof(uint16_t);
  cvr_context_options o;
  cvr_context_options_init(&o);
  o.backend = cuda ? CVR_BACKEND_CUDA : CVR_BACKEND_CPU;
  /* CUDA keeps host scalars only for a volume larger than its budget */
  o.memory_budget = cuda ? bytes / 8 : 0;
  o.brick_size = 64;
  cvr_context *ctx = NULL;
  if (cvr_context_create(&o, &ctx) != CVR_OK) {
    fprintf(stderr, "context: %s\n", cvr_last_error(NULL));
    return 1;
  }
  printf("backend: %s\n", cvr_context_description(ctx));
  const float rgba[8] = {0.9f, 0.6f, 0.3f, 0.0f, 0.4f, 0.7f, 1.0f, 0.6f};
  const cvr_transfer_function_desc td = {
      .rgba = rgba, .size = 2, .range = {20000.0, 60000.0}, .unit_distance = 4.0};
  cvr_transfer_function *tf = NULL;
  CHECK(cvr_transfer_function_create(ctx, &td, &tf) == CVR_OK, "tf: %s", cvr_last_error(ctx));

  uint16_t *first = scene(0);
  const cvr_volume_desc copied = desc_of(first, CVR_UINT16, 0);
  size_t copy_grew = 0, lent_grew = 0;
  cvr_volume *copy = create(ctx, &copied, &copy_grew);
  cvr_volume_desc lent_desc = desc_of(first, CVR_UINT16, 1);
  cvr_volume *lent = create(ctx, &lent_desc, &lent_grew);
  if (!copy || !lent) return cvr_test_finish("test_borrow");
  printf("  %.1f MiB volume: resident memory grew %.1f MiB for a copy, %.1f MiB lent\n",
         bytes / 1048576.0, copy_grew / 1048576.0, lent_grew / 1048576.0);
  CHECK(cvr_volume_host_bytes(copy) == bytes, "copy: %zu host bytes, expected %zu",
        cvr_volume_host_bytes(copy), bytes);
  CHECK(cvr_volume_host_bytes(lent) == 0, "lent: %zu host bytes, expected none",
        cvr_volume_host_bytes(lent));
  CHECK(lent->host_data == first, "lent: the volume reads a copy, not the caller's scalars");
  if (resident_bytes() > 0) {
    CHECK(copy_grew >= bytes * 3 / 4, "a copy grew resident memory by %zu bytes, < 3/4 of %zu",
          copy_grew, bytes);
    CHECK(lent_grew < bytes / 4, "a lent volume grew resident memory by %zu bytes, >= 1/4 of %zu",
          lent_grew, bytes);
  }
  CHECK((cuda != 0) == (lent->bricks != NULL), "lent: %s", lent->bricks ? "bricked" : "not bricked");
  expect_same_frames(ctx, lent, copy, tf, "created");
  expect_range(lent, first, "created");

  /* new scalars, lent: the first ones are not read again */
  uint16_t *second = scene(1);
  lent_desc.data = second;
  CHECK(cvr_volume_update(lent, &lent_desc) == CVR_OK, "update, lent: %s", cvr_last_error(ctx));
  const cvr_volume_desc second_copied = desc_of(second, CVR_UINT16, 0);
  CHECK(cvr_volume_update(copy, &second_copied) == CVR_OK, "update: %s", cvr_last_error(ctx));
  free(first);
  CHECK(cvr_volume_host_bytes(lent) == 0 && lent->host_data == second,
        "updated, lent: the volume does not read the new scalars where they are");
  expect_same_frames(ctx, lent, copy, tf, "updated, lent");
  expect_range(lent, second, "updated, lent");

  /* the same scalars not lent: a copy of its own again */
  CHECK(cvr_volume_update(lent, &second_copied) == CVR_OK, "update, copied: %s",
        cvr_last_error(ctx));
  CHECK(cvr_volume_host_bytes(lent) == bytes && lent->host_data != second,
        "updated, not lent: %zu host bytes, expected a copy of %zu", cvr_volume_host_bytes(lent),
        bytes);
  uint16_t *third = scene(2);
  memcpy(third, second, bytes);
  free(second);
  expect_same_frames(ctx, lent, copy, tf, "updated, not lent");

  /* lent again */
  lent_desc.data = third;
  CHECK(cvr_volume_update(lent, &lent_desc) == CVR_OK, "update, lent again: %s",
        cvr_last_error(ctx));
  CHECK(cvr_volume_host_bytes(lent) == 0 && lent->host_data == third,
        "lent again: the volume does not read the caller's scalars");
  expect_same_frames(ctx, lent, copy, tf, "lent again");

  /* new values written into the lent scalars, given again at the same
   * address (as VTK's arrays are rewritten in place) */
  uint16_t *fourth = scene(4);
  memcpy(third, fourth, bytes);
  free(fourth);
  CHECK(cvr_volume_update(lent, &lent_desc) == CVR_OK, "update in place: %s", cvr_last_error(ctx));
  const cvr_volume_desc third_copied = desc_of(third, CVR_UINT16, 0);
  CHECK(cvr_volume_update(copy, &third_copied) == CVR_OK, "update: %s", cvr_last_error(ctx));
  CHECK(cvr_volume_host_bytes(lent) == 0 && lent->host_data == third,
        "updated in place: the volume does not read the caller's scalars");
  expect_same_frames(ctx, lent, copy, tf, "updated in place");
  expect_range(lent, third, "updated in place");
  if (cuda) /* pinned still: the copies run at the link's speed */
    CHECK(cvr_debug_host_pinned(lent) && cvr_debug_host_pinned(copy),
          "bricked scalars not pinned after updates (lent %d, copy %d)",
          cvr_debug_host_pinned(lent), cvr_debug_host_pinned(copy));
  cvr_volume_destroy(lent);
  free(third);

  /* a type the library converts: lending changes nothing (a copy; the
   * caller's scalars may go at once) */
  double *wide = malloc(VOXELS * sizeof *wide);
  uint16_t *source = scene(3);
  for (size_t i = 0; i < VOXELS; ++i) wide[i] = source[i];
  free(source);
  const cvr_volume_desc wide_desc = desc_of(wide, CVR_FLOAT64, 1);
  cvr_volume *converted = create(ctx, &wide_desc, NULL);
  free(wide);
  if (converted) {
    CHECK(cvr_volume_host_bytes(converted) == VOXELS * sizeof(float),
          "float64, lent: %zu host bytes, expected a float32 copy", cvr_volume_host_bytes(converted));
    frame_out *out = malloc(sizeof *out);
    render(ctx, converted, tf, 0, out);
    free(out);
  }
  cvr_volume_destroy(converted);
  cvr_volume_destroy(copy);
  cvr_transfer_function_destroy(tf);

  if (cuda) { /* a volume the budget holds: a device copy, no host scalars */
    o.memory_budget = 0;
    cvr_context *fits = NULL;
    CHECK(cvr_context_create(&o, &fits) == CVR_OK, "context: %s", cvr_last_error(NULL));
    uint16_t *voxels = scene(4);
    const cvr_volume_desc d = desc_of(voxels, CVR_UINT16, 1);
    cvr_volume *v = create(fits, &d, NULL);
    free(voxels);
    CHECK(v && !v->bricks && !v->host_data && cvr_volume_host_bytes(v) == 0,
          "a volume that fits: host scalars kept");
    cvr_volume_destroy(v);
    cvr_context_destroy(fits);
  }
  cvr_context_destroy(ctx);
  return cvr_test_finish("test_borrow");
}
