// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Multi-component volumes (cvr.h, cvr_component_mode).
 *  - Reductions on real data (bonsai, the cranium CT; the other components
 *    made from the data: its values reversed, or constants), every blend
 *    mode, shaded and not, each against a one-component rendering within the
 *    cross-backend tolerance: INDEPENDENT components weighted (1, 0) render
 *    component 0 alone and (0, 1) component 1 alone, each by its own
 *    function (VTK's mix reduces to the one sample); DEPENDENT luminance +
 *    alpha with the same values in both renders as one component whose
 *    function has function 0's colour and function 1's opacity (isosurfaces
 *    excepted: there the colour is the luminance's past the crossing);
 *    DEPENDENT RGBA of constant colour renders as one component of that
 *    colour with function 3's opacity.
 *  - Closed form on the column scene (test_common.h): two independent
 *    components of constant values per column, red and blue, weights 1 and
 *    0.5: each sample mixes as VTK's formula, the ray of n samples has
 *    opacity 1 - (1 - alpha)^n; maximum intensity adds the weighted
 *    classified extremes.
 *  - With "cuda": whatever strategy, layout and rotation are asked for,
 *    the standard strategy renders from a texture, nothing skipped (the
 *    statistics say so), against the CPU reference for 2, 3 and 4 components
 *    in every blend mode, shaded, within test_common.h's tolerance
 *    (isosurfaces and average intensity within its bounds for thresholds on
 *    texture-filtered values); the reductions above on the GPU too.
 *  - Bad input: component counts, modes, weights, 2D and label functions
 *    with components, a volume and a function of different counts; refused
 *    with a message, and the next valid frame renders.
 * Usage: test_components cpu|cuda [--quick] */
#include <math.h>
#include <string.h>

#include "test_common.h"

enum { SIZE = 128, PIXELS = SIZE * SIZE, T = 256 };

static const cvr_blend_mode blend_modes[] = {CVR_BLEND_COMPOSITE, CVR_BLEND_MAXIMUM,
                                             CVR_BLEND_MINIMUM,   CVR_BLEND_AVERAGE,
                                             CVR_BLEND_ADDITIVE,  CVR_BLEND_ISOSURFACE,
                                             CVR_BLEND_SLICE};
enum { BLEND_MODES = sizeof blend_modes / sizeof *blend_modes };

/* ---- volumes made from real data ----------------------------------------- */

/* What a component holds, from the data's value x and its range. */
typedef enum { SAME, REVERSED, CONSTANT_HIGH, CONSTANT_MID, CONSTANT_LOW } component_kind;

static double component_value(component_kind k, double x, const double range[2]) {
  switch (k) {
  case SAME: return x;
  case REVERSED: return range[0] + range[1] - x;
  case CONSTANT_HIGH: return range[1];
  case CONSTANT_MID: return floor(0.5 * (range[0] + range[1]));
  default: return range[0] + floor(0.2 * (range[1] - range[0]));
  }
}

/* Component c as kinds[c] (cvr_test_components_volume). */
typedef struct component_kinds {
  const component_kind *kinds;
  double range[2];
} component_kinds;

static double kind_value(int c, double x, const void *user) {
  const component_kinds *k = user;
  return component_value(k->kinds[c], x, k->range);
}

/* A volume of n components made from a one-component one (its geometry,
 * type and values), component c as kinds[c]; NULL on failure (checked). */
static cvr_volume *components_volume(cvr_context *ctx, const cvr_volume_desc *one,
                                     const double range[2], int n, const component_kind *kinds) {
  const component_kinds k = {kinds, {range[0], range[1]}};
  return cvr_test_components_volume(ctx, one, n, kind_value, &k);
}

/* A one-component volume of component kind k of the data. */
static cvr_volume *single_volume(cvr_context *ctx, const cvr_volume_desc *one, const double range[2],
                                 component_kind k) {
  return components_volume(ctx, one, range, 1, &k);
}

/* Ramps over the data's range: opacity from lo to hi (data units), colour
 * from `from` to `to` across the range. */
static void colour_ramp(float *t, const double range[2], double lo, double hi, const float from[3],
                        const float to[3]) {
  cvr_tools_ramp_tf(t, T, range[0], range[1], lo, hi, 0.5f);
  for (int i = 0; i < T; ++i)
    for (int k = 0; k < 3; ++k) t[4 * i + k] = from[k] + (to[k] - from[k]) * (float)i / (T - 1);
}

static cvr_transfer_function_desc one_desc(const float *rgba, const double range[2], double unit) {
  const cvr_transfer_function_desc d = {.rgba = rgba, .size = T, .range = {range[0], range[1]},
                                        .unit_distance = unit};
  return d;
}

static cvr_transfer_function *create_tf(cvr_context *ctx, const cvr_transfer_function_desc *d) {
  cvr_transfer_function *tf = NULL;
  CHECK(cvr_transfer_function_create(ctx, d, &tf) == CVR_OK, "tf: %s", cvr_last_error(ctx));
  return tf;
}

static void blend_settings(const cvr_test_scene *sc, const cvr_test_dataset *d, cvr_blend_mode b,
                           double iso, cvr_render_settings *s) {
  s->blend_mode = b;
  s->average_range[0] = d->lo;
  s->average_range[1] = d->hi;
  s->iso_value_count = 1;
  s->iso_values[0] = iso;
  for (int a = 0; a < 3; ++a) s->slice_origin[a] = sc->center[a];
  s->slice_normal[0] = 1.0, s->slice_normal[1] = 1.0, s->slice_normal[2] = 0.5;
}

/* ---- reductions ------------------------------------------------------------ */

typedef struct reduction {
  const char *name;
  int n;
  component_kind kinds[CVR_MAX_COMPONENTS];
  cvr_component_mode mode;
  double weights[CVR_MAX_COMPONENTS];
  component_kind single;   /* the one-component volume it must render as */
  int function;            /* ... with this component's function, or -1: the dependent mix */
  int skip_isosurface;
  int unshaded;            /* dependent shading takes component 0's gradient: here a constant's */
} reduction;

static const reduction reductions[] = {
    {"independent (1, 0)", 2, {SAME, REVERSED}, CVR_COMPONENTS_INDEPENDENT, {1.0, 0.0}, SAME, 0, 0, 0},
    {"independent (0, 1)", 2, {SAME, REVERSED}, CVR_COMPONENTS_INDEPENDENT, {0.0, 1.0}, REVERSED, 1, 0, 0},
    {"independent 4 (0, 0, 1, 0)", 4, {REVERSED, SAME, SAME, REVERSED}, CVR_COMPONENTS_INDEPENDENT,
     {0.0, 0.0, 1.0, 0.0}, SAME, 2, 0, 0},
    {"dependent LA", 2, {SAME, SAME}, CVR_COMPONENTS_DEPENDENT, {0}, SAME, -1, 1, 0},
    {"dependent RGBA", 4, {CONSTANT_HIGH, CONSTANT_MID, CONSTANT_LOW, SAME}, CVR_COMPONENTS_DEPENDENT,
     {0}, SAME, -1, 0, 1},
};

/* The functions of reduction r over the data (components' own ramps, each
 * a different colour), and the one-component function it must match. */
static void reduction_functions(const reduction *r, const double range[2], const cvr_test_dataset *d,
                                float fn[CVR_MAX_COMPONENTS][4 * T], float single[4 * T]) {
  static const float colours[5][3] = {{1.0f, 0.3f, 0.1f}, {0.1f, 0.4f, 1.0f}, {0.2f, 1.0f, 0.3f},
                                      {1.0f, 1.0f, 0.2f}, {0.9f, 0.1f, 0.9f}};
  for (int c = 0; c < r->n; ++c) {
    /* reversed components show the same structure at mirrored values */
    const int reversed = r->kinds[c] == REVERSED;
    const double lo = reversed ? range[0] + range[1] - d->hi : d->lo;
    const double hi = reversed ? range[0] + range[1] - d->lo : d->hi;
    colour_ramp(fn[c], range, lo, hi, colours[c], colours[c + 1]);
    if (reversed) /* opacity falling over [lo, hi] */
      for (int i = 0; i < T; ++i) {
        const double x = range[0] + (range[1] - range[0]) * i / (T - 1);
        const double u = (x - lo) / (hi - lo);
        fn[c][4 * i + 3] = (float)(0.5 * (1.0 - (u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u)));
      }
  }
  if (r->function >= 0) {
    memcpy(single, fn[r->function], sizeof(float) * 4 * T);
    return;
  }
  const int last = r->n - 1;
  for (int i = 0; i < T; ++i) {
    if (r->n == 2) {
      memcpy(single + 4 * i, fn[0] + 4 * i, 3 * sizeof(float));
    } else { /* the constant colour components, as units of their functions' range */
      for (int k = 0; k < 3; ++k) {
        const double x = component_value(r->kinds[k], 0.0, range);
        single[4 * i + k] = (float)((x - range[0]) / (range[1] - range[0]));
      }
    }
    single[4 * i + 3] = fn[last][4 * i + 3];
  }
}

static void reductions_on(cvr_context *ctx, cvr_backend backend, int quick) {
  static uint8_t ref[PIXELS * 4], out[PIXELS * 4];
  static float ref_depth[PIXELS], out_depth[PIXELS];
  for (int ds = 0; ds < 2; ++ds) {
    const cvr_test_dataset *d = &cvr_test_datasets[ds];
    cvr_test_scene sc;
    if (!cvr_test_scene_open(ctx, d, &sc)) continue;
    double range[2];
    cvr_volume_get_range(sc.volume, range);
    for (size_t ri = 0; ri < sizeof reductions / sizeof *reductions; ++ri) {
      const reduction *r = &reductions[ri];
      static float fn[CVR_MAX_COMPONENTS][4 * T], single_fn[4 * T];
      reduction_functions(r, range, d, fn, single_fn);
      cvr_transfer_function_desc more[CVR_MAX_COMPONENTS - 1];
      for (int c = 1; c < r->n; ++c) more[c - 1] = one_desc(fn[c], range, sc.sample_distance);
      cvr_transfer_function_desc desc = one_desc(fn[0], range, sc.sample_distance);
      desc.component_count = r->n;
      desc.component_mode = r->mode;
      desc.component_functions = more;
      memcpy(desc.component_weights, r->weights, sizeof desc.component_weights);
      const cvr_transfer_function_desc single_desc = one_desc(single_fn, range, sc.sample_distance);
      cvr_transfer_function *tf = create_tf(ctx, &desc), *single_tf = create_tf(ctx, &single_desc);
      cvr_volume *multi = components_volume(ctx, &sc.data.desc, range, r->n, r->kinds);
      cvr_volume *single = single_volume(ctx, &sc.data.desc, range, r->single);
      const double iso = r->single == REVERSED ? range[0] + range[1] - 0.5 * (d->lo + d->hi)
                                               : 0.5 * (d->lo + d->hi);
      for (int b = 0; tf && single_tf && multi && single && b < BLEND_MODES; ++b) {
        if (r->skip_isosurface && blend_modes[b] == CVR_BLEND_ISOSURFACE) continue;
        for (int shaded = 0; shaded < 2; ++shaded) {
          if (quick && shaded != (blend_modes[b] == CVR_BLEND_COMPOSITE)) continue;
          if (shaded && r->unshaded) continue;
          cvr_view view;
          cvr_test_scene_view(&sc, b + shaded, (b + shaded) % 2 ? CVR_PROJECTION_PERSPECTIVE
                                                                : CVR_PROJECTION_PARALLEL,
                              SIZE, SIZE, &view);
          cvr_render_settings s;
          cvr_render_settings_init(&s);
          s.sample_distance = sc.sample_distance;
          s.strategy = CVR_STRATEGY_STANDARD;
          s.shading.enabled = shaded;
          blend_settings(&sc, d, blend_modes[b], iso, &s);
          char what[200];
          snprintf(what, sizeof what, "%s %s %s%s", d->file, r->name,
                   cvr_blend_mode_name(blend_modes[b]), shaded ? " shaded" : "");
          cvr_render_stats rs, ms;
          if (!cvr_test_render(ctx, single, single_tf, &view, &s, ref, ref_depth, &rs, what)) continue;
          if (!cvr_test_render(ctx, multi, tf, &view, &s, out, out_depth, &ms, what)) continue;
          /* the minimum of the data is air, and the maximum of its reverse;
           * a slice shows little of a ramp */
          const long least = blend_modes[b] == CVR_BLEND_SLICE ? 20
                             : (blend_modes[b] == CVR_BLEND_MINIMUM && r->single == SAME) ||
                                       (blend_modes[b] == CVR_BLEND_MAXIMUM && r->single == REVERSED)
                                 ? 0
                                 : PIXELS / 50;
          CHECK(cvr_test_visible(ref, PIXELS) >= least, "%s: only %ld pixels visible", what,
                cvr_test_visible(ref, PIXELS));
          const cvr_test_diff diff = cvr_test_compare(ref, out, ref_depth, out_depth, PIXELS);
          CHECK(cvr_test_within_tolerance(&diff), "%s: over %.4f%% mean %.4f max %d", what,
                100.0 * diff.color.over_fraction, diff.color.mean_diff, diff.color.max_diff);
          CHECK(cvr_test_visited(&ms) == cvr_test_visited(&rs) || s.early_termination,
                "%s: %llu samples against %llu", what, (unsigned long long)cvr_test_visited(&ms),
                (unsigned long long)cvr_test_visited(&rs));
          CHECK(backend != CVR_BACKEND_CUDA || ms.strategy == CVR_STRATEGY_STANDARD,
                "%s: strategy %s", what, cvr_strategy_name(ms.strategy));
        }
      }
      cvr_volume_destroy(multi);
      cvr_volume_destroy(single);
      cvr_transfer_function_destroy(tf);
      cvr_transfer_function_destroy(single_tf);
    }
    cvr_test_scene_close(&sc);
  }
}

/* ---- closed form ------------------------------------------------------------ */

static void closed_form(cvr_context *ctx) {
  enum { N = CVR_COLUMN_N };
  static uint8_t voxels[2 * N * N * N];
  /* component 0: 16 i + 15 along x, component 1: 255 - 16 j along y */
  for (int k = 0; k < N; ++k)
    for (int j = 0; j < N; ++j)
      for (int i = 0; i < N; ++i) {
        const size_t o = 2 * ((size_t)i + N * (j + (size_t)N * k));
        voxels[o] = (uint8_t)(16 * i + 15);
        voxels[o + 1] = (uint8_t)(255 - 16 * j);
      }
  cvr_volume *v = cvr_test_column_components(ctx, voxels, 2);
  float red[4 * T], blue[4 * T];
  for (int i = 0; i < T; ++i) { /* opacity value / 256: exact in half precision */
    const float a = (float)i / 256.0f;
    const float r[4] = {1.0f, 0.0f, 0.0f, a}, b[4] = {0.0f, 0.0f, 1.0f, a};
    memcpy(red + 4 * i, r, sizeof r);
    memcpy(blue + 4 * i, b, sizeof b);
  }
  const double range[2] = {0.0, 255.0}, w[2] = {1.0, 0.5};
  const cvr_transfer_function_desc second = one_desc(blue, range, 0.5);
  cvr_transfer_function_desc desc = one_desc(red, range, 0.5);
  desc.component_count = 2;
  desc.component_functions = &second;
  desc.component_weights[0] = w[0];
  desc.component_weights[1] = w[1];
  cvr_transfer_function *tf = create_tf(ctx, &desc);
  cvr_view view;
  cvr_test_column_view(&view);
  static float rgba[4 * CVR_COLUMN_W * CVR_COLUMN_H];
  for (int mode = 0; v && tf && mode < 2; ++mode) {
    cvr_render_settings s;
    cvr_render_settings_init(&s);
    s.sample_distance = 0.5; /* = the unit distance: opacity per sample as given */
    s.early_termination = 0;
    s.blend_mode = mode ? CVR_BLEND_MAXIMUM : CVR_BLEND_COMPOSITE;
    const cvr_image img = {NULL, rgba, NULL, NULL};
    cvr_render_stats st;
    if (cvr_render(ctx, v, tf, &view, &s, &img, &st) != CVR_OK) {
      CHECK(0, "column render: %s", cvr_last_error(ctx));
      continue;
    }
    const double n = st.rays ? (double)st.samples / (double)st.rays : 0.0;
    CHECK(st.rays == N * N && st.samples == (uint64_t)(CVR_COLUMN_SAMPLES * N * N),
          "%llu rays, %llu samples: 30 samples per column expected", (unsigned long long)st.rays,
          (unsigned long long)st.samples);
    for (int j = 0; j < N; j += 3)
      for (int i = 0; i < N; i += 3) {
        const double a0 = (16 * i + 15) / 256.0, a1 = (255 - 16 * j) / 256.0;
        double e[4];
        if (mode == 0) { /* VTK's mix, then n equal samples over each other */
          const double total = w[0] * a0 + w[1] * a1;
          const double alpha = (w[0] * a0 * a0 + w[1] * a1 * a1) / total;
          const double ray = 1.0 - pow(1.0 - alpha, n);
          e[0] = w[0] * a0 / alpha * ray;
          e[1] = 0.0;
          e[2] = w[1] * a1 / alpha * ray;
          e[3] = ray;
        } else { /* the weighted classified extremes, added */
          e[0] = w[0] * a0;
          e[1] = 0.0;
          e[2] = w[1] * a1;
          e[3] = fmin(w[0] * a0 + w[1] * a1, 1.0);
        }
        const float *p = cvr_test_column_pixel(rgba, i, j);
        for (int k = 0; k < 4; ++k)
          CHECK(fabs(p[k] - e[k]) < 2e-3, "%s column (%d, %d) channel %d: %.5f, expected %.5f",
                mode ? "maximum" : "composite", i, j, k, p[k], e[k]);
      }
  }
  cvr_transfer_function_destroy(tf);
  cvr_volume_destroy(v);
}

/* ---- CUDA against the CPU ------------------------------------------------------ */

static void against_reference(cvr_context *cpu, cvr_context *gpu, int quick) {
  static uint8_t ref[PIXELS * 4], out[PIXELS * 4];
  static float ref_depth[PIXELS], out_depth[PIXELS];
  typedef struct asked {
    cvr_strategy strategy;
    cvr_memory_layout layout;
    cvr_rotation_policy rotation;
  } asked;
  /* whatever is asked, the standard strategy renders from a texture */
  static const asked configs[] = {{CVR_STRATEGY_STANDARD, CVR_LAYOUT_TEXTURE, CVR_ROTATION_NEVER},
                                  {CVR_STRATEGY_WARP_MARCHING, CVR_LAYOUT_Z_ORDER, CVR_ROTATION_ON_REGION_CHANGE},
                                  {CVR_STRATEGY_SLAB, CVR_LAYOUT_ARRAY_ORDER, CVR_ROTATION_NEVER},
                                  {CVR_STRATEGY_AUTO, CVR_LAYOUT_TEXTURE, CVR_ROTATION_NEVER}};
  static const component_kind kinds[CVR_MAX_COMPONENTS] = {SAME, REVERSED, CONSTANT_MID, SAME};
  const cvr_test_dataset *d = &cvr_test_datasets[1]; /* the cranium CT: 16-bit */
  cvr_test_scene c;
  if (!cvr_test_scene_open(cpu, d, &c)) return;
  double range[2];
  cvr_volume_get_range(c.volume, range);
  for (int n = 2; n <= 4; ++n)
    for (int dependent = 0; dependent < 2; ++dependent) {
      if (dependent && n == 3) continue;
      static float fn[CVR_MAX_COMPONENTS][4 * T], unused[4 * T];
      reduction r = {"", n, {kinds[0], kinds[1], kinds[2], kinds[3]},
                     dependent ? CVR_COMPONENTS_DEPENDENT : CVR_COMPONENTS_INDEPENDENT,
                     {1.0, 0.7, 0.4, 0.9}, SAME, 0, 0, 0};
      if (dependent && n == 4) r.kinds[3] = SAME; /* the opacity component */
      reduction_functions(&r, range, d, fn, unused);
      float gradient[T];
      for (int i = 0; i < T; ++i) gradient[i] = 0.2f + 0.8f * (float)i / (T - 1);
      cvr_transfer_function_desc more[CVR_MAX_COMPONENTS - 1];
      for (int k = 1; k < n; ++k) more[k - 1] = one_desc(fn[k], range, c.sample_distance);
      cvr_transfer_function_desc desc = one_desc(fn[0], range, c.sample_distance);
      desc.component_count = n;
      desc.component_mode = r.mode;
      desc.component_functions = more;
      memcpy(desc.component_weights, r.weights, sizeof desc.component_weights);
      desc.gradient_opacity = gradient; /* component 0's */
      desc.gradient_opacity_size = T;
      desc.gradient_opacity_max = 0.25 * (range[1] - range[0]);
      cvr_transfer_function *ctf = create_tf(cpu, &desc), *gtf = create_tf(gpu, &desc);
      cvr_volume *cv = components_volume(cpu, &c.data.desc, range, n, r.kinds);
      cvr_volume *gv = components_volume(gpu, &c.data.desc, range, n, r.kinds);
      for (int b = 0; ctf && gtf && cv && gv && b < BLEND_MODES; ++b) {
        if (quick && b % 3 != 0) continue;
        cvr_view view;
        cvr_test_scene_view(&c, b, b % 2 ? CVR_PROJECTION_PERSPECTIVE : CVR_PROJECTION_PARALLEL,
                            SIZE, SIZE, &view);
        cvr_render_settings s;
        cvr_render_settings_init(&s);
        s.sample_distance = c.sample_distance;
        s.shading.enabled = b != 1; /* the projections ignore it; maximum without */
        blend_settings(&c, d, blend_modes[b], 0.5 * (d->lo + d->hi), &s);
        char what[200];
        snprintf(what, sizeof what, "%d %s components %s", n, dependent ? "dependent" : "independent",
                 cvr_blend_mode_name(blend_modes[b]));
        cvr_render_stats rs, gs;
        if (!cvr_test_render(cpu, cv, ctf, &view, &s, ref, ref_depth, &rs, what)) continue;
        /* the extreme of the opacity component may be air: its minimum
         * where it holds the data (4 dependent), its maximum where it holds
         * their reverse (2 dependent); a slice shows little of a ramp */
        const long least = blend_modes[b] == CVR_BLEND_SLICE ? 20
                           : dependent && ((blend_modes[b] == CVR_BLEND_MINIMUM && n == 4) ||
                                           (blend_modes[b] == CVR_BLEND_MAXIMUM && n == 2))
                               ? -1
                               : PIXELS / 50;
        CHECK(cvr_test_visible(ref, PIXELS) > least, "%s: only %ld pixels visible", what,
              cvr_test_visible(ref, PIXELS));
        for (size_t k = 0; k < sizeof configs / sizeof *configs; ++k) {
          s.strategy = configs[k].strategy;
          s.memory_layout = configs[k].layout;
          s.rotation_policy = configs[k].rotation;
          char run[260];
          snprintf(run, sizeof run, "%s asked %s %s", what, cvr_strategy_name(s.strategy),
                   cvr_memory_layout_name(s.memory_layout));
          memset(out, 0xCD, sizeof out);
          if (!cvr_test_render(gpu, gv, gtf, &view, &s, out, out_depth, &gs, run)) continue;
          CHECK(gs.strategy == CVR_STRATEGY_STANDARD && gs.memory_layout == CVR_LAYOUT_TEXTURE &&
                    gs.rotations == 0 && gs.samples_skipped_empty == 0,
                "%s: rendered by %s from %s, %d turns, %llu skipped", run,
                cvr_strategy_name(gs.strategy), cvr_memory_layout_name(gs.memory_layout),
                gs.rotations, (unsigned long long)gs.samples_skipped_empty);
          CHECK(gs.volume_bytes == (size_t)c.data.desc.dims[0] * c.data.desc.dims[1] *
                                       c.data.desc.dims[2] * (n == 3 ? 4 : n) *
                                       cvr_scalar_type_size(c.data.desc.type),
                "%s: %zu bytes on the device", run, gs.volume_bytes);
          const cvr_test_diff diff = cvr_test_compare(ref, out, ref_depth, out_depth, PIXELS);
          /* thresholds on filtered values flip where the texture's rounding
           * moves a value across them (test_common.h) */
          const int flips = blend_modes[b] == CVR_BLEND_ISOSURFACE || blend_modes[b] == CVR_BLEND_AVERAGE;
          CHECK(flips ? diff.color.over_fraction <= CVR_TOL_FLIP_OVER_FRACTION &&
                            diff.color.mean_diff <= CVR_TOL_FLIP_MEAN_LEVELS
                      : cvr_test_within_tolerance(&diff),
                "%s: over %.4f%% mean %.4f max %d", run, 100.0 * diff.color.over_fraction,
                diff.color.mean_diff, diff.color.max_diff);
          CHECK(cvr_test_visited(&gs) == cvr_test_visited(&rs) ||
                    (double)llabs((long long)cvr_test_visited(&gs) - (long long)cvr_test_visited(&rs)) <=
                        CVR_TOL_ERT_SAMPLES_FRACTION * (double)cvr_test_visited(&rs),
                "%s: %llu samples against %llu", run, (unsigned long long)cvr_test_visited(&gs),
                (unsigned long long)cvr_test_visited(&rs));
        }
      }
      cvr_volume_destroy(cv);
      cvr_volume_destroy(gv);
      cvr_transfer_function_destroy(ctf);
      cvr_transfer_function_destroy(gtf);
    }
  cvr_test_scene_close(&c);
}

/* ---- bad input ------------------------------------------------------------------ */

static void bad_input(cvr_context *ctx) {
  enum { N = 4 };
  static uint8_t voxels[5 * N * N * N];
  for (size_t i = 0; i < sizeof voxels; ++i) voxels[i] = (uint8_t)(i * 37);
  cvr_volume_desc vd;
  cvr_volume_desc_init(&vd);
  vd.dims[0] = vd.dims[1] = vd.dims[2] = N;
  vd.data = voxels;
  cvr_volume *v = NULL;
  vd.components = 5;
  cvr_test_expect_failure(ctx, cvr_volume_create(ctx, &vd, &v), "5 components", "a volume of 5 components");
  vd.components = -1;
  cvr_test_expect_failure(ctx, cvr_volume_create(ctx, &vd, &v), "components", "a volume of -1 components");
  vd.components = 2;
  cvr_volume *two = NULL, *one = NULL;
  CHECK(cvr_volume_create(ctx, &vd, &two) == CVR_OK, "%s", cvr_last_error(ctx));
  vd.components = 0;
  CHECK(cvr_volume_create(ctx, &vd, &one) == CVR_OK, "%s", cvr_last_error(ctx));

  float rgba[4 * 2] = {1.0f, 1.0f, 1.0f, 0.0f, 1.0f, 1.0f, 1.0f, 1.0f}, rgba_2d[4 * 4];
  for (int i = 0; i < 16; ++i) rgba_2d[i] = 0.5f;
  const cvr_transfer_function_desc plain = {.rgba = rgba, .size = 2, .range = {0.0, 255.0},
                                            .unit_distance = 1.0};
  cvr_transfer_function_desc more[3] = {plain, plain, plain};
  cvr_transfer_function *tf = NULL;
  cvr_transfer_function_desc d = plain;
  d.component_functions = more;
  d.component_count = 5;
  cvr_test_expect_failure(ctx, cvr_transfer_function_create(ctx, &d, &tf), "5 components", "5 functions");
  d.component_count = 3;
  d.component_mode = CVR_COMPONENTS_DEPENDENT;
  cvr_test_expect_failure(ctx, cvr_transfer_function_create(ctx, &d, &tf), "not 3", "3 dependent");
  d.component_count = 2;
  d.component_mode = (cvr_component_mode)7;
  cvr_test_expect_failure(ctx, cvr_transfer_function_create(ctx, &d, &tf), "component mode", "mode 7");
  d.component_mode = CVR_COMPONENTS_INDEPENDENT;
  d.component_weights[1] = 1.5;
  cvr_test_expect_failure(ctx, cvr_transfer_function_create(ctx, &d, &tf), "weight 1.5", "weight 1.5");
  d.component_weights[1] = NAN;
  cvr_test_expect_failure(ctx, cvr_transfer_function_create(ctx, &d, &tf), "weight", "weight NaN");
  d.component_weights[1] = 1.0;
  d.component_functions = NULL;
  cvr_test_expect_failure(ctx, cvr_transfer_function_create(ctx, &d, &tf), "component_functions",
                 "no component functions");
  d.component_functions = more;
  more[0].size = 1;
  cvr_test_expect_failure(ctx, cvr_transfer_function_create(ctx, &d, &tf), "component 1", "a bad function");
  more[0].size = 2;
  more[0].component_count = 2;
  cvr_test_expect_failure(ctx, cvr_transfer_function_create(ctx, &d, &tf), "of its own", "nested components");
  more[0].component_count = 0;
  d.rgba_2d = rgba_2d;
  d.size_2d[0] = d.size_2d[1] = 2;
  d.gradient_max_2d = 1.0;
  cvr_test_expect_failure(ctx, cvr_transfer_function_create(ctx, &d, &tf), "2D function", "2D with components");
  d.rgba_2d = NULL;
  d.label_count = 1;
  d.label_rgba = rgba;
  cvr_test_expect_failure(ctx, cvr_transfer_function_create(ctx, &d, &tf), "label functions",
                 "labels with components");
  d.label_count = 0;
  cvr_transfer_function *two_tf = create_tf(ctx, &d), *one_tf = create_tf(ctx, &plain);

  cvr_view view;
  cvr_test_column_view(&view);
  static uint8_t out[4 * CVR_COLUMN_W * CVR_COLUMN_H];
  const cvr_image img = {out, NULL, NULL, NULL};
  cvr_render_settings s;
  cvr_render_settings_init(&s);
  s.sample_distance = 0.5;
  if (two && one && two_tf && one_tf) {
    cvr_test_expect_failure(ctx, cvr_render(ctx, two, one_tf, &view, &s, &img, NULL), "2 components",
                   "two components, one function");
    cvr_test_expect_failure(ctx, cvr_render(ctx, one, two_tf, &view, &s, &img, NULL), "describes 2",
                   "one component, two functions");
    CHECK(cvr_render(ctx, two, two_tf, &view, &s, &img, NULL) == CVR_OK,
          "two components after the errors: %s", cvr_last_error(ctx));
    CHECK(cvr_render(ctx, one, one_tf, &view, &s, &img, NULL) == CVR_OK,
          "one component after the errors: %s", cvr_last_error(ctx));
  }
  cvr_transfer_function_destroy(two_tf);
  cvr_transfer_function_destroy(one_tf);
  cvr_volume_destroy(two);
  cvr_volume_destroy(one);
}

int main(int argc, char **argv) {
  cvr_backend backend;
  cvr_context *ctx = cvr_test_context(argc, argv, &backend);
  const int quick = argc > 2 && strcmp(argv[2], "--quick") == 0;
  closed_form(ctx);
  bad_input(ctx);
  reductions_on(ctx, backend, quick);
  if (backend == CVR_BACKEND_CUDA) {
    char *cpu_arg[] = {argv[0], "cpu"};
    cvr_context *cpu = cvr_test_context(2, cpu_arg, NULL);
    against_reference(cpu, ctx, quick);
    cvr_context_destroy(cpu);
  }
  cvr_context_destroy(ctx);
  return cvr_test_finish("test_components");
}
