// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Scenes whose pixels are known in closed form: an axis-aligned volume seen
 * straight on, where every ray takes samples at known depths. The expected
 * value is computed here, in double, from the lattice definition alone (sample
 * k at k * dt behind the ray's entry into the volume), so a backend that
 * takes one sample too many or too few, misplaces the lattice, composites in
 * the wrong order, mis-corrects opacity or mis-maps scalar types fails.
 * Usage: test_analytic cpu|cuda */
#include <math.h>
#include <string.h>

#include "half.h"
#include "raycast.h"
#include "test_common.h"

enum { N = 16, W = 40, H = 40, TABLE = 256 };
static const double kDt = 0.5;
static const double kNear = 1.0, kFar = 60.0;

/* Table entries that scenes use; everything else is a distinct decoy so a
 * wrong scalar mapping shows. */
static const float kFront[4] = {0.1f, 0.3f, 0.9f, 0.35f}; /* entry 200 */
static const float kBack[4] = {0.9f, 0.2f, 0.1f, 0.6f};   /* entry 50 */

static void make_table(float *t) {
  for (int i = 0; i < TABLE; ++i) {
    const float *e = (i >= 199 && i <= 201) ? kFront : (i >= 49 && i <= 51) ? kBack : NULL;
    const float decoy[4] = {(float)i / TABLE, 1.0f - (float)i / TABLE, 0.5f, 0.05f};
    memcpy(t + 4 * i, e ? e : decoy, 4 * sizeof(float));
  }
}

typedef struct scene {
  double z_extent;   /* world z spanned by the volume: [0, z_extent] */
  int flip_z;        /* index z runs against world z */
  int layered;       /* back half (index z < N/2) uses kBack, front kFront */
  cvr_projection projection;
  int early_termination;
  double termination;
  int max_samples;
  double opaque_z;   /* world z of opaque geometry across the view; 0: none */
  int cell_data;     /* scalars are cell values: bounds grow by half a voxel */
  int ramp_axis;     /* 0 or 2: values rise along x or z (shading scenes); -1: no ramp */
  int light;         /* shading: 0 off, 1 directional from +x+z, 2 headlight */
  int two_sided;
} scene;

static double half_voxel(const scene *s) { return s->cell_data ? 0.5 : 0.0; }

static const double kAmbient = 0.2, kDiffuse = 0.6, kSpecular = 0.3, kPower = 8.0;

/* The lit colour of every sample of a ramp scene: the normal is minus the
 * ramp's axis, the view looks down -z, the directional light comes from
 * (+1, 0, +1) and the headlight from the eye (shading's formula in cvr.h). */
static void shaded_colour(const scene *s, const float entry[3], double out[3]) {
  const double n[3] = {s->ramp_axis == 0 ? -1.0 : 0.0, 0.0, s->ramp_axis == 2 ? -1.0 : 0.0};
  const double v[3] = {0.0, 0.0, 1.0};
  const double r = sqrt(0.5);
  const double l[3] = {s->light == 1 ? r : 0.0, 0.0, s->light == 1 ? r : 1.0};
  double h[3] = {l[0] + v[0], l[1] + v[1], l[2] + v[2]};
  const double hl = sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
  double ndl = n[0] * l[0] + n[1] * l[1] + n[2] * l[2];
  double ndh = (n[0] * h[0] + n[1] * h[1] + n[2] * h[2]) / hl;
  if (s->two_sided) {
    ndl = fabs(ndl);
    ndh = fabs(ndh);
  }
  const double d = fmax(ndl, 0.0), sp = ndh > 0.0 ? pow(ndh, kPower) : 0.0;
  for (int c = 0; c < 3; ++c) {
    const double e = cvr_round_to_half(entry[c]);
    out[c] = kAmbient * e + kDiffuse * d * e + kSpecular * sp;
  }
}

static double eye_z(const scene *s) { return s->z_extent + 10.3; }

/* glOrtho / glFrustum window depth of world z seen from eye_z down -z. */
static double window_depth(const scene *s, double z) {
  const double d = eye_z(s) - z;
  const double ndc = s->projection == CVR_PROJECTION_PERSPECTIVE
                         ? ((kFar + kNear) / (kFar - kNear) - 2.0 * kFar * kNear / ((kFar - kNear) * d))
                         : (2.0 * d - (kFar + kNear)) / (kFar - kNear);
  return 0.5 * ndc + 0.5;
}

/* Index z of world z, and which entry the nearest voxel classifies to. */
static const float *entry_at(const scene *s, double z) {
  if (!s->layered) return kFront;
  const double iz = s->flip_z ? (s->z_extent - z) * (N - 1) / s->z_extent
                              : z * (N - 1) / s->z_extent;
  return floor(iz + 0.5) < N / 2 ? kBack : kFront;
}

/* The expected ray along -z: premultiplied RGBA, window depth, sample count. */
static void expected_ray(const scene *s, double out[4], double *depth, int *count) {
  const double start = s->projection == CVR_PROJECTION_PERSPECTIVE ? eye_z(s) : eye_z(s) - kNear;
  const double t_near = s->projection == CVR_PROJECTION_PERSPECTIVE ? kNear : 0.0;
  memset(out, 0, 4 * sizeof *out);
  *depth = 1.0;
  *count = 0;
  const double pad = half_voxel(s) * s->z_extent / (N - 1);
  const double z_min = s->opaque_z > 0.0 ? fmax(-pad, s->opaque_z) : -pad;
  /* the first sample one sample distance behind the entry (cvr_ray_clip) */
  const double t_entry = fmax(t_near, start - (s->z_extent + pad));
  for (int k = 1;; ++k) {
    const double t = t_entry + k * kDt, z = start - t;
    if (z < z_min) break;
    if (s->max_samples && *count == s->max_samples) break;
    const float *e = entry_at(s, z);
    /* opacity corrected for unit distance 1; the table is kept in half precision */
    const double a = cvr_round_to_half((float)(1.0 - pow(1.0 - e[3], kDt)));
    if (*count == 0) *depth = window_depth(s, z);
    const double w = (1.0 - out[3]) * a;
    double lit[3];
    if (s->light) {
      shaded_colour(s, e, lit);
    } else {
      for (int c = 0; c < 3; ++c) lit[c] = cvr_round_to_half(e[c]);
    }
    for (int c = 0; c < 3; ++c) out[c] += w * lit[c];
    out[3] += w;
    ++*count;
    if (s->early_termination && out[3] >= s->termination) break;
  }
}

/* Scalar values of each type that map to table entries 200 and 50 through
 * the type's transfer-function range. */
typedef struct typed_case {
  cvr_scalar_type type;
  double lo, hi, front, back;
} typed_case;

static const typed_case kTypes[] = {
    {CVR_UINT8, 0, 255, 200, 50},
    {CVR_INT8, -128, 127, 72, -78},
    {CVR_UINT16, 0, 25500, 20000, 5000},
    {CVR_INT16, -12000, 13500, 8000, -7000},
    {CVR_UINT32, 0, 25500, 20000, 5000},
    {CVR_INT32, -12000, 13500, 8000, -7000},
    {CVR_FLOAT32, 0, 2.55, 2.0, 0.5},
    {CVR_FLOAT64, 0, 2.55, 2.0, 0.5},
};

static void store(cvr_scalar_type type, void *data, size_t i, double v) {
  switch (type) {
  case CVR_UINT8: ((uint8_t *)data)[i] = (uint8_t)v; break;
  case CVR_INT8: ((int8_t *)data)[i] = (int8_t)v; break;
  case CVR_UINT16: ((uint16_t *)data)[i] = (uint16_t)v; break;
  case CVR_INT16: ((int16_t *)data)[i] = (int16_t)v; break;
  case CVR_UINT32: ((uint32_t *)data)[i] = (uint32_t)v; break;
  case CVR_INT32: ((int32_t *)data)[i] = (int32_t)v; break;
  case CVR_FLOAT32: ((float *)data)[i] = (float)v; break;
  case CVR_FLOAT64: ((double *)data)[i] = v; break;
  }
}

static int run_scene(cvr_context *ctx, const scene *s, const typed_case *tc, int nearest,
                     const char *name) {
  static double data[N * N * N]; /* large enough for any type */
  for (int z = 0; z < N; ++z)
    for (int i = 0; i < N * N; ++i) {
      const int x = i % N;
      const double ramp = s->ramp_axis == 0 ? x : z; /* shading scenes: a constant gradient */
      store(tc->type, data, (size_t)z * N * N + i,
            s->ramp_axis >= 0 ? 10.0 * ramp : s->layered && z < N / 2 ? tc->back : tc->front);
    }
  cvr_volume_desc d;
  cvr_volume_desc_init(&d);
  d.type = tc->type;
  d.data = data;
  d.dims[0] = d.dims[1] = d.dims[2] = N;
  d.spacing[2] = s->z_extent / (N - 1);
  d.cell_data = s->cell_data;
  double world_shift = 0.0;
  if (s->flip_z) { /* index z runs down from the top, and the prop moves it back up */
    d.direction[8] = -1.0;
    world_shift = 5.0;
    d.origin[2] = s->z_extent - world_shift;
  }
  float table[4 * TABLE];
  make_table(table);
  if (s->ramp_axis >= 0) /* every value classifies alike: only shading varies */
    for (int i = 0; i < TABLE; ++i) memcpy(table + 4 * i, kFront, sizeof kFront);
  const cvr_transfer_function_desc td = {
      .rgba = table, .size = TABLE, .range = {tc->lo, tc->hi}, .unit_distance = 1.0};
  cvr_volume *v = NULL;
  cvr_transfer_function *tf = NULL;
  if (cvr_volume_create(ctx, &d, &v) != CVR_OK || cvr_transfer_function_create(ctx, &td, &tf) != CVR_OK) {
    CHECK(0, "%s: setup failed: %s", name, cvr_last_error(ctx));
    return 0;
  }

  const double c = 0.5 * (N - 1), eye[3] = {c, c, eye_z(s)}, at[3] = {c, c, 0.0}, up[3] = {0, 1, 0};
  const int w = s->projection == CVR_PROJECTION_PERSPECTIVE ? 33 : W;
  const int h = s->projection == CVR_PROJECTION_PERSPECTIVE ? 33 : H;
  cvr_view view;
  cvr_view_init(&view);
  double look[16], proj[16];
  cvr_tools_look_at(eye, at, up, look);
  const double half = c + 3.0; /* pixel centres never fall on the volume's edges */
  if (s->projection == CVR_PROJECTION_PERSPECTIVE)
    cvr_tools_perspective(40.0, 1.0, kNear, kFar, proj);
  else
    cvr_tools_ortho(half, half, kNear, kFar, proj);
  cvr_tools_multiply(proj, look, view.world_to_clip);
  cvr_tools_identity(view.volume_to_world);
  view.volume_to_world[11] = world_shift;
  view.width = w;
  view.height = h;
  view.projection = s->projection;
  static float opaque[W * H];
  if (s->opaque_z > 0.0) {
    for (int i = 0; i < w * h; ++i) opaque[i] = (float)window_depth(s, s->opaque_z);
    view.opaque_depth = opaque;
  }

  cvr_render_settings rs;
  cvr_render_settings_init(&rs);
  rs.sample_distance = kDt;
  rs.early_termination = s->early_termination;
  rs.termination_opacity = s->termination;
  rs.max_samples_per_ray = s->max_samples;
  rs.interpolation = nearest ? CVR_INTERPOLATION_NEAREST : CVR_INTERPOLATION_LINEAR;
  if (s->light) {
    cvr_shading *sh = &rs.shading;
    sh->enabled = 1;
    sh->ambient = kAmbient;
    sh->diffuse = kDiffuse;
    sh->specular = kSpecular;
    sh->specular_power = kPower;
    sh->two_sided = s->two_sided;
    sh->light_count = 1;
    cvr_light *l = &sh->lights[0];
    memset(l, 0, sizeof *l);
    l->type = s->light == 1 ? CVR_LIGHT_DIRECTIONAL : CVR_LIGHT_HEADLIGHT;
    for (int c = 0; c < 3; ++c) l->ambient[c] = l->diffuse[c] = l->specular[c] = 1.0;
    l->position[0] = 5.0;
    l->position[2] = 5.0; /* shining towards the origin: from (+1, 0, +1) */
  }
  static float rgba[W * H * 4], depth[W * H];
  static uint8_t rgba8[W * H * 4];
  const cvr_image image = {rgba8, rgba, depth, NULL};
  cvr_render_stats stats;
  const cvr_status st = cvr_render(ctx, v, tf, &view, &rs, &image, &stats);
  CHECK(st == CVR_OK, "%s: render failed: %s", name, cvr_last_error(ctx));

  double want[4], want_depth;
  int count;
  expected_ray(s, want, &want_depth, &count);
  int bad = 0;
  long inside = 0;
  for (int py = 0; py < h && st == CVR_OK; ++py)
    for (int px = 0; px < w; ++px) {
      const size_t o = (size_t)py * w + px;
      const double x = c + ((2.0 * px + 1.0) / w - 1.0) * half;
      const double y = c + ((2.0 * py + 1.0) / h - 1.0) * half;
      const int center = px == w / 2 && py == h / 2;
      if (s->projection == CVR_PROJECTION_PERSPECTIVE && !center) continue;
      const double lo = -half_voxel(s), hi = N - 1 + half_voxel(s);
      const int in = x >= lo && x <= hi && y >= lo && y <= hi;
      inside += in;
      for (int ch = 0; ch < 4 && !bad; ++ch) {
        const double expect = in ? want[ch] : 0.0;
        /* (shaded, the texture unit's 8-bit filter weights reach the
         * gradient: 1.4e-4 measured on an H200) */
        if (fabs(rgba[4 * o + ch] - expect) > (s->light ? 2e-4 : 1e-4)) {
          CHECK(0, "%s: pixel (%d,%d) channel %d is %.6f, expected %.6f (%d samples)", name, px,
                py, ch, rgba[4 * o + ch], expect, count);
          bad = 1;
        }
        if (rgba8[4 * o + ch] != (uint8_t)floor(fmin(fmax(expect, 0), 1) * 255.0 + 0.5) &&
            fabs(expect * 255.0 - floor(expect * 255.0) - 0.5) > 1e-3 && !bad) {
          CHECK(0, "%s: pixel (%d,%d) rgba8[%d] = %d, expected %.3f", name, px, py, ch,
                rgba8[4 * o + ch], expect * 255.0);
          bad = 1;
        }
      }
      const double expect_depth = in ? want_depth : 1.0;
      if (!bad && fabs(depth[o] - expect_depth) > 2e-5) {
        CHECK(0, "%s: pixel (%d,%d) depth %.7f, expected %.7f", name, px, py, depth[o], expect_depth);
        bad = 1;
      }
    }
  if (s->projection == CVR_PROJECTION_PARALLEL && st == CVR_OK) {
    CHECK(stats.rays == (uint64_t)inside, "%s: %llu rays counted, %ld expected", name,
          (unsigned long long)stats.rays, inside);
    CHECK(stats.samples == (uint64_t)inside * count, "%s: %llu samples counted, %ld expected", name,
          (unsigned long long)stats.samples, inside * count);
  }
  cvr_transfer_function_destroy(tf);
  cvr_volume_destroy(v);
  return !bad;
}

/* The host's texel conversion (raycast.h: in double precision, without a
 * division) is the texture unit's v / (2^n - 1), correctly rounded and
 * clamped at -1, for every value of every integer type. */
static void check_texel_conversion(void) {
  int bad = 0;
  for (int v = 0; v < 65536 && bad < 5; ++v) {
    const float expect[4] = {(float)v / 65535.0f, fmaxf((float)(short)v / 32767.0f, -1.0f),
                             (float)(v & 255) / 255.0f,
                             fmaxf((float)(signed char)(v & 255) / 127.0f, -1.0f)};
    const float got[4] = {cvr_texel_u16((unsigned short)v), cvr_texel_s16((short)v),
                          cvr_texel_u8((unsigned char)(v & 255)), cvr_texel_s8((signed char)(v & 255))};
    for (int k = 0; k < 4; ++k)
      if (memcmp(&got[k], &expect[k], sizeof(float)) != 0) {
        CHECK(0, "texel conversion %d of %d: %.9g, expected %.9g", k, v, got[k], expect[k]);
        ++bad;
      }
  }
}

int main(int argc, char **argv) {
  cvr_context *ctx = cvr_test_context(argc, argv, NULL);
  check_texel_conversion();
  const scene base = {N - 1, 0, 0, CVR_PROJECTION_PARALLEL, 0, 1.0, 0, 0.0, 0, -1, 0, 0};
  int scenes = 0;

  /* every scalar type maps through its range onto the same table entry */
  for (size_t i = 0; i < sizeof kTypes / sizeof kTypes[0]; ++i) {
    char name[64];
    snprintf(name, sizeof name, "constant %s", cvr_tools_type_name(kTypes[i].type));
    run_scene(ctx, &base, &kTypes[i], 0, name);
    ++scenes;
    scene layered = base;
    layered.layered = 1;
    snprintf(name, sizeof name, "layered %s", cvr_tools_type_name(kTypes[i].type));
    run_scene(ctx, &layered, &kTypes[i], 1, name);
    ++scenes;
  }
  const typed_case *u8 = &kTypes[0];
  scene s = base;
  s.layered = 1;
  s.projection = CVR_PROJECTION_PERSPECTIVE;
  run_scene(ctx, &s, u8, 1, "layered perspective");
  s = base;
  s.layered = 1;
  s.z_extent = 2.0 * (N - 1);
  s.flip_z = 1;
  run_scene(ctx, &s, u8, 1, "layered, spacing 2 in z, flipped direction, moved prop");
  s.projection = CVR_PROJECTION_PERSPECTIVE;
  run_scene(ctx, &s, u8, 1, "the same in perspective");
  s = base;
  s.early_termination = 1;
  s.termination = 0.9;
  run_scene(ctx, &s, u8, 0, "early ray termination at 0.9");
  s.termination = 254.0 / 255.0;
  s.layered = 1;
  run_scene(ctx, &s, u8, 1, "early ray termination at 254/255");
  s = base;
  s.max_samples = 5;
  run_scene(ctx, &s, u8, 0, "five samples per ray");
  s = base;
  s.layered = 1;
  s.opaque_z = 7.05; /* between lattice points */
  run_scene(ctx, &s, u8, 1, "layered, opaque geometry inside the volume");
  s.projection = CVR_PROJECTION_PERSPECTIVE;
  run_scene(ctx, &s, u8, 1, "the same in perspective");
  s = base;
  s.cell_data = 1;
  run_scene(ctx, &s, u8, 0, "cell data");
  s.layered = 1;
  s.flip_z = 1;
  s.z_extent = 2.0 * (N - 1);
  run_scene(ctx, &s, u8, 1, "cell data, layered, spacing 2 in z, flipped");
  s = base; /* shading: normals from a ramp, lit by one light */
  s.ramp_axis = 0;
  s.light = 1;
  s.two_sided = 1;
  run_scene(ctx, &s, u8, 0, "shaded, directional light, two-sided");
  s.two_sided = 0;
  run_scene(ctx, &s, u8, 0, "shaded, directional light, one-sided (facing away)");
  s.ramp_axis = 2;
  s.light = 2;
  s.two_sided = 1;
  run_scene(ctx, &s, u8, 0, "shaded, headlight facing the normal");
  s.projection = CVR_PROJECTION_PERSPECTIVE;
  run_scene(ctx, &s, u8, 0, "the same in perspective");
  scenes += 14;
  cvr_context_destroy(ctx);
  printf("%d scenes\n", scenes);
  return cvr_test_finish("test_analytic");
}
