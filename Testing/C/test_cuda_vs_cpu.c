// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The CUDA renderer against the CPU reference on real data: three data sets
 * (uint8 CT, int16 CT with non-isometric spacing, non-isometric uint8 MRA),
 * twelve views in both projections, several thread-block shapes, every
 * scalar type, nearest and linear interpolation. Images must agree within
 * the stated tolerance (test_common.h); with early ray termination off, both
 * backends must count exactly the same rays and samples, since they share
 * one sample lattice. Rays marched in parts by several threads
 * (ray segments) are held to the same, and to the one-thread ray's counts.
 * Usage: test_cuda_vs_cpu [--quick] (skips without a GPU) */
#include <math.h>
#include <string.h>

#include "cvr_internal.h"
#include "test_common.h"

enum { MAX_W = 256, MAX_H = 256 };

typedef struct pair {
  cvr_context *cpu, *gpu;
  cvr_test_scene c, g;
} pair;

static int compared = 0;

/* The CUDA image against the CPU's; *gpu_stats (may be NULL) gets the CUDA frame's statistics. */
static void compare_stats(pair *p, const cvr_view *view, const cvr_render_settings *s,
                          const char *what, cvr_render_stats *gpu_stats) {
  static uint8_t a[MAX_W * MAX_H * 4], b[MAX_W * MAX_H * 4];
  static float da[MAX_W * MAX_H], db[MAX_W * MAX_H];
  const long pixels = (long)view->width * view->height;
  memset(b, 0xCD, sizeof b); /* poison: every pixel must be written */
  for (long i = 0; i < pixels; ++i) db[i] = NAN;
  const cvr_image ia = {a, NULL, da, NULL}, ib = {b, NULL, db, NULL};
  cvr_render_stats sa, sb;
  CHECK(cvr_render(p->cpu, p->c.volume, p->c.tf, view, s, &ia, &sa) == CVR_OK, "cpu: %s",
        cvr_last_error(p->cpu));
  CHECK(cvr_render(p->gpu, p->g.volume, p->g.tf, view, s, &ib, &sb) == CVR_OK, "cuda: %s",
        cvr_last_error(p->gpu));
  const cvr_test_diff d = cvr_test_compare(a, b, da, db, pixels);
  long nan_depth = 0;
  for (long i = 0; i < pixels; ++i) nan_depth += isnan(db[i]);
  printf("%-58s over %6.3f%%  mean %.4f  max %3d  depth %6.3f%%  samples %llu/%llu\n", what,
         100.0 * d.color.over_fraction, d.color.mean_diff, d.color.max_diff,
         100.0 * d.depth_over_fraction, (unsigned long long)sa.samples,
         (unsigned long long)sb.samples);
  CHECK(cvr_test_within_tolerance(&d) && nan_depth == 0, "%s: outside the tolerance", what);
  CHECK(sa.rays == sb.rays, "%s: %llu rays on the CPU, %llu on the GPU", what,
        (unsigned long long)sa.rays, (unsigned long long)sb.rays);
  if (!s->early_termination)
    CHECK(cvr_test_visited(&sa) == cvr_test_visited(&sb), "%s: %llu samples on the CPU, %llu on the GPU", what,
          (unsigned long long)cvr_test_visited(&sa), (unsigned long long)cvr_test_visited(&sb));
  ++compared;
  if (gpu_stats) *gpu_stats = sb;
}

static void compare(pair *p, const cvr_view *view, const cvr_render_settings *s, const char *what) {
  compare_stats(p, view, s, what, NULL);
}

/* Ray segments (cvr_render_settings.ray_segments): each ray's samples
 * marched in parts by several threads and composited in order must give the
 * reference's image, with early termination too, and the one-thread ray's
 * counts: its lattice exactly, and with early termination its samples
 * within the filter noise of CVR_TOL_ERT_SAMPLES_FRACTION (without it,
 * compare() holds them to the reference's exactly). Both instances (empty-
 * space skipping on and off); an odd block whose warps hold parts of
 * different rays. Frames the split kernel does not render (split 0:
 * cropping, shading) render one thread a ray and say so. */
static void compare_segments(pair *p, const cvr_view *view, const cvr_render_settings *base,
                             int split, const char *what) {
  static const int shapes[][3] = {{8, 8, 2}, {8, 8, 4}, {8, 8, 8}, {5, 3, 4}, {16, 16, 4}};
  cvr_render_settings one = *base;
  one.ray_segments = 1;
  cvr_render_stats s1, ss;
  char label[200];
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
    cvr_render_settings s = *base;
    s.block_width = one.block_width = shapes[i][0];
    s.block_height = one.block_height = shapes[i][1];
    s.ray_segments = shapes[i][2];
    snprintf(label, sizeof label, "%s, one thread a ray %dx%d", what, s.block_width, s.block_height);
    compare_stats(p, view, &one, label, &s1);
    snprintf(label, sizeof label, "%s, %dx%d, %d threads a ray", what, s.block_width,
             s.block_height, s.ray_segments);
    compare_stats(p, view, &s, label, &ss);
    CHECK(ss.ray_segments == (split ? s.ray_segments : 1) && s1.ray_segments == 1,
          "%s: the statistics say %d threads a ray", label, ss.ray_segments);
    const uint64_t lattice1 = cvr_test_visited(&s1) + s1.samples_skipped_terminated,
                   lattice = cvr_test_visited(&ss) + ss.samples_skipped_terminated;
    CHECK(lattice == lattice1 && ss.rays == s1.rays,
          "%s: %llu rays, %llu lattice samples; one thread a ray %llu, %llu", label,
          (unsigned long long)ss.rays, (unsigned long long)lattice, (unsigned long long)s1.rays,
          (unsigned long long)lattice1);
    const double visited = (double)cvr_test_visited(&ss), visited1 = (double)cvr_test_visited(&s1);
    CHECK(fabs(visited - visited1) <= CVR_TOL_ERT_SAMPLES_FRACTION * visited1,
          "%s: %.0f samples visited, one thread a ray %.0f", label, visited, visited1);
  }
}

/* The cranium CT as another scalar type: shifted and scaled to the type's
 * range, with the transfer function moved along, so it is the same picture. */
static void typed_copy(const cvr_tools_volume *src, cvr_scalar_type type, cvr_tools_volume *out,
                       double *scale, double *shift) {
  const size_t n = (size_t)src->desc.dims[0] * src->desc.dims[1] * src->desc.dims[2];
  *out = *src;
  out->desc.type = type;
  out->data = malloc(n * cvr_scalar_type_size(type));
  out->desc.data = out->data;
  *scale = 1.0;
  *shift = 0.0;
  if (type == CVR_UINT16) *shift = 1024.0;
  if (type == CVR_UINT8) { *scale = 1.0 / 16.0; *shift = 64.0; }
  if (type == CVR_INT8) { *scale = 1.0 / 32.0; *shift = -32.0; }
  const int16_t *s = (const int16_t *)src->data;
  for (size_t i = 0; i < n; ++i) {
    const double v = s[i] * *scale + *shift;
    switch (type) {
    case CVR_INT8: ((int8_t *)out->data)[i] = (int8_t)fmax(-128, fmin(127, floor(v))); break;
    case CVR_UINT8: ((uint8_t *)out->data)[i] = (uint8_t)fmax(0, fmin(255, floor(v))); break;
    case CVR_UINT16: ((uint16_t *)out->data)[i] = (uint16_t)v; break;
    case CVR_INT32: ((int32_t *)out->data)[i] = (int32_t)v; break;
    case CVR_UINT32: ((uint32_t *)out->data)[i] = (uint32_t)(v + 1024.0); break;
    case CVR_FLOAT32: ((float *)out->data)[i] = (float)v; break;
    case CVR_FLOAT64: ((double *)out->data)[i] = v; break;
    default: break;
    }
  }
  if (type == CVR_UINT32) *shift = 1024.0;
}

static int open_pair(pair *p, const cvr_test_dataset *d) {
  return cvr_test_scene_open(p->cpu, d, &p->c) && cvr_test_scene_open(p->gpu, d, &p->g);
}

static void close_pair(pair *p) {
  cvr_test_scene_close(&p->c);
  cvr_test_scene_close(&p->g);
}

int main(int argc, char **argv) {
  const int quick = argc > 1 && !strcmp(argv[1], "--quick");
  char *cuda_arg[] = {argv[0], "cuda"}, *cpu_arg[] = {argv[0], "cpu"};
  pair p;
  memset(&p, 0, sizeof p);
  p.gpu = cvr_test_context(2, cuda_arg, NULL);
  p.cpu = cvr_test_context(2, cpu_arg, NULL);
  const int size = quick ? 64 : 256, views = quick ? 1 : 12;
  const int blocks[][2] = {{16, 16}, {32, 4}, {1, 128}, {8, 16}, {8, 8}, {32, 32}, {4, 64}, {128, 1}};
  int ran = 0;
  char what[160];
  for (int i = 0; i < 3; ++i) {
    const cvr_test_dataset *ds = &cvr_test_datasets[i];
    if (!open_pair(&p, ds)) continue;
    ++ran;
    cvr_render_settings s;
    cvr_render_settings_init(&s);
    s.sample_distance = p.c.sample_distance;
    cvr_view view;
    for (int v = 0; v < views; ++v)
      for (int proj = 0; proj < 2; ++proj) {
        const cvr_projection pr = proj ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL;
        cvr_test_scene_view(&p.c, v, pr, size, size, &view);
        s.block_width = blocks[v % 8][0];
        s.block_height = blocks[v % 8][1];
        s.early_termination = v % 3 != 2;
        snprintf(what, sizeof what, "%s view %d %s block %dx%d%s", ds->file, v,
                 proj ? "persp" : "par", s.block_width, s.block_height,
                 s.early_termination ? "" : " no-ERT");
        compare(&p, &view, &s, what);
      }
    cvr_render_settings_init(&s);
    s.sample_distance = p.c.sample_distance;
    cvr_test_scene_view(&p.c, 3, CVR_PROJECTION_PERSPECTIVE, size, size, &view);
    for (size_t b = 0; b < (quick ? 2 : sizeof blocks / sizeof blocks[0]); ++b) {
      s.block_width = blocks[b][0];
      s.block_height = blocks[b][1];
      snprintf(what, sizeof what, "%s view 3 block %dx%d", ds->file, s.block_width, s.block_height);
      compare(&p, &view, &s, what);
    }
    for (int v = 0; v < (quick ? 1 : 3); ++v) { /* ray segments */
      cvr_render_settings t = s;
      t.early_termination = v != 1;
      cvr_test_scene_view(&p.c, v, v % 2 ? CVR_PROJECTION_PARALLEL : CVR_PROJECTION_PERSPECTIVE,
                          size, size, &view);
      snprintf(what, sizeof what, "%s view %d%s", ds->file, v, t.early_termination ? "" : " no-ERT");
      compare_segments(&p, &view, &t, 1, what);
      t.empty_space_skipping = 0;
      snprintf(what, sizeof what, "%s view %d%s no skipping", ds->file, v,
               t.early_termination ? "" : " no-ERT");
      compare_segments(&p, &view, &t, 1, what);
    }
    {
      cvr_test_scene_view(&p.c, 3, CVR_PROJECTION_PERSPECTIVE, size, size, &view);
      cvr_render_settings t = s;
      t.cropping = 1; /* the middle third of every axis */
      for (int a = 0; a < 3; ++a) {
        t.cropping_planes[2 * a] = p.c.data.desc.dims[a] / 3.0;
        t.cropping_planes[2 * a + 1] = 2.0 * p.c.data.desc.dims[a] / 3.0;
      }
      t.cropping_flags = CVR_CROP_SUBVOLUME;
      snprintf(what, sizeof what, "%s view 3 cropped", ds->file);
      compare_segments(&p, &view, &t, 0, what);
      t = s;
      t.shading.enabled = 1;
      snprintf(what, sizeof what, "%s view 3 shaded", ds->file);
      compare_segments(&p, &view, &t, 0, what);
    }
    cvr_test_scene_view(&p.c, 3, CVR_PROJECTION_PERSPECTIVE, size, size, &view);
    for (int v = 0; v < (quick ? 1 : 4); ++v) { /* Phong shading, several lights */
      cvr_render_settings shaded = s;
      shaded.block_width = shaded.block_height = 16;
      shaded.shading.enabled = 1;
      if (v % 2) { /* a directional and a positional spot light as well */
        cvr_light *l = &shaded.shading.lights[1];
        memset(l, 0, sizeof *l);
        l->type = CVR_LIGHT_DIRECTIONAL;
        for (int c = 0; c < 3; ++c) {
          l->diffuse[c] = l->specular[c] = 0.6;
          l->position[c] = p.c.center[c] + (c == 0 ? 3.0 : 1.0) * p.c.radius;
          l->focal_point[c] = p.c.center[c];
        }
        cvr_light *spot = &shaded.shading.lights[2];
        *spot = *l;
        spot->type = CVR_LIGHT_POSITIONAL;
        spot->attenuation[0] = 1.0;
        spot->cone_angle = 40.0;
        spot->exponent = 2.0;
        shaded.shading.light_count = 3;
      }
      cvr_test_scene_view(&p.c, v, v % 2 ? CVR_PROJECTION_PARALLEL : CVR_PROJECTION_PERSPECTIVE,
                          size, size, &view);
      snprintf(what, sizeof what, "%s view %d shaded, %d light(s)", ds->file, v,
               shaded.shading.light_count);
      compare(&p, &view, &shaded, what);
    }
    cvr_test_scene_view(&p.c, 3, CVR_PROJECTION_PERSPECTIVE, size, size, &view);
    s.block_width = s.block_height = 16;
    s.interpolation = CVR_INTERPOLATION_NEAREST;
    snprintf(what, sizeof what, "%s view 3 nearest", ds->file);
    compare(&p, &view, &s, what);
    s.interpolation = CVR_INTERPOLATION_LINEAR;
    if (!quick) { /* how closely each emulation of the filter weights fits */
      const char *modes[] = {"8-bit rounded", "exact", "8-bit truncated"};
      for (int m = 0; m < 3; ++m) {
        cvr_debug_options o = {0.0f, 0, m, 0, 0, 0, 0};
        cvr_debug_set(p.cpu, &o);
        snprintf(what, sizeof what, "%s view 3 weights %s", ds->file, modes[m]);
        const int failures = cvr_test_failures;
        compare(&p, &view, &s, what);
        if (m) cvr_test_failures = failures; /* informative only */
      }
      const cvr_debug_options o = {0.0f, 0, CVR_WEIGHTS_8BIT_ROUNDED, 0, 0, 0, 0};
      cvr_debug_set(p.cpu, &o);
    }
    if (i == 1) { /* every scalar type, from the int16 CT */
      const cvr_scalar_type types[] = {CVR_INT8, CVR_UINT8, CVR_UINT16, CVR_INT32,
                                       CVR_UINT32, CVR_FLOAT32, CVR_FLOAT64};
      for (int t = 0; t < (quick ? 2 : 7); ++t) {
        pair q = p;
        double scale, shift, range[2];
        typed_copy(&p.c.data, types[t], &q.c.data, &scale, &shift);
        CHECK(cvr_volume_create(p.cpu, &q.c.data.desc, &q.c.volume) == CVR_OK &&
                  cvr_volume_create(p.gpu, &q.c.data.desc, &q.g.volume) == CVR_OK,
              "typed volume: %s", cvr_last_error(p.gpu));
        cvr_volume_get_range(q.c.volume, range);
        q.c.tf = cvr_test_ramp(p.cpu, range, ds->lo * scale + shift, ds->hi * scale + shift,
                               p.c.sample_distance * 2.0);
        q.g.tf = cvr_test_ramp(p.gpu, range, ds->lo * scale + shift, ds->hi * scale + shift,
                               p.c.sample_distance * 2.0);
        snprintf(what, sizeof what, "%s as %s", ds->file, cvr_tools_type_name(types[t]));
        compare(&q, &view, &s, what);
        cvr_volume_destroy(q.c.volume);
        cvr_volume_destroy(q.g.volume);
        cvr_transfer_function_destroy(q.c.tf);
        cvr_transfer_function_destroy(q.g.tf);
        free(q.c.data.data);
      }
    }
    close_pair(&p);
  }
  cvr_context_destroy(p.cpu);
  cvr_context_destroy(p.gpu);
  if (!ran) {
    printf("SKIP: no data\n");
    return CVR_TEST_SKIP;
  }
  printf("%d comparisons\n", compared);
  return cvr_test_finish("test_cuda_vs_cpu");
}
