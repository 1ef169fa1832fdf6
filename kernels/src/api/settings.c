// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Render settings: defaults and the checks every backend shares. */
#include <math.h>
#include <string.h>

#include "cvr_internal.h"

#define CVR_MAX_BLOCK_THREADS 1024 /* every CUDA device since Fermi */
#define CVR_MAX_RAY_SEGMENTS 8
#define CVR_MAX_CPU_TILE 4096

void cvr_render_settings_init(cvr_render_settings *s) {
  if (!s) return;
  s->sample_distance = 1.0;
  s->early_termination = 1;
  s->jittering = 0;
  s->termination_opacity = 254.0 / 255.0;
  s->empty_space_skipping = 1;
  s->empty_space_cell = 8;
  s->max_samples_per_ray = 0;
  s->interpolation = CVR_INTERPOLATION_LINEAR;
  s->blend_mode = CVR_BLEND_COMPOSITE;
  s->average_range[0] = -HUGE_VAL; /* every value */
  s->average_range[1] = HUGE_VAL;
  s->iso_value_count = 0;
  memset(s->iso_values, 0, sizeof s->iso_values);
  memset(s->slice_origin, 0, sizeof s->slice_origin);
  s->slice_normal[0] = s->slice_normal[1] = 0.0;
  s->slice_normal[2] = 1.0;
  s->clip_plane_count = 0;
  memset(s->clip_planes, 0, sizeof s->clip_planes);
  s->cropping = 0;
  memset(s->cropping_planes, 0, sizeof s->cropping_planes);
  s->cropping_flags = CVR_CROP_SUBVOLUME;
  s->mask_type = CVR_MASK_BINARY;
  s->mask_blend = 1.0;
  s->strategy = CVR_STRATEGY_STANDARD;
  s->block_width = 16;
  s->block_height = 16;
  s->ray_segments = 1;
  s->horizontal_block[0] = 32;
  s->horizontal_block[1] = 4;
  s->vertical_block[0] = 1;
  s->vertical_block[1] = 128;
  s->warp_variant = CVR_WARP_SB_SHUFFLE; /* as fast as the paper's double buffer or faster at every view measured */
  s->warp_width = 32;
  s->warp_rays[0] = s->warp_rays[1] = 0; /* automatic */
  s->block_warps[0] = 1;
  s->block_warps[1] = 8;
  s->slab_block[0] = 16;
  s->slab_block[1] = 8;
  s->slab_border = CVR_SLAB_BORDER_RING;
  s->slab_depth = 8;
  s->memory_layout = CVR_LAYOUT_TEXTURE;
  s->rotation_policy = CVR_ROTATION_NEVER;
  s->rotation_tile[0] = 32;
  s->rotation_tile[1] = 0; /* automatic */
  s->rotation_hysteresis = 5.0;
  s->cpu_tile_width = 32;
  s->cpu_tile_height = 32;
  s->cpu_schedule = CVR_CPU_SCHEDULE_DYNAMIC;
  s->tuning_repeats = 6;
  s->tuning_prune = 1.5;
  s->tuning_budget = 0.01;
  memset(&s->shading, 0, sizeof s->shading);
  s->shading.ambient = 0.1;
  s->shading.diffuse = 0.7;
  s->shading.specular = 0.2;
  s->shading.specular_power = 10.0;
  s->shading.two_sided = 1;
  s->shading.light_count = 1;
  cvr_light *l = &s->shading.lights[0];
  l->type = CVR_LIGHT_HEADLIGHT;
  for (int c = 0; c < 3; ++c) l->diffuse[c] = l->specular[c] = l->ambient[c] = 1.0;
  l->attenuation[0] = 1.0;
  l->cone_angle = 180.0;
}

static int finite3(const double *v) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

/* Each of v within [lo, hi]. */
static int within3(const double *v, double lo, double hi) {
  for (int a = 0; a < 3; ++a)
    if (!(v[a] >= lo && v[a] <= hi)) return 0;
  return 1;
}

/* Shading runs in float: colours and coefficients up to CVR_SHADING_MAX (a
 * product of two, over lights, stays far below FLT_MAX), light positions
 * within CVR_LIGHT_EXTENT of the origin (their squared distances too). */
#define CVR_SHADING_MAX 1e6
#define CVR_LIGHT_EXTENT 1e18

static cvr_status validate_shading(cvr_context *ctx, const cvr_shading *sh) {
  if (!sh->enabled) return CVR_OK;
  const double k[4] = {sh->ambient, sh->diffuse, sh->specular, sh->specular_power};
  for (int i = 0; i < 4; ++i)
    if (!(k[i] >= 0.0 && k[i] <= CVR_SHADING_MAX))
      return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                      "settings: shading coefficients (ambient %g, diffuse %g, specular %g, "
                      "power %g) must be finite and in [0, %g]", sh->ambient, sh->diffuse,
                      sh->specular, sh->specular_power, CVR_SHADING_MAX);
  if (!(sh->scattering_blend >= 0.0 && sh->scattering_blend <= 2.0) ||
      !(sh->scattering_reach >= 0.0 && sh->scattering_reach <= 1.0) ||
      !(sh->scattering_anisotropy >= -1.0 && sh->scattering_anisotropy <= 1.0))
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: volumetric scattering blend %g (0..2), reach %g (0..1) or "
                    "anisotropy %g (-1..1) out of range", sh->scattering_blend,
                    sh->scattering_reach, sh->scattering_anisotropy);
  if (sh->light_count < 0 || sh->light_count > CVR_MAX_LIGHTS)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "settings: %d lights; 0..%d are supported",
                    sh->light_count, CVR_MAX_LIGHTS);
  for (int i = 0; i < sh->light_count; ++i) {
    const cvr_light *l = &sh->lights[i];
    if (l->type != CVR_LIGHT_HEADLIGHT && l->type != CVR_LIGHT_DIRECTIONAL &&
        l->type != CVR_LIGHT_POSITIONAL)
      return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "settings: light %d has unknown type %d", i,
                      (int)l->type);
    if (!finite3(l->ambient) || !finite3(l->diffuse) || !finite3(l->specular) ||
        !finite3(l->position) || !finite3(l->focal_point) || !finite3(l->attenuation) ||
        !isfinite(l->cone_angle) || !isfinite(l->exponent))
      return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "settings: light %d is not finite", i);
    if (!within3(l->ambient, 0.0, CVR_SHADING_MAX) || !within3(l->diffuse, 0.0, CVR_SHADING_MAX) ||
        !within3(l->specular, 0.0, CVR_SHADING_MAX) ||
        !within3(l->attenuation, 0.0, CVR_SHADING_MAX))
      return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                      "settings: light %d: colours and attenuation must be in [0, %g]", i,
                      CVR_SHADING_MAX);
    if (!within3(l->position, -CVR_LIGHT_EXTENT, CVR_LIGHT_EXTENT) ||
        !within3(l->focal_point, -CVR_LIGHT_EXTENT, CVR_LIGHT_EXTENT))
      return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                      "settings: light %d: position and focal point must be within %g of the origin",
                      i, CVR_LIGHT_EXTENT);
    /* vtkLight's own ranges: the exponent is clamped to [0, 128]; a cone of
     * 90 degrees or more is a point light */
    if (!(l->exponent >= 0.0 && l->exponent <= 128.0) || !(l->cone_angle >= 0.0 && l->cone_angle <= 180.0))
      return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                      "settings: light %d: spot exponent %g (0..128) or cone angle %g (0..180 degrees) "
                      "out of range", i, l->exponent, l->cone_angle);
    if (l->type == CVR_LIGHT_DIRECTIONAL &&
        l->position[0] == l->focal_point[0] && l->position[1] == l->focal_point[1] &&
        l->position[2] == l->focal_point[2])
      return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                      "settings: directional light %d has no direction (position == focal point)", i);
  }
  return CVR_OK;
}

/* The settings of the ISOSURFACE and SLICE modes, checked in those modes only. */
static cvr_status validate_surfaces(cvr_context *ctx, const cvr_render_settings *s) {
  if (s->blend_mode == CVR_BLEND_ISOSURFACE) {
    if (s->iso_value_count < 1 || s->iso_value_count > CVR_MAX_ISO_VALUES)
      return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                      "settings: isosurface blending with %d iso values; 1..%d are supported",
                      s->iso_value_count, CVR_MAX_ISO_VALUES);
    for (int i = 0; i < s->iso_value_count; ++i)
      if (!isfinite(s->iso_values[i]))
        return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "settings: iso value %d is %g, not finite",
                        i, s->iso_values[i]);
  }
  if (s->blend_mode == CVR_BLEND_SLICE) {
    const double *o = s->slice_origin, *n = s->slice_normal;
    if (!isfinite(o[0]) || !isfinite(o[1]) || !isfinite(o[2]) || !isfinite(n[0]) ||
        !isfinite(n[1]) || !isfinite(n[2]) || (n[0] == 0.0 && n[1] == 0.0 && n[2] == 0.0))
      return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                      "settings: slice plane through (%g, %g, %g) normal to (%g, %g, %g) needs "
                      "a finite origin and a finite, non-zero normal", o[0], o[1], o[2], n[0],
                      n[1], n[2]);
  }
  return CVR_OK;
}

static cvr_status validate_clipping(cvr_context *ctx, const cvr_render_settings *s) {
  if (s->clip_plane_count < 0 || s->clip_plane_count > CVR_MAX_CLIP_PLANES)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: %d clipping planes; 0..%d are supported", s->clip_plane_count,
                    CVR_MAX_CLIP_PLANES);
  for (int i = 0; i < s->clip_plane_count; ++i) {
    const double *c = s->clip_planes[i];
    if (!isfinite(c[0]) || !isfinite(c[1]) || !isfinite(c[2]) || !isfinite(c[3]) ||
        (c[0] == 0.0 && c[1] == 0.0 && c[2] == 0.0))
      return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                      "settings: clipping plane %d (%g, %g, %g, %g) needs a finite, non-zero "
                      "normal and a finite offset", i, c[0], c[1], c[2], c[3]);
  }
  if (!s->cropping) return CVR_OK;
  if (s->cropping_flags >> 27)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: cropping flags 0x%x have bits beyond the 27 regions",
                    s->cropping_flags);
  static const char axes[] = "xyz";
  for (int a = 0; a < 3; ++a) {
    const double lo = s->cropping_planes[2 * a], hi = s->cropping_planes[2 * a + 1];
    if (!isfinite(lo) || !isfinite(hi) || lo > hi)
      return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                      "settings: cropping planes of %c [%g, %g] must be finite with min <= max",
                      axes[a], lo, hi);
  }
  return CVR_OK;
}

/* How rays sample and blend. */
static cvr_status validate_sampling(cvr_context *ctx, const cvr_render_settings *s) {
  if (!(s->sample_distance > 0.0) || !isfinite(s->sample_distance))
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: sample distance %g must be positive and finite", s->sample_distance);
  if (!(s->termination_opacity > 0.0 && s->termination_opacity <= 1.0))
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: termination opacity %g must be in (0, 1]", s->termination_opacity);
  if (s->max_samples_per_ray < 0)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: max samples per ray %d is negative (0 = unlimited)",
                    s->max_samples_per_ray);
  if (s->interpolation != CVR_INTERPOLATION_LINEAR && s->interpolation != CVR_INTERPOLATION_NEAREST)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "settings: unknown interpolation %d",
                    (int)s->interpolation);
  if (s->blend_mode < CVR_BLEND_COMPOSITE || s->blend_mode > CVR_BLEND_SLICE)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "settings: unknown blend mode %d",
                    (int)s->blend_mode);
  if (s->blend_mode == CVR_BLEND_AVERAGE &&
      !(s->average_range[0] <= s->average_range[1])) /* NaN fails too */
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: average-intensity range [%g, %g] is empty or not a number",
                    s->average_range[0], s->average_range[1]);
  return CVR_OK;
}

/* How a mask applies. */
static cvr_status validate_masks(cvr_context *ctx, const cvr_render_settings *s) {
  if (s->mask_type != CVR_MASK_BINARY && s->mask_type != CVR_MASK_LABEL_MAP)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "settings: unknown mask type %d",
                    (int)s->mask_type);
  if (!(s->mask_blend >= 0.0 && s->mask_blend <= 1.0))
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: mask blend factor %g must be in [0, 1]", s->mask_blend);
  return CVR_OK;
}

/* The strategies' threads: blocks, ray segments, warps. */
static cvr_status validate_threads(cvr_context *ctx, const cvr_render_settings *s) {
  if (s->strategy != CVR_STRATEGY_STANDARD && s->strategy != CVR_STRATEGY_BLOCK_SHAPE &&
      s->strategy != CVR_STRATEGY_WARP_MARCHING && s->strategy != CVR_STRATEGY_SLAB &&
      s->strategy != CVR_STRATEGY_AUTO)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "settings: unknown strategy %d",
                    (int)s->strategy);
  const struct { const char *what; const int *b; } blocks[3] = {
      {"thread block", (const int[]){s->block_width, s->block_height}},
      {"horizontal-warp block", s->horizontal_block},
      {"vertical-warp block", s->vertical_block}};
  for (int i = 0; i < 3; ++i)
    if (blocks[i].b[0] < 1 || blocks[i].b[1] < 1 ||
        (long long)blocks[i].b[0] * blocks[i].b[1] > CVR_MAX_BLOCK_THREADS)
      return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                      "settings: %s %d x %d must have 1..%d threads, each side >= 1",
                      blocks[i].what, blocks[i].b[0], blocks[i].b[1], CVR_MAX_BLOCK_THREADS);
  if (s->ray_segments < 1 || s->ray_segments > CVR_MAX_RAY_SEGMENTS ||
      (s->ray_segments & (s->ray_segments - 1)))
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: ray segments %d must be 1, 2, 4 or 8", s->ray_segments);
  if ((long long)s->block_width * s->block_height * s->ray_segments > CVR_MAX_BLOCK_THREADS)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: thread block %d x %d with %d ray segments has %lld threads, over "
                    "%d", s->block_width, s->block_height, s->ray_segments,
                    (long long)s->block_width * s->block_height * s->ray_segments,
                    CVR_MAX_BLOCK_THREADS);
  if (s->warp_variant < CVR_WARP_SB_SHARED || s->warp_variant > CVR_WARP_DB_SHUFFLE)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "settings: unknown warp variant %d",
                    (int)s->warp_variant);
  if (s->warp_width < 2 || s->warp_width > 32 || (s->warp_width & (s->warp_width - 1)))
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: warp width %d must be a power of two from 2 to 32", s->warp_width);
  const int automatic = s->warp_rays[0] == 0 && s->warp_rays[1] == 0;
  if (!automatic && (s->warp_rays[0] < 1 || s->warp_rays[1] < 1 || s->warp_rays[0] > 32 ||
                     s->warp_rays[1] > 32 || s->warp_rays[0] * s->warp_rays[1] * s->warp_width != 32))
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: a warp of %d-lane groups holds %d rays, not %d x %d (0 x 0: "
                    "automatic)", s->warp_width, 32 / s->warp_width, s->warp_rays[0],
                    s->warp_rays[1]);
  if (s->block_warps[0] < 1 || s->block_warps[1] < 1 ||
      s->block_warps[0] > CVR_MAX_BLOCK_THREADS / 32 ||
      s->block_warps[1] > CVR_MAX_BLOCK_THREADS / 32 || /* before the product can overflow */
      s->block_warps[0] * s->block_warps[1] * 32 > CVR_MAX_BLOCK_THREADS)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: a block of %d x %d warps must have 1..%d warps", s->block_warps[0],
                    s->block_warps[1], CVR_MAX_BLOCK_THREADS / 32);
  return CVR_OK;
}

/* The slab strategy's blocks and depth. */
static cvr_status validate_slab(cvr_context *ctx, const cvr_render_settings *s) {
  if (s->slab_border != CVR_SLAB_BORDER_RING && s->slab_border != CVR_SLAB_BORDER_GATHERED)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "settings: unknown slab border %d",
                    (int)s->slab_border);
  if (s->slab_block[0] < 1 || s->slab_block[1] < 1 ||
      (long long)s->slab_block[0] * s->slab_block[1] > CVR_MAX_BLOCK_THREADS)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: slab block %d x %d must have 1..%d threads", s->slab_block[0],
                    s->slab_block[1], CVR_MAX_BLOCK_THREADS);
  if (s->slab_border == CVR_SLAB_BORDER_RING && (s->slab_block[0] < 3 || s->slab_block[1] < 3))
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: slab block %d x %d with a ring of border rays must have each side "
                    ">= 3 (a pixel between two border rays)", s->slab_block[0], s->slab_block[1]);
  if (s->slab_border == CVR_SLAB_BORDER_GATHERED &&
      2 * (s->slab_block[0] + 2) + 2 * s->slab_block[1] > s->slab_block[0] * s->slab_block[1])
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: slab block %d x %d has fewer threads than the %d border rays it "
                    "gathers (one per thread; a larger block, or the ring)", s->slab_block[0],
                    s->slab_block[1], 2 * (s->slab_block[0] + 2) + 2 * s->slab_block[1]);
  if (s->slab_depth != 4 && s->slab_depth != 8 && s->slab_depth != 16 && s->slab_depth != 32)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: slab depth %d must be 4, 8, 16 or 32 samples", s->slab_depth);
  return CVR_OK;
}

/* The volume's copy: layout, rotation, empty-space cells. */
static cvr_status validate_memory(cvr_context *ctx, const cvr_render_settings *s) {
  if (s->memory_layout != CVR_LAYOUT_TEXTURE && s->memory_layout != CVR_LAYOUT_ARRAY_ORDER &&
      s->memory_layout != CVR_LAYOUT_Z_ORDER)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "settings: unknown memory layout %d",
                    (int)s->memory_layout);
  if (s->rotation_policy != CVR_ROTATION_NEVER && s->rotation_policy != CVR_ROTATION_ON_REGION_CHANGE &&
      s->rotation_policy != CVR_ROTATION_HYSTERESIS)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "settings: unknown rotation policy %d",
                    (int)s->rotation_policy);
  if (s->rotation_tile[0] < 1 || s->rotation_tile[0] > CVR_MAX_ROTATION_TILE ||
      s->rotation_tile[1] < 0 || s->rotation_tile[1] > CVR_MAX_ROTATION_DEPTH)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: rotation tile %d x %d: t must be 1..%d, k 1..%d (0: automatic)",
                    s->rotation_tile[0], s->rotation_tile[1], CVR_MAX_ROTATION_TILE,
                    CVR_MAX_ROTATION_DEPTH);
  if (!(s->rotation_hysteresis >= 0.0 && s->rotation_hysteresis <= 45.0))
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: rotation hysteresis %g degrees must be in [0, 45]",
                    s->rotation_hysteresis);
  if (s->empty_space_skipping &&
      (s->empty_space_cell < 4 || s->empty_space_cell > 64 ||
       (s->empty_space_cell & (s->empty_space_cell - 1))))
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: empty-space cell %d must be a power of two from 4 to 64 voxels",
                    s->empty_space_cell);
  return CVR_OK;
}

/* The CPU backend's tiles and AUTO's search. */
static cvr_status validate_cpu_and_tuning(cvr_context *ctx, const cvr_render_settings *s) {
  if (s->cpu_tile_width < 1 || s->cpu_tile_height < 1 || s->cpu_tile_width > CVR_MAX_CPU_TILE ||
      s->cpu_tile_height > CVR_MAX_CPU_TILE)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: CPU tile %d x %d must be 1..%d on each side", s->cpu_tile_width,
                    s->cpu_tile_height, CVR_MAX_CPU_TILE);
  if (s->cpu_schedule != CVR_CPU_SCHEDULE_DYNAMIC && s->cpu_schedule != CVR_CPU_SCHEDULE_STATIC)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "settings: unknown CPU schedule %d",
                    (int)s->cpu_schedule);
  if (s->tuning_repeats < 1 || s->tuning_repeats > CVR_TUNING_MAX_REPEATS)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: tuning repeats %d must be 1..%d measurements per candidate",
                    s->tuning_repeats, CVR_TUNING_MAX_REPEATS);
  if (!(s->tuning_prune > 1.0) || !isfinite(s->tuning_prune))
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: tuning prune factor %g must be finite and above 1 (a candidate "
                    "that many times slower than the best is dropped)", s->tuning_prune);
  if (!(s->tuning_budget > 0.0 && s->tuning_budget <= 1.0))
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: tuning budget %g must be above 0 and at most 1 (the share of "
                    "frame time measuring may cost; 1: no bound)", s->tuning_budget);
  return CVR_OK;
}

cvr_status cvr_validate_settings(cvr_context *ctx, const cvr_render_settings *s) {
  cvr_status st;
  if ((st = validate_sampling(ctx, s)) != CVR_OK || (st = validate_surfaces(ctx, s)) != CVR_OK ||
      (st = validate_clipping(ctx, s)) != CVR_OK || (st = validate_masks(ctx, s)) != CVR_OK ||
      (st = validate_threads(ctx, s)) != CVR_OK || (st = validate_slab(ctx, s)) != CVR_OK ||
      (st = validate_memory(ctx, s)) != CVR_OK || (st = validate_cpu_and_tuning(ctx, s)) != CVR_OK)
    return st;
  return validate_shading(ctx, &s->shading);
}
