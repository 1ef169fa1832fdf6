// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Strategies III on the GPU: slab-based ray casting (Mensmann et al.)
 * against the CPU reference, on the 16-bit cranium CT, bonsai and heptane,
 * in both projections.
 *
 *  1. Unshaded, the slab strategy takes exactly the reference's samples: the
 *     tolerance of test_common.h, the reference's rays, and with early ray
 *     termination off its sample count; for several block shapes and slab
 *     depths (3 x 3 with depth 4 up to 32 x 32 with depth 32), the border
 *     rays cast by a ring of threads or gathered by the tile's, every layout,
 *     nearest filtering.
 *  2. Shaded, the gradients come from the slab cache (eye space) instead of
 *     six fetches one voxel away (the reference). Stated tolerances: the
 *     normals (rendered as colours through the shared shading code) within
 *     SLAB_MEAN_DEGREES on average and SLAB_P95_DEGREES at the 95th
 *     percentile, and the shaded image within SLAB_SHADED_MEAN_LEVELS.
 *     On a linear field both gradients are exact: SLAB_LINEAR_DEGREES at the
 *     95th percentile (the rest: rays that graze the clamped edges).
 *  3. No grid pattern: with border rays, a ray's gradient does not depend on
 *     where the tiles fall, so every block shape, depth and way of casting
 *     the border rays renders the same image, bit for bit. Ignoring the border rays (a test hook: one-sided
 *     differences at tile edges, the paper's Figure 4) breaks that, and its
 *     error concentrates on the tile edges (SLAB_EDGE_RATIO): the test would
 *     catch it.
 *  4. Settings the device cannot hold are refused with a message.
 *
 * Usage: test_slab [--quick] [--images DIR] (skips without a GPU). --images
 * writes the side-by-side pictures of the write-up. */
#include <math.h>
#include <string.h>

#include "cvr_internal.h" /* cvr_debug_set */
#include "test_common.h"

/* Measured on an H100 over the 24 shaded views below (256 x 256): mean
 * normal difference 4.3-7.5 degrees, 95th percentile 11.2-23.6 (heptane's
 * noisy gradients the largest), shaded images 0.32-1.29 levels apart on
 * average (cranium CT the largest); on the linear field 0.17-0.25 degrees at
 * the 95th percentile. The stencils differ (the reference's one voxel along
 * each axis, the slab's neighbouring rays and half-voxel samples), so these
 * are bounds with some room, not equalities; a wrong basis (normals off by
 * tens of degrees) or a missing transform does not pass them. */
#define SLAB_MEAN_DEGREES 10.0
#define SLAB_P95_DEGREES 30.0
#define SLAB_SHADED_MEAN_LEVELS 2.0
#define SLAB_LINEAR_DEGREES 0.5
/* mean normal error on tile-edge pixels over interior ones */
#define SLAB_EDGE_RATIO 1.25

enum { SIZE = 256, PIXELS = SIZE * SIZE };

typedef struct slab_config {
  int bw, bh, depth;
  cvr_slab_border border;
} slab_config;
#define RING CVR_SLAB_BORDER_RING
#define GATHERED CVR_SLAB_BORDER_GATHERED
/* the first four in --quick; [0] for the linear field and the layouts, [1]
 * the tiling the others must match, [2] the gathered one of the layouts */
static const slab_config configs[] = {
    {32, 8, 8, RING},      {16, 16, 16, RING},  {16, 8, 8, GATHERED}, {3, 3, 4, RING},
    {7, 5, 8, RING},       {32, 32, 32, RING},  {18, 6, 4, RING},     {8, 8, 32, GATHERED},
    {32, 4, 4, GATHERED},  {5, 8, 16, GATHERED}, {32, 32, 32, GATHERED}};
enum { CONFIGS = sizeof configs / sizeof configs[0] };

static const cvr_test_dataset datasets[3] = {
    {"ct/cranium_ct.nii.gz", 100.0, 1500.0},
    {"scivis/bonsai.nii.gz", 30.0, 180.0},
    {"scivis/heptane.nii.gz", 20.0, 150.0},
};

static int compared = 0;

static void slab(cvr_render_settings *s, const slab_config *c) {
  s->strategy = CVR_STRATEGY_SLAB;
  s->slab_block[0] = c->bw;
  s->slab_block[1] = c->bh;
  s->slab_depth = c->depth;
  s->slab_border = c->border;
}

static int render(cvr_context *ctx, const cvr_test_scene *sc, const cvr_view *view,
                  const cvr_render_settings *s, uint8_t *rgba, float *rgba32f, float *depth,
                  cvr_render_stats *st, const char *what) {
  const long pixels = (long)view->width * view->height;
  if (rgba) memset(rgba, 0xCD, (size_t)pixels * 4); /* poison: every pixel must be written */
  if (depth)
    for (long i = 0; i < pixels; ++i) depth[i] = NAN;
  const cvr_image img = {rgba, rgba32f, depth, NULL};
  if (cvr_render(ctx, sc->volume, sc->tf, view, s, &img, st) != CVR_OK) {
    CHECK(0, "%s: %s", what, cvr_last_error(ctx));
    return 0;
  }
  return 1;
}

/* 1: the slab strategy against the reference, unshaded (same samples). */
static void check_unshaded(cvr_context *gpu, const cvr_test_scene *g, const uint8_t *ref,
                           const float *ref_depth, const cvr_render_stats *ref_st,
                           const cvr_view *view, const cvr_render_settings *s, const char *what) {
  static uint8_t b[PIXELS * 4];
  static float db[PIXELS];
  cvr_render_stats st;
  if (!render(gpu, g, view, s, b, NULL, db, &st, what)) return;
  const long pixels = (long)view->width * view->height;
  const cvr_test_diff d = cvr_test_compare(ref, b, ref_depth, db, pixels);
  long nan_depth = 0;
  for (long i = 0; i < pixels; ++i) nan_depth += isnan(db[i]);
  printf("%-60s over %6.3f%%  mean %.4f  max %3d  depth %6.3f%%  samples %llu/%llu\n", what,
         100.0 * d.color.over_fraction, d.color.mean_diff, d.color.max_diff,
         100.0 * d.depth_over_fraction, (unsigned long long)ref_st->samples,
         (unsigned long long)st.samples);
  CHECK(cvr_test_within_tolerance(&d) && nan_depth == 0, "%s: outside the tolerance", what);
  CHECK(st.strategy == CVR_STRATEGY_SLAB && st.block_width == s->slab_block[0] &&
            st.block_height == s->slab_block[1] && st.slab_depth == s->slab_depth &&
            st.slab_border == s->slab_border,
        "%s: launched as %s %dx%d depth %d border %s", what, cvr_strategy_name(st.strategy),
        st.block_width, st.block_height, st.slab_depth, cvr_slab_border_name(st.slab_border));
  CHECK(ref_st->rays == st.rays, "%s: %llu rays on the CPU, %llu on the GPU", what,
        (unsigned long long)ref_st->rays, (unsigned long long)st.rays);
  if (!s->early_termination)
    CHECK(cvr_test_visited(ref_st) == cvr_test_visited(&st), "%s: %llu samples on the CPU, %llu on the GPU", what,
          (unsigned long long)cvr_test_visited(ref_st), (unsigned long long)cvr_test_visited(&st));
  ++compared;
}

/* Angles in degrees between the mean normals of two normal images (colour =
 * (N + 1) / 2, composited): per pixel where both are opaque enough and the
 * normals do not cancel; -1 elsewhere. Returns the number of such pixels. */
static long normal_angles(const float *a, const float *b, long pixels, float *angle) {
  long n = 0;
  for (long i = 0; i < pixels; ++i) {
    angle[i] = -1.0f;
    const float *p = a + 4 * i, *q = b + 4 * i;
    if (p[3] < 0.5f || q[3] < 0.5f) continue;
    double u[3], v[3], uu = 0, vv = 0, uv = 0;
    for (int c = 0; c < 3; ++c) {
      u[c] = 2.0 * p[c] / p[3] - 1.0;
      v[c] = 2.0 * q[c] / q[3] - 1.0;
      uu += u[c] * u[c];
      vv += v[c] * v[c];
      uv += u[c] * v[c];
    }
    if (uu < 0.25 || vv < 0.25) continue;
    double cosine = uv / sqrt(uu * vv);
    cosine = cosine > 1.0 ? 1.0 : (cosine < -1.0 ? -1.0 : cosine);
    angle[i] = (float)(acos(cosine) * 180.0 / 3.14159265358979323846);
    ++n;
  }
  return n;
}

static int cmp_float(const void *a, const void *b) {
  const float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

typedef struct angle_stats {
  long pixels;
  double mean, p95, edge_ratio;
} angle_stats;

/* Mean and 95th percentile, and the mean on tile-edge pixels of a tile
 * tw x th over the mean on the others. */
static angle_stats summarize(const float *angle, int width, int height, int tw, int th) {
  static float sorted[PIXELS];
  angle_stats r = {0, 0.0, 0.0, 0.0};
  double edge = 0.0, interior = 0.0;
  long n_edge = 0, n_interior = 0;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const float e = angle[(long)y * width + x];
      if (e < 0.0f) continue;
      sorted[r.pixels++] = e;
      r.mean += e;
      const int lx = x % tw, ly = y % th;
      if (lx == 0 || lx == tw - 1 || ly == 0 || ly == th - 1) edge += e, ++n_edge;
      else interior += e, ++n_interior;
    }
  if (!r.pixels) return r;
  r.mean /= (double)r.pixels;
  qsort(sorted, (size_t)r.pixels, sizeof sorted[0], cmp_float);
  r.p95 = sorted[(long)(0.95 * (double)(r.pixels - 1))];
  r.edge_ratio = n_edge && n_interior && interior > 0.0 ? (edge / n_edge) / (interior / n_interior) : 0.0;
  return r;
}

static void set_hooks(cvr_context *ctx, int normals, int one_sided) {
  cvr_debug_options o = {0.0f, 0, CVR_WEIGHTS_8BIT_ROUNDED, normals, one_sided, 0, 0};
  cvr_debug_set(ctx, &o);
}

/* Side by side: a | b | c | d, each w x h. */
static void write_strip(const char *dir, const char *name, const uint8_t *const images[4], int w,
                        int h) {
  static uint8_t strip[4 * PIXELS * 4];
  for (int y = 0; y < h; ++y)
    for (int i = 0; i < 4; ++i)
      memcpy(strip + 4 * ((size_t)y * 4 * w + (size_t)i * w), images[i] + 4 * (size_t)y * w,
             4 * (size_t)w);
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  const float black[3] = {0.0f, 0.0f, 0.0f};
  CHECK(cvr_tools_write_png(path, strip, 4 * w, h, black), "cannot write %s", path);
}

/* 2 and 3 on one view of a data set. */
static void check_shaded(cvr_context *cpu, cvr_context *gpu, const cvr_test_scene *c,
                         const cvr_test_scene *g, const cvr_view *view, const char *name,
                         const char *images) {
  static uint8_t ref8[PIXELS * 4], slab8[PIXELS * 4], other8[PIXELS * 4], refn8[PIXELS * 4],
      slabn8[PIXELS * 4];
  static float refn[PIXELS * 4], slabn[PIXELS * 4], hookn[PIXELS * 4], angle[PIXELS];
  const long pixels = (long)view->width * view->height;
  cvr_render_settings s;
  cvr_render_settings_init(&s);
  s.sample_distance = c->sample_distance;
  s.shading.enabled = 1;
  char what[256];
  cvr_render_stats st;

  /* shaded images */
  render(cpu, c, view, &s, ref8, NULL, NULL, &st, name);
  cvr_render_settings t = s;
  slab(&t, &configs[1]); /* 16 x 16: tiles of 14 x 14 */
  render(gpu, g, view, &t, slab8, NULL, NULL, &st, name);
  const cvr_tools_image_diff shaded = cvr_tools_compare_rgba8(ref8, slab8, pixels, 8);
  /* every tiling renders the same image (no grid pattern) */
  int same = 1;
  for (int k = 0; k < CONFIGS; ++k) {
    if (k == 1) continue;
    cvr_render_settings u = s;
    slab(&u, &configs[k]);
    render(gpu, g, view, &u, other8, NULL, NULL, &st, name);
    const cvr_tools_image_diff d = cvr_tools_compare_rgba8(slab8, other8, pixels, 0);
    if (d.max_diff) {
      CHECK(0, "%s: slab %dx%d depth %d %s differs from 16x16 depth 16 by up to %d levels in "
               "%ld pixels: its tiles show", name, configs[k].bw, configs[k].bh, configs[k].depth,
            cvr_slab_border_name(configs[k].border), d.max_diff, d.over_count);
      same = 0;
    }
  }

  /* normals: reference (six fetches) against the slab (eye space) */
  set_hooks(cpu, 1, 0);
  set_hooks(gpu, 1, 0);
  render(cpu, c, view, &s, refn8, refn, NULL, &st, name);
  render(gpu, g, view, &t, slabn8, slabn, NULL, &st, name);
  normal_angles(refn, slabn, pixels, angle);
  const angle_stats a = summarize(angle, view->width, view->height, 14, 14);
  /* the bug the border rays prevent */
  set_hooks(gpu, 1, 1);
  render(gpu, g, view, &t, NULL, hookn, NULL, &st, name);
  set_hooks(gpu, 0, 0);
  set_hooks(cpu, 0, 0);
  normal_angles(refn, hookn, pixels, angle);
  const angle_stats h = summarize(angle, view->width, view->height, 14, 14);
  normal_angles(slabn, hookn, pixels, angle);
  long changed = 0;
  for (long i = 0; i < pixels; ++i) changed += angle[i] > 0.5f;

  printf("%-44s normals %6ld px: mean %5.2f deg  p95 %5.2f  edge/interior %.2f | shaded mean "
         "%.3f levels, %.3f%% over 8 | without border rays: edge/interior %.2f, %ld px moved\n",
         name, a.pixels, a.mean, a.p95, a.edge_ratio, shaded.mean_diff,
         100.0 * shaded.over_fraction, h.edge_ratio, changed);
  snprintf(what, sizeof what, "%s", name);
  CHECK(a.pixels > pixels / 20, "%s: too few opaque pixels to compare normals (%ld)", what, a.pixels);
  CHECK(a.mean <= SLAB_MEAN_DEGREES && a.p95 <= SLAB_P95_DEGREES,
        "%s: slab normals %.2f deg on average, %.2f at the 95th percentile", what, a.mean, a.p95);
  CHECK(shaded.mean_diff <= SLAB_SHADED_MEAN_LEVELS, "%s: shaded images %.3f levels apart", what,
        shaded.mean_diff);
  CHECK(a.edge_ratio <= SLAB_EDGE_RATIO, "%s: the error concentrates on tile edges (%.2f)", what,
        a.edge_ratio);
  CHECK(same, "%s: the image depends on the tiling", what);
  /* the detectors would catch the grid pattern */
  CHECK(h.edge_ratio > SLAB_EDGE_RATIO && changed > pixels / 100,
        "%s: ignoring the border rays goes unnoticed (edge/interior %.2f, %ld px)", what,
        h.edge_ratio, changed);
  compared += 2;
  if (images) {
    static uint8_t hook8[PIXELS * 4];
    for (long i = 0; i < 4 * pixels; ++i) hook8[i] = cvr_to_unorm8(hookn[i]);
    const uint8_t *strip[4] = {ref8, slab8, refn8, slabn8};
    char file[300];
    snprintf(file, sizeof file, "%s.png", name);
    for (char *p = file; *p; ++p)
      if (*p == '/' || *p == ' ') *p = '-';
    write_strip(images, file, strip, view->width, view->height);
    const uint8_t *grid[4] = {refn8, slabn8, hook8, slab8};
    snprintf(file + strlen(file) - 4, 40, "-grid.png");
    write_strip(images, file, grid, view->width, view->height);
  }
}

/* A linear field, where both gradients are exact up to the filter's 8-bit
 * weights: f = 0.5 x + 0.3 y - 0.2 z, opaque only in a band of values (a
 * plane through the middle), seen where no gradient reaches a clamped face. */
static void check_linear(cvr_context *cpu, cvr_context *gpu) {
  enum { N = 64, W = 160 };
  static float voxels[N * N * N];
  for (int z = 0; z < N; ++z)
    for (int y = 0; y < N; ++y)
      for (int x = 0; x < N; ++x) voxels[(z * N + y) * N + x] = 0.5f * x + 0.3f * y - 0.2f * z;
  cvr_volume_desc d;
  cvr_volume_desc_init(&d);
  d.type = CVR_FLOAT32;
  d.data = voxels;
  d.dims[0] = d.dims[1] = d.dims[2] = N;
  d.spacing[2] = 1.5; /* non-isometric: the index-space gradient is not the world one */
  float table[4 * 256];
  for (int i = 0; i < 256; ++i) {
    const float u = fabsf((float)i / 255.0f - 0.5f);
    table[4 * i] = table[4 * i + 1] = table[4 * i + 2] = 1.0f;
    table[4 * i + 3] = u < 0.04f ? 1.0f - u / 0.04f : 0.0f;
  }
  for (int p = 0; p < 2; ++p) {
    cvr_test_scene sc[2];
    cvr_context *ctx[2] = {cpu, gpu};
    for (int k = 0; k < 2; ++k) {
      memset(&sc[k], 0, sizeof sc[k]);
      CHECK(cvr_volume_create(ctx[k], &d, &sc[k].volume) == CVR_OK, "%s", cvr_last_error(ctx[k]));
      double range[2];
      cvr_volume_get_range(sc[k].volume, range);
      const cvr_transfer_function_desc td = {
      .rgba = table, .size = 256, .range = {range[0], range[1]}, .unit_distance = 1.0};
      CHECK(cvr_transfer_function_create(ctx[k], &td, &sc[k].tf) == CVR_OK, "%s",
            cvr_last_error(ctx[k]));
      set_hooks(ctx[k], 1, 0);
    }
    /* zoomed on the middle, and the near and far planes 0.45 N either side of
     * it: the rays meet the plane away from the volume's faces */
    const double center[3] = {0.5 * (N - 1), 0.5 * (N - 1), 0.75 * (N - 1)};
    cvr_view view;
    cvr_tools_orbit_view(center, 0.3 * N, 35.0, 25.0,
                         p ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL, W, W, &view);
    cvr_render_settings s;
    cvr_render_settings_init(&s);
    s.sample_distance = 0.5;
    s.shading.enabled = 1;
    static float a[W * W * 4], b[W * W * 4], angle[W * W];
    cvr_render_stats st;
    render(cpu, &sc[0], &view, &s, NULL, a, NULL, &st, "linear field");
    slab(&s, &configs[0]);
    render(gpu, &sc[1], &view, &s, NULL, b, NULL, &st, "linear field");
    normal_angles(a, b, W * W, angle);
    const angle_stats r = summarize(angle, W, W, configs[0].bw - 2, configs[0].bh - 2);
    float worst = 0.0f;
    for (long i = 0; i < W * W; ++i) worst = angle[i] > worst ? angle[i] : worst;
    printf("linear field, %s: %ld px, normals mean %.4f deg, p95 %.4f, largest %.4f\n",
           p ? "perspective" : "parallel", r.pixels, r.mean, r.p95, worst);
    CHECK(r.pixels > W * W / 10 && r.p95 <= SLAB_LINEAR_DEGREES,
          "linear field, %s: %ld pixels, normals %.3f degrees apart at the 95th percentile",
          p ? "perspective" : "parallel", r.pixels, r.p95);
    for (int k = 0; k < 2; ++k) {
      set_hooks(ctx[k], 0, 0);
      cvr_transfer_function_destroy(sc[k].tf);
      cvr_volume_destroy(sc[k].volume);
    }
    ++compared;
  }
}

/* 4: settings outside what the kernels are compiled for, refused with a
 * message; the largest block with the deepest slab fits Hopper's shared
 * memory (192 KiB of 227) and renders. The shared-memory check itself is
 * for devices with less (64-100 KiB before Hopper and Ampere's A100). */
static void check_limits(cvr_context *gpu, const cvr_test_scene *g) {
  cvr_view view;
  cvr_test_scene_view(g, 0, CVR_PROJECTION_PERSPECTIVE, 64, 64, &view);
  static uint8_t out[64 * 64 * 4];
  const cvr_image img = {out, NULL, NULL, NULL};
  cvr_render_settings s;
  cvr_render_settings_init(&s);
  s.strategy = CVR_STRATEGY_SLAB;
  s.slab_block[0] = s.slab_block[1] = 32;
  s.slab_depth = 24;
  CHECK(cvr_render(gpu, g->volume, g->tf, &view, &s, &img, NULL) == CVR_ERROR_INVALID_ARGUMENT &&
            strstr(cvr_last_error(gpu), "4, 8, 16 or 32"),
        "a slab depth without a kernel: %s", cvr_last_error(gpu));
  printf("refused: %s\n", cvr_last_error(gpu));
  s.slab_depth = 32;
  s.shading.enabled = 1;
  CHECK(cvr_render(gpu, g->volume, g->tf, &view, &s, &img, NULL) == CVR_OK, "32 x 32 x 32 renders: %s",
        cvr_last_error(gpu));
  /* gathered, the cache also holds the border rays: 34 x 34 x 34 floats */
  s.slab_border = CVR_SLAB_BORDER_GATHERED;
  CHECK(cvr_render(gpu, g->volume, g->tf, &view, &s, &img, NULL) == CVR_OK,
        "32 x 32 x 32 gathered renders: %s", cvr_last_error(gpu));
}

int main(int argc, char **argv) {
  const char *images = NULL;
  int quick = 0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--quick")) quick = 1;
    else if (!strcmp(argv[i], "--images") && i + 1 < argc) images = argv[++i];
  }
  char *cuda_arg[] = {argv[0], "cuda"}, *cpu_arg[] = {argv[0], "cpu"};
  cvr_context *gpu = cvr_test_context(2, cuda_arg, NULL);
  cvr_context *cpu = cvr_test_context(2, cpu_arg, NULL);
  static uint8_t ref[PIXELS * 4];
  static float ref_depth[PIXELS];
  const int size = quick ? 96 : SIZE, views = quick ? 2 : 8;
  int ran = 0;
  char what[256];
  check_linear(cpu, gpu);
  for (int i = 0; i < 3; ++i) {
    const cvr_test_dataset *ds = &datasets[i];
    cvr_test_scene c, g;
    if (!cvr_test_scene_open(cpu, ds, &c)) continue;
    if (!cvr_test_scene_open(gpu, ds, &g)) return 1;
    ++ran;
    cvr_view view;
    cvr_render_settings s;
    cvr_render_stats ref_st;
    for (int v = 0; v < views; ++v)
      for (int proj = 0; proj < 2; ++proj) {
        const cvr_projection pr = proj ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL;
        cvr_test_scene_view(&c, v, pr, size, size, &view);
        cvr_render_settings_init(&s);
        s.sample_distance = c.sample_distance;
        s.early_termination = v % 2;
        render(cpu, &c, &view, &s, ref, NULL, ref_depth, &ref_st, ds->file);
        for (int k = 0; k < CONFIGS; ++k) {
          if (quick && k > 3) break;
          cvr_render_settings t = s;
          slab(&t, &configs[k]);
          snprintf(what, sizeof what, "%s view %d %s slab %dx%d depth %d %s%s", ds->file, v,
                   proj ? "persp" : "par", configs[k].bw, configs[k].bh, configs[k].depth,
                   cvr_slab_border_name(configs[k].border), s.early_termination ? "" : " no-ERT");
          check_unshaded(gpu, &g, ref, ref_depth, &ref_st, &view, &t, what);
        }
        if (v == 1) /* the global-memory layouts, and nearest */
          for (int k = 0; k < 3; ++k) {
            cvr_render_settings t = s;
            slab(&t, &configs[k == 1 ? 2 : 0]);
            const char *how = k == 2 ? "nearest" : (k ? "Z-order, gathered" : "array order");
            t.memory_layout = k == 1 ? CVR_LAYOUT_Z_ORDER : CVR_LAYOUT_ARRAY_ORDER;
            if (k == 2) {
              t.memory_layout = CVR_LAYOUT_TEXTURE;
              t.interpolation = s.interpolation = CVR_INTERPOLATION_NEAREST;
              render(cpu, &c, &view, &s, ref, NULL, ref_depth, &ref_st, ds->file);
            }
            snprintf(what, sizeof what, "%s view %d %s slab %s", ds->file, v,
                     proj ? "persp" : "par", how);
            check_unshaded(gpu, &g, ref, ref_depth, &ref_st, &view, &t, what);
          }
      }
    /* at SIZE the rays are about a voxel apart, as the stated bounds need:
     * the slab's lateral differences span the ray spacing (at 96 x 96, three
     * voxels, its normals are smoother and 20-25 degrees off on average) */
    for (int v = 0; v < (quick ? 1 : 4); ++v)
      for (int proj = 0; proj < (quick ? 1 : 2); ++proj) {
        cvr_test_scene_view(&c, v, proj ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL, SIZE,
                            SIZE, &view);
        snprintf(what, sizeof what, "%s view %d %s", ds->file, v, proj ? "persp" : "par");
        check_shaded(cpu, gpu, &c, &g, &view, what, v == 0 ? images : NULL);
      }
    if (i == 0) check_limits(gpu, &g);
    cvr_test_scene_close(&c);
    cvr_test_scene_close(&g);
  }
  cvr_context_destroy(cpu);
  cvr_context_destroy(gpu);
  if (!ran) {
    printf("SKIP: no data set found\n");
    return CVR_TEST_SKIP;
  }
  printf("%d comparisons\n", compared);
  return cvr_test_finish("test_slab");
}
