// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Strategies II on the GPU: memory layouts (Bethel and Howison) and in-place
 * rotation (Misaki et al.).
 *  - Round trip: in every layout, on real and synthetic volumes of every
 *    stored type, isometric and not (padded, odd lengths, tiles that do not
 *    divide them), the voxels read back in their original order are exactly
 *    the uploaded ones after each of four quarter turns, and the orientation
 *    is the identity again after the fourth. A cube, whose x may trade
 *    places with y or z, is turned to each of the 24 voxel orders turns
 *    reach (cvr_debug_turn_to) and reads back exact in each.
 *  - Memory: turning allocates nothing (free device memory unchanged), and
 *    the device copy takes the padded volume's size, not two copies.
 *  - Images: every layout, with and without turns (a random sequence; on
 *    the cube a random voxel order), and the rotation policies over orbits
 *    of views, renders the CPU reference image within the tolerance of
 *    test_common.h, with the reference's rays and (ERT off) samples: every
 *    layout and orientation takes the same samples. An orbit about y turns
 *    the cube once, x trading with y, and never again (its views then look
 *    across stored x); other volumes where each region change asks.
 * Usage: test_storage [--quick] [--no-memory] (skips without a GPU; --no-memory
 * leaves out the free-memory checks, which a sanitizer's own allocations
 * upset). */
#include <math.h>
#include <string.h>

#include "cvr_internal.h"
#include "test_common.h"

enum { MAX_PIXELS = 192 * 192 };

static int compared = 0, round_trips = 0, memory_checks = 1;

/* A smooth synthetic volume (three blobs and a gradient) of any type. */
static void *synthetic(cvr_scalar_type type, const int *d) {
  const size_t n = (size_t)d[0] * d[1] * d[2];
  void *v = malloc(n * cvr_scalar_type_size(type));
  for (int k = 0; k < d[2]; ++k)
    for (int j = 0; j < d[1]; ++j)
      for (int i = 0; i < d[0]; ++i) {
        const double x = (double)i / d[0], y = (double)j / d[1], z = (double)k / d[2];
        double f = 0.3 * x + 0.2 * y;
        f += exp(-40.0 * (pow(x - 0.3, 2) + pow(y - 0.4, 2) + pow(z - 0.5, 2)));
        f += 0.8 * exp(-60.0 * (pow(x - 0.7, 2) + pow(y - 0.6, 2) + pow(z - 0.3, 2)));
        f += 0.6 * exp(-80.0 * (pow(x - 0.5, 2) + pow(y - 0.8, 2) + pow(z - 0.8, 2)));
        const size_t o = i + (size_t)d[0] * (j + (size_t)d[1] * k);
        switch (type) {
        case CVR_INT8: ((int8_t *)v)[o] = (int8_t)(f * 60.0 - 40.0); break;
        case CVR_UINT8: ((uint8_t *)v)[o] = (uint8_t)(f * 120.0); break;
        case CVR_INT16: ((int16_t *)v)[o] = (int16_t)(f * 9000.0 - 3000.0); break;
        case CVR_UINT16: ((uint16_t *)v)[o] = (uint16_t)(f * 30000.0); break;
        default: ((float *)v)[o] = (float)f; break;
        }
      }
  return v;
}

static void synthetic_scene(cvr_context *ctx, cvr_scalar_type type, const int *dims,
                            cvr_test_scene *s) {
  memset(s, 0, sizeof *s);
  cvr_volume_desc_init(&s->data.desc);
  s->data.desc.type = type;
  memcpy(s->data.desc.dims, dims, sizeof s->data.desc.dims);
  s->data.desc.spacing[2] = 1.3; /* anisotropic too */
  s->data.data = synthetic(type, dims);
  s->data.desc.data = s->data.data;
  CHECK(cvr_volume_create(ctx, &s->data.desc, &s->volume) == CVR_OK, "%s", cvr_last_error(ctx));
  double range[2];
  cvr_volume_get_range(s->volume, range);
  /* opacity starts above the background gradient's maximum (about a third
   * of the range), on the blobs' steep flanks: where it would start on the
   * flat background, rays graze the threshold and the texture unit's and the
   * emulation's last bits decide the first visible sample (depth) */
  s->tf = cvr_test_ramp(ctx, range, range[0] + 0.45 * (range[1] - range[0]),
                        range[0] + 0.9 * (range[1] - range[0]), 1.0);
  s->sample_distance = 0.5;
  cvr_tools_volume_bounds(&s->data.desc, s->center, &s->radius);
}

static void settings_for(cvr_memory_layout layout, cvr_rotation_policy policy, int t, int k,
                         cvr_render_settings *s) {
  cvr_render_settings_init(s);
  s->memory_layout = layout;
  s->rotation_policy = policy;
  s->rotation_tile[0] = t;
  s->rotation_tile[1] = k;
}

/* Four quarter turns, each followed by a read-back of the original order. */
static void check_round_trip(cvr_context *gpu, const cvr_test_scene *g, cvr_memory_layout layout,
                             int t, int k, const char *name) {
  const int *d = g->data.desc.dims;
  const cvr_scalar_type stored = cvr_scalar_type_size(g->data.desc.type) <= 2 ? g->data.desc.type : CVR_FLOAT32;
  const size_t bytes = (size_t)d[0] * d[1] * d[2] * cvr_scalar_type_size(stored);
  void *expected = malloc(bytes), *got = malloc(bytes);
  cvr_render_settings s;
  settings_for(layout, CVR_ROTATION_ON_REGION_CHANGE, t, k, &s);
  /* the layout and padding first, unturned: what the upload holds */
  CHECK(cvr_debug_rotate(g->volume, &s, 0, NULL) == CVR_OK, "%s: %s", name, cvr_last_error(gpu));
  CHECK(cvr_debug_read_volume(g->volume, expected) == CVR_OK, "%s", cvr_last_error(gpu));
  if (stored == g->data.desc.type)
    CHECK(!memcmp(expected, g->data.data, bytes), "%s %s: upload differs from the data", name,
          cvr_memory_layout_name(layout));
  /* a full round (four turns: the same order) first: CUDA loads a kernel at
   * its first launch, and the driver's code memory grows in 2 MiB steps
   * then, as the kernels loaded before it happen to fill it (on the H100
   * one such step fell into the measured turns once other modules shrank) */
  CHECK(cvr_debug_rotate(g->volume, &s, 4, NULL) == CVR_OK, "%s: %s", name, cvr_last_error(gpu));
  const size_t free_before = cvr_debug_device_free_bytes(gpu);
  double ms_total = 0.0;
  int exact = 1;
  for (int turn = 1; turn <= 4; ++turn) {
    double ms = 0.0;
    CHECK(cvr_debug_rotate(g->volume, &s, 1, &ms) == CVR_OK, "%s: %s", name, cvr_last_error(gpu));
    ms_total += ms;
    CHECK(cvr_debug_read_volume(g->volume, got) == CVR_OK, "%s", cvr_last_error(gpu));
    if (memcmp(expected, got, bytes)) {
      exact = 0;
      CHECK(0, "%s %s tile %dx%d: voxels differ after turn %d", name,
            cvr_memory_layout_name(layout), t, k, turn);
    }
  }
  const size_t free_after = cvr_debug_device_free_bytes(gpu);
  CHECK(!memory_checks || free_after == free_before, "%s: turning changed free device memory by %lld bytes", name,
        (long long)free_before - (long long)free_after);
  /* after four turns the stored order is the original one again */
  static uint8_t img[16 * 16 * 4];
  cvr_view view;
  cvr_test_scene_view(g, 0, CVR_PROJECTION_PARALLEL, 16, 16, &view);
  const cvr_image out = {img, NULL, NULL, NULL};
  cvr_render_stats st;
  settings_for(layout, CVR_ROTATION_HYSTERESIS, t, k, &s);
  s.rotation_hysteresis = 44.99; /* so this render does not turn it */
  CHECK(cvr_render(gpu, g->volume, g->tf, &view, &s, &out, &st) == CVR_OK, "%s",
        cvr_last_error(gpu));
  CHECK(st.volume_axes[0] == 1 && st.volume_axes[1] == 2 && st.volume_axes[2] == 3,
        "%s: axes %d %d %d after four turns", name, st.volume_axes[0], st.volume_axes[1],
        st.volume_axes[2]);
  if (d[0] == d[1] && d[1] == d[2]) { /* x trades with y or z: every order turns reach */
    static const int perms[6][3] = {{1, 2, 3}, {1, 3, 2}, {2, 1, 3}, {2, 3, 1}, {3, 1, 2}, {3, 2, 1}};
    int orders = 0;
    for (int p = 0; p < 6; ++p)
      for (int signs = 0; signs < 8; ++signs) {
        int to[3], path[8];
        const int own[3] = {1, 2, 3};
        for (int a = 0; a < 3; ++a) to[a] = (signs >> a & 1 ? -1 : 1) * perms[p][a];
        if (cvr_rotation_path(own, to, 6, path, 8) < 0) continue;
        settings_for(layout, CVR_ROTATION_ON_REGION_CHANGE, t, k, &s);
        CHECK(cvr_debug_turn_to(g->volume, &s, to, NULL, NULL) == CVR_OK, "%s: %s", name,
              cvr_last_error(gpu));
        settings_for(layout, CVR_ROTATION_HYSTERESIS, t, k, &s);
        s.rotation_hysteresis = 44.99;
        CHECK(cvr_render(gpu, g->volume, g->tf, &view, &s, &out, &st) == CVR_OK, "%s",
              cvr_last_error(gpu));
        CHECK(!memcmp(st.volume_axes, to, sizeof to), "%s: turned to %+d%+d%+d, at %+d%+d%+d", name,
              to[0], to[1], to[2], st.volume_axes[0], st.volume_axes[1], st.volume_axes[2]);
        CHECK(cvr_debug_read_volume(g->volume, got) == CVR_OK, "%s", cvr_last_error(gpu));
        if (memcmp(expected, got, bytes)) {
          exact = 0;
          CHECK(0, "%s %s tile %dx%d: voxels differ in order %+d%+d%+d", name,
                cvr_memory_layout_name(layout), t, k, to[0], to[1], to[2]);
        }
        ++orders;
      }
    CHECK(orders == 24, "%s: %d voxel orders", name, orders);
    const int own[3] = {1, 2, 3};
    settings_for(layout, CVR_ROTATION_ON_REGION_CHANGE, t, k, &s);
    CHECK(cvr_debug_turn_to(g->volume, &s, own, NULL, NULL) == CVR_OK, "%s", cvr_last_error(gpu));
  }
  printf("round trip %-40s %-11s tile %2dx%-2d: %s, %.3f ms per turn, %.1f MiB on the device\n",
         name, cvr_memory_layout_name(layout), t, k, exact ? "exact" : "DIFFERS", ms_total / 4.0,
         (double)st.volume_bytes / 1048576.0);
  ++round_trips;
  free(expected);
  free(got);
}

typedef struct reference {
  uint8_t rgba[MAX_PIXELS * 4];
  float depth[MAX_PIXELS];
  cvr_render_stats stats;
} reference;

static void compare(cvr_context *gpu, const cvr_test_scene *g, const reference *ref,
                    const cvr_view *view, const cvr_render_settings *s, const char *what,
                    cvr_render_stats *out_stats) {
  static uint8_t b[MAX_PIXELS * 4];
  static float db[MAX_PIXELS];
  const long pixels = (long)view->width * view->height;
  memset(b, 0xCD, sizeof b);
  const cvr_image ib = {b, NULL, db, NULL};
  cvr_render_stats st;
  if (cvr_render(gpu, g->volume, g->tf, view, s, &ib, &st) != CVR_OK) {
    CHECK(0, "%s: %s", what, cvr_last_error(gpu));
    return;
  }
  const cvr_test_diff d = cvr_test_compare(ref->rgba, b, ref->depth, db, pixels);
  printf("%-72s over %6.3f%%  mean %.4f  max %3d  depth %6.3f%%  axes %+d%+d%+d%s\n", what,
         100.0 * d.color.over_fraction, d.color.mean_diff, d.color.max_diff,
         100.0 * d.depth_over_fraction, st.volume_axes[0],
         st.volume_axes[1], st.volume_axes[2], st.rotations ? "  turned" : "");
  CHECK(cvr_test_within_tolerance(&d), "%s: outside the tolerance", what);
  CHECK(st.memory_layout == s->memory_layout, "%s: rendered from %s", what,
        cvr_memory_layout_name(st.memory_layout));
  CHECK(ref->stats.rays == st.rays, "%s: %llu rays on the CPU, %llu on the GPU", what,
        (unsigned long long)ref->stats.rays, (unsigned long long)st.rays);
  if (!s->early_termination)
    CHECK(cvr_test_visited(&ref->stats) == cvr_test_visited(&st), "%s: %llu samples on the CPU, %llu on the GPU", what,
          (unsigned long long)cvr_test_visited(&ref->stats), (unsigned long long)cvr_test_visited(&st));
  if (out_stats) *out_stats = st;
  ++compared;
}

static void reference_image(cvr_context *cpu, const cvr_test_scene *c, const cvr_view *view,
                            const cvr_render_settings *s, reference *ref) {
  const cvr_image ia = {ref->rgba, NULL, ref->depth, NULL};
  CHECK(cvr_render(cpu, c->volume, c->tf, view, s, &ia, &ref->stats) == CVR_OK, "cpu: %s",
        cvr_last_error(cpu));
}

static const cvr_memory_layout layouts[3] = {CVR_LAYOUT_TEXTURE, CVR_LAYOUT_ARRAY_ORDER,
                                             CVR_LAYOUT_Z_ORDER};

/* A view of the orbit about the volume's y axis at `azimuth` degrees, the
 * default settings at the scene's sample distance, and the CPU's image of
 * them (the reference of the orbits below). */
static void orbit_reference(cvr_context *cpu, const cvr_test_scene *c, double azimuth,
                            cvr_projection projection, int size, cvr_view *view,
                            cvr_render_settings *s, reference *ref) {
  cvr_tools_orbit_view(c->center, c->radius, azimuth, 0.0, projection, size, size, view);
  cvr_render_settings_init(s);
  s->sample_distance = c->sample_distance;
  reference_image(cpu, c, view, s, ref);
}

/* Images of one scene: layouts x strategies without turns, forced random
 * turns, and the policies over an orbit. */
static void check_images(cvr_context *cpu, cvr_context *gpu, const cvr_test_scene *c,
                         const cvr_test_scene *g, const char *name, int quick) {
  static reference ref;
  char what[200];
  const int *dims = c->data.desc.dims, cube = dims[0] == dims[1] && dims[1] == dims[2];
  /* quick: fewer views, not fewer pixels (the tolerance is a share of them) */
  const int size = 160, views = quick ? 3 : 12;
  unsigned seed = 12345;
  for (int v = 0; v < views; ++v)
    for (int proj = 0; proj < 2; ++proj) {
      cvr_view view;
      cvr_test_scene_view(c, v, proj ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL, size,
                          size, &view);
      cvr_render_settings s;
      cvr_render_settings_init(&s);
      s.sample_distance = c->sample_distance;
      s.early_termination = v % 3 != 1;
      s.shading.enabled = v % 4 == 3;
      s.interpolation = v % 6 == 5 ? CVR_INTERPOLATION_NEAREST : CVR_INTERPOLATION_LINEAR;
      reference_image(cpu, c, &view, &s, &ref);
      for (int l = 0; l < 3; ++l)
        for (int strategy = 0; strategy < 3; ++strategy) {
          cvr_render_settings t = s;
          t.memory_layout = layouts[l];
          t.strategy = (cvr_strategy)strategy;
          if (strategy == CVR_STRATEGY_WARP_MARCHING && v % 2) t.warp_width = 8; /* 3D, 2x2x8 */
          /* turned by a random number of quarter turns first (the cube: about y
           * or z); this render keeps them */
          const int turns = (int)((seed = seed * 1103515245u + 12345u) >> 16) % 4;
          t.rotation_policy = CVR_ROTATION_HYSTERESIS;
          t.rotation_hysteresis = 44.99;
          if (cube) {
            int to[3] = {1, 2, 3};
            for (int q = 0; q < turns + 1; ++q)
              cvr_rotation_turn_order(to, 1 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 2);
            CHECK(cvr_debug_turn_to(g->volume, &t, to, NULL, NULL) == CVR_OK, "%s", cvr_last_error(gpu));
          } else {
            CHECK(cvr_debug_rotate(g->volume, &t, turns, NULL) == CVR_OK, "%s", cvr_last_error(gpu));
          }
          snprintf(what, sizeof what, "%s v%d %s %s %s%s%s +%d turns", name, v,
                   proj ? "persp" : "par", cvr_memory_layout_name(layouts[l]),
                   cvr_strategy_name(t.strategy), s.shading.enabled ? " shaded" : "",
                   s.early_termination ? "" : " no-ERT", turns);
          compare(gpu, g, &ref, &view, &t, what, NULL);
        }
    }
  /* the policies over an orbit about the volume's y axis: they turn where
   * the view crosses into the yz-facing regions, and the image never changes */
  const cvr_rotation_policy policies[2] = {CVR_ROTATION_ON_REGION_CHANGE, CVR_ROTATION_HYSTERESIS};
  for (int p = 0; p < 2; ++p) {
    int turned = 0;
    const int steps = quick ? 8 : 24;
    for (int i = 0; i < steps; ++i) {
      cvr_view view;
      cvr_render_settings s;
      orbit_reference(cpu, c, 360.0 * i / steps + 3.0,
                      i % 2 ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL, size, &view, &s, &ref);
      s.rotation_policy = policies[p];
      s.strategy = CVR_STRATEGY_BLOCK_SHAPE;
      s.memory_layout = layouts[i % 3];
      snprintf(what, sizeof what, "%s orbit %5.1f deg %s %s", name, 360.0 * i / steps + 3.0,
               cvr_rotation_policy_name(policies[p]), cvr_memory_layout_name(s.memory_layout));
      cvr_render_stats st;
      memset(&st, 0, sizeof st);
      compare(gpu, g, &ref, &view, &s, what, &st);
      turned += st.rotations;
      /* (each layout change rebuilds the copy in the volume's own order) */
      CHECK(!cube || !st.rotations || abs(st.volume_axes[0]) == 2,
            "%s: a cube turned with stored x %+d, not y", what, st.volume_axes[0]);
    }
    printf("%s: %s turned the volume %d times over the orbit\n", name,
           cvr_rotation_policy_name(policies[p]), turned);
    CHECK(turned >= 2, "%s: %s never turned the volume over a full orbit", name,
          cvr_rotation_policy_name(policies[p]));
  }
  { /* warp marching turns stored x toward the rays: over an orbit about y
     * it is the axis of x and z the view runs along most, image unchanged */
    int turned = 0, along = 0;
    const int steps = quick ? 8 : 16;
    for (int i = 0; i < steps; ++i) {
      const double azimuth = 360.0 * i / steps + 3.0, a = azimuth * 3.14159265358979323846 / 180.0;
      cvr_view view;
      cvr_render_settings s;
      orbit_reference(cpu, c, azimuth, CVR_PROJECTION_PARALLEL, size, &view, &s, &ref);
      s.rotation_policy = CVR_ROTATION_ON_REGION_CHANGE;
      s.strategy = CVR_STRATEGY_WARP_MARCHING;
      s.warp_width = i % 2 ? 8 : 32;
      snprintf(what, sizeof what, "%s warp orbit %5.1f deg", name, azimuth);
      cvr_render_stats st;
      memset(&st, 0, sizeof st);
      compare(gpu, g, &ref, &view, &s, what, &st);
      turned += st.rotations;
      /* the orbit's view runs along the volume's x by |sin|, z by |cos|
       * (cvr_tools_orbit_view), in index steps of the spacing; only a cube
       * may trade x with either */
      const double *spacing = c->data.desc.spacing;
      const int most = fabs(sin(a)) / spacing[0] > fabs(cos(a)) / spacing[2] ? 1 : 3;
      along += abs(st.volume_axes[0]) == most;
    }
    printf("%s: warp marching turned the volume %d times over the orbit, stored x along the "
           "view's axis at %d of %d views\n", name, turned, along, steps);
    CHECK(!cube || (turned >= 2 && along == steps),
          "%s: warp marching turned %d times, stored x along the rays at %d of %d views", name,
          turned, along, steps);
  }
  if (cube) { /* one layout, twice round: one turn, then stored x is y for good */
    cvr_render_settings s;
    settings_for(CVR_LAYOUT_TEXTURE, CVR_ROTATION_ON_REGION_CHANGE, 32, 0, &s);
    const int own[3] = {1, 2, 3};
    CHECK(cvr_debug_turn_to(g->volume, &s, own, NULL, NULL) == CVR_OK, "%s", cvr_last_error(gpu));
    int turned = 0;
    cvr_render_stats st;
    memset(&st, 0, sizeof st);
    for (int i = 0; i < 16; ++i) {
      cvr_view view;
      cvr_render_settings r;
      orbit_reference(cpu, c, 45.0 * i + 3.0, CVR_PROJECTION_PARALLEL, size, &view, &r, &ref);
      r.rotation_policy = CVR_ROTATION_ON_REGION_CHANGE;
      r.strategy = CVR_STRATEGY_STANDARD;
      snprintf(what, sizeof what, "%s cube orbit %5.1f deg", name, 45.0 * i + 3.0);
      compare(gpu, g, &ref, &view, &r, what, &st);
      turned += st.rotations;
    }
    printf("%s: a cube's orbit twice round turned it %d times, stored x %+d\n", name, turned,
           st.volume_axes[0]);
    CHECK(turned == 1 && abs(st.volume_axes[0]) == 2,
          "%s: a cube turned %d times over two orbits about y, stored x now %+d (y: 2)", name,
          turned, st.volume_axes[0]);
  }
}

int main(int argc, char **argv) {
  int quick = 0;
  for (int i = 1; i < argc; ++i) {
    quick |= !strcmp(argv[i], "--quick");
    if (!strcmp(argv[i], "--no-memory")) memory_checks = 0;
  }
  char *cuda_arg[] = {argv[0], "cuda"}, *cpu_arg[] = {argv[0], "cpu"};
  cvr_context *gpu = cvr_test_context(2, cuda_arg, NULL);
  cvr_context *cpu = cvr_test_context(2, cpu_arg, NULL);

  /* synthetic volumes: odd and uneven lengths, every stored type */
  static const struct { cvr_scalar_type type; int dims[3]; } synth[] = {
      {CVR_UINT8, {37, 50, 41}},  /* partner z, x padded to 41 (odd) */
      {CVR_FLOAT32, {29, 31, 17}}, /* partner y, x padded to 31 */
      {CVR_INT16, {40, 23, 40}},  /* partner z, no padding */
      {CVR_INT8, {33, 33, 20}},   /* partner y, odd, no padding */
      {CVR_UINT16, {24, 30, 9}},  /* partner y, x padded to 30 */
      {CVR_UINT8, {27, 27, 27}},  /* a cube: x trades with y or z */
  };
  static const int tiles[][2] = {{32, 0}, {8, 3}, {5, 7}, {16, 1}, {32, 16}, {8, 0}};
  for (size_t i = 0; i < sizeof synth / sizeof synth[0]; ++i) {
    cvr_test_scene g;
    synthetic_scene(gpu, synth[i].type, synth[i].dims, &g);
    char name[64];
    snprintf(name, sizeof name, "synthetic %dx%dx%d type %d", synth[i].dims[0], synth[i].dims[1],
             synth[i].dims[2], (int)synth[i].type);
    for (int l = 0; l < 3; ++l) check_round_trip(gpu, &g, layouts[l], tiles[i][0], tiles[i][1], name);
    if (i == 0 || !quick) {
      cvr_test_scene c;
      synthetic_scene(cpu, synth[i].type, synth[i].dims, &c);
      check_images(cpu, gpu, &c, &g, name, 1);
      cvr_test_scene_close(&c);
    }
    cvr_test_scene_close(&g);
  }

  int ran = 0;
  for (int i = 0; i < 3; ++i) {
    cvr_test_scene c, g;
    if (!cvr_test_scene_open(cpu, &cvr_test_datasets[i], &c)) continue;
    const size_t free_start = cvr_debug_device_free_bytes(gpu);
    if (!cvr_test_scene_open(gpu, &cvr_test_datasets[i], &g)) return 1;
    ++ran;
    for (int l = 0; l < 3; ++l) check_round_trip(gpu, &g, layouts[l], 32, 0, cvr_test_datasets[i].file);
    /* device memory: the padded copy in texture layout, once */
    {
      cvr_render_settings s;
      settings_for(CVR_LAYOUT_TEXTURE, CVR_ROTATION_ON_REGION_CHANGE, 32, 0, &s);
      CHECK(cvr_debug_rotate(g.volume, &s, 1, NULL) == CVR_OK, "%s", cvr_last_error(gpu));
      const long long used = (long long)free_start - (long long)cvr_debug_device_free_bytes(gpu);
      const int *d = g.data.desc.dims;
      const int partner = abs(d[0] - d[1]) < abs(d[0] - d[2]) ? 1 : 2;
      const int n = d[0] > d[partner] ? d[0] : d[partner];
      const double padded = (double)n * n * d[3 - partner] * (g.data.desc.type == CVR_INT16 ? 2 : 1);
      printf("%s: device memory %.1f MiB for a padded volume of %.1f MiB (data %.1f MiB)\n",
             cvr_test_datasets[i].file, used / 1048576.0, padded / 1048576.0,
             (double)d[0] * d[1] * d[2] * (g.data.desc.type == CVR_INT16 ? 2 : 1) / 1048576.0);
      /* allocation granularity is 2 MiB; two copies would be twice the size */
      CHECK(!memory_checks || used <= padded * 1.15 + 4.0 * 1048576.0, "%s: %.1f MiB on the device for %.1f MiB",
            cvr_test_datasets[i].file, used / 1048576.0, padded / 1048576.0);
    }
    check_images(cpu, gpu, &c, &g, cvr_test_datasets[i].file, quick);
    cvr_test_scene_close(&c);
    cvr_test_scene_close(&g);
  }

  /* bad rotation settings are refused with a message; the context still renders */
  {
    cvr_test_scene g;
    static const int dims[3] = {20, 20, 20};
    synthetic_scene(gpu, CVR_FLOAT32, dims, &g);
    cvr_render_settings s;
    settings_for(CVR_LAYOUT_TEXTURE, CVR_ROTATION_ON_REGION_CHANGE, 32, 64, &s);
    cvr_view view;
    cvr_test_scene_view(&g, 1, CVR_PROJECTION_PARALLEL, 32, 32, &view);
    static uint8_t out[32 * 32 * 4];
    const cvr_image img = {out, NULL, NULL, NULL};
    /* 2 x 64 x 32 x 33 floats: over any device's shared memory */
    CHECK(cvr_debug_rotate(g.volume, &s, 1, NULL) == CVR_ERROR_INVALID_ARGUMENT &&
              strstr(cvr_last_error(gpu), "shared memory"),
          "a rotation tile over shared memory: %s", cvr_last_error(gpu));
    s.rotation_tile[1] = 4;
    CHECK(cvr_render(gpu, g.volume, g.tf, &view, &s, &img, NULL) == CVR_OK, "then renders: %s",
          cvr_last_error(gpu));
    cvr_test_scene_close(&g);
  }
  cvr_context_destroy(cpu);
  cvr_context_destroy(gpu);
  printf("%d round trips, %d image comparisons%s\n", round_trips, compared,
         ran ? "" : " (real data absent: synthetic volumes only)");
  return cvr_test_finish("test_storage");
}
