// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Bricked volumes (cvr_context_options.memory_budget) on one backend
 * (argv[1]: cpu or cuda; cuda skips without a device).
 *
 * A volume larger than the budget renders brick by brick from a cache the
 * budget holds, its rays carrying their state from brick to brick. That is
 * exact: each frame here is rendered by a context without a budget and by
 * contexts whose budget holds one brick, a few, or all of them, and the
 * images (float RGBA and depth) and the statistics must be the same bit for
 * bit. On CUDA against the unbricked frame of the standard strategy, which
 * takes the same samples with the same arithmetic but for the fused
 * multiply-adds nvcc forms in the shading code of each kernel on its own:
 * depths bit for bit, colours within CUDA_ULPS (a shaded real data set
 * differs in the last bit of 2% of its channels; a sample taken twice,
 * missed or composited out of order differs by far more); its samples
 * skipped as empty are counted at its own granularity, so there the samples
 * visited, taken or skipped, must agree. Every blend mode, shading, early
 * termination on
 * and off, empty-space skipping, clipping, cropping, nearest filtering,
 * jittering, parallel and perspective views, a camera inside the volume,
 * bricks of 16 and 32 voxels on a volume whose sides are no multiple of
 * either, and a real data set where present.
 *
 * Also: every lattice sample of random rays belongs to exactly one brick
 * (cvr_brick_samples partitions each ray); the cache (a budget of one brick
 * loads every drawn brick each frame, one that holds them all loads none the
 * second time); bricks that empty-space skipping finds empty are not drawn;
 * and the refusals: a budget that holds no brick, a brick size that is not
 * a power of two, a volume of several components, a mask, scattering; and
 * on CUDA, bricked frames against the CPU reference within the tolerance of
 * test_common.h. Usage: test_bricks cpu|cuda [--quick] (--quick: five
 * frame kinds in two views, one cache size, no real data; for the
 * sanitizers). */
#include <math.h>
#include <string.h>

#include "cvr_internal.h"
#include "test_common.h"

enum { NX = 75, NY = 61, NZ = 53, W = 64, H = 56, PIXELS = W * H };

static cvr_backend backend = CVR_BACKEND_CPU;
static int quick;

/* CUDA: the largest colour difference allowed (two units in the last place
 * of a channel near 1) */
#define CUDA_ULPS 2.4e-7f

static uint16_t *scene_voxels(void) {
  uint16_t *v = malloc((size_t)NX * NY * NZ * sizeof *v);
  for (int z = 0; z < NZ; ++z)
    for (int y = 0; y < NY; ++y)
      for (int x = 0; x < NX; ++x) {
        const size_t i = ((size_t)z * NY + y) * NX + x;
        unsigned h = (unsigned)i * 2654435761u;
        double value = (h >> 16) % 300u; /* noise the function makes transparent */
        const double d1 = sqrt(pow(x - 30.0, 2) + pow(y - 28.0, 2) + pow(z - 25.0, 2));
        const double d2 = sqrt(pow(x - 58.0, 2) + pow(y - 15.0, 2) + pow(z - 40.0, 2));
        if (d1 < 20.0) value = 20000.0 + 15000.0 * (1.0 - d1 / 20.0) + (h >> 20) % 2000u;
        if (d2 < 7.0) value = 45000.0;
        if (x == 47 || x == 48) value = 8000.0; /* a wall across a brick's face */
        v[i] = (uint16_t)value;
      }
  return v;
}

static cvr_context *context(size_t budget, int brick_size) {
  cvr_context_options o;
  cvr_context_options_init(&o);
  o.backend = backend;
  o.memory_budget = budget;
  o.brick_size = brick_size;
  cvr_context *ctx = NULL;
  if (cvr_context_create(&o, &ctx) != CVR_OK) {
    fprintf(stderr, "context: %s\n", cvr_last_error(NULL));
    exit(1);
  }
  return ctx;
}

static cvr_volume *volume_of(cvr_context *ctx, const cvr_volume_desc *d) {
  cvr_volume *v = NULL;
  CHECK(cvr_volume_create(ctx, d, &v) == CVR_OK, "volume: %s", cvr_last_error(ctx));
  return v;
}

static cvr_transfer_function *tf_of(cvr_context *ctx, double lo, double hi, double from) {
  enum { N = 256 };
  float t[4 * N];
  for (int i = 0; i < N; ++i) {
    const double value = lo + (hi - lo) * i / (N - 1);
    t[4 * i + 0] = (float)(0.3 + 0.7 * i / (N - 1));
    t[4 * i + 1] = (float)(0.8 - 0.5 * i / (N - 1));
    t[4 * i + 2] = 0.4f;
    t[4 * i + 3] = value < from ? 0.0f : (float)(0.05 + 0.6 * (value - from) / (hi - from));
  }
  cvr_transfer_function_desc d = {.rgba = t, .size = N, .range = {lo, hi}, .unit_distance = 2.0};
  cvr_transfer_function *tf = NULL;
  CHECK(cvr_transfer_function_create(ctx, &d, &tf) == CVR_OK, "tf: %s", cvr_last_error(ctx));
  return tf;
}

/* One frame's outputs. */
typedef struct frame_out {
  float rgba[4 * PIXELS], depth[PIXELS];
  cvr_render_stats stats;
} frame_out;

static int render(cvr_context *ctx, const cvr_volume *v, const cvr_transfer_function *tf,
                  const cvr_view *view, const cvr_render_settings *s, frame_out *out) {
  cvr_image image = {0};
  image.rgba32f = out->rgba;
  image.depth = out->depth;
  const cvr_status st = cvr_render(ctx, v, tf, view, s, &image, &out->stats);
  CHECK(st == CVR_OK, "render: %s", cvr_last_error(ctx));
  return st == CVR_OK;
}

static int compared;

/* The bricked frame against the whole one: bit for bit, and the same
 * samples taken, skipped and left behind early termination. */
static void expect_same(const frame_out *whole, const frame_out *bricked, const char *what) {
  ++compared;
  long differ = 0, depth_differ = 0, first = -1;
  float largest = 0.0f;
  const float allowed = backend == CVR_BACKEND_CPU ? 0.0f : CUDA_ULPS;
  for (long i = 0; i < 4L * PIXELS; ++i)
    if (memcmp(&whole->rgba[i], &bricked->rgba[i], 4) != 0 &&
        !(fabsf(whole->rgba[i] - bricked->rgba[i]) <= allowed)) {
      ++differ;
      if (first < 0) first = i;
      largest = fmaxf(largest, fabsf(whole->rgba[i] - bricked->rgba[i]));
    }
  for (long i = 0; i < PIXELS; ++i) depth_differ += memcmp(&whole->depth[i], &bricked->depth[i], 4) != 0;
  CHECK(differ == 0 && depth_differ == 0, "%s: %ld channels and %ld depths differ from the "
        "unbricked frame (by up to %g; the first at pixel %ld, %g against %g)", what, differ,
        depth_differ, largest, first / 4, first >= 0 ? whole->rgba[first] : 0.0f,
        first >= 0 ? bricked->rgba[first] : 0.0f);
  const cvr_render_stats *a = &whole->stats, *b = &bricked->stats;
  const int exact = backend == CVR_BACKEND_CPU;
  CHECK(a->rays == b->rays && (exact ? a->samples == b->samples : 1) &&
            (exact ? a->samples_skipped_empty == b->samples_skipped_empty
                   : cvr_test_visited(a) == cvr_test_visited(b)) &&
            a->samples_skipped_terminated == b->samples_skipped_terminated,
        "%s: rays %llu/%llu, samples %llu/%llu, empty %llu/%llu, terminated %llu/%llu", what,
        (unsigned long long)a->rays, (unsigned long long)b->rays, (unsigned long long)a->samples,
        (unsigned long long)b->samples, (unsigned long long)a->samples_skipped_empty,
        (unsigned long long)b->samples_skipped_empty,
        (unsigned long long)a->samples_skipped_terminated,
        (unsigned long long)b->samples_skipped_terminated);
  CHECK(b->brick_count > 0 && b->bricks_drawn > 0, "%s: not bricked (%d bricks, %d drawn)", what,
        b->brick_count, b->bricks_drawn);
  CHECK(a->brick_count == 0, "%s: the unbricked frame has %d bricks", what, a->brick_count);
}

typedef struct setup {
  cvr_context *ctx;
  cvr_volume *volume;
  cvr_transfer_function *tf;
} setup;

static setup setup_of(size_t budget, int brick_size, const cvr_volume_desc *d, double tf_lo,
                      double tf_hi, double tf_from) {
  setup s;
  s.ctx = context(budget, brick_size);
  s.volume = volume_of(s.ctx, d);
  s.tf = tf_of(s.ctx, tf_lo, tf_hi, tf_from);
  return s;
}

static void setup_close(setup *s) {
  cvr_transfer_function_destroy(s->tf);
  cvr_volume_destroy(s->volume);
  cvr_context_destroy(s->ctx);
}

static void view_of(const double center[3], double radius, int i, cvr_projection p, cvr_view *view) {
  static const double elevations[4] = {-35.0, -5.0, 25.0, 55.0};
  cvr_tools_orbit_view(center, radius, 41.0 * i + 11.0, elevations[i % 4], p, W, H, view);
}

/* A perspective camera inside the volume, looking along a diagonal. */
static void inside_view(const double center[3], cvr_view *view) {
  cvr_view_init(view);
  const double eye[3] = {center[0] - 6.0, center[1] + 3.0, center[2] - 4.0};
  const double at[3] = {center[0] + 30.0, center[1] - 10.0, center[2] + 20.0};
  const double up[3] = {0.0, 0.0, 1.0};
  double look[16], proj[16];
  cvr_tools_look_at(eye, at, up, look);
  cvr_tools_perspective(70.0, (double)W / H, 0.5, 500.0, proj);
  cvr_tools_multiply(proj, look, view->world_to_clip);
  view->width = W;
  view->height = H;
  view->projection = CVR_PROJECTION_PERSPECTIVE;
}

/* Every frame kind on the synthetic scene, whole against bricked. */
static void frames_equal(setup *whole, setup *bricked, const double center[3], double radius,
                         const char *name) {
  static frame_out a, b;
  cvr_render_settings base;
  cvr_render_settings_init(&base);
  base.sample_distance = 0.6;
  for (int kind = 0; kind < 16; ++kind) {
    if (quick && kind != 0 && kind != 3 && kind != 4 && kind != 8 && kind != 9) continue;
    cvr_render_settings s = base;
    const char *what = "composite";
    switch (kind) {
    case 0: break;
    case 1: s.early_termination = 0; what = "composite, no early termination"; break;
    case 2: s.empty_space_skipping = 0; what = "composite, no skipping"; break;
    case 3: s.shading.enabled = 1; what = "shaded"; break;
    case 4: s.blend_mode = CVR_BLEND_MAXIMUM; what = "maximum"; break;
    case 5: s.blend_mode = CVR_BLEND_MINIMUM; what = "minimum"; break;
    case 6: s.blend_mode = CVR_BLEND_AVERAGE; s.average_range[0] = 5000.0;
      s.average_range[1] = 40000.0; what = "average"; break;
    case 7: s.blend_mode = CVR_BLEND_ADDITIVE; what = "additive"; break;
    case 8: s.blend_mode = CVR_BLEND_ISOSURFACE; s.iso_value_count = 2; s.iso_values[0] = 25000.0;
      s.iso_values[1] = 7000.0; s.shading.enabled = 1; what = "isosurfaces"; break;
    case 9: s.blend_mode = CVR_BLEND_SLICE; memcpy(s.slice_origin, center, sizeof s.slice_origin);
      s.slice_normal[0] = 0.3; s.slice_normal[1] = 0.5; s.slice_normal[2] = 0.8; what = "slice"; break;
    case 10: s.clip_plane_count = 2;
      s.clip_planes[0][0] = 0.6; s.clip_planes[0][1] = 0.2; s.clip_planes[0][2] = -0.7;
      s.clip_planes[0][3] = -(0.6 * center[0] + 0.2 * center[1] - 0.7 * center[2]) + 3.0;
      s.clip_planes[1][1] = -1.0; s.clip_planes[1][3] = center[1] + 12.0; what = "clipped"; break;
    case 11: s.cropping = 1; s.cropping_planes[0] = 10.0; s.cropping_planes[1] = 40.0;
      s.cropping_planes[2] = 5.0; s.cropping_planes[3] = 33.0; s.cropping_planes[4] = 12.0;
      s.cropping_planes[5] = 44.0; s.cropping_flags = 0x0ff1fffu; what = "cropped"; break;
    case 12: s.interpolation = CVR_INTERPOLATION_NEAREST; what = "nearest"; break;
    case 13: s.jittering = 1; what = "jittered"; break;
    case 14: s.shading.enabled = 1; s.empty_space_cell = 4; s.early_termination = 0;
      what = "shaded, cells of 4, no early termination"; break;
    case 15: s.sample_distance = 2.3; what = "long steps"; break;
    }
    for (int v = 0; v < 5; ++v) {
      if (quick && v != 1 && v != 4) continue;
      cvr_view view;
      if (v < 4) view_of(center, radius, kind + 3 * v, v % 2 ? CVR_PROJECTION_PERSPECTIVE
                                                             : CVR_PROJECTION_PARALLEL, &view);
      else inside_view(center, &view);
      if (!render(whole->ctx, whole->volume, whole->tf, &view, &s, &a) ||
          !render(bricked->ctx, bricked->volume, bricked->tf, &view, &s, &b))
        continue;
      char label[160];
      snprintf(label, sizeof label, "%s, %s, view %d", name, what, v);
      expect_same(&a, &b, label);
    }
  }
}

/* Window depth of world point x in the view (its matrix: row-major, column vectors). */
static double window_depth(const cvr_view *view, const double x[3]) {
  const double *m = view->world_to_clip;
  const double z = m[8] * x[0] + m[9] * x[1] + m[10] * x[2] + m[11];
  const double w = m[12] * x[0] + m[13] * x[1] + m[14] * x[2] + m[15];
  return 0.5 * z / w + 0.5;
}

/* Opaque geometry over part of the volume: a wall through its centre and
 * depths rising from in front of its nearest corner to its farthest, in
 * several blend modes. The bricks wholly behind the geometry are not drawn (fewer
 * than without it), and the image is the unbricked one's. */
static void depth_culled(setup *whole, const cvr_volume_desc *d, const double center[3],
                         double radius) {
  static frame_out a, b, open;
  static float depth[PIXELS];
  setup bricked = setup_of(2 * 21 * 21 * 21 * 8, 16, d, 0.0, 50000.0, 4000.0);
  for (int v = 0; v < 4; ++v) {
    cvr_view view;
    view_of(center, radius, 7 + 2 * v, v % 2 ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL,
            &view);
    double lo = 1.0, hi = 0.0;
    for (int corner = 0; corner < 8; ++corner) {
      double x[3];
      for (int k = 0; k < 3; ++k)
        x[k] = d->origin[k] + d->spacing[k] * (corner >> k & 1 ? d->dims[k] - 1 : 0);
      const double z = window_depth(&view, x);
      lo = z < lo ? z : lo;
      hi = z > hi ? z : hi;
    }
    /* the left half a wall at the volume's centre; the right rising from
     * in front of it all (its first fifth) to its far corner */
    const double middle = window_depth(&view, center);
    for (int py = 0; py < H; ++py)
      for (int px = 0; px < W; ++px)
        depth[py * W + px] = (float)(px < W / 2 ? middle
                                                : lo + (hi - lo) * ((double)(px - W / 2) / (W / 2 - 1) * 1.25 - 0.25));
    cvr_render_settings s;
    cvr_render_settings_init(&s);
    s.sample_distance = 0.6;
    s.blend_mode = v < 2 ? CVR_BLEND_COMPOSITE : (v == 2 ? CVR_BLEND_MAXIMUM : CVR_BLEND_SLICE);
    if (v == 3) {
      memcpy(s.slice_origin, center, sizeof s.slice_origin);
      s.slice_normal[0] = 0.3;
      s.slice_normal[1] = 0.5;
      s.slice_normal[2] = 0.8;
    }
    s.jittering = v == 1;
    render(bricked.ctx, bricked.volume, bricked.tf, &view, &s, &open);
    view.opaque_depth = depth;
    if (!render(whole->ctx, whole->volume, whole->tf, &view, &s, &a) ||
        !render(bricked.ctx, bricked.volume, bricked.tf, &view, &s, &b))
      continue;
    char label[96];
    snprintf(label, sizeof label, "opaque geometry over the volume, view %d", v);
    expect_same(&a, &b, label);
    CHECK(b.stats.bricks_drawn < open.stats.bricks_drawn,
          "%s: %d bricks drawn, %d without the geometry", label, b.stats.bricks_drawn,
          open.stats.bricks_drawn);
    if (v == 0)
      printf("  behind opaque geometry: %d of %d bricks drawn (%d without it)\n",
             b.stats.bricks_drawn, b.stats.brick_count, open.stats.bricks_drawn);
  }
  setup_close(&bricked);
}

/* Rays that stop early: with every voxel half opaque the rays stop some 15
 * voxels in, and the bricks further in, which every ray through them has
 * stopped in front of, are neither loaded nor drawn (fewer than without
 * early termination, with a cache too small to keep them between frames);
 * the image is the unbricked one's. */
static void rays_stopped(const cvr_volume_desc *d, const double center[3], double radius) {
  static frame_out a, b, open;
  setup whole_setup = setup_of(0, 0, d, 0.0, 300.0, -1.0), *whole = &whole_setup;
  setup bricked = setup_of(2 * 21 * 21 * 21 * 8, 16, d, 0.0, 300.0, -1.0);
  for (int v = 0; v < 4; ++v) {
    if (quick && v > 1) continue;
    cvr_view view;
    view_of(center, radius, 5 + 3 * v, v % 2 ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL,
            &view);
    cvr_render_settings s;
    cvr_render_settings_init(&s);
    s.sample_distance = 0.6;
    s.shading.enabled = v == 2;
    s.jittering = v == 3;
    s.early_termination = 0;
    render(bricked.ctx, bricked.volume, bricked.tf, &view, &s, &open);
    s.early_termination = 1;
    if (!render(whole->ctx, whole->volume, whole->tf, &view, &s, &a) ||
        !render(bricked.ctx, bricked.volume, bricked.tf, &view, &s, &b))
      continue;
    char label[96];
    snprintf(label, sizeof label, "rays stopped in front of bricks, view %d", v);
    expect_same(&a, &b, label);
    CHECK(b.stats.bricks_drawn < open.stats.bricks_drawn &&
              b.stats.bricks_loaded < open.stats.bricks_loaded,
          "%s: %d bricks drawn and %d loaded, %d and %d without early termination", label,
          b.stats.bricks_drawn, b.stats.bricks_loaded, open.stats.bricks_drawn,
          open.stats.bricks_loaded);
    if (v == 0)
      printf("  behind stopped rays: %d of %d bricks drawn, %d loaded (%d and %d without early "
             "termination)\n", b.stats.bricks_drawn, b.stats.brick_count, b.stats.bricks_loaded,
             open.stats.bricks_drawn, open.stats.bricks_loaded);
  }
  setup_close(&bricked);
  setup_close(whole);
}

static double component_value(int c, double x, const void *user) {
  (void)user;
  return c ? 50000.0 - x : x;
}

/* Random rays through a grid: every lattice sample in exactly one brick. */
static void rays_partitioned(void) {
  uint64_t seed = 12345;
  const int shift = 4, dims[3] = {75, 61, 53};
  int cells[3];
  for (int a = 0; a < 3; ++a) cells[a] = (dims[a] + 15) >> 4;
  long checked = 0, failures = 0;
  for (int r = 0; r < 3000; ++r) {
    cvr_ray ray;
    memset(&ray, 0, sizeof ray);
    for (int a = 0; a < 3; ++a) {
      ray.origin[a] = (float)((double)(cvr_tools_random(&seed) % 20000) / 100.0 - 60.0);
      const uint64_t kind = cvr_tools_random(&seed) % 8;
      ray.step[a] = kind == 0 ? 0.0f : (float)((double)(cvr_tools_random(&seed) % 20001) / 10000.0 - 1.0);
    }
    ray.k_first = (int)(cvr_tools_random(&seed) % 50);
    ray.k_last = ray.k_first + (int)(cvr_tools_random(&seed) % 400);
    const float offset = r % 3 == 0 ? 0.0f : 0.25f * (float)(r % 4);
    for (int k = ray.k_first; k <= ray.k_last; ++k) {
      int owner[3], owners = 0;
      for (int a = 0; a < 3; ++a)
        owner[a] = cvr_brick_cell_at(&ray, a, (float)k + offset, shift, cells[a]);
      for (int bz = 0; bz < cells[2]; ++bz)
        for (int by = 0; by < cells[1]; ++by)
          for (int bx = 0; bx < cells[0]; ++bx) {
            const int b[3] = {bx, by, bz};
            int k0, k1;
            if (!cvr_brick_samples(&ray, offset, shift, cells, b, &k0, &k1) || k < k0 || k > k1)
              continue;
            ++owners;
            failures += bx != owner[0] || by != owner[1] || bz != owner[2];
          }
      failures += owners != 1;
      ++checked;
    }
  }
  CHECK(failures == 0, "%ld of %ld samples of random rays not in exactly their own brick", failures,
        checked);
  printf("  %ld samples of 3000 random rays: each in exactly its own brick\n", checked);
}

/* CUDA: bricked frames against the CPU's, within the stated tolerance. */
static void against_reference(const cvr_volume_desc *d, const double center[3], double radius) {
  const cvr_backend mine = backend;
  backend = CVR_BACKEND_CPU;
  setup cpu = setup_of(0, 0, d, 0.0, 50000.0, 4000.0);
  backend = mine;
  setup gpu = setup_of(2 * 37 * 37 * 37 * 3, 32, d, 0.0, 50000.0, 4000.0);
  static frame_out a, b;
  static uint8_t ra[4 * PIXELS], rb[4 * PIXELS];
  int compared_here = 0;
  for (int v = 0; v < 4; ++v) {
    cvr_render_settings s;
    cvr_render_settings_init(&s);
    s.sample_distance = 0.6;
    s.shading.enabled = v >= 2;
    cvr_view view;
    view_of(center, radius, v, v % 2 ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL, &view);
    if (!render(cpu.ctx, cpu.volume, cpu.tf, &view, &s, &a) ||
        !render(gpu.ctx, gpu.volume, gpu.tf, &view, &s, &b))
      continue;
    for (long i = 0; i < 4L * PIXELS; ++i) {
      ra[i] = (uint8_t)(fminf(fmaxf(a.rgba[i], 0.0f), 1.0f) * 255.0f + 0.5f);
      rb[i] = (uint8_t)(fminf(fmaxf(b.rgba[i], 0.0f), 1.0f) * 255.0f + 0.5f);
    }
    const cvr_test_diff diff = cvr_test_compare(ra, rb, a.depth, b.depth, PIXELS);
    ++compared_here;
    CHECK(cvr_test_within_tolerance(&diff), "CUDA bricked against the CPU, view %d%s: %.4f%% over "
          "%d levels, mean %.4f", v, s.shading.enabled ? " (shaded)" : "",
          100.0 * diff.color.over_fraction, CVR_TOL_LEVELS, diff.color.mean_diff);
  }
  CHECK(compared_here == 4, "CUDA against the CPU: %d of 4 views compared", compared_here);
  printf("  CUDA bricked frames against the CPU reference: %d views compared\n", compared_here);
  setup_close(&cpu);
  setup_close(&gpu);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "cuda") == 0) {
    backend = CVR_BACKEND_CUDA;
    if (cvr_cuda_device_count() == 0) {
      printf("bricks: no CUDA device, skipped\n");
      return CVR_TEST_SKIP;
    }
  }
  for (int i = 2; i < argc; ++i) quick |= strcmp(argv[i], "--quick") == 0;
  uint16_t *voxels = scene_voxels();
  cvr_volume_desc d;
  cvr_volume_desc_init(&d);
  d.type = CVR_UINT16;
  d.data = voxels;
  d.dims[0] = NX;
  d.dims[1] = NY;
  d.dims[2] = NZ;
  d.spacing[0] = 1.0;
  d.spacing[1] = 1.15;
  d.spacing[2] = 0.9;
  d.origin[0] = -3.0;
  double center[3], radius;
  cvr_tools_volume_bounds(&d, center, &radius);
  const size_t bytes = (size_t)NX * NY * NZ * 2;

  rays_partitioned();

  /* the same frames whole and bricked: one brick, a few, every brick cached */
  setup whole = setup_of(0, 0, &d, 0.0, 50000.0, 4000.0);
  const struct { size_t budget; int size; const char *name; } cases[] = {
      {2 * 21 * 21 * 21, 16, "bricks of 16, one in the cache"},
      {2 * 37 * 37 * 37 * 3, 32, "bricks of 32, three in the cache"},
      {bytes - 1, 16, "bricks of 16, all in the cache"},
  };
  for (size_t c = 0; c < (quick ? 1 : sizeof cases / sizeof *cases); ++c) {
    setup bricked = setup_of(cases[c].budget, cases[c].size, &d, 0.0, 50000.0, 4000.0);
    frames_equal(&whole, &bricked, center, radius, cases[c].name);
    setup_close(&bricked);
  }
  depth_culled(&whole, &d, center, radius);
  rays_stopped(&d, center, radius);
  printf("  %d frames bricked and whole: the same %s\n", compared,
         backend == CVR_BACKEND_CPU ? "bit for bit" : "(depths bit for bit, colours within 2 ulps)");
  if (backend == CVR_BACKEND_CUDA) against_reference(&d, center, radius);

  /* the cache: with one brick every drawn brick is loaded each frame; with
   * room for all, the second frame loads none; empty bricks are not drawn */
  {
    static frame_out a;
    cvr_render_settings s;
    cvr_render_settings_init(&s);
    s.sample_distance = 0.6;
    cvr_view view;
    view_of(center, radius, 2, CVR_PROJECTION_PARALLEL, &view);
    setup one = setup_of(2 * 21 * 21 * 21, 16, &d, 0.0, 50000.0, 4000.0);
    for (int f = 0; f < 2; ++f) {
      render(one.ctx, one.volume, one.tf, &view, &s, &a);
      CHECK(a.stats.bricks_loaded == a.stats.bricks_drawn && a.stats.bricks_cached == 1,
            "one brick cached: frame %d loaded %d of %d drawn, %d cached", f,
            a.stats.bricks_loaded, a.stats.bricks_drawn, a.stats.bricks_cached);
    }
    CHECK(a.stats.brick_count == 5 * 4 * 4, "%d bricks of 16 in 75 x 61 x 53", a.stats.brick_count);
    CHECK(a.stats.brick_bytes_loaded > 0 && a.stats.brick_bytes_loaded <= (uint64_t)a.stats.bricks_loaded * 2 * 21 * 21 * 21,
          "bytes loaded %llu for %d bricks", (unsigned long long)a.stats.brick_bytes_loaded,
          a.stats.bricks_loaded);
    const int drawn_skipping = a.stats.bricks_drawn;
    s.empty_space_skipping = 0;
    render(one.ctx, one.volume, one.tf, &view, &s, &a);
    CHECK(a.stats.bricks_drawn > drawn_skipping,
          "empty bricks: %d drawn with skipping, %d without", drawn_skipping, a.stats.bricks_drawn);
    printf("  one brick cached: %d of %d bricks drawn and loaded (%d without skipping)\n",
           drawn_skipping, a.stats.brick_count, a.stats.bricks_drawn);
    setup_close(&one);

    /* (a function that shows only the small sphere: few bricks drawn) */
    setup all = setup_of(bytes - 1, 16, &d, 0.0, 50000.0, 44000.0);
    s.empty_space_skipping = 1;
    render(all.ctx, all.volume, all.tf, &view, &s, &a);
    const int first_loads = a.stats.bricks_loaded;
    render(all.ctx, all.volume, all.tf, &view, &s, &a);
    CHECK(first_loads == a.stats.bricks_drawn && a.stats.bricks_loaded == 0 &&
              a.stats.bricks_cached == a.stats.bricks_drawn,
          "all cached: first frame loaded %d, second %d of %d drawn, %d cached", first_loads,
          a.stats.bricks_loaded, a.stats.bricks_drawn, a.stats.bricks_cached);
    /* AUTO has nothing to tune for a bricked volume, and says so */
    cvr_tuning_info info;
    s.strategy = CVR_STRATEGY_AUTO;
    CHECK(cvr_tuning_info_for(all.ctx, all.volume, &view, &s, &info) == CVR_OK &&
              strstr(info.configuration, "bricks") && info.settings.strategy == CVR_STRATEGY_STANDARD,
          "tuning info of a bricked volume: %s (%s)", info.configuration, cvr_last_error(all.ctx));
    cvr_image image = {0};
    image.rgba32f = a.rgba;
    CHECK(cvr_tune_now(all.ctx, all.volume, all.tf, &view, &s, &image, NULL, NULL, &info) == CVR_OK &&
              !info.tuning,
          "tune now on a bricked volume: %s", cvr_last_error(all.ctx));
    cvr_test_expect_failure(all.ctx,
                            cvr_tune_now(all.ctx, all.volume, all.tf, &view, &s, NULL, NULL, NULL, &info),
                            "NULL image", "tune now on a bricked volume without an image");
    render(all.ctx, all.volume, all.tf, &view, &s, &a);
    CHECK(a.stats.strategy == CVR_STRATEGY_STANDARD && a.stats.brick_count > 0,
          "AUTO's frame of a bricked volume: strategy %s, %d bricks", cvr_strategy_name(a.stats.strategy),
          a.stats.brick_count);
    s.strategy = CVR_STRATEGY_STANDARD;
    /* new voxels empty the cache */
    CHECK(cvr_volume_update(all.volume, &d) == CVR_OK, "update: %s", cvr_last_error(all.ctx));
    render(all.ctx, all.volume, all.tf, &view, &s, &a);
    CHECK(a.stats.bricks_loaded == a.stats.bricks_drawn, "after an update: %d loaded of %d drawn",
          a.stats.bricks_loaded, a.stats.bricks_drawn);
    /* another function: other cells are empty (the device's copy of the
     * flags follows), and back and forth */
    static frame_out narrow, b;
    narrow = a;
    cvr_transfer_function *wide = tf_of(all.ctx, 0.0, 50000.0, 4000.0);
    for (int f = 0; f < 3; ++f) {
      render(all.ctx, all.volume, f == 1 ? all.tf : wide, &view, &s, &b);
      if (f == 1) {
        CHECK(memcmp(narrow.rgba, b.rgba, sizeof b.rgba) == 0,
              "the first function again: not its first image");
        continue;
      }
      render(whole.ctx, whole.volume, whole.tf, &view, &s, &a);
      expect_same(&a, &b, f ? "the second function again" : "another function, bricks cached");
    }
    cvr_transfer_function_destroy(wide);
    setup_close(&all);
  }

  /* refusals */
  {
    cvr_context_options o;
    cvr_context_options_init(&o);
    o.backend = backend;
    cvr_context *ctx = NULL;
    o.brick_size = 48;
    cvr_test_expect_failure(NULL, cvr_context_create(&o, &ctx), "power of two", "brick_size 48");
    o.brick_size = 512;
    cvr_test_expect_failure(NULL, cvr_context_create(&o, &ctx), "16..256", "brick_size 512");
    cvr_context *small = context(1000, 16);
    cvr_volume *v = NULL;
    cvr_test_expect_failure(small, cvr_volume_create(small, &d, &v), "holds no brick",
                            "a budget below one brick");
    CHECK(v == NULL, "a refused volume was returned");
    cvr_context_destroy(small);

    setup b = setup_of(2 * 21 * 21 * 21 * 4, 16, &d, 0.0, 50000.0, 4000.0);
    static frame_out a;
    cvr_render_settings s;
    cvr_render_settings_init(&s);
    cvr_view view;
    view_of(center, radius, 0, CVR_PROJECTION_PARALLEL, &view);
    cvr_image image = {0};
    image.rgba32f = a.rgba;
    s.shading.enabled = 1;
    s.shading.scattering_blend = 1.0;
    cvr_test_expect_failure(b.ctx, cvr_render(b.ctx, b.volume, b.tf, &view, &s, &image, NULL),
                            "scattering", "scattering from bricks");
    cvr_render_settings_init(&s);
    unsigned char *labels = calloc((size_t)NX * NY * NZ, 1);
    CHECK(cvr_volume_set_mask(b.volume, labels) == CVR_OK, "mask: %s", cvr_last_error(b.ctx));
    cvr_test_expect_failure(b.ctx, cvr_render(b.ctx, b.volume, b.tf, &view, &s, &image, NULL),
                            "mask", "a mask from bricks");
    free(labels);
    setup_close(&b);

    cvr_context *ctx2 = context(2 * 21 * 21 * 21 * 4, 16);
    cvr_volume *two = cvr_test_components_volume(ctx2, &d, 2, component_value, NULL);
    float t[4 * 2] = {1.0f, 1.0f, 1.0f, 0.0f, 1.0f, 1.0f, 1.0f, 1.0f};
    cvr_transfer_function_desc one = {.rgba = t, .size = 2, .range = {0.0, 50000.0},
                                      .unit_distance = 1.0};
    cvr_transfer_function_desc both = one;
    both.component_count = 2;
    both.component_functions = &one;
    both.component_weights[0] = both.component_weights[1] = 1.0;
    cvr_transfer_function *tf2 = NULL;
    CHECK(cvr_transfer_function_create(ctx2, &both, &tf2) == CVR_OK, "tf: %s", cvr_last_error(ctx2));
    if (two && tf2)
      cvr_test_expect_failure(ctx2, cvr_render(ctx2, two, tf2, &view, &s, &image, NULL),
                              "several components", "two components from bricks");
    cvr_volume_destroy(two);
    cvr_transfer_function_destroy(tf2);
    cvr_context_destroy(ctx2);
  }

  /* a real data set, where present */
  cvr_context *probe = context(0, 0);
  cvr_test_scene scene;
  if (!quick && cvr_test_scene_open(probe, &cvr_test_datasets[1], &scene)) {
    cvr_volume_desc rd = scene.data.desc;
    const size_t real_bytes =
        (size_t)rd.dims[0] * rd.dims[1] * rd.dims[2] * cvr_scalar_type_size(rd.type);
    setup rw = setup_of(0, 0, &rd, cvr_test_datasets[1].lo, cvr_test_datasets[1].hi * 2.0,
                        cvr_test_datasets[1].lo);
    static frame_out a, b;
    /* bricks of 64 (views 2 and 3 shaded), without skipping, of 32 */
    for (int variant = 0; variant < 3; ++variant) {
      const int size = variant == 2 ? 32 : 64;
      setup rb = setup_of(real_bytes / 6, size, &rd, cvr_test_datasets[1].lo,
                          cvr_test_datasets[1].hi * 2.0, cvr_test_datasets[1].lo);
      cvr_render_settings s;
      cvr_render_settings_init(&s);
      s.sample_distance = scene.sample_distance * 2.0;
      s.empty_space_skipping = variant != 1;
      for (int v = variant ? 2 : 0; v < 4; ++v) {
        cvr_view view;
        view_of(scene.center, scene.radius, v, v % 2 ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL, &view);
        s.shading.enabled = v >= 2;
        if (render(rw.ctx, rw.volume, rw.tf, &view, &s, &a) &&
            render(rb.ctx, rb.volume, rb.tf, &view, &s, &b)) {
          char label[128];
          snprintf(label, sizeof label, "%s, bricks of %d%s, view %d", cvr_test_datasets[1].file,
                   size, s.empty_space_skipping ? "" : ", no skipping", v);
          expect_same(&a, &b, label);
        }
      }
      printf("  %s: bricked as whole (%d bricks of %d%s, %d drawn, %d loaded the last frame)\n",
             cvr_test_datasets[1].file, b.stats.brick_count, size,
             s.empty_space_skipping ? "" : ", no skipping", b.stats.bricks_drawn, b.stats.bricks_loaded);
      setup_close(&rb);
    }
    setup_close(&rw);
    cvr_test_scene_close(&scene);
  }
  cvr_context_destroy(probe);
  setup_close(&whole);
  free(voxels);
  return cvr_test_finish("bricks");
}
